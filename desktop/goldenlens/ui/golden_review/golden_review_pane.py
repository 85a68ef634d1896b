"""The Golden Review tab: the judge's verdicts on the golden set, the reviewer's decisions and
how often the two agree.

* A header with the agreement figures — "Judge and reviewer agree on 16 of 20 decisions
  (80%), Cohen's kappa 0.41" — overall and per criterion, with a plain-words hint on how far
  to trust the judge (:func:`trust_hint`).
* A table of every golden row against every criterion (P pass, F fail, ? unsure, - not rated;
  a ✓ once the reviewer decided), rows with an edited triplet marked stale.
* The current question's verdicts as cards in the advisor pane's style
  (:class:`~goldenlens.ui.golden_review.verdict_card.VerdictCard`).

The pane only shows and asks: its buttons emit ``decision_requested`` / ``withdraw_requested``
and :class:`~goldenlens.ui.golden_review.golden_review_controller.GoldenReviewController` records them
through :mod:`goldenlens.jobs.curation.golden_review_decisions`, then shows the review again.
"""

from __future__ import annotations

import html
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from goldenlens.core.golden.criteria import CRITERION_INFO, Criterion, Verdict
from goldenlens.core.stats.agreement import Agreement
from goldenlens.queries.golden_review import GoldenReview, GoldenReviewRow
from goldenlens.ui.golden_review.verdict_card import VERDICT_STYLES, VerdictCard, decision_text
from goldenlens.ui.widgets.card_labels import muted, wrapped_text
from goldenlens.ui.widgets.card_list import CardList
from goldenlens.ui.widgets.layouts import column_layout, title_row

#: One letter per verdict in the table (as ``goldenlens review-golden`` prints it).
MARKS: Final[dict[Verdict | None, str]] = {
    Verdict.PASS: "P",
    Verdict.FAIL: "F",
    Verdict.UNSURE: "?",
    None: "-",
}
#: Short column titles of the table (the full label is the header's tooltip).
SHORT_LABELS: Final[dict[Criterion, str]] = {
    Criterion.UNAMBIGUOUS_QUESTION: "Unambiguous",
    Criterion.ANSWER_MATCHES_FACT: "Matches fact",
    Criterion.FACT_MINIMAL: "Fact minimal",
    Criterion.LLM_AGNOSTIC_WORDING: "LLM-agnostic",
    Criterion.VERBOSITY: "Verbosity",
}
#: What the table's marks mean, under the table.
LEGEND: Final = (
    "P pass · F fail · ? unsure · - not rated · ✓ decided by the reviewer · ⚠ edited since the "
    "judge rated it (stale). Click a row for its verdicts and reasons."
)
#: Fewer decisions than this and the hint says the figures are too few to go by.
FEW_DECISIONS: Final = 10


def agreement_sentence(agreement: Agreement) -> str:
    """``Judge and reviewer agree on 16 of 20 decisions (80%), Cohen's kappa 0.41``."""
    if agreement.n == 0:
        return "No decisions yet"
    rate = agreement.rate or 0.0
    kappa = "undefined" if agreement.kappa is None else f"{agreement.kappa:.2f}"
    noun = "decision" if agreement.n == 1 else "decisions"
    return (
        f"Judge and reviewer agree on {agreement.agreed} of {agreement.n} {noun} ({rate:.0%}), "
        f"Cohen's kappa {kappa}"
    )


def trust_hint(agreement: Agreement) -> str:
    """How far to trust the judge, in plain words, from Cohen's kappa (Landis and Koch's bands,
    with 0.4 as the line below which the judge's suggestions need checking one by one)."""
    if agreement.n == 0:
        return "Accept or dismiss the judge's verdicts to learn how far to trust it."
    kappa = agreement.kappa
    if kappa is None:
        hint = (
            "kappa undefined: every verdict and decision had one and the same label, so chance "
            "agreement cannot be told apart — decide a few more, including some the judge failed"
        )
    elif kappa < 0:
        hint = "no better than chance: do not rely on the judge, review every row yourself"
    elif kappa < 0.4:
        hint = "weak: verify its suggestions"
    elif kappa < 0.6:
        hint = "moderate: check its fails and unsures, spot-check its passes"
    elif kappa < 0.8:
        hint = "substantial: sample some of its suggestions to verify"
    else:
        hint = "strong: keep sampling a few of its suggestions to verify"
    if agreement.n < FEW_DECISIONS:
        hint += f" (only {agreement.n} decision{'s' if agreement.n != 1 else ''} so far: too few to go by)"
    return hint[:1].upper() + hint[1:] + "."


class GoldenReviewPane(QWidget):
    """The Golden Review tab (see the module docstring).

    Signals: ``decision_requested(question_id, criterion, decision, own_verdict)``,
    ``withdraw_requested(question_id, criterion)``, ``question_chosen(question_id)`` (a row of
    the table was clicked), ``review_requested()`` (the header's button) and ``shown()`` (the
    tab came into view: the controller reads the review only for a pane one can see).
    """

    decision_requested = Signal(str, str, str, str)
    withdraw_requested = Signal(str, str)
    question_chosen = Signal(str)
    review_requested = Signal()
    shown = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.review: GoldenReview | None = None
        self.current: str | None = None
        outer = column_layout(self, (6, 4, 6, 4), spacing=4)
        outer.addWidget(self._header())
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self._table())
        splitter.addWidget(self._cards_area())
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([560, 840])
        self.splitter = splitter
        outer.addWidget(splitter, 1)
        self.show_review(None)

    def _header(self) -> QWidget:
        box = QFrame(self)
        box.setObjectName("agreementHeader")
        box.setStyleSheet(
            "QFrame#agreementHeader { background: palette(alternate-base); border-radius: 4px; }"
        )
        layout = column_layout(box, (10, 6, 10, 6), spacing=2)
        top, self.title = title_row("Golden review")
        self.run_label = muted(QLabel())
        top.addWidget(self.run_label, 1)
        self.review_button = QPushButton("Review the Golden Set…")
        self.review_button.setToolTip(
            "The judge rates every golden row on the curation criteria (in the background)"
        )
        self.review_button.clicked.connect(self.review_requested)
        top.addWidget(self.review_button)
        layout.addLayout(top)
        self.agreement_label = wrapped_text("")
        self.agreement_label.setObjectName("agreement")
        self.agreement_label.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.agreement_label)
        self.criteria_label = muted(wrapped_text("", rich=True))
        self.criteria_label.setObjectName("agreementByCriterion")
        layout.addWidget(self.criteria_label)
        return box

    def _table(self) -> QWidget:
        self.table = QTableWidget(0, 0, self)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        self.table.currentCellChanged.connect(self._on_current_cell)
        host = QWidget(self)
        self._table_host = host
        layout = column_layout(host, spacing=2)
        layout.addWidget(self.table, 1)
        self.legend = muted(wrapped_text(LEGEND))
        self.legend.setObjectName("legend")
        layout.addWidget(self.legend)
        return host

    def _cards_area(self) -> QWidget:
        host = QWidget(self)
        layout = column_layout(host, (4, 0, 0, 0), spacing=4)
        self.question_label = wrapped_text("", rich=True)
        self.question_label.setObjectName("questionText")
        layout.addWidget(self.question_label)
        self.cards_scroll: CardList[VerdictCard] = CardList()
        layout.addWidget(self.cards_scroll, 1)
        return host

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.shown.emit()

    # -- public API -----------------------------------------------------------------------

    def show_review(self, review: GoldenReview | None) -> None:
        """Show ``review`` (``None``: no project), keeping the current question."""
        self.review = review
        self._fill_header(review)
        self._fill_table(review)
        ids = [row.item.id for row in review.rows] if review is not None else []
        if self.current not in ids:
            self.current = ids[0] if ids else None
        self._select_row(self.current)
        self._fill_cards()

    def show_question(self, question_id: str | None) -> None:
        """Show the verdicts of ``question_id`` (the current question of the app)."""
        if question_id == self.current:
            return
        self.current = question_id
        self._select_row(question_id)
        self._fill_cards()

    def row(self, question_id: str) -> GoldenReviewRow | None:
        rows = self.review.rows if self.review is not None else ()
        return next((r for r in rows if r.item.id == question_id), None)

    def cards(self) -> list[VerdictCard]:
        """The current question's cards, in criterion order."""
        return self.cards_scroll.cards()

    def card(self, criterion: Criterion | str) -> VerdictCard:
        return next(c for c in self.cards_scroll.cards() if c.verdict.criterion == Criterion(criterion))

    # -- filling ----------------------------------------------------------------------------

    def _fill_header(self, review: GoldenReview | None) -> None:
        if review is None:
            self.run_label.setText("")
            self.agreement_label.setText("Open a project to review its golden set with the judge.")
            self.criteria_label.setText("")
            self.review_button.setEnabled(False)
            return
        self.review_button.setEnabled(bool(review.rows))
        run = review.run
        if run is None:
            self.run_label.setText("· not reviewed yet")
            self.agreement_label.setText(
                "The judge has not reviewed this golden set yet: Judge ▸ Review the Golden Set… "
                "(its verdicts are suggestions; you accept or dismiss each)."
            )
            self.criteria_label.setText("")
            return
        judge = run.params.get("judge_url") or run.params.get("judge_model") or "the bundled judge"
        name = str(judge).rsplit("/", 1)[-1] if run.params.get("judge_model") else str(judge)
        state = "" if run.status == "finished" else f", {run.status}"
        self.run_label.setText(
            f"· run {run.id} ({name}{state}) · {review.decided} of "
            f"{sum(1 for r in review.rows for v in r.verdicts if v.verdict is not None)} verdicts decided"
        )
        overall = review.agreement.overall
        self.agreement_label.setText(
            f"<b>{html.escape(agreement_sentence(overall), quote=False)}</b> — "
            f"{html.escape(trust_hint(overall), quote=False)}"
        )
        parts = []
        for criterion in review.criteria:
            figures = review.agreement.by_criterion[criterion]
            label = html.escape(SHORT_LABELS[criterion])
            if figures.n == 0:
                text = "no decisions"
            else:
                kappa = "κ undefined" if figures.kappa is None else f"κ {figures.kappa:.2f}"
                text = f"{figures.agreed} of {figures.n} ({(figures.rate or 0):.0%}), {kappa}"
            if not CRITERION_INFO[criterion].judged:
                text += " (counted, not in the total)"
            parts.append(f"{label}: {text}")
        self.criteria_label.setText("Per criterion — " + " · ".join(parts))
        self.criteria_label.setToolTip(
            "<br>".join(
                f"<b>{SHORT_LABELS[c]}</b>: {html.escape(CRITERION_INFO[c].label)}" for c in review.criteria
            )
        )

    def _fill_table(self, review: GoldenReview | None) -> None:
        table = self.table
        table.blockSignals(True)
        table.clearContents()
        criteria = review.criteria if review is not None else ()
        rows = review.rows if review is not None else ()
        table.setColumnCount(1 + len(criteria))
        table.setRowCount(len(rows))
        table.setHorizontalHeaderLabels(["Question", *(SHORT_LABELS[c] for c in criteria)])
        for column, criterion in enumerate(criteria, start=1):
            title = table.horizontalHeaderItem(column)
            if title is not None:
                title.setToolTip(
                    f"{CRITERION_INFO[criterion].label}: {CRITERION_INFO[criterion].description}"
                )
        for r, row in enumerate(rows):
            head = QTableWidgetItem(f"{row.item.id} ⚠" if row.stale else row.item.id)
            head.setData(Qt.ItemDataRole.UserRole, row.item.id)
            head.setToolTip(
                ("Stale: edited after the judge rated it.\n" if row.stale else "") + row.item.question
            )
            table.setItem(r, 0, head)
            for column, criterion in enumerate(criteria, start=1):
                found = row.verdict(criterion)
                verdict = found.verdict if found is not None else None
                decided = found is not None and found.decision is not None
                cell = QTableWidgetItem(MARKS[verdict] + (" ✓" if decided else ""))
                cell.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                background, foreground = VERDICT_STYLES[verdict][1]
                cell.setBackground(QColor(background))
                cell.setForeground(QColor(foreground))
                tip = found.reason if found is not None and found.reason else ""
                if decided and found is not None:
                    tip += ("\n" if tip else "") + decision_text(found)
                cell.setToolTip(tip)
                table.setItem(r, column, cell)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        # No wider than its columns: the room left goes to the cards, which need it.
        table.resizeColumnsToContents()
        width = sum(table.columnWidth(c) for c in range(table.columnCount()))
        width += 2 * table.frameWidth() + table.verticalScrollBar().sizeHint().width() + 4
        self._table_host.setMaximumWidth(max(width, 320))
        table.blockSignals(False)

    def _select_row(self, question_id: str | None) -> None:
        self.table.blockSignals(True)
        for r in range(self.table.rowCount()):
            item = self.table.item(r, 0)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == question_id:
                self.table.setCurrentCell(r, 0)
                self.table.scrollToItem(item)
                break
        else:
            self.table.clearSelection()
        self.table.blockSignals(False)

    def _fill_cards(self) -> None:
        self.cards_scroll.clear()
        row = self.row(self.current) if self.current is not None else None
        if row is None or self.review is None or self.review.run is None:
            self.question_label.setText("")
            return
        item = row.item
        stale = (
            "<br><span style='color:#8a6100'>⚠ Edited since the judge rated it: the verdicts marked "
            "stale are about the old text.</span>"
            if row.stale
            else ""
        )
        self.question_label.setText(
            f"<b>{html.escape(item.id)}</b> — {html.escape(item.question)}<br>"
            f"<i>Answer:</i> {html.escape(item.answer)}<br><i>Fact:</i> {html.escape(item.fact)}{stale}"
        )
        for verdict in row.verdicts:
            card = VerdictCard(verdict, stale=verdict.stale, parent=self.cards_scroll.host)
            card.decided.connect(
                lambda criterion, decision, own, qid=item.id: self.decision_requested.emit(
                    qid, criterion, decision, own
                )
            )
            card.withdrawn.connect(
                lambda criterion, qid=item.id: self.withdraw_requested.emit(qid, criterion)
            )
            self.cards_scroll.add(card)

    def _on_current_cell(self, row: int, _column: int, _previous_row: int, _previous_column: int) -> None:
        item = self.table.item(row, 0)
        if item is None:
            return
        question_id = str(item.data(Qt.ItemDataRole.UserRole))
        if question_id != self.current:
            self.current = question_id
            self._fill_cards()
            self.question_chosen.emit(question_id)

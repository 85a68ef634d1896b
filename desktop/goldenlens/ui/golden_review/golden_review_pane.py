"""The Golden Review tab: the judge's verdicts on the golden set, the reviewer's decisions and
how often the two agree.

* A header with the agreement figures — "Judge and reviewer agree on 16 of 20 decisions
  (80%), Cohen's kappa 0.41" — overall and per criterion, with a plain-words hint on how far
  to trust the judge (:func:`trust_hint`).
* A table of every golden row against every criterion (P pass, F fail, ? unsure, - not rated;
  a ✓ once the reviewer decided), rows with an edited triplet marked stale.
* The current question's verdicts as cards in the advisor pane's style: a verdict badge, the
  criterion, the judge's (or the counted rule's) reason, the decision in force, and Accept /
  Dismiss — for an "unsure" verdict the reviewer picks Pass or Fail — or Withdraw.

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
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.golden.criteria import CRITERION_INFO, SOURCE_RULE, Criterion, Decision, Verdict
from goldenlens.core.stats.agreement import Agreement
from goldenlens.queries.golden_review import CriterionVerdict, GoldenReview, GoldenReviewRow
from goldenlens.ui.review.response_card import chip
from goldenlens.ui.widgets.card_labels import card_layout, muted, wrapped_text

#: Badge text and (background, text) colours, and the card's edge colour, per verdict.
VERDICT_STYLES: Final[dict[Verdict | None, tuple[str, tuple[str, str], str]]] = {
    Verdict.PASS: ("✓ Pass", ("#dff3e4", "#14532d"), "#3c9d5d"),
    Verdict.FAIL: ("✗ Fail", ("#fde2e1", "#7a1c18"), "#d9534f"),
    Verdict.UNSURE: ("? Unsure", ("#fff0c2", "#5c4300"), "#d9a400"),
    None: ("- Not rated", ("#e6e8ec", "#33373f"), "#9aa0a8"),
}
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
#: Why a stale verdict cannot be decided.
STALE_TIP: Final = (
    "The row was edited after the judge rated it: review the golden set again (Judge ▸ Review the "
    "Golden Set…, only the changed rows are re-asked), then decide on the new verdict."
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


def decision_text(verdict: CriterionVerdict) -> str:
    """The decision in force as the card states it; ``""`` when there is none."""
    decision = verdict.decision
    if decision is None:
        return ""
    what = "Accepted" if decision.decision == Decision.ACCEPTED else "Dismissed"
    by = f" by {decision.reviewer}" if decision.reviewer else ""
    text = f"{what}{by}: the reviewer says {decision.reviewer_verdict}"
    if decision.judge_verdict == Verdict.UNSURE:
        text = f"Decided{by}: the reviewer says {decision.reviewer_verdict} (the judge was unsure)"
    if not verdict.decision_current:
        text += " — made on an earlier verdict or text of this row (it still counts in the agreement)"
    return text


class VerdictCard(QFrame):
    """One criterion's verdict on the current question (see the module docstring).

    Signals: ``decided(criterion, decision, own_verdict)`` (``own_verdict`` ``""`` unless the
    judge was unsure) and ``withdrawn(criterion)``.
    """

    decided = Signal(str, str, str)
    withdrawn = Signal(str)

    def __init__(self, verdict: CriterionVerdict, *, stale: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.verdict = verdict
        info = CRITERION_INFO[verdict.criterion]
        badge, colours, edge = VERDICT_STYLES[verdict.verdict]
        self.setProperty("criterion", verdict.criterion.value)
        layout = card_layout(self, "verdictCard", edge)
        head = QHBoxLayout()
        head.setSpacing(8)
        self.badge = chip(badge, f"The judge's verdict on “{info.label}”", colours, name="verdictChip")
        head.addWidget(self.badge)
        counted = verdict.source == SOURCE_RULE or not info.judged
        by = "counted, not judged" if counted else "the judge's suggestion"
        self.title = QLabel(f"<b>{html.escape(info.label)}</b> <span style='font-weight:400'>— {by}</span>")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        head.addWidget(self.title, 1)
        self.stale_chip: QLabel | None = None
        if stale:
            self.stale_chip = chip(
                "⚠ Stale",
                "The question, answer or fact was edited after the judge rated it: this verdict is about "
                "the old text. Judge ▸ Review the Golden Set… again re-asks only what changed.",
                ("#fff0c2", "#5c4300"),
                name="staleChip",
            )
            head.addWidget(self.stale_chip)
        layout.addLayout(head)
        layout.addWidget(muted(wrapped_text(info.description)))
        if verdict.verdict is None:
            reason = verdict.reason or "The review has not reached this row yet."
            self.reason = wrapped_text(f"Not rated: {reason}")
        else:
            self.reason = wrapped_text(f"“{verdict.reason}”" if verdict.reason else "(no reason given)")
        self.reason.setObjectName("reason")
        layout.addWidget(self.reason)
        self.decision_label = wrapped_text(decision_text(verdict))
        self.decision_label.setObjectName("decision")
        self.decision_label.setVisible(verdict.decision is not None)
        layout.addWidget(self.decision_label)
        self.buttons: dict[str, QPushButton] = {}
        self._add_buttons(layout)
        if stale:
            # The judge rated the old text: a decision on the new one would pair two raters'
            # labels of different items and corrupt the agreement. Withdrawing stays possible.
            for key, button in self.buttons.items():
                if key != "withdraw":
                    button.setEnabled(False)
                    button.setToolTip(STALE_TIP)

    def _add_buttons(self, layout: QVBoxLayout) -> None:
        row = QHBoxLayout()
        row.setSpacing(6)
        criterion = self.verdict.criterion.value
        judged = self.verdict.verdict
        if self.verdict.decision is not None:
            self._button(row, "withdraw", "Withdraw", "Undo the decision (it stays in the audit trail)")
            self.buttons["withdraw"].clicked.connect(lambda: self.withdrawn.emit(criterion))
        elif judged is Verdict.UNSURE:
            row.addWidget(muted(QLabel("The judge was unsure; you say:")))
            for verdict in (Verdict.PASS, Verdict.FAIL):
                self._button(
                    row, verdict.value, verdict.value.capitalize(), f"Record your verdict: {verdict.value}"
                )
                self.buttons[verdict.value].clicked.connect(
                    lambda _c=False, v=verdict.value: self.decided.emit(criterion, Decision.ACCEPTED.value, v)
                )
        elif judged is not None:
            opposite = Verdict.FAIL if judged is Verdict.PASS else Verdict.PASS
            self._button(row, "accept", "Accept", f"You agree: {judged.value}")
            self._button(row, "dismiss", "Dismiss", f"You disagree: {opposite.value}")
            self.buttons["accept"].clicked.connect(
                lambda: self.decided.emit(criterion, Decision.ACCEPTED.value, "")
            )
            self.buttons["dismiss"].clicked.connect(
                lambda: self.decided.emit(criterion, Decision.DISMISSED.value, "")
            )
        if self.buttons:
            row.addStretch(1)
            layout.addLayout(row)

    def _button(self, row: QHBoxLayout, key: str, text: str, tip: str) -> None:
        button = QPushButton(text)
        button.setObjectName(f"{key}Button")
        button.setToolTip(tip)
        row.addWidget(button)
        self.buttons[key] = button


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
        self._cards: list[VerdictCard] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 4, 6, 4)
        outer.setSpacing(4)
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
        layout = QVBoxLayout(box)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(2)
        top = QHBoxLayout()
        self.title = QLabel("<b>Golden review</b>")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        top.addWidget(self.title)
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
        column = QVBoxLayout(host)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.table, 1)
        self.legend = muted(wrapped_text(LEGEND))
        self.legend.setObjectName("legend")
        column.addWidget(self.legend)
        return host

    def _cards_area(self) -> QWidget:
        host = QWidget(self)
        column = QVBoxLayout(host)
        column.setContentsMargins(4, 0, 0, 0)
        column.setSpacing(4)
        self.question_label = wrapped_text("", rich=True)
        self.question_label.setObjectName("questionText")
        column.addWidget(self.question_label)
        self._cards_host = QWidget()
        self._cards_layout = QVBoxLayout(self._cards_host)
        self._cards_layout.setContentsMargins(0, 0, 4, 0)
        self._cards_layout.setSpacing(6)
        self._cards_layout.addStretch(1)
        self.cards_scroll = QScrollArea()
        self.cards_scroll.setWidgetResizable(True)
        self.cards_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.cards_scroll.setWidget(self._cards_host)
        column.addWidget(self.cards_scroll, 1)
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
        return list(self._cards)

    def card(self, criterion: Criterion | str) -> VerdictCard:
        return next(c for c in self._cards if c.verdict.criterion == Criterion(criterion))

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
        for card in self._cards:
            self._cards_layout.removeWidget(card)
            card.hide()
            card.deleteLater()
        self._cards = []
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
            card = VerdictCard(verdict, stale=verdict.stale, parent=self._cards_host)
            card.decided.connect(
                lambda criterion, decision, own, qid=item.id: self.decision_requested.emit(
                    qid, criterion, decision, own
                )
            )
            card.withdrawn.connect(
                lambda criterion, qid=item.id: self.withdraw_requested.emit(qid, criterion)
            )
            self._cards_layout.insertWidget(self._cards_layout.count() - 1, card)
            self._cards.append(card)

    def _on_current_cell(self, row: int, _column: int, _previous_row: int, _previous_column: int) -> None:
        item = self.table.item(row, 0)
        if item is None:
            return
        question_id = str(item.data(Qt.ItemDataRole.UserRole))
        if question_id != self.current:
            self.current = question_id
            self._fill_cards()
            self.question_chosen.emit(question_id)

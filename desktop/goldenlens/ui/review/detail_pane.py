"""The detail pane: one golden question and every pipeline's response side by side.

Top: the question, its golden-row flags and review state, the golden answer coloured for the
*focused* pipeline (missed words depend on the response, so a selector picks whose), the
fact with the matched alternative marked, and a legend. Below: one
:class:`~goldenlens.ui.review.response_card.ResponseCard` per pipeline in a horizontal scroll area,
equal widths. Every colour comes from spans the core stored (see
:mod:`goldenlens.ui.widgets.highlight_html`); nothing is re-tokenised here.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.queries.detail import PipelineDetail, QuestionDetail
from goldenlens.ui.review.response_card import ResponseCard, chip, chip_row, flag_chip
from goldenlens.ui.widgets.card_list import CardList
from goldenlens.ui.widgets.highlight_html import LEGEND, STYLES, answer_html, fact_html

EMPTY_TEXT = "Select a question"

_REVIEW_CHIPS: dict[str, tuple[str, tuple[str, str]]] = {
    "accepted": ("Accepted", ("#b5e8c0", "#0b3a1c")),
    "needs_curation": ("Needs curation", ("#ffd59e", "#4d2600")),
}


def _caption(text: str) -> QLabel:
    label = QLabel(text)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    label.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    label.setMinimumWidth(110)
    return label


def _rich_label(*, selectable: bool = True) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class DetailPane(QWidget):
    """Shows one :class:`QuestionDetail`; empty state until a question is selected.

    Signals: ``fact_variant_requested(question_id, text)`` — the analyst wants ``text`` (a
    selection in a response) added to the fact as an ``<OR>`` variant;
    ``variants_requested(question_id)`` — "Suggest variants…": other spellings of the fact;
    ``override_requested(question_id, pipeline, metric)`` — from a double-click or the context
    menu on a score.
    """

    fact_variant_requested = Signal(str, str)
    variants_requested = Signal(str)
    override_requested = Signal(str, str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._detail: QuestionDetail | None = None
        self._focused: str | None = None
        #: Pipelines the analyst chose not to show side by side (kept from question to question).
        self._hidden: set[str] = set()
        #: The pipelines that get a card at all: the grid's shown ones (its pipeline picker,
        #: beyond a handful of pipelines); ``None``: every pipeline.
        self._limit: frozenset[str] | None = None
        self._stack = QStackedWidget()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self._stack)

        self.empty_label = QLabel(EMPTY_TEXT)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setEnabled(False)  # drawn in the palette's disabled (muted) text colour
        font = self.empty_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        self.empty_label.setFont(font)
        self._stack.addWidget(self.empty_label)
        self._stack.addWidget(self._build_content())
        self._stack.setCurrentIndex(0)

    # -- building -----------------------------------------------------------------------

    def _build_content(self) -> QWidget:
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(6)

        self.question_label = _rich_label()
        font = self.question_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.45)
        font.setWeight(QFont.Weight.DemiBold)
        self.question_label.setFont(font)
        layout.addWidget(self.question_label)
        self._golden_chips = QHBoxLayout()
        self._golden_chips.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._golden_chips)

        answer_row = QHBoxLayout()
        answer_row.addWidget(_caption("Golden answer"))
        self.answer_label = _rich_label()
        answer_row.addWidget(self.answer_label, 1)
        self.pipeline_combo = QComboBox()
        self.pipeline_combo.setToolTip("Colour the golden answer and the fact for this pipeline")
        self.pipeline_combo.activated.connect(self._on_combo_activated)
        answer_row.addWidget(QLabel("missed words for"), 0, Qt.AlignmentFlag.AlignTop)
        answer_row.addWidget(self.pipeline_combo, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(answer_row)

        fact_row = QHBoxLayout()
        fact_row.addWidget(_caption("Fact"))
        self.fact_label = _rich_label()
        fact_row.addWidget(self.fact_label, 1)
        self.fact_status = QLabel()
        fact_row.addWidget(self.fact_status, 0, Qt.AlignmentFlag.AlignTop)
        self.variants_button = QPushButton("Suggest variants…")
        self.variants_button.setToolTip(
            "Other spellings of this fact (scales, dates, abbreviations…) with which responses "
            "each would flip from 0 to 1; add the ones you choose as <OR> alternatives (key V)"
        )
        self.variants_button.clicked.connect(self._on_variants_clicked)
        fact_row.addWidget(self.variants_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(fact_row)

        legend = [
            chip(label, tip, (STYLES[kind].background, STYLES[kind].foreground))
            for kind, label, tip in LEGEND
        ]
        legend_row = chip_row([QLabel("Legend:"), *legend])
        legend_row.addWidget(self._build_pipelines_button())
        layout.addLayout(legend_row)

        self.cards_scroll: CardList[ResponseCard] = CardList(row=True)
        # Cards scroll sideways only: each fits the pane's height (its text scrolls inside), so
        # a pipeline's name and scores never scroll out of view.
        self.cards_scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self.cards_scroll, 1)
        return content

    def _build_pipelines_button(self) -> QToolButton:
        self.pipelines_menu = QMenu(self)
        self.pipelines_button = QToolButton()
        self.pipelines_button.setText("Pipelines")
        self.pipelines_button.setToolTip("Choose which pipelines' responses are shown side by side")
        self.pipelines_button.setMenu(self.pipelines_menu)
        self.pipelines_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        return self.pipelines_button

    # -- public API -----------------------------------------------------------------------

    def show_question(self, detail: QuestionDetail | None) -> None:
        """Show ``detail``; ``None`` shows the empty state. The focused pipeline is kept when
        the new question has it (so stepping through questions stays on one pipeline)."""
        self._detail = detail
        self.cards_scroll.clear()
        if detail is None:
            self._stack.setCurrentIndex(0)
            return
        item = detail.item
        self.question_label.setText(f"{html.escape(item.id)} · {html.escape(item.question)}")
        self._fill_golden_chips(detail)
        listed = self._listed(detail)
        for pipeline in listed:
            card = ResponseCard(pipeline, self.cards_scroll.host)
            card.variant_requested.connect(
                lambda text, d=detail: self.fact_variant_requested.emit(d.item.id, text)
            )
            card.override_requested.connect(
                lambda metric, d=detail, p=pipeline.pipeline: self.override_requested.emit(
                    d.item.id, p, metric
                )
            )
            card.focus_requested.connect(lambda p=pipeline.pipeline: self._set_focus(p))
            self.cards_scroll.add(card)
            card.setVisible(pipeline.pipeline not in self._hidden)
        self._fill_pipelines_menu(detail)
        self.pipeline_combo.clear()
        names = [p.pipeline for p in listed]
        self.pipeline_combo.addItems(names)
        if self._focused not in names or self._focused in self._hidden:
            present = [
                p.pipeline for p in listed if not p.pipeline_missing and p.pipeline not in self._hidden
            ]
            candidates = present or names
            self._focused = candidates[0] if candidates else None
        self._stack.setCurrentIndex(1)
        self._set_focus(self._focused)

    def detail(self) -> QuestionDetail | None:
        """The question shown, or ``None``."""
        return self._detail

    def limit_to(self, pipelines: frozenset[str] | None) -> None:
        """Give cards to ``pipelines`` only (``None``: every pipeline): the pipelines the grid
        shows, so that a sweep of hundreds of pipelines shows the chosen few side by side."""
        if pipelines == self._limit:
            return
        self._limit = pipelines
        if self._detail is not None:
            self.show_question(self._detail)

    def _listed(self, detail: QuestionDetail) -> list[PipelineDetail]:
        limit = self._limit
        return [p for p in detail.pipelines if limit is None or p.pipeline in limit]

    def focused_pipeline(self) -> str | None:
        """The pipeline whose card is focused (and whose missed words colour the answer)."""
        return self._focused if self._detail is not None else None

    def focus_next_pipeline(self) -> None:
        """Move the focus to the next pipeline's card (wrapping around)."""
        self._step_focus(1)

    def focus_previous_pipeline(self) -> None:
        """Move the focus to the previous pipeline's card (wrapping around)."""
        self._step_focus(-1)

    def shown_spans(self, pipeline: str) -> list[tuple[int, int, str]]:
        """The ``(start, end, kind)`` spans rendered in ``pipeline``'s response."""
        card = self.card(pipeline)
        return list(card.spans) if card is not None else []

    def card(self, pipeline: str) -> ResponseCard | None:
        """The card of ``pipeline`` in the current question, or ``None``."""
        return next((c for c in self.cards() if c.pipeline == pipeline), None)

    def cards(self) -> list[ResponseCard]:
        """The cards in pipeline order."""
        return self.cards_scroll.cards()

    def shown_cards(self) -> list[ResponseCard]:
        """The cards of the pipelines chosen to be shown side by side, in pipeline order."""
        return [card for card in self.cards() if card.pipeline not in self._hidden]

    def set_pipeline_shown(self, pipeline: str, shown: bool) -> None:
        """Show or hide ``pipeline``'s card (the choice holds for the next questions too).
        The last shown pipeline cannot be hidden."""
        if shown:
            self._hidden.discard(pipeline)
        elif len(self.shown_cards()) > 1 or not self.cards():
            self._hidden.add(pipeline)
        for card in self.cards():
            card.setVisible(card.pipeline not in self._hidden)
        for action in self.pipelines_menu.actions():
            action.setChecked(action.text() not in self._hidden)
        self._update_pipelines_button()
        if self._focused in self._hidden:
            shown_cards = self.shown_cards()
            self._set_focus(shown_cards[0].pipeline if shown_cards else None)

    # -- internals --------------------------------------------------------------------------

    def _fill_pipelines_menu(self, detail: QuestionDetail) -> None:
        self.pipelines_menu.clear()
        for pipeline in self._listed(detail):
            action = QAction(pipeline.pipeline, self.pipelines_menu)
            action.setCheckable(True)
            action.setChecked(pipeline.pipeline not in self._hidden)
            action.toggled.connect(lambda on, p=pipeline.pipeline: self.set_pipeline_shown(p, on))
            self.pipelines_menu.addAction(action)
        self._update_pipelines_button()

    def _update_pipelines_button(self) -> None:
        total = len(self.cards())
        shown = len(self.shown_cards())
        self.pipelines_button.setText(f"Pipelines ({shown} of {total})" if shown < total else "Pipelines")

    def _fill_golden_chips(self, detail: QuestionDetail) -> None:
        while self._golden_chips.count():
            entry = self._golden_chips.takeAt(0)
            widget = entry.widget() if entry is not None else None
            if widget is not None:
                # Hidden now: deleteLater only runs when the event loop gets back control.
                widget.hide()
                widget.deleteLater()
        self.golden_flag_chips = [flag_chip(note) for note in detail.golden_flags]
        for widget in self.golden_flag_chips:
            self._golden_chips.addWidget(widget)
        review = detail.review
        if review is not None and review.status in _REVIEW_CHIPS:
            text, colours = _REVIEW_CHIPS[review.status]
            tip = html.escape(review.note or text) + (
                f"<br><i>{html.escape(review.reviewer)}</i>" if review.reviewer else ""
            )
            self._golden_chips.addWidget(chip(text, tip, colours, name="reviewChip"))
        self._golden_chips.addStretch(1)

    def _step_focus(self, step: int) -> None:
        if self._detail is None or not self.shown_cards():
            return
        names = [c.pipeline for c in self.shown_cards()]
        index = names.index(self._focused) if self._focused in names else -step
        self._set_focus(names[(index + step) % len(names)])

    def _on_variants_clicked(self) -> None:
        if self._detail is not None:
            self.variants_requested.emit(self._detail.item.id)

    def _on_combo_activated(self, index: int) -> None:
        if 0 <= index < len(self.cards()):
            self._set_focus(self.cards()[index].pipeline)

    def _set_focus(self, pipeline: str | None) -> None:
        detail = self._detail
        if detail is None:
            return
        self._focused = pipeline
        for card in self.cards():
            card.set_focused(card.pipeline == pipeline)
        focused = detail.pipeline(pipeline) if pipeline is not None else None
        names = [p.pipeline for p in self._listed(detail)]
        if pipeline in names:
            self.pipeline_combo.setCurrentIndex(names.index(pipeline))
        self._show_golden(detail, focused)
        shown = self.card(pipeline) if pipeline is not None else None
        if shown is not None:
            self.cards_scroll.ensureWidgetVisible(shown, 0, 0)

    def _show_golden(self, detail: QuestionDetail, focused: PipelineDetail | None) -> None:
        alignment = focused.alignment if focused is not None else None
        self.answer_label.setText(answer_html(detail.item.answer, alignment))
        fact = focused.fact if focused is not None else None
        fuzzy = fact is not None and fact.matched_by == "quasi_exact"
        self.fact_label.setText(
            fact_html(detail.item.fact, fact.matched_part if fact is not None else "", fuzzy=fuzzy)
        )
        fk_override = focused.overrides.get(FACTUAL_KNOWLEDGE) if focused is not None else None
        in_force = fk_override.effective_value if fk_override is not None else None
        if focused is None or not focused.scored:
            status = "not scored"
        elif in_force is not None:
            # The reviewer's verdict is what counts; the match itself is still highlighted.
            verdict = "found" if in_force >= 1.0 else "not found"
            status = f"counted as {verdict} in {focused.pipeline} (override)"
        elif fact is not None and fact.matched_by == "exact":
            status = f"found in {focused.pipeline}"
        elif fact is not None and fact.matched_by == "quasi_exact":
            status = f"quasi-exact only in {focused.pipeline}"
        else:
            status = f"not found in {focused.pipeline}"
        self.fact_status.setText(status)

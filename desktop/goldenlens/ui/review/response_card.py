"""One pipeline's response as a card of the detail pane: flags, highlighted text, scores.

The card renders a :class:`~goldenlens.queries.detail.PipelineDetail`; it keeps no store
and emits what the analyst asks for (a fact variant, a score override, focus) for the pane to
forward with the question id.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QMouseEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QSizePolicy,
    QTableView,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES, WordKind
from goldenlens.core.view.metric_names import METRIC_LABELS
from goldenlens.queries.detail import FlagNote, PipelineDetail
from goldenlens.ui.review.card_scores import ScoresModel
from goldenlens.ui.review.judge_section import JudgeSection
from goldenlens.ui.widgets.highlight_html import STYLES, response_html, spans_for_display

ADD_VARIANT_TEXT = "Add selection as fact variant (<OR>)"

#: A card at least this wide shows its scores beside the text, narrower ones below it.
SIDE_BY_SIDE_WIDTH = 540
CARD_MIN_WIDTH = 220
_SCORE_ROW_HEIGHT = 20
_MISSED_LINES = 3
_ANY_WIDTH = 16777215  # QWIDGETSIZE_MAX

_FLAG_COLOURS: dict[str, tuple[str, str]] = {
    "likely_hallucination": ("#ffb8b8", "#5a0000"),
    "accidental_fact_match": ("#ffd59e", "#4d2600"),
    "possibly_correct_rephrased": ("#bcd7ff", "#0a2a6b"),
    "verbose": ("#e3d4ff", "#3b1a70"),
    "refusal": ("#d9dde3", "#1f2430"),
    "empty_response": ("#d9dde3", "#1f2430"),
    "ambiguous_question": ("#f5c6f0", "#5a0a50"),
    "fact_prone_to_false_matches": ("#ffd59e", "#4d2600"),
    "verbose_golden_answer": ("#e3d4ff", "#3b1a70"),
    "empty_fact_part": ("#ffb8b8", "#5a0000"),
    "fact_not_in_answer": ("#ffb8b8", "#5a0000"),
}
_CHIP_STYLE = "QLabel {{ background-color: {bg}; color: {fg}; border-radius: 8px; padding: 2px 8px; }}"


def chip(text: str, tooltip: str, colours: tuple[str, str], *, name: str = "chip") -> QLabel:
    """A small rounded label with explicit colours and a tooltip."""
    label = QLabel(text)
    label.setObjectName(name)
    label.setStyleSheet(_CHIP_STYLE.format(bg=colours[0], fg=colours[1]))
    label.setToolTip(tooltip)
    label.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
    return label


def flag_chip(note: FlagNote) -> QLabel:
    """A flag as a coloured chip; the tooltip is the flag's explanation."""
    tip = f"<b>{html.escape(note.label)}</b><br>{html.escape(note.explanation)}"
    label = chip(note.label, tip, _FLAG_COLOURS.get(note.flag.value, ("#d9dde3", "#1f2430")), name="flagChip")
    label.setProperty("flag", note.flag.value)
    return label


def chip_row(chips: Sequence[QWidget]) -> QHBoxLayout:
    """Chips left-aligned in a row."""
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(4)
    for widget in chips:
        row.addWidget(widget)
    row.addStretch(1)
    return row


def _section_button(text: str) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setCheckable(True)
    button.setArrowType(Qt.ArrowType.RightArrow)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    button.setAutoRaise(True)
    return button


class ResponseCard(QFrame):
    """One pipeline's response: name, flags, missed words, highlighted text, scores, contexts, judge.

    Signals: ``variant_requested(text)`` — add the selected text as a fact variant;
    ``override_requested(metric)``; ``focus_requested()`` — the analyst clicked into the card.
    """

    variant_requested = Signal(str)
    override_requested = Signal(str)
    focus_requested = Signal()

    def __init__(self, detail: PipelineDetail, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.detail = detail
        self.pipeline = detail.pipeline
        self.spans = spans_for_display(detail.response, detail.alignment, detail.fact)
        self.setObjectName("responseCard")
        self.setStyleSheet(
            # Same outer size focused or not (border + margin = 3px), so nothing shifts.
            "QFrame#responseCard { border: 1px solid palette(mid); border-radius: 6px; margin: 2px; }"
            ' QFrame#responseCard[focused="true"] { border: 3px solid palette(highlight); margin: 0px; }'
        )
        self.setProperty("focused", False)
        self.setMinimumWidth(CARD_MIN_WIDTH)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)
        self._build_header(layout)
        # Text and scores share one row on a wide card, stack on a narrow one; either way the
        # card fits the pane's height (only the text scrolls), so the name and the scores stay
        # in view while the response is read.
        self.body = QBoxLayout(QBoxLayout.Direction.TopToBottom)
        self.body.setSpacing(6)
        layout.addLayout(self.body, 1)
        self._build_response(self.body)
        self.scores_view = self._scores_view(detail)
        self.body.addWidget(self.scores_view, 0, Qt.AlignmentFlag.AlignTop)
        self._build_contexts(layout)
        self.judge_section = JudgeSection(detail.judge)
        self.judge_section.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.judge_label = self.judge_section.judge_label
        layout.addWidget(self.judge_section)

    # -- building -----------------------------------------------------------------------

    def _build_header(self, layout: QVBoxLayout) -> None:
        detail = self.detail
        self.title = QLabel(f"<b>{html.escape(detail.pipeline)}</b>")
        self.title.setStyleSheet("font-size: 12pt;")
        self.title.setToolTip(f"{detail.pipeline}\n{detail.signature or 'not scored'}")
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.title)
        self.flag_chips = [flag_chip(note) for note in detail.flags]
        layout.addLayout(chip_row(self.flag_chips))

        self.missed_label = QLabel(self._missed_html())
        self.missed_label.setWordWrap(True)
        self.missed_label.setToolTip(
            "Golden-answer words this response does not contain: " + " ".join(detail.missed)
            if detail.missed
            else "Golden-answer words this response does not contain"
        )
        # A long list of missed words would push the scores out of the card: a few lines,
        # the whole list in the tooltip.
        self.missed_label.setMaximumHeight(_MISSED_LINES * (self.fontMetrics().lineSpacing() + 4))
        self.missed_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Maximum)
        layout.addWidget(self.missed_label)

    def _build_response(self, layout: QBoxLayout) -> None:
        detail = self.detail
        self.response_view = QTextBrowser()
        self.response_view.setOpenLinks(False)
        self.response_view.setMinimumHeight(60)
        # The text gives up height first (it scrolls), so on a short screen the scores, the
        # contexts and the judge line below it stay whole instead of being squeezed away.
        self.response_view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.response_view.document().setDocumentMargin(6)
        if detail.pipeline_missing:
            self.response_view.setHtml("<p><i>No response from this pipeline for this question.</i></p>")
        else:
            self.response_view.setHtml(response_html(detail.response, detail.alignment, detail.fact))
        self.response_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.response_view.customContextMenuRequested.connect(self._on_response_menu)
        self.response_view.installEventFilter(self)
        text_column = QVBoxLayout()
        text_column.setSpacing(2)
        text_column.addWidget(self.response_view, 1)
        layout.addLayout(text_column, 1)

        self.add_variant_action = QAction(ADD_VARIANT_TEXT, self)
        self.add_variant_action.setToolTip("Add the selected response text to the fact as an <OR> variant")
        self.add_variant_action.setEnabled(False)
        self.add_variant_action.triggered.connect(self._on_add_variant)
        self.response_view.selectionChanged.connect(self._on_selection_changed)
        self.add_variant_button = QToolButton()
        self.add_variant_button.setDefaultAction(self.add_variant_action)
        self.add_variant_button.setText("+ Fact variant from selection")
        text_column.addLayout(chip_row([self.add_variant_button]))

    def _build_contexts(self, layout: QVBoxLayout) -> None:
        detail = self.detail
        self.contexts_button = _section_button(f"Contexts ({len(detail.contexts)})")
        self.contexts_button.setEnabled(bool(detail.contexts))
        self.contexts_body = QLabel(self._contexts_html())
        self.contexts_body.setWordWrap(True)
        self.contexts_body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.contexts_body.setVisible(False)
        self.contexts_button.toggled.connect(self._on_contexts_toggled)
        layout.addWidget(self.contexts_button)
        layout.addWidget(self.contexts_body)

    def _missed_html(self) -> str:
        if self.detail.pipeline_missing:
            return "<i>No response.</i>"
        if self.detail.alignment is None:
            return "<i>Not scored in this run.</i>"
        if not self.detail.missed:
            return "Missed: <i>none</i>"
        style = STYLES[WordKind.MISSED.value]
        words = " ".join(
            f'<span style="background-color:{style.background}; color:{style.foreground};">'
            f"&nbsp;{html.escape(word)}&nbsp;</span>"
            for word in self.detail.missed
        )
        return f"Missed: {words}"

    def _contexts_html(self) -> str:
        return "".join(
            f'<p style="margin-top:2px; margin-bottom:6px;"><b>{n}.</b> {html.escape(text)}</p>'
            for n, text in enumerate(self.detail.contexts, start=1)
        )

    def _scores_view(self, detail: PipelineDetail) -> QTableView:
        view = QTableView()
        view.setModel(ScoresModel(detail, view))
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.verticalHeader().setVisible(False)
        view.verticalHeader().setDefaultSectionSize(_SCORE_ROW_HEIGHT)
        header = view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        rows = len(LEXICAL_SCORE_NAMES)
        view.setFixedHeight(header.sizeHint().height() + rows * _SCORE_ROW_HEIGHT + 2 * view.frameWidth() + 2)
        # The "Original" column only says something when a score was overridden.
        view.setColumnHidden(2, not detail.overrides)
        view.setToolTip("Double-click a score to override it")
        view.doubleClicked.connect(self._on_score_double_clicked)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._on_scores_menu)
        view.installEventFilter(self)
        view.setEnabled(not detail.pipeline_missing)
        return view

    # -- state --------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Scores beside the text on a wide card, below it on a narrow one."""
        super().resizeEvent(event)
        wide = event.size().width() >= SIDE_BY_SIDE_WIDTH
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self.body.direction() != direction:
            self.body.setDirection(direction)
            if wide:
                self.scores_view.setFixedWidth(max(230, self.width() // 3))
            else:
                self.scores_view.setMinimumWidth(0)
                self.scores_view.setMaximumWidth(_ANY_WIDTH)

    def scores_beside_text(self) -> bool:
        """Whether the scores are laid out to the right of the response text."""
        return self.body.direction() == QBoxLayout.Direction.LeftToRight

    def set_focused(self, focused: bool) -> None:
        """Draw the card as the focused one (thick border in the palette's highlight colour)."""
        self.setProperty("focused", focused)
        self.style().unpolish(self)
        self.style().polish(self)
        self.update()

    def is_focused(self) -> bool:
        """Whether the card is drawn as focused."""
        return bool(self.property("focused"))

    def selected_text(self) -> str:
        """The response text the analyst selected, on one line."""
        text = self.response_view.textCursor().selectedText()
        return text.replace("\u2029", " ").replace("\u2028", " ").strip()

    def chip_labels(self) -> list[str]:
        """The flag chips' texts, in order."""
        return [label.text() for label in self.flag_chips]

    def metric_at(self, row: int) -> str:
        """The metric shown in row ``row`` of the scores table."""
        return LEXICAL_SCORE_NAMES[row]

    # -- events ---------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Clicking or tabbing into the text or the scores focuses the card."""
        if event.type() in {QEvent.Type.FocusIn, QEvent.Type.MouseButtonPress}:
            self.focus_requested.emit()
        return super().eventFilter(watched, event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """A click on the card's background focuses it."""
        self.focus_requested.emit()
        super().mousePressEvent(event)

    def _on_selection_changed(self) -> None:
        self.add_variant_action.setEnabled(bool(self.selected_text()) and not self.detail.pipeline_missing)

    def _on_add_variant(self) -> None:
        text = self.selected_text()
        if text:
            self.variant_requested.emit(text)

    def _on_response_menu(self, pos: QPoint) -> None:
        menu = self.response_view.createStandardContextMenu()
        menu.addSeparator()
        menu.addAction(self.add_variant_action)
        menu.exec(self.response_view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    def _on_score_double_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.override_requested.emit(self.metric_at(index.row()))

    def _on_scores_menu(self, pos: QPoint) -> None:
        index = self.scores_view.indexAt(pos)
        if not index.isValid():
            return
        metric = self.metric_at(index.row())
        menu = QMenu(self)
        action = menu.addAction(f"Override {METRIC_LABELS.get(metric, metric)}…")
        action.triggered.connect(lambda: self.override_requested.emit(metric))
        menu.exec(self.scores_view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    def _on_contexts_toggled(self, shown: bool) -> None:
        self.contexts_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.contexts_body.setVisible(shown)

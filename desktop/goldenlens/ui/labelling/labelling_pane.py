"""The Labels tab: the current question on top (question, golden answer, fact), every distinct
answer as a card below, and beside them the plan's progress and what reviewers would judge,
with each interval's width, updated as the reviewer labels.

Keys (the pane has the focus): ``1``-``9`` select an answer; ``C`` (or ``Y``) correct, ``X``
(or ``N``) incorrect, ``U`` unsure mark it and select the next answer without a verdict;
``Backspace`` withdraws the selected answer's own verdict; ``Enter`` goes to the next question
of the plan. A question with five answers takes six keys.
"""

from __future__ import annotations

import html
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.calibration.human_calibrated import HumanCalibrated
from goldenlens.core.calibration.labels import Verdict
from goldenlens.queries.labelling import LabellingQuestion, PlanQueue
from goldenlens.ui.labelling.answer_card import AnswerCardWidget
from goldenlens.ui.widgets.card_labels import muted, wrapped_text
from goldenlens.ui.widgets.card_list import CardList

#: Keys that give a verdict.
VERDICT_KEYS: Final = {
    Qt.Key.Key_C: Verdict.CORRECT,
    Qt.Key.Key_Y: Verdict.CORRECT,
    Qt.Key.Key_X: Verdict.INCORRECT,
    Qt.Key.Key_N: Verdict.INCORRECT,
    Qt.Key.Key_U: Verdict.UNSURE,
}

#: Answer cards made at once; more on request ("Show 40 more …") or as the selection moves on.
CARD_BATCH: Final = 40


class LabellingPane(QWidget):
    """Signals: ``verdict_given(index, verdict)`` (``None``: withdraw), ``detach_requested(pipeline)``,
    ``next_requested()``, ``plan_requested(budget, seed, mode)``."""

    verdict_given = Signal(int, object)
    detach_requested = Signal(str)
    next_requested = Signal()
    plan_requested = Signal(int, int, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.question: LabellingQuestion | None = None
        self.selected = -1
        self.question_label = wrapped_text("Open a project, then plan a round of labels.")
        font = self.question_label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.question_label.setFont(font)
        self.answer_label = wrapped_text("")
        self.fact_label = muted(wrapped_text(""))
        self.cards: CardList[AnswerCardWidget] = CardList(self)
        #: Cards are made a batch at a time: a sweep's question may have hundreds of answers.
        self._built: int = 0
        self.more_button = QPushButton(self)
        self.more_button.clicked.connect(lambda: self._build(self._built + CARD_BATCH))
        self.more_button.hide()
        self.keys_label = muted(
            QLabel(
                "1-9 select · C correct · X incorrect · U unsure · Backspace withdraw · Enter next question"
            )
        )
        left = QVBoxLayout()
        left.addWidget(self.question_label)
        left.addWidget(self.answer_label)
        left.addWidget(self.fact_label)
        left.addWidget(self.cards, 1)
        left.addWidget(self.more_button)
        left.addWidget(self.keys_label)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 3)
        layout.addWidget(self._side_panel(), 1)

    def _side_panel(self) -> QWidget:
        side = QWidget(self)
        column = QVBoxLayout(side)
        column.setContentsMargins(0, 0, 0, 0)
        self.progress_label = wrapped_text("No labelling plan yet.")
        self.next_button = QPushButton("Next question ⏎")
        self.next_button.clicked.connect(self.next_requested.emit)
        self.estimates_label = wrapped_text("", rich=True)
        self.estimates_label.setObjectName("estimates")
        self.budget = QSpinBox()
        self.budget.setRange(1, 100_000)
        self.budget.setValue(200)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.mode = QComboBox()
        self.mode.addItem("Distinct answers", "response")
        self.mode.addItem("Whole questions", "question")
        form = QFormLayout()
        form.addRow("Labels", self.budget)
        form.addRow("Seed", self.seed)
        form.addRow("Pick", self.mode)
        self.plan_button = QPushButton("Plan the next round")
        self.plan_button.setToolTip(
            "Choose the answers to label next: a stratified sample of those with no verdict, drawn so the "
            "pipelines' intervals shrink fastest (reproducible by the seed)"
        )
        self.plan_button.clicked.connect(
            lambda: self.plan_requested.emit(
                self.budget.value(), self.seed.value(), str(self.mode.currentData())
            )
        )
        column.addWidget(QLabel("<b>Labelling plan</b>"))
        column.addWidget(self.progress_label)
        column.addWidget(self.next_button)
        column.addLayout(form)
        column.addWidget(self.plan_button)
        column.addSpacing(12)
        column.addWidget(QLabel("<b>As a reviewer would judge them</b>"))
        column.addWidget(self.estimates_label)
        column.addStretch(1)
        return side

    # -- what is shown ---------------------------------------------------------------------

    def show_question(self, question: LabellingQuestion | None, *, keep_selection: bool = False) -> None:
        """Show a question's answers; select the first without a verdict (or keep the selection)."""
        previous = self.selected
        self.question = question
        self.cards.clear()
        if question is None:
            self._built = 0
            self.more_button.hide()
            self.question_label.setText("No question to label.")
            self.answer_label.setText("")
            self.fact_label.setText("")
            self.selected = -1
            return
        item = question.item
        self.question_label.setText(f"{item.id} · {item.question}")
        self.answer_label.setText(f"Golden answer: {item.answer}")
        self.fact_label.setText(f"Fact: {item.fact}")
        self._built = 0
        self._build(CARD_BATCH)
        if keep_selection and 0 <= previous < len(question.cards):
            self.select(previous)
        else:
            self.select(self._first_open(0))

    def show_progress(self, queue: PlanQueue | None) -> None:
        if queue is None:
            self.progress_label.setText("No labelling plan yet: plan a round of labels below.")
            return
        left = len(queue.open_questions)
        self.progress_label.setText(
            f"Round {queue.round_number}: {queue.answered} of {queue.asked} answers labelled; "
            f"{left} question{'s' * (left != 1)} of the plan still to label."
        )

    def show_estimates(self, found: HumanCalibrated | None) -> None:
        if found is None:
            self.estimates_label.setText("")
            return
        if not found.checked:
            self.estimates_label.setText(found.headline())
            return
        rows = "".join(
            f"<tr><td>{html.escape(e.pipeline, quote=False)}</td>"
            f"<td align='right'>{e.interval.estimate:.2f}</td>"
            f"<td align='right'>±{(e.interval.high - e.interval.low) / 2:.2f}</td>"
            f"<td align='right'>{e.labelled}</td></tr>"
            for e in found.estimates
            if e.interval.estimate is not None and e.interval.low is not None and e.interval.high is not None
        )
        self.estimates_label.setText(
            f"<table><tr><th align='left'>Pipeline</th><th>Correct</th><th>±</th><th>Labelled</th></tr>"
            f"{rows}</table><p>{html.escape(found.headline(), quote=False)}</p>"
        )

    # -- keys and selection ----------------------------------------------------------------

    def _build(self, upto: int) -> None:
        """Make the cards of the question's answers up to ``upto`` (those not made yet)."""
        question = self.question
        if question is None:
            return
        upto = min(upto, len(question.cards))
        for index in range(self._built, upto):
            widget = AnswerCardWidget(index, question.cards[index], self.cards.host)
            widget.chosen.connect(self.select)
            widget.detach_requested.connect(self.detach_requested.emit)
            self.cards.add(widget)
        self._built = max(self._built, upto)
        left = len(question.cards) - self._built
        self.more_button.setText(f"Show {min(left, CARD_BATCH)} more of {left} other answers")
        self.more_button.setVisible(left > 0)

    def select(self, index: int) -> None:
        if self.question is not None and index >= self._built:
            self._build(index + 1)  # the next answer without a verdict may be further on
        cards = self.cards.cards()
        self.selected = index if 0 <= index < len(cards) else -1
        for card in cards:
            card.set_selected(card.index == self.selected)
        if self.selected >= 0:
            self.cards.ensureWidgetVisible(cards[self.selected])
        self.setFocus()

    def _first_open(self, start: int) -> int:
        question = self.question
        if question is None or not question.cards:
            return -1
        count = len(question.cards)
        for step in range(count):
            index = (start + step) % count
            if not question.cards[index].labelled:
                return index
        return min(start, count - 1)

    def select_next_open(self) -> None:
        """After a verdict: the next answer without one (wrapping), else stay."""
        self.select(self._first_open(self.selected + 1))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if Qt.Key.Key_1 <= key <= Qt.Key.Key_9:
            self.select(int(key) - int(Qt.Key.Key_1))
        elif key in VERDICT_KEYS and self.selected >= 0:
            self.verdict_given.emit(self.selected, VERDICT_KEYS[Qt.Key(key)])
        elif key == Qt.Key.Key_Backspace and self.selected >= 0:
            self.verdict_given.emit(self.selected, None)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.next_requested.emit()
        elif key == Qt.Key.Key_Down:
            self.select(min(self.selected + 1, len(self.cards.cards()) - 1))
        elif key == Qt.Key.Key_Up:
            self.select(max(self.selected - 1, 0))
        else:
            super().keyPressEvent(event)

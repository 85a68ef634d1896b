"""One distinct answer in the Labels tab: its number key, the pipelines that gave it, the
response, its Factual Knowledge and the verdict in force with where it comes from."""

from __future__ import annotations

import html
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from goldenlens.core.calibration.labels import ANSWER_CHANGED, LabelSource, LabelState
from goldenlens.queries.labelling import AnswerCard
from goldenlens.ui.widgets.card_labels import card_layout, muted, wrapped_text

#: The verdict as a card shows it, with the colour of its edge.
_STATE_TEXT: Final = {
    LabelState.CORRECT: ("✓ correct", "#1a7f37"),
    LabelState.INCORRECT: ("✗ incorrect", "#cf222e"),
    LabelState.UNSURE: ("? unsure", "#bf8700"),
    LabelState.NONE: ("— not labelled", "#8c959f"),
}
#: Characters of a response shown before it is cut (the whole text is in the tooltip).
_SHOWN_CHARS: Final = 600


def source_text(card: AnswerCard) -> str:
    """Where the verdict comes from: "by ana: 'alias'", "the same answer's verdict (GPT-4)",
    "stale: golden item changed"."""
    record = card.record
    if card.source is LabelSource.STALE and record is not None:
        was = record.verdict.value if record.verdict else "?"
        if card.stale_reason == ANSWER_CHANGED:  # that verdict was about another text
            return f"stale ({card.stale_reason}): was {was} on the old answer — label this one"
        return f"stale ({card.stale_reason}): was {was} — confirm it"
    if record is None:
        return ""
    by = f"by {record.reviewer}" if record.reviewer else "labelled"
    note = f": {record.note}" if record.note else ""
    if card.source is LabelSource.SAME_ANSWER:
        return f"the verdict given to the same answer from {record.pipeline} ({by}){note}"
    return f"{by}{note}"


class AnswerCardWidget(QFrame):
    """A card; ``chosen(index)`` when clicked, ``detach_requested(pipeline)`` from its button."""

    chosen = Signal(int)
    detach_requested = Signal(str)

    def __init__(self, index: int, card: AnswerCard, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.index = index
        self.card = card
        text, colour = _STATE_TEXT[card.state if card.source is not LabelSource.STALE else LabelState.NONE]
        self.edge = colour
        self.selected = False
        self._layout = card_layout(self, "answerCard", colour)
        head = QHBoxLayout()
        self.key_label = QLabel(f"<b>{index + 1}</b>")
        self.key_label.setToolTip(f"Press {index + 1} to select this answer")
        others = f" (the same answer: {', '.join(card.pipelines[1:])})" if len(card.pipelines) > 1 else ""
        self.pipelines_label = QLabel(
            f"<b>{html.escape(card.pipelines[0], quote=False)}</b>{html.escape(others, quote=False)}"
        )
        self.pipelines_label.setTextFormat(Qt.TextFormat.RichText)
        fk = card.factual_knowledge
        self.fk_label = muted(QLabel("FK —" if fk is None else f"FK {fk:g}"))
        self.fk_label.setToolTip("Factual Knowledge of this response (FMEval)")
        self.verdict_label = QLabel(f"<b>{text}</b>")
        self.verdict_label.setObjectName("verdict")
        self.verdict_label.setStyleSheet(f"color: {colour};")
        head.addWidget(self.key_label)
        head.addWidget(self.pipelines_label, 1)
        head.addWidget(self.fk_label)
        head.addWidget(self.verdict_label)
        self._layout.addLayout(head)
        shown = (
            card.response if len(card.response) <= _SHOWN_CHARS else card.response[: _SHOWN_CHARS - 1] + "…"
        )
        self.response_label = wrapped_text(shown or "(empty response)")
        self.response_label.setToolTip(card.response[:4000])
        self._layout.addWidget(self.response_label)
        source = source_text(card)
        self.source_label = muted(wrapped_text(source))
        self.source_label.setVisible(bool(source))
        self._layout.addWidget(self.source_label)
        self.detach_button: QPushButton | None = None
        if card.source is LabelSource.SAME_ANSWER:
            self.detach_button = QPushButton("Judge on its own")
            self.detach_button.setToolTip(
                "Do not take the verdict of the same answer: label this response itself"
            )
            self.detach_button.clicked.connect(lambda: self.detach_requested.emit(card.pipelines[0]))
            self._layout.addWidget(self.detach_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.set_selected(False)

    def set_selected(self, selected: bool) -> None:
        """Show the card as the one the verdict keys act on."""
        self.selected = selected
        border = "2px solid palette(highlight)" if selected else "1px solid palette(mid)"
        edge = f"border-left: 5px solid {self.edge}"
        self.setStyleSheet(f"QFrame#answerCard {{ border: {border}; {edge}; border-radius: 4px; }}")
        self.key_label.setText(f"<b>{'▶ ' if selected else ''}{self.index + 1}</b>")

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.chosen.emit(self.index)
        super().mousePressEvent(event)

"""One criterion's verdict on a golden question, as the Golden Review tab shows it: a verdict
badge, the criterion, the judge's (or the counted rule's) reason, the decision in force, and
Accept / Dismiss — for an "unsure" verdict the reviewer picks Pass or Fail — or Withdraw.
The card only asks: its buttons emit signals."""

from __future__ import annotations

import html
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from goldenlens.core.golden.criteria import CRITERION_INFO, SOURCE_RULE, Decision, Verdict
from goldenlens.queries.golden_review import CriterionVerdict
from goldenlens.ui.review.response_card import chip
from goldenlens.ui.widgets.card_labels import card_layout, muted, wrapped_text

#: Badge text and (background, text) colours, and the card's edge colour, per verdict.
VERDICT_STYLES: Final[dict[Verdict | None, tuple[str, tuple[str, str], str]]] = {
    Verdict.PASS: ("✓ Pass", ("#dff3e4", "#14532d"), "#3c9d5d"),
    Verdict.FAIL: ("✗ Fail", ("#fde2e1", "#7a1c18"), "#d9534f"),
    Verdict.UNSURE: ("? Unsure", ("#fff0c2", "#5c4300"), "#d9a400"),
    None: ("- Not rated", ("#e6e8ec", "#33373f"), "#9aa0a8"),
}
#: Why a stale verdict cannot be decided.
STALE_TIP: Final = (
    "The row was edited after the judge rated it: review the golden set again (Judge ▸ Review the "
    "Golden Set…, only the changed rows are re-asked), then decide on the new verdict."
)


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

"""The Summary tab's lead: what a reviewer would judge, each pipeline's share of correct
responses with its 95% interval and the verdicts on it, from the project's labels; before any
label, that the metric has not been checked against a reviewer and how many labels would do."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QFrame, QVBoxLayout, QWidget

from goldenlens.core.calibration.human_calibrated import HumanCalibrated, pair_verdict
from goldenlens.io.reports.calibrated_text import TITLE, agreement_sentence, ordered_pairs, share_text
from goldenlens.ui.widgets.card_labels import wrapped_text

#: Verdicts shown in the tab (every one is in the reports).
SHOWN_VERDICTS = 4


class ReviewerView(QFrame):
    """A framed block of text; :meth:`show_calibrated` fills it (``None``: hidden)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = wrapped_text("", rich=True)
        self.text.setObjectName("reviewerText")
        QVBoxLayout(self).addWidget(self.text)
        self.hide()

    def show_calibrated(self, found: HumanCalibrated | None) -> None:
        if found is None:
            self.hide()
            return
        parts = [f"<b>{escape(TITLE)}</b>: {escape(found.headline())}"]
        if found.checked:
            shares = " · ".join(
                f"<b>{escape(e.pipeline)}</b> {escape(share_text(e))}" for e in found.estimates
            )
            parts.append(shares)
            parts += [
                escape(pair_verdict(p, found.level)) for p in ordered_pairs(found.pairs)[:SHOWN_VERDICTS]
            ]
            agreement = agreement_sentence(found)
            if agreement:
                parts.append(escape(agreement))
        self.text.setText("<br>".join(parts))
        self.show()

"""A one-line label that gives up width first: drawn cut with "…" to the width it gets, its
whole text in ``text()`` and the tooltip (a model file name beside a score, which would
otherwise squeeze the metric's name into "ans…ncy")."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QWidget


class ElidedLabel(QLabel):
    """Plain text on one line, drawn elided at the right when the label is narrower."""

    def __init__(self, text: str, tooltip: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setToolTip(f"{tooltip}: {text}" if tooltip else text)

    def minimumSizeHint(self) -> QSize:
        """No width of its own: the neighbours keep theirs, this label gives way."""
        return QSize(0, super().minimumSizeHint().height())

    def shown_text(self) -> str:
        """The text as drawn at the label's present width."""
        width = self.contentsRect().width()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, width)

    def paintEvent(self, _event: QPaintEvent) -> None:
        """Draw :meth:`shown_text` where QLabel would draw the whole text."""
        painter = QPainter(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            self.shown_text(),
            self.foregroundRole(),
        )

"""The labels of the card panes (advisor diagnoses, judge verdicts): wrapped, selectable text
and a muted colour for secondary lines that stays readable on light and dark palettes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QSizePolicy


def muted(label: QLabel) -> QLabel:
    """Draw ``label`` in a colour between the palette's text and background: secondary, yet
    readable on light and dark palettes (the disabled colour is too faint for numbers)."""
    palette = label.palette()
    text = palette.color(QPalette.ColorRole.WindowText)
    back = palette.color(QPalette.ColorRole.Window)
    mixed = QColor(
        (text.red() * 3 + back.red() * 2) // 5,
        (text.green() * 3 + back.green() * 2) // 5,
        (text.blue() * 3 + back.blue() * 2) // 5,
    )
    palette.setColor(QPalette.ColorRole.WindowText, mixed)
    label.setPalette(palette)
    return label


def wrapped_text(text: str, *, rich: bool = False) -> QLabel:
    """A word-wrapped, mouse-selectable label of ``text`` (plain unless ``rich``)."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    return label

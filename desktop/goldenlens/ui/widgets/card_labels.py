"""The building blocks of the card panes (advisor diagnoses, judge verdicts): the card's frame
with its coloured edge, wrapped selectable text, and a muted colour for secondary lines that
stays readable on light and dark palettes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout


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


def card_layout(card: QFrame, name: str, edge: str) -> QVBoxLayout:
    """Style ``card`` as a card (object name ``name``, a left edge in colour ``edge``) and give
    it its vertical layout."""
    card.setObjectName(name)
    card.setStyleSheet(
        f"QFrame#{name} {{ border: 1px solid palette(mid); border-left: 5px solid {edge};"
        " border-radius: 4px; }"
    )
    layout = QVBoxLayout(card)
    layout.setContentsMargins(10, 6, 10, 8)
    layout.setSpacing(4)
    return layout

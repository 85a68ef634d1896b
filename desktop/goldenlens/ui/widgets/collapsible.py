"""A section with a header button that shows or hides its body, remembered in QSettings.

The golden editor sits above the detail pane in one; collapsed, it leaves the height to the
response cards (at 1366x768 it otherwise took half of it).
"""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget


class CollapsibleSection(QWidget):
    """``title`` as a toggle above ``body``; ``expanded_changed(bool)`` when it is toggled.

    ``settings_key`` keeps the state between sessions (``None``: not kept)."""

    expanded_changed = Signal(bool)

    def __init__(
        self,
        title: str,
        body: QWidget,
        *,
        settings_key: str | None = None,
        expanded: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._key = settings_key
        self.body = body
        self.toggle = QToolButton()
        self.toggle.setText(title)
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        font = self.toggle.font()
        font.setBold(True)
        self.toggle.setFont(font)
        self.summary_label = QLabel()
        self.summary_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.summary_label.setEnabled(False)  # muted: a reminder, not content
        header = QHBoxLayout()
        header.setContentsMargins(4, 0, 4, 0)
        header.addWidget(self.toggle)
        header.addWidget(self.summary_label, 1)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addLayout(header)
        column.addWidget(body)
        if settings_key is not None:
            expanded = bool(QSettings().value(settings_key, expanded, type=bool))
        self.toggle.toggled.connect(self._on_toggled)
        self.toggle.setChecked(bool(expanded))
        self._on_toggled(bool(expanded))

    def is_expanded(self) -> bool:
        """Whether the body shows."""
        return self.toggle.isChecked()

    def set_expanded(self, expanded: bool) -> None:
        """Show or hide the body (as a click on the header does)."""
        self.toggle.setChecked(expanded)

    def set_summary(self, text: str) -> None:
        """A one-line reminder beside the title (shown collapsed or not)."""
        self.summary_label.setText(text)

    def _on_toggled(self, expanded: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.body.setVisible(expanded)
        if self._key is not None:
            QSettings().setValue(self._key, expanded)
        self.expanded_changed.emit(expanded)

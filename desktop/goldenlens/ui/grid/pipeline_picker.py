"""The score grid's pipeline picker: which pipelines have columns (issue #22).

A sweep of hundreds of pipelines cannot be read side by side, so beyond
:data:`~goldenlens.core.view.grid_state.SHOWN_PIPELINES` the grid opens on the leaders by
Factual Knowledge, and this button ("Pipelines: 10 of 500", shown only then) opens a
searchable, checkable list to show any others, with one click back to the leaders or to all.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from goldenlens.core.view.grid_state import SHOWN_PIPELINES


class PipelinePicker(QToolButton):
    """A button whose popup lists the pipelines with a box each; ``changed()`` when the analyst
    ticks, unticks or picks a preset. :meth:`chosen` is ``None`` when every pipeline is ticked."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolTip("Choose the pipelines shown side by side")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self)
        panel = QWidget(menu)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(6, 6, 6, 6)
        self.filter = QLineEdit(panel, placeholderText="Filter pipelines")
        self.filter.setClearButtonEnabled(True)
        self.list = QListWidget(panel)
        self.list.setMinimumSize(260, 320)
        presets = QHBoxLayout()
        self.leaders = QPushButton(f"Top {SHOWN_PIPELINES} by FK", panel)
        self.leaders.setToolTip(f"The {SHOWN_PIPELINES} pipelines with the highest Factual Knowledge means")
        self.everyone = QPushButton("All", panel)
        self.nobody = QPushButton("None", panel)
        for button in (self.leaders, self.everyone, self.nobody):
            presets.addWidget(button)
        layout.addWidget(self.filter)
        layout.addWidget(self.list)
        layout.addLayout(presets)
        action = QWidgetAction(menu)
        action.setDefaultWidget(panel)
        menu.addAction(action)
        menu.aboutToShow.connect(self.filter.setFocus)
        self.setMenu(menu)
        self._leaders: frozenset[str] | None = None
        #: Whether the analyst chose (else the grid keeps showing the leaders as data loads).
        self.touched = False
        self.filter.textChanged.connect(self._filter)
        self.list.itemChanged.connect(self._on_item_changed)
        self.leaders.clicked.connect(lambda: self._choose(self._leaders))
        self.everyone.clicked.connect(lambda: self._choose(None))
        self.nobody.clicked.connect(lambda: self._choose(frozenset()))
        self._show_label()
        self.hide()  # until a sweep's pipelines arrive (show_pipelines)

    def show_pipelines(
        self, pipelines: Sequence[str], chosen: frozenset[str] | None, leaders: frozenset[str] | None
    ) -> None:
        """List ``pipelines`` (the project's order), ``chosen`` ticked (``None``: all);
        ``leaders``: what the "Top" preset picks (``None``: there are few enough to show all)."""
        self._leaders = leaders
        self.leaders.setVisible(leaders is not None)
        # A few pipelines all have columns (the detail pane's own menu hides cards): the button
        # would only take width from the detail pane.
        self.setVisible(len(pipelines) > SHOWN_PIPELINES)
        listed = [self.list.item(i).text() for i in range(self.list.count())]
        with QSignalBlocker(self.list):
            if listed != list(pipelines):  # another project, or its pipelines changed
                self.touched = False
                self.list.clear()
                for name in pipelines:
                    item = QListWidgetItem(name, self.list)
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            for i in range(self.list.count()):
                item = self.list.item(i)
                ticked = chosen is None or item.text() in chosen
                item.setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)
        self._filter(self.filter.text())
        self._show_label()

    def chosen(self) -> frozenset[str] | None:
        """The ticked pipelines; ``None`` when all are."""
        ticked = [self.list.item(i) for i in range(self.list.count())]
        names = frozenset(item.text() for item in ticked if item.checkState() == Qt.CheckState.Checked)
        return None if len(names) == len(ticked) else names

    def _choose(self, names: frozenset[str] | None) -> None:
        with QSignalBlocker(self.list):
            for i in range(self.list.count()):
                item = self.list.item(i)
                ticked = names is None or item.text() in names
                item.setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)
        self._announce()

    def _on_item_changed(self, _item: QListWidgetItem) -> None:
        self._announce()

    def _announce(self) -> None:
        self.touched = True
        self._show_label()
        self.changed.emit()

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setHidden(bool(needle) and needle not in item.text().lower())

    def _show_label(self) -> None:
        total = self.list.count()
        chosen = self.chosen()
        shown = total if chosen is None else len(chosen)
        self.setText(f"Pipelines: {shown:,} of {total:,}" if shown != total else f"Pipelines: all {total:,}")

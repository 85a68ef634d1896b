"""A flat table model: one record a row under fixed column titles.

What every such table shares lives here: the row and column counts, the header texts and their
tooltips, the reset that replaces all rows, and the record at a row. A subclass gives
``data`` (and whatever else its table does).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex


class RowTableModel(QAbstractTableModel):
    """Rows of records under ``columns``; ``tips`` maps a column title to its header tooltip."""

    def __init__(
        self, columns: Sequence[str], parent: QObject | None = None, *, tips: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(parent)
        self.columns = tuple(columns)
        self._tips = dict(tips or {})
        self._rows: list[Any] = []

    def replace_rows(self, rows: Iterable[Any]) -> None:
        """Show ``rows`` instead of what was shown."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_at(self, row: int) -> Any:
        """The record of table row ``row``; ``None`` outside the table."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tips.get(self.columns[section])
        return None

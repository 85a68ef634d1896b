"""Layout pieces the panes and dialogs share: a widget's column, a header row with a bold title,
two widgets stacked, a table of records to pick from, a dialog body above its Close button."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

Margins = tuple[int, int, int, int]


def column_layout(
    widget: QWidget, margins: Margins = (0, 0, 0, 0), spacing: int | None = None
) -> QVBoxLayout:
    """``widget``'s vertical layout, with these margins (and spacing; ``None``: the style's)."""
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(*margins)
    if spacing is not None:
        layout.setSpacing(spacing)
    return layout


def title_row(title: str) -> tuple[QHBoxLayout, QLabel]:
    """A header row that starts with ``title`` in bold, and the title's label (rich text)."""
    row = QHBoxLayout()
    label = QLabel(f"<b>{title}</b>")
    label.setTextFormat(Qt.TextFormat.RichText)
    row.addWidget(label)
    return row, label


def stacked(parent: QWidget, top: QWidget, below: QWidget, *, spacing: int) -> QWidget:
    """A widget showing ``top`` above ``below``, which takes the height left."""
    host = QWidget(parent)
    layout = column_layout(host, spacing=spacing)
    layout.addWidget(top)
    layout.addWidget(below, 1)
    return host


def list_table(parent: QWidget, model: QAbstractItemModel, *, several: bool = False) -> QTableView:
    """A table of records to pick from (runs, versions): whole rows are selected, one or, with
    ``several``, more; no row numbers; columns as wide as their contents, the last one taking
    the width left."""
    table = QTableView(parent)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    mode = QAbstractItemView.SelectionMode
    table.setSelectionMode(mode.ExtendedSelection if several else mode.SingleSelection)
    table.verticalHeader().hide()
    table.setAlternatingRowColors(True)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    return table


def with_close_button(dialog: QDialog, body: QWidget) -> None:
    """Lay ``dialog`` out as ``body`` above a Close button (which rejects the dialog)."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(body, 1)
    layout.addWidget(buttons)

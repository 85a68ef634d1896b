"""The score grid: the main view, one row per golden question and one column per pipeline x
metric, with a filter bar above it.

Everything the analyst chooses lives in one :class:`~goldenlens.core.view.grid_state.GridState`; the
widgets only edit it. Filters apply as you type (debounced), and a bad regex or threshold
expression is reported in red under the bar while the rows stay as they were.
"""

from __future__ import annotations

import html
from dataclasses import replace

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QSignalBlocker,
    Qt,
    Signal,
)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.view.grid_state import GridState, IntArray
from goldenlens.core.view.pass_fail import fk_totals
from goldenlens.queries.grid import GridData
from goldenlens.ui.grid.colour_scale import is_dark
from goldenlens.ui.grid.column_widths import decode_widths, encode_widths
from goldenlens.ui.grid.filter_bar import FilterBar
from goldenlens.ui.grid.score_table_model import ScoreTableModel
from goldenlens.ui.grid.score_table_view import ScoreTableView


class ScoreGrid(QWidget):
    """Filter bar + table of the score grid.

    Signals: ``current_question_changed(str)`` — the current row's question id (mouse or
    keyboard); ``state_changed(GridState)``; ``metrics_requested(tuple)`` — the analyst ticked
    metrics the grid's data does not hold: load them (``queries.grid_loading.add_metrics``) and
    call :meth:`set_data`.
    """

    current_question_changed = Signal(str)
    #: The current question was filtered out (or removed): nothing is selected any more.
    current_question_hidden = Signal()
    state_changed = Signal(object)
    metrics_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = ScoreTableModel(self)
        self._current: str | None = None
        self._has_data = False
        self._kept: str | None = None  # current question across a model reset
        self._widths: dict[str, int] = {}  # widths the analyst set, by column key
        self._sizing = False
        self.filter_bar = FilterBar(self)
        self.filter_bar.edited.connect(self._on_filters_edited)
        self.filter_bar.columns_changed.connect(self._on_columns_changed)
        self._view = self._build_view()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self._view, 1)
        # The FK report's totals row: per pipeline, found / scored over the questions shown.
        self.fk_totals_label = QLabel(self, wordWrap=True)
        self.fk_totals_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fk_totals_label.setContentsMargins(4, 2, 4, 2)
        self.fk_totals_label.hide()
        layout.addWidget(self.fk_totals_label)
        self._model.modelAboutToBeReset.connect(self._on_about_to_reset)
        self._model.modelReset.connect(self._on_reset)
        self._model.state_changed.connect(self.state_changed)
        self._on_palette_changed()
        self._on_reset()

    # -- construction ---------------------------------------------------------------

    def _build_view(self) -> QTableView:
        view = ScoreTableView(self)
        view.setModel(self._model)
        view.setAlternatingRowColors(True)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # Several rows can be selected (Shift/Ctrl+click): the judge can run on just those.
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        view.setWordWrap(False)
        view.setTextElideMode(Qt.TextElideMode.ElideRight)
        rows = view.verticalHeader()
        rows.hide()
        # Fixed heights: Qt never measures 100,000 rows to lay them out.
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(view.fontMetrics().height() + 8)
        header = view.horizontalHeader()
        header.setHighlightSections(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignCenter)
        header.setSortIndicatorClearable(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.sectionResized.connect(self._on_section_resized)
        view.setSortingEnabled(True)
        selection = view.selectionModel()
        selection.currentRowChanged.connect(self._on_current_row_changed)
        return view

    # -- public API -----------------------------------------------------------------

    def set_data(self, grid: GridData) -> None:
        """Show ``grid``, keeping the state (filters, order, metrics), the current question and
        the scroll place (the top row's question stays on top). A partial grid (the first rows
        of a project still loading) says so in the row count; filters and sort act on its rows."""
        view, bar = self._view, self._view.verticalScrollBar()
        top = self._model.question_id(bar.value()) if bar.value() else None  # rows scroll per item
        seen = view.visualRect(view.currentIndex()).intersects(view.viewport().rect())
        self._has_data = True
        self._model.set_data(grid)
        self.filter_bar.show_data(grid)
        self.filter_bar.show_columns(self._model.state(), grid, self._model.pass_fail_metrics())
        self._on_filters_edited()  # the bar's texts checked against the new pipelines and metrics
        row = self._model.row_of(top) if top is not None else 0
        bar.setValue(row if row >= 0 else bar.value())  # the top row filtered out: leave it
        if seen and view.currentIndex().isValid():
            view.scrollTo(view.currentIndex())
        self._request_missing()

    def grid(self) -> GridData | None:
        """The data shown (``None`` before :meth:`set_data`)."""
        return self._model.grid() if self._has_data else None

    def state(self) -> GridState:
        return self._model.state()

    def set_state(self, state: GridState) -> None:
        """Show ``state`` in the filter bar and apply it; a bad part is reported inline."""
        self.filter_bar.show_state(state, self._model.grid(), self._model.pass_fail_metrics())
        self._on_filters_edited(base=state)
        self._request_missing()

    def set_question_filter(self, question_ids: frozenset[str] | None) -> None:
        """Show only ``question_ids`` (``None``: every question), with the bar's filters on top:
        the review queue's filter by diagnosis. The bar does not show it; the queue does."""
        state = self._model.state()
        if state.question_ids != question_ids:
            self._on_filters_edited(base=replace(state, question_ids=question_ids))

    def model(self) -> ScoreTableModel:
        return self._model

    def table_view(self) -> QTableView:
        return self._view

    def focus_filter(self) -> None:
        """Put the cursor in the search field, its text selected (bind Ctrl+F to this)."""
        self.filter_bar.focus_search()

    def visible_rows(self) -> IntArray:
        """Data rows of :meth:`grid` in display order."""
        return self._model.visible_rows()

    def selected_question_ids(self) -> list[str]:
        """The questions of the selected rows, in display order (the current one when no row is
        selected)."""
        selection = self._view.selectionModel()
        rows = sorted({index.row() for index in selection.selectedRows()}) if selection else []
        ids = [q for q in map(self._model.question_id, rows) if q is not None]
        if not ids and self._current is not None and self._model.row_of(self._current) >= 0:
            ids = [self._current]
        return ids

    def visible_question_ids(self) -> list[str]:
        """Question ids in display order."""
        return [str(q) for q in self._model.grid().question_ids[self._model.visible_rows()]]

    def current_question(self) -> str | None:
        return self._current

    def select_question(self, question_id: str) -> bool:
        """Make ``question_id`` current and scroll to it; False when it is not visible."""
        row = self._model.row_of(question_id)
        if row >= 0:
            self._set_current_row(row)
        return row >= 0

    def next_question(self) -> bool:
        """Move the current row down one visible row (to the first when none is current)."""
        row = self._view.currentIndex().row()
        return self._set_current_row(row + 1 if row >= 0 else 0)

    def previous_question(self) -> bool:
        """Move the current row up one visible row (to the first when none is current)."""
        row = self._view.currentIndex().row()
        return self._set_current_row(row - 1 if row >= 0 else 0)

    def header_state(self) -> bytes:
        """Column widths the analyst set, by column, for :meth:`restore_header_state`."""
        return encode_widths(self._widths)

    def restore_header_state(self, state: bytes) -> bool:
        """Restore widths saved by :meth:`header_state`; False (nothing changed) if unreadable."""
        widths = decode_widths(state)
        if widths is None:
            return False
        self._widths.update(widths)
        self._size_columns()
        return True

    # -- filter bar -----------------------------------------------------------------

    def _on_columns_changed(self) -> None:
        self._on_filters_edited()
        self._request_missing()

    def _request_missing(self) -> None:
        grid = self._model.grid()
        missing = tuple(m for m in self._model.state().metrics if m not in grid.values)
        if missing and len(grid):
            self.metrics_requested.emit(missing)

    def _on_filters_edited(self, *, base: GridState | None = None) -> None:
        """Apply the bar's filters; a bad part keeps its previous value and is shown in red.
        ``base`` supplies what the bar does not show (order, metrics when the menu is empty)."""
        state = self._model.state()
        new, errors = self.filter_bar.read(base or state, state, self._model.grid())
        try:
            self._model.set_state(new)
        except ValueError as exc:
            errors.append(str(exc))
        if new.pipelines != state.pipelines:
            self.filter_bar.show_pipelines(new, self._model.grid())
        self.filter_bar.show_errors(errors, new)

    # -- table ----------------------------------------------------------------------

    def _set_current_row(self, row: int) -> bool:
        if not 0 <= row < self._model.rowCount():
            return False
        column = max(self._view.currentIndex().column(), 0)
        index = self._model.index(row, column)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self._view.selectionModel().setCurrentIndex(index, flags)
        self._view.scrollTo(index)
        return True

    def _on_current_row_changed(
        self, current: QModelIndex | QPersistentModelIndex, _previous: QModelIndex | QPersistentModelIndex
    ) -> None:
        question_id = self._model.question_id(current.row()) if current.isValid() else None
        if question_id is not None and question_id != self._current:
            self._current = question_id
            self.current_question_changed.emit(question_id)

    def _on_about_to_reset(self) -> None:
        self._kept = self._current

    def _on_reset(self) -> None:
        state = self._model.state()
        keys = [c.key for c in self._model.columns()]
        header = self._view.horizontalHeader()
        section = keys.index(state.sort_column) if state.sort_column in keys else -1
        order = Qt.SortOrder.DescendingOrder if state.sort_descending else Qt.SortOrder.AscendingOrder
        if (header.sortIndicatorSection(), header.sortIndicatorOrder()) != (section, order):
            with QSignalBlocker(header):  # show the order without asking the model to sort again
                header.setSortIndicator(section, order)
        self._size_columns()
        self._show_fk_totals()
        self.filter_bar.show_count(*self._model.count_label())
        if self._kept is not None and not self.select_question(self._kept):
            # The filter hid the question shown in the detail pane: say so, or the pane would
            # go on showing a question the grid no longer lists.
            self._current = None
            self.current_question_hidden.emit()

    def _show_fk_totals(self) -> None:
        if not self._model.state().fk_report_mode or not self._has_data:
            self.fk_totals_label.hide()
            return
        parts = []
        metric = self._model.state().report_metric
        for total in fk_totals(self._model.grid(), self._model.visible_rows(), metric):
            missing = f", {total.not_scored} not scored" if total.not_scored else ""
            parts.append(f"<b>{html.escape(total.pipeline)}</b> {total.found}/{total.scored} ✓{missing}")
        shown = len(self._model.visible_rows())
        title = "" if metric == FACTUAL_KNOWLEDGE else f"<b>{html.escape(metric)}</b> passed · "
        self.fk_totals_label.setText(f"{title}Total of the {shown:,} questions shown: " + " · ".join(parts))
        self.fk_totals_label.show()

    def _size_columns(self) -> None:
        defaults = self._model.default_widths(self._view.fontMetrics())
        self._sizing = True
        for section, (column, default) in enumerate(zip(self._model.columns(), defaults, strict=True)):
            width = self._widths.get(column.key, default)
            if self._view.columnWidth(section) != width:
                self._view.setColumnWidth(section, width)
        self._sizing = False

    def _on_section_resized(self, section: int, _old: int, new: int) -> None:
        columns = self._model.columns()
        if not self._sizing and 0 <= section < len(columns) and new > 0:
            self._widths[columns[section].key] = new

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._on_palette_changed()
        super().changeEvent(event)

    def _on_palette_changed(self) -> None:
        dark = is_dark(self.palette())
        self._model.set_dark(dark)
        self.filter_bar.set_dark(dark)

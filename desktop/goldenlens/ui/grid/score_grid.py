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
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QActionGroup, QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.lexical.flags import FLAG_LABELS, GOLDEN_FLAGS, RESPONSE_FLAGS, Flag
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.view.grid_rows import flag_row_counts, text_matcher
from goldenlens.core.view.grid_state import ANY_FLAG, GridState, IntArray
from goldenlens.core.view.metric_names import metric_header, metric_title
from goldenlens.core.view.pass_fail import fk_totals
from goldenlens.core.view.threshold import parse_threshold
from goldenlens.queries.grid import GridData
from goldenlens.ui.grid.colour_scale import is_dark
from goldenlens.ui.grid.column_widths import decode_widths, encode_widths
from goldenlens.ui.grid.score_table_model import ScoreTableModel
from goldenlens.ui.grid.score_table_view import ScoreTableView

_DEBOUNCE_MS = 250
_THRESHOLD_HELP = (
    "Keep rows whose scores pass a comparison, e.g. recall < 0.5, f1 >= 0.8, fk == 0,\n"
    "Pipeline2.recall < 0.5, or several joined with and/or.\n"
    "A bare metric means ANY pipeline passes it; prefix a pipeline to test one.\n"
    "Metrics: fk, fk_quasi, f1, precision, recall, em, qem, and the judge metrics by name\n"
    "(faithfulness < 0.5, Pipeline2.context_relevance >= 0.8). Missing scores never pass."
)


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
        self._debounce = QTimer(self, singleShot=True, interval=_DEBOUNCE_MS)
        self._debounce.timeout.connect(self._on_filters_edited)
        self._build_bar()
        self._view = self._build_view()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(self._bar)
        layout.addWidget(self._error)
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

    def _build_bar(self) -> None:
        self._search = QLineEdit(self, placeholderText="Search")
        self._search.setClearButtonEnabled(True)
        self._search.setToolTip("Case-insensitive text search (Ctrl+F)")
        self._regex = _tool_button(self, ".*", "Search with a regular expression", checkable=True)
        self._flag = QComboBox(self)
        self._flag.setToolTip("Keep rows with this flag on the question or on any response")
        self._flag.addItem("All rows", None)
        self._flag.addItem("Any flag", ANY_FLAG)
        for group in (RESPONSE_FLAGS, GOLDEN_FLAGS):
            self._flag.insertSeparator(self._flag.count())
            for flag in group:
                self._flag.addItem(FLAG_LABELS[flag], flag.value)
        self._threshold = QLineEdit(self, placeholderText="recall < 0.5 (any pipeline)")
        self._threshold.setClearButtonEnabled(True)
        self._threshold.setToolTip(_THRESHOLD_HELP)
        self._disagree = QCheckBox("Disagreements only", self)
        self._disagree.setToolTip("Only questions where the pipelines do not all agree on Factual Knowledge")
        self._metrics_menu = QMenu(self)
        self._metrics = _tool_button(self, "Metrics…", "Choose the metric columns")
        self._metrics.setMenu(self._metrics_menu)
        self._metrics.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        fk_tip = (
            "Factual Knowledge Report: fact found (✓) or not (✗) per pipeline.\n"
            "The arrow offers the same pass/fail view of the judge metrics whose values are only 0 and 1."
        )
        self._fk = _tool_button(self, "FK report", fk_tip, checkable=True)
        self._report_menu = QMenu(self)
        self._report_group = QActionGroup(self)
        self._fk.setMenu(self._report_menu)
        self._fk.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self._count = QLabel(self)
        # What the threshold means, in words: a bare metric tests ANY pipeline, which the
        # expression itself does not show; the matching cells carry a corner mark.
        self.threshold_meaning = QLabel(self, wordWrap=True)
        self.threshold_meaning.setEnabled(False)  # muted, as a hint
        self.threshold_meaning.hide()
        self._error = QLabel(self, wordWrap=True)
        self._error.hide()
        self._error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Two rows, so the text fields keep a usable width beside the detail pane.
        self._bar = QVBoxLayout()
        self._bar.setContentsMargins(4, 4, 4, 0)
        self._bar.setSpacing(2)
        rows = (
            ((self._search, 3), (self._regex, 0), (self._threshold, 2)),
            ((self._flag, 0), (self._disagree, 0), (self._metrics, 0), (self._fk, 0), (self._count, 1)),
        )
        for row in rows:
            line = QHBoxLayout()
            for widget, stretch in row:
                line.addWidget(widget, stretch)
            self._bar.addLayout(line)
        self._bar.addWidget(self.threshold_meaning)
        for edit in (self._search, self._threshold):
            edit.textChanged.connect(self._debounce.start)
            edit.returnPressed.connect(self._on_filters_edited)
        for changed in (self._regex.toggled, self._flag.currentIndexChanged, self._disagree.toggled):
            changed.connect(self._on_filters_edited)
        self._fk.toggled.connect(self._on_filters_edited)
        self._metrics_menu.triggered.connect(self._on_metrics_toggled)
        self._report_menu.triggered.connect(self._on_report_metric_chosen)

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
        searched = "id, question, answer, fact" + (", responses" if grid.responses is not None else "")
        self._search.setPlaceholderText(f"Search {searched}")
        self._model.set_data(grid)
        self._update_flag_counts()
        self._rebuild_metrics_menu(self._model.state().metrics)
        self._rebuild_report_menu(self._model.state().report_metric)
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
        widgets = (self._search, self._regex, self._flag, self._threshold, self._disagree, self._fk)
        blockers = [QSignalBlocker(widget) for widget in widgets]  # one apply below, not six
        self._search.setText(state.text)
        self._regex.setChecked(state.regex)
        self._flag.setCurrentIndex(max(0, self._flag.findData(state.flag)))
        self._threshold.setText(state.threshold)
        self._disagree.setChecked(state.disagree_only)
        self._fk.setChecked(state.fk_report_mode)
        del blockers
        self._rebuild_metrics_menu(state.metrics)
        self._rebuild_report_menu(state.report_metric)
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
        self._search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self._search.selectAll()

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

    def _checked_metrics(self) -> tuple[str, ...]:
        return tuple(a.data() for a in self._metrics_menu.actions() if a.isChecked())

    def _rebuild_metrics_menu(self, chosen: tuple[str, ...]) -> None:
        grid = self._model.grid()
        known = {*grid.available_metrics, *grid.values, *chosen}
        lexical = [m for m in LEXICAL_SCORE_NAMES if m in known]
        judged = sorted(known - set(LEXICAL_SCORE_NAMES))
        self._metrics_menu.clear()
        for metric in lexical:
            self._add_metric_action(f"{metric_header(metric)} — {metric_title(metric)}", metric, chosen)
        if judged:
            run = f"judge run {grid.judge_run_id}" if grid.judge_run_id is not None else "judge"
            self._metrics_menu.addSection(f"Judge metrics ({run})")
        for metric in judged:
            self._add_metric_action(metric, metric, chosen)

    def _add_metric_action(self, text: str, metric: str, chosen: tuple[str, ...]) -> None:
        action = QAction(text, self._metrics_menu)
        action.setCheckable(True)
        action.setChecked(metric in chosen)
        action.setData(metric)
        self._metrics_menu.addAction(action)

    def _rebuild_report_menu(self, chosen: str) -> None:
        """The pass/fail report's metrics: Factual Knowledge and the binary judge metrics."""
        for action in self._report_group.actions():
            self._report_group.removeAction(action)
        self._report_menu.clear()
        for metric in self._model.pass_fail_metrics():
            text = (
                "Factual Knowledge (FK report)"
                if metric == FACTUAL_KNOWLEDGE
                else f"{metric} (judge, pass/fail)"
            )
            action = QAction(text, self._report_menu)
            action.setCheckable(True)
            action.setChecked(metric == chosen)
            action.setData(metric)
            self._report_group.addAction(action)
            self._report_menu.addAction(action)
        self._fk.setText("FK report" if chosen == FACTUAL_KNOWLEDGE else f"Pass/fail: {chosen}")

    def _report_metric(self) -> str:
        checked = self._report_group.checkedAction()
        return str(checked.data()) if checked is not None else FACTUAL_KNOWLEDGE

    def _on_report_metric_chosen(self, action: QAction) -> None:
        """A metric picked from the report button's menu: show its pass/fail report."""
        metric = str(action.data())
        self._fk.setText("FK report" if metric == FACTUAL_KNOWLEDGE else f"Pass/fail: {metric}")
        with QSignalBlocker(self._fk):
            self._fk.setChecked(True)
        self._on_filters_edited()
        self._request_missing()

    def _on_metrics_toggled(self, _action: QAction) -> None:
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
        self._debounce.stop()
        state, grid = self._model.state(), self._model.grid()
        base = base or state
        errors: list[str] = []
        text, regex = self._search.text(), self._regex.isChecked()
        try:
            text_matcher(text, regex)
        except ValueError as exc:
            errors.append(f"Search: {exc}")
            text, regex = state.text, state.regex
        threshold = self._threshold.text().strip()
        try:
            parsed = parse_threshold(threshold, tuple(grid.values), grid.pipelines)
        except ValueError as exc:
            # A judge metric arrives in a second load: say so rather than only "unknown metric".
            loading = any(m not in grid.values for m in grid.available_metrics)
            errors.append(f"Threshold: {exc}" + (" (some metrics are still loading)" if loading else ""))
            threshold = state.threshold
        else:
            self._show_threshold_meaning(parsed.describe())
        metrics = self._checked_metrics() if self._metrics_menu.actions() else base.metrics
        new = replace(
            base,
            text=text,
            regex=regex,
            threshold=threshold,
            flag=self._flag.currentData(),
            disagree_only=self._disagree.isChecked(),
            fk_report_mode=self._fk.isChecked(),
            report_metric=self._report_metric() if self._report_group.actions() else base.report_metric,
            metrics=metrics,
        )
        try:
            self._model.set_state(new)
        except ValueError as exc:
            errors.append(str(exc))
        message = "\n".join(errors)
        if message != self._error.text():  # unchanged widgets are left alone: cheap per keystroke
            self._error.setText(message)
            self._error.setVisible(bool(errors))
        if self._metrics.isEnabled() == new.fk_report_mode:
            self._metrics.setEnabled(not new.fk_report_mode)

    def _show_threshold_meaning(self, words: str) -> None:
        text = f"Showing {words}; ◤ marks the matching scores." if words else ""
        if text != self.threshold_meaning.text():
            self.threshold_meaning.setText(text)
            self.threshold_meaning.setVisible(bool(text))

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
        count, tip = self._model.count_label()
        if (self._count.text(), self._count.toolTip()) != (count, tip):
            self._count.setText(count)
            self._count.setToolTip(tip)
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

    def _update_flag_counts(self) -> None:
        """Each flag filter choice with the number of questions it keeps."""
        grid = self._model.grid()
        counts = flag_row_counts(grid)
        for index in range(self._flag.count()):
            value = self._flag.itemData(index)
            if value is None:
                label = f"All rows ({len(grid):,})" if index == 0 else ""
            elif value == ANY_FLAG:
                label = f"Any flag ({counts[ANY_FLAG]:,})"
            else:
                label = f"{FLAG_LABELS[Flag(value)]} ({counts.get(value, 0):,})"
            if label and self._flag.itemText(index) != label:
                self._flag.setItemText(index, label)

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
        palette = self._error.palette()
        red = QColor(255, 140, 140) if dark else QColor(198, 40, 40)
        palette.setColor(QPalette.ColorRole.WindowText, red)
        self._error.setPalette(palette)


def _tool_button(parent: QWidget, text: str, tip: str, *, checkable: bool = False) -> QToolButton:
    button = QToolButton(parent)
    button.setText(text)
    button.setToolTip(tip)
    button.setCheckable(checkable)
    return button

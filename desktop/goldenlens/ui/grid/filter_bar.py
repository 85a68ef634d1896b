"""The score grid's filter bar: search, flag, threshold and disagreement filters, the metric
columns and the pass/fail report, the row count, and the errors of a bad regex or threshold.

The bar only edits: :meth:`FilterBar.read` turns what it shows into a
:class:`~goldenlens.core.view.grid_state.GridState` (a bad part keeps its previous value and is
reported), and the grid applies it. Typing is debounced; every other change applies at once.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.lexical.flags import FLAG_LABELS, GOLDEN_FLAGS, RESPONSE_FLAGS, Flag
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.view.grid_rows import flag_row_counts, text_matcher
from goldenlens.core.view.grid_state import ANY_FLAG, GridState, leading_pipelines
from goldenlens.core.view.metric_names import metric_header, metric_title
from goldenlens.core.view.threshold import parse_threshold
from goldenlens.queries.grid import GridData
from goldenlens.ui.grid.pipeline_picker import PipelinePicker
from goldenlens.ui.widgets.layouts import column_layout

_DEBOUNCE_MS = 250
_THRESHOLD_HELP = (
    "Keep rows whose scores pass a comparison, e.g. recall < 0.5, f1 >= 0.8, fk == 0,\n"
    "Pipeline2.recall < 0.5, or several joined with and/or.\n"
    "A bare metric means ANY pipeline passes it; prefix a pipeline to test one.\n"
    "Metrics: fk, fk_quasi, f1, precision, recall, em, qem, and the judge metrics by name\n"
    "(faithfulness < 0.5, Pipeline2.context_relevance >= 0.8). Missing scores never pass."
)
_FK_TIP = (
    "Factual Knowledge Report: fact found (✓) or not (✗) per pipeline.\n"
    "The arrow offers the same pass/fail view of the judge metrics whose values are only 0 and 1."
)


class FilterBar(QWidget):
    """The filters above the score grid (see the module docstring).

    Signals: ``edited()`` — a filter changed (typing: after a pause); ``columns_changed()`` —
    the metric columns or the pass/fail report's metric changed (the grid may need to load a
    metric it does not hold).
    """

    edited = Signal()
    columns_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._debounce = QTimer(self, singleShot=True, interval=_DEBOUNCE_MS)
        self._debounce.timeout.connect(self.edited)
        self.search = QLineEdit(self, placeholderText="Search")
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip("Case-insensitive text search (Ctrl+F)")
        self.regex = _tool_button(self, ".*", "Search with a regular expression", checkable=True)
        self.flag = QComboBox(self)
        self.flag.setToolTip("Keep rows with this flag on the question or on any response")
        self.flag.addItem("All rows", None)
        self.flag.addItem("Any flag", ANY_FLAG)
        for group in (RESPONSE_FLAGS, GOLDEN_FLAGS):
            self.flag.insertSeparator(self.flag.count())
            for flag in group:
                self.flag.addItem(FLAG_LABELS[flag], flag.value)
        self.threshold = QLineEdit(self, placeholderText="recall < 0.5 (any pipeline)")
        self.threshold.setClearButtonEnabled(True)
        self.threshold.setToolTip(_THRESHOLD_HELP)
        self.disagree = QCheckBox("Disagreements only", self)
        self.disagree.setToolTip("Only questions where the pipelines do not all agree on Factual Knowledge")
        self.metrics_menu = QMenu(self)
        self.metrics = _tool_button(self, "Metrics…", "Choose the metric columns")
        self.metrics.setMenu(self.metrics_menu)
        self.metrics.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.pipelines = PipelinePicker(self)
        self.fk = _tool_button(self, "FK report", _FK_TIP, checkable=True)
        self.report_menu = QMenu(self)
        self._report_group = QActionGroup(self)
        self.fk.setMenu(self.report_menu)
        self.fk.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.count = QLabel(self)
        # What the threshold means, in words: a bare metric tests ANY pipeline, which the
        # expression itself does not show; the matching cells carry a corner mark.
        self.threshold_meaning = QLabel(self, wordWrap=True)
        self.threshold_meaning.setEnabled(False)  # muted, as a hint
        self.threshold_meaning.hide()
        self.error = QLabel(self, wordWrap=True)
        self.error.hide()
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._lay_out()
        for edit in (self.search, self.threshold):
            edit.textChanged.connect(self._debounce.start)
            edit.returnPressed.connect(self.edited)
        for changed in (self.regex.toggled, self.flag.currentIndexChanged, self.disagree.toggled):
            changed.connect(self.edited)
        self.fk.toggled.connect(self.edited)
        self.metrics_menu.triggered.connect(self.columns_changed)
        self.pipelines.changed.connect(self.edited)
        self.report_menu.triggered.connect(self._on_report_metric_chosen)

    def _lay_out(self) -> None:
        # Two rows, so the text fields keep a usable width beside the detail pane.
        bar = QVBoxLayout()
        bar.setContentsMargins(4, 4, 4, 0)
        bar.setSpacing(2)
        rows = (
            ((self.search, 3), (self.regex, 0), (self.threshold, 2)),
            (
                (self.flag, 0),
                (self.disagree, 0),
                (self.metrics, 0),
                (self.pipelines, 0),
                (self.fk, 0),
                (self.count, 1),
            ),
        )
        for row in rows:
            line = QHBoxLayout()
            for widget, stretch in row:
                line.addWidget(widget, stretch)
            bar.addLayout(line)
        bar.addWidget(self.threshold_meaning)
        layout = column_layout(self, spacing=2)
        layout.addLayout(bar)
        layout.addWidget(self.error)

    # -- showing ----------------------------------------------------------------------

    def show_state(self, state: GridState, grid: GridData, report_metrics: tuple[str, ...]) -> None:
        """Show ``state`` in the widgets without announcing an edit."""
        widgets = (self.search, self.regex, self.flag, self.threshold, self.disagree, self.fk)
        blockers = [QSignalBlocker(widget) for widget in widgets]  # one apply, by the caller
        self.search.setText(state.text)
        self.regex.setChecked(state.regex)
        self.flag.setCurrentIndex(max(0, self.flag.findData(state.flag)))
        self.threshold.setText(state.threshold)
        self.disagree.setChecked(state.disagree_only)
        self.fk.setChecked(state.fk_report_mode)
        del blockers
        self.show_columns(state, grid, report_metrics)

    def show_columns(self, state: GridState, grid: GridData, report_metrics: tuple[str, ...]) -> None:
        """Rebuild the metrics menu (the grid's metrics, ``state``'s ticked), the pipeline
        picker (``state``'s shown) and the pass/fail report's menu (``report_metrics``,
        ``state``'s chosen)."""
        self._rebuild_metrics_menu(state.metrics, grid)
        self.show_pipelines(state, grid)
        self._rebuild_report_menu(state.report_metric, report_metrics)

    def show_pipelines(self, state: GridState, grid: GridData) -> None:
        """Tick ``state``'s pipelines in the picker (without announcing an edit)."""
        self.pipelines.show_pipelines(grid.pipelines, state.pipelines, leading_pipelines(grid))

    def show_data(self, grid: GridData) -> None:
        """What the search covers and how many rows each flag filter keeps, for ``grid``."""
        searched = "id, question, answer, fact" + (", responses" if grid.responses is not None else "")
        self.search.setPlaceholderText(f"Search {searched}")
        counts = flag_row_counts(grid)
        for index in range(self.flag.count()):
            value = self.flag.itemData(index)
            if value is None:
                label = f"All rows ({len(grid):,})" if index == 0 else ""
            elif value == ANY_FLAG:
                label = f"Any flag ({counts[ANY_FLAG]:,})"
            else:
                label = f"{FLAG_LABELS[Flag(value)]} ({counts.get(value, 0):,})"
            if label and self.flag.itemText(index) != label:
                self.flag.setItemText(index, label)

    def show_count(self, text: str, tip: str) -> None:
        if (self.count.text(), self.count.toolTip()) != (text, tip):
            self.count.setText(text)
            self.count.setToolTip(tip)

    def show_errors(self, errors: list[str], state: GridState) -> None:
        """Report ``errors`` under the bar (none: hidden) after ``state`` was applied."""
        message = "\n".join(errors)
        if message != self.error.text():  # unchanged widgets are left alone: cheap per keystroke
            self.error.setText(message)
            self.error.setVisible(bool(errors))
        if self.metrics.isEnabled() == state.fk_report_mode:
            self.metrics.setEnabled(not state.fk_report_mode)

    def set_dark(self, dark: bool) -> None:
        """Errors in a red readable on the palette."""
        palette = self.error.palette()
        red = QColor(255, 140, 140) if dark else QColor(198, 40, 40)
        palette.setColor(QPalette.ColorRole.WindowText, red)
        self.error.setPalette(palette)

    def focus_search(self) -> None:
        """Put the cursor in the search field, its text selected."""
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    # -- reading ----------------------------------------------------------------------

    def read(self, base: GridState, state: GridState, grid: GridData) -> tuple[GridState, list[str]]:
        """The state the bar shows over ``base`` (which supplies what the bar does not show:
        order, metrics while the menu is empty), and the errors of its bad parts, which keep
        their values in ``state`` (the one applied now)."""
        self._debounce.stop()
        errors: list[str] = []
        text, regex = self.search.text(), self.regex.isChecked()
        try:
            text_matcher(text, regex)
        except ValueError as exc:
            errors.append(f"Search: {exc}")
            text, regex = state.text, state.regex
        threshold = self.threshold.text().strip()
        try:
            parsed = parse_threshold(threshold, tuple(grid.values), grid.pipelines)
        except ValueError as exc:
            # A judge metric arrives in a second load: say so rather than only "unknown metric".
            loading = any(m not in grid.values for m in grid.available_metrics)
            errors.append(f"Threshold: {exc}" + (" (some metrics are still loading)" if loading else ""))
            threshold = state.threshold
        else:
            self._show_threshold_meaning(parsed.describe())
        metrics = self._checked_metrics() if self.metrics_menu.actions() else base.metrics
        new = replace(
            base,
            text=text,
            regex=regex,
            threshold=threshold,
            flag=self.flag.currentData(),
            disagree_only=self.disagree.isChecked(),
            fk_report_mode=self.fk.isChecked(),
            report_metric=self._report_metric() if self._report_group.actions() else base.report_metric,
            metrics=metrics,
            pipelines=self.pipelines.chosen() if self.pipelines.touched else leading_pipelines(grid),
        )
        return new, errors

    def _checked_metrics(self) -> tuple[str, ...]:
        return tuple(a.data() for a in self.metrics_menu.actions() if a.isChecked())

    def _report_metric(self) -> str:
        checked = self._report_group.checkedAction()
        return str(checked.data()) if checked is not None else FACTUAL_KNOWLEDGE

    def _show_threshold_meaning(self, words: str) -> None:
        text = f"Showing {words}; ◤ marks the matching scores." if words else ""
        if text != self.threshold_meaning.text():
            self.threshold_meaning.setText(text)
            self.threshold_meaning.setVisible(bool(text))

    # -- menus ------------------------------------------------------------------------

    def _rebuild_metrics_menu(self, chosen: tuple[str, ...], grid: GridData) -> None:
        known = {*grid.available_metrics, *grid.values, *chosen}
        lexical = [m for m in LEXICAL_SCORE_NAMES if m in known]
        judged = sorted(known - set(LEXICAL_SCORE_NAMES))
        self.metrics_menu.clear()
        for metric in lexical:
            self._add_metric_action(f"{metric_header(metric)} — {metric_title(metric)}", metric, chosen)
        if judged:
            run = f"judge run {grid.judge_run_id}" if grid.judge_run_id is not None else "judge"
            self.metrics_menu.addSection(f"Judge metrics ({run})")
        for metric in judged:
            self._add_metric_action(metric, metric, chosen)

    def _add_metric_action(self, text: str, metric: str, chosen: tuple[str, ...]) -> None:
        action = QAction(text, self.metrics_menu)
        action.setCheckable(True)
        action.setChecked(metric in chosen)
        action.setData(metric)
        self.metrics_menu.addAction(action)

    def _rebuild_report_menu(self, chosen: str, metrics: tuple[str, ...]) -> None:
        """The pass/fail report's metrics: Factual Knowledge and the binary judge metrics."""
        for action in self._report_group.actions():
            self._report_group.removeAction(action)
        self.report_menu.clear()
        for metric in metrics:
            text = (
                "Factual Knowledge (FK report)"
                if metric == FACTUAL_KNOWLEDGE
                else f"{metric} (judge, pass/fail)"
            )
            action = QAction(text, self.report_menu)
            action.setCheckable(True)
            action.setChecked(metric == chosen)
            action.setData(metric)
            self._report_group.addAction(action)
            self.report_menu.addAction(action)
        self._show_report_metric(chosen)

    def _show_report_metric(self, metric: str) -> None:
        self.fk.setText("FK report" if metric == FACTUAL_KNOWLEDGE else f"Pass/fail: {metric}")

    def _on_report_metric_chosen(self, action: QAction) -> None:
        """A metric picked from the report button's menu: show its pass/fail report."""
        self._show_report_metric(str(action.data()))
        with QSignalBlocker(self.fk):
            self.fk.setChecked(True)
        self.columns_changed.emit()


def _tool_button(parent: QWidget, text: str, tip: str, *, checkable: bool = False) -> QToolButton:
    button = QToolButton(parent)
    button.setText(text)
    button.setToolTip(tip)
    button.setCheckable(checkable)
    return button

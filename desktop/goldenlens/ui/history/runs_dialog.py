"""The Run History dialog: a project's scoring runs, two of them compared, and the trend.

Above, every run (id, kind, started, status, rows, options, golden version, input
fingerprint), newest first. Below, "Compare run … with run …" (by default the previous
finished lexical run with the latest; selecting two rows of the table picks them too) and a
metric: per question and pipeline the score before → after, green where it improved, red
where it regressed (:mod:`goldenlens.ui.history.run_comparison_model`), the counts above it, and on
the right that metric's mean per pipeline across all finished lexical runs
(:mod:`goldenlens.ui.history.run_trend_chart`).

Everything is read by :mod:`goldenlens.jobs.reporting.run_history` on a worker thread
(:class:`~goldenlens.ui.workers.JobRunner`), on its own connection to the project file: a
project with many runs of 100,000 rows each takes seconds to read, and the GUI never waits.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QWidget,
)

from goldenlens.core.golden.versions import short_time
from goldenlens.core.runs.run_comparison import NOT_SCORED
from goldenlens.core.view.metric_names import metric_label
from goldenlens.jobs.progress import CancelToken, ProgressFn
from goldenlens.jobs.project_access import on_project_at
from goldenlens.jobs.reporting.run_history import (
    RunHistory,
    RunPairComparison,
    RunReferenceError,
    compare_project_runs,
    run_history,
)
from goldenlens.ui.errors import show_error
from goldenlens.ui.history.run_comparison_model import ComparisonTableModel, RunListModel
from goldenlens.ui.history.run_trend_chart import RunTrendChart
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.widgets.layouts import column_layout, list_table, with_close_button
from goldenlens.ui.workers import JobRunner


class RunsDialog(QDialog):
    """Runs of the open project; compare any two; the trend of a metric across runs."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Run history — {session.path.name}")
        self._path = session.path
        self.history: RunHistory | None = None
        self.compared: RunPairComparison | None = None
        self.loader = JobRunner(self)
        self.comparer = JobRunner(self)
        self.runs_model = RunListModel(self)
        self.runs_table = list_table(self, self.runs_model, several=True)
        self.runs_table.setToolTip("Select two runs to compare them")
        self.base_combo = QComboBox(self)
        self.head_combo = QComboBox(self)
        self.metric_combo = QComboBox(self)
        for combo in (self.base_combo, self.head_combo, self.metric_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.metric_combo.setToolTip("The metric the comparison and the trend show")
        self.counts_label = QLabel(self)
        self.counts_label.setTextFormat(Qt.TextFormat.RichText)
        self.counts_label.setWordWrap(True)
        self.notes_label = QLabel(self)
        self.notes_label.setWordWrap(True)
        self.notes_label.hide()
        self.comparison_model = ComparisonTableModel(self)
        self.comparison_table = QTableView(self)
        self.comparison_table.setModel(self.comparison_model)
        self.comparison_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.trend = RunTrendChart(self)
        self._build_layout()
        self.loader.succeeded.connect(self._on_history)
        self.loader.failed.connect(lambda error: show_error(self, "Cannot read the runs", error))
        self.comparer.succeeded.connect(self._on_compared)
        self.comparer.failed.connect(self._on_compare_failed)
        self.base_combo.currentIndexChanged.connect(self._on_runs_chosen)
        self.head_combo.currentIndexChanged.connect(self._on_runs_chosen)
        self.metric_combo.currentIndexChanged.connect(self._on_metric_chosen)
        self.runs_table.selectionModel().selectionChanged.connect(self._on_selection)
        self.resize(1200, 720)
        self.reload()

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Compare run", self))
        bar.addWidget(self.base_combo)
        bar.addWidget(QLabel("→ run", self))
        bar.addWidget(self.head_combo)
        bar.addSpacing(16)
        bar.addWidget(QLabel("Metric", self))
        bar.addWidget(self.metric_combo)
        bar.addStretch(1)
        lower = QSplitter(Qt.Orientation.Horizontal, self)
        lower.addWidget(self.comparison_table)
        lower.addWidget(self.trend)
        lower.setStretchFactor(0, 3)
        lower.setStretchFactor(1, 2)
        compare = QWidget(self)
        compare_layout = column_layout(compare)
        compare_layout.addLayout(bar)
        compare_layout.addWidget(self.counts_label)
        compare_layout.addWidget(self.notes_label)
        compare_layout.addWidget(lower, 1)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.runs_table)
        splitter.addWidget(compare)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 4)
        splitter.setSizes([120, 560])
        with_close_button(self, splitter)

    # -- loading (worker thread) -------------------------------------------------------------

    def reload(self) -> None:
        """Read the runs and the trend again, then compare the chosen runs."""
        path = self._path

        def job(_progress: ProgressFn, _cancel: CancelToken) -> RunHistory:
            return on_project_at(path, run_history)

        self.counts_label.setText("Reading the runs…")
        self.loader.start(job, name="run-history")

    def compare(self, base: int, head: int) -> None:
        """Compare run ``head`` with run ``base`` (on the worker thread)."""
        for combo, run_id in ((self.base_combo, base), (self.head_combo, head)):
            combo.blockSignals(True)
            combo.setCurrentIndex(max(combo.findData(run_id), 0))
            combo.blockSignals(False)
        path = self._path

        def job(_progress: ProgressFn, _cancel: CancelToken) -> RunPairComparison:
            return on_project_at(path, compare_project_runs, str(base), str(head))

        self.counts_label.setText(f"Comparing run {head} with run {base}…")
        self.comparer.start(job, name="run-comparison")

    def shutdown(self) -> None:
        """Wait for the readers (they are short and cannot be interrupted midway)."""
        self.loader.shutdown()
        self.comparer.shutdown()

    def done(self, result: int) -> None:
        self.shutdown()
        super().done(result)

    # -- slots -------------------------------------------------------------------------------

    def _on_history(self, history: RunHistory) -> None:
        self.history = history
        self.runs_model.set_runs(list(history.runs))
        for combo in (self.base_combo, self.head_combo):
            combo.blockSignals(True)
            combo.clear()
            for run in history.runs:
                combo.addItem(f"{run.id} · {run.kind} · {short_time(run.started_at)}", run.id)
            combo.blockSignals(False)
        self._fill_metrics(history.trend.metrics)
        self._draw_trend()
        finished = [run for run in history.runs if run.kind == "lexical" and run.status == "finished"]
        if len(finished) < 2:
            self.comparison_model.set_comparison(None)
            self.counts_label.setText(
                "This project has fewer than two finished scoring runs: score it again (File ▸ Rescore) "
                "after changing the responses or the golden set, then compare."
            )
            return
        self.compare(finished[-2].id, finished[-1].id)

    def _fill_metrics(self, metrics: tuple[str, ...]) -> None:
        current = self.metric_combo.currentData()
        self.metric_combo.blockSignals(True)
        self.metric_combo.clear()
        for metric in metrics:
            self.metric_combo.addItem(metric_label(metric), metric)
        self.metric_combo.setCurrentIndex(max(self.metric_combo.findData(current), 0))
        self.metric_combo.blockSignals(False)

    def _on_compared(self, compared: RunPairComparison) -> None:
        self.compared = compared
        comparison = compared.comparison
        if self.metric_combo.count() == 0:
            self._fill_metrics(comparison.metrics)
        metric = self.metric_combo.currentData()
        self.comparison_model.set_comparison(comparison, metric if isinstance(metric, str) else "")
        notes = "\n".join(f"Note: {note}" for note in compared.notes) + self._only_text(compared)
        self.notes_label.setText(notes)
        self.notes_label.setVisible(bool(notes))
        self._show_counts()

    def _only_text(self, compared: RunPairComparison) -> str:
        lines = []
        comparison = compared.comparison
        for run, only in (
            (compared.base.id, comparison.only_in_base),
            (compared.head.id, comparison.only_in_head),
        ):
            for what, names in (("questions", only.questions), ("pipelines", only.pipelines)):
                if names:
                    lines.append(f"Only in run {run} ({what}, not compared): {', '.join(names)}")
        return ("\n" if lines and compared.notes else "") + "\n".join(lines)

    def _on_compare_failed(self, error: BaseException) -> None:
        self.compared = None
        self.comparison_model.set_comparison(None)
        self.notes_label.setText("")
        self.notes_label.hide()
        if isinstance(error, RunReferenceError):
            self.counts_label.setText(str(error))  # a choice of runs that cannot be compared
        else:
            self.counts_label.setText("")
            show_error(self, "Cannot compare the runs", error)

    def _show_counts(self) -> None:
        compared = self.compared
        metric = self.comparison_model.metric
        if compared is None or not metric:
            return
        comparison = compared.comparison
        counts = comparison.counts(metric)
        parts = [
            f"<b>{metric_label(metric)}, run {compared.head.id} against run {compared.base.id}:</b> "
            f"<span style='color:#006100'>▲ {counts['improved']} improved</span> · "
            f"<span style='color:#9C0006'>▼ {counts['regressed']} regressed</span> · "
            f"{counts['unchanged']} unchanged"
            + (f" · {counts[NOT_SCORED]} not scored" if counts[NOT_SCORED] else "")
        ]
        per_pipeline = [
            f"{item.pipeline}: mean {item.means_text()}, ▲{item.improved} ▼{item.regressed}"
            for item in comparison.summary
            if item.metric == metric
        ]
        parts.append(" &nbsp;|&nbsp; ".join(per_pipeline))
        self.counts_label.setText("<br>".join(parts))

    def _draw_trend(self) -> None:
        metric = self.metric_combo.currentData()
        if self.history is not None and isinstance(metric, str):
            self.trend.set_trend(self.history.trend, metric)

    def _on_metric_chosen(self, _index: int) -> None:
        metric = self.metric_combo.currentData()
        if isinstance(metric, str):
            self.comparison_model.set_metric(metric)
            self._show_counts()
            self._draw_trend()

    def _on_runs_chosen(self, _index: int) -> None:
        base, head = self.base_combo.currentData(), self.head_combo.currentData()
        if isinstance(base, int) and isinstance(head, int):
            self.compare(base, head)

    def _on_selection(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = sorted({index.row() for index in self.runs_table.selectionModel().selectedRows()})
        if len(rows) != 2:
            return
        runs = [self.runs_model.run_at(row) for row in rows]
        ids = sorted(run.id for run in runs if run is not None)
        if len(ids) == 2:
            self.compare(ids[0], ids[1])


def open_runs_dialog(session: ProjectSession, parent: QWidget | None = None) -> RunsDialog:
    """Open the dialog window-modally (``open()``: no nested event loop) and return it."""
    dialog = RunsDialog(session, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog

"""Summary charts of the questions the current filter shows: per-pipeline means and histograms.

Charts use **pyqtgraph**, not Qt Charts: the app depends on PySide6-Essentials, which does not
ship QtCharts (it is in the much larger PySide6-Addons), while pyqtgraph is a small pure-Python
package on top of numpy and the Qt we already have. It also draws fast enough to redraw on
every filter change.

The view is fed arrays, never a store: ``values[metric]`` has one row per visible question and
one column per pipeline (NaN = no score), so the charts follow the grid's filter. All numbers
drawn are computed here with numpy and exposed (:meth:`SummaryView.means`,
:meth:`SummaryView.histograms`) so tests check what is on screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QFontMetricsF
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from goldenlens.core.calibration.human_calibrated import HumanCalibrated
from goldenlens.core.stats.decision import Decision
from goldenlens.core.view.grid_state import column_means
from goldenlens.core.view.metric_names import metric_short
from goldenlens.core.view.pipeline_colours import pipeline_colour
from goldenlens.ui.summary.metric_axis import axis_texts, coverage_note
from goldenlens.ui.summary.reviewer_view import ReviewerView

__all__ = [
    "BIN_EDGES",
    "SummaryView",
    "column_histograms",
    "column_means",
    "plot_widget",
]

FloatArray = npt.NDArray[np.float64]

#: Histogram bin edges: 10 bins over [0, 1]; 1.0 falls in the last bin.
BIN_EDGES: FloatArray = np.linspace(0.0, 1.0, 11)

#: Intervals are shown only for an estimate of the very mean drawn (same value to this much).
_SAME_MEAN = 1e-9
NO_INTERVALS = "95% intervals not available"
#: The histogram's narrow plot has its own legend up to this many pipelines (one row of them).
_HISTOGRAM_LEGEND_UP_TO = 4


def column_histograms(values: FloatArray) -> FloatArray:
    """Counts per bin (rows) and column, NaN left out; scores outside [0, 1] are clipped in."""
    counts = np.zeros((len(BIN_EDGES) - 1, values.shape[1]), dtype=np.float64)
    for column in range(values.shape[1]):
        present = values[:, column][~np.isnan(values[:, column])]
        counts[:, column] = np.histogram(np.clip(present, 0.0, 1.0), bins=BIN_EDGES)[0]
    return counts


def plot_widget() -> pg.PlotWidget:
    """A still chart in the summary's style (no menu, no mouse zoom, light horizontal grid)."""
    plot = pg.PlotWidget()
    plot.setMenuEnabled(False)
    plot.setMouseEnabled(x=False, y=False)
    plot.hideButtons()
    plot.getPlotItem().showGrid(x=False, y=True, alpha=0.25)
    return plot


class SummaryView(QWidget):
    """Grouped bars of per-pipeline means for each metric, and per-metric histograms.

    Call :meth:`set_data` whenever the filter changes. The theme follows the widget palette
    (a dark palette gives dark charts).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pipelines: tuple[str, ...] = ()
        self._values: dict[str, FloatArray] = {}
        self._means: dict[str, dict[str, float]] = {}
        # metric -> questions with a score, per pipeline (a judge run may cover a few questions)
        self._counts: dict[str, tuple[int, ...]] = {}
        self._decision: Decision | None = None
        self._intervals: dict[tuple[str, str], tuple[float, float]] = {}
        # (label, x of its bar, width of its bar in data units, y of its foot)
        self._labels: list[tuple[pg.TextItem, float, float, float]] = []
        self._title = ""

        self.title_label = QLabel()
        font = self.title_label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.title_label.setFont(font)
        self.title_label.setWordWrap(True)  # a sweep's note on the pipelines not drawn: wrap it
        self.count_label = QLabel()
        self.count_label.setWordWrap(True)  # many metrics on few questions: wrap, never widen the window
        self.intervals_label = QLabel()
        self.intervals_label.setToolTip(
            "Error bars: 95% confidence intervals of each mean (bootstrap over questions), drawn "
            "when the scores shown are the ones the intervals were computed for"
        )
        header = QHBoxLayout()
        header.addWidget(self.title_label, 2)
        header.addWidget(self.count_label, 1)
        header.addWidget(self.intervals_label)

        self.means_plot = plot_widget()
        self.means_plot.setLabel("left", "Mean score")
        self.means_plot.getPlotItem().getViewBox().sigResized.connect(self._place_labels)
        self.hist_plot = plot_widget()
        self.hist_plot.setLabel("left", "Questions")
        self.hist_plot.setLabel("bottom", "Score")
        self.metric_combo = QComboBox()
        self.metric_combo.setToolTip("Which metric's distribution to show")
        self.metric_combo.currentIndexChanged.connect(self._draw_histogram)

        hist_header = QHBoxLayout()
        hist_header.addWidget(QLabel("Distribution of"))
        hist_header.addWidget(self.metric_combo, 1)
        hist_box = QVBoxLayout()
        hist_box.addLayout(hist_header)
        hist_box.addWidget(self.hist_plot, 1)
        self._charts = charts = QHBoxLayout()
        charts.addWidget(self.means_plot, 3)
        charts.addLayout(hist_box, 2)
        self.reviewer = ReviewerView(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.reviewer)
        layout.addLayout(header)
        layout.addLayout(charts, 1)
        self._apply_theme()
        self._render()

    # -- public API -----------------------------------------------------------------------

    def show_calibrated(self, found: HumanCalibrated | None) -> None:
        """Lead with what a reviewer would judge (the project's labels), above the metrics."""
        self.reviewer.show_calibrated(found)

    def set_data(
        self,
        pipelines: Sequence[str],
        values: Mapping[str, FloatArray],
        *,
        title: str = "",
        decision: Decision | None = None,
    ) -> None:
        """Show ``values[metric]``, float arrays of shape (visible questions, pipelines).

        NaN marks a missing score. ``decision`` adds error bars: the 95% interval of each mean
        whose estimate is of the mean drawn (same value and question count; a filtered subset
        has other means, so its bars are left out rather than drawn around the wrong number).
        Raises ``ValueError`` when an array's shape does not match ``pipelines``.
        """
        arrays: dict[str, FloatArray] = {}
        for metric, array in values.items():
            data = np.asarray(array, dtype=np.float64)
            if data.ndim != 2 or data.shape[1] != len(pipelines):
                raise ValueError(
                    f"values[{metric!r}] has shape {data.shape}; expected (questions, {len(pipelines)})"
                )
            arrays[metric] = data
        self._pipelines = tuple(pipelines)
        self._values = arrays
        self._title = title
        self._decision = decision
        self._render()

    def means(self) -> dict[str, dict[str, float]]:
        """The drawn means: metric → pipeline → mean over the visible questions (NaN if none)."""
        return {metric: dict(by_pipeline) for metric, by_pipeline in self._means.items()}

    def intervals(self) -> dict[tuple[str, str], tuple[float, float]]:
        """The error bars drawn: ``(metric, pipeline) -> (low, high)``."""
        return dict(self._intervals)

    def value_labels(self) -> list[pg.TextItem]:
        """The value labels on the bars that are visible (those that fit)."""
        return [label for label, *_ in self._labels if label.isVisible()]

    def histograms(self) -> dict[str, dict[str, FloatArray]]:
        """Counts per bin (:data:`BIN_EDGES`): metric → pipeline → 10 counts."""
        out: dict[str, dict[str, FloatArray]] = {}
        for metric, data in self._values.items():
            counts = column_histograms(data)
            out[metric] = {p: counts[:, j] for j, p in enumerate(self._pipelines)}
        return out

    def question_counts(self) -> dict[str, dict[str, int]]:
        """The questions each drawn mean rests on: metric → pipeline → questions with a score."""
        return {
            metric: dict(zip(self._pipelines, counts, strict=True)) for metric, counts in self._counts.items()
        }

    def axis_texts(self) -> list[str]:
        """The texts under the bars, one per metric, as drawn (lines split by ``\n``)."""
        ticks = self.means_plot.getPlotItem().getAxis("bottom")._tickLevels
        return [text for _, text in ticks[0]] if ticks and self._means else []

    def question_count(self) -> int:
        """Rows (visible questions) in the data shown."""
        return next((data.shape[0] for data in self._values.values()), 0)

    # -- drawing --------------------------------------------------------------------------

    def _has_data(self) -> bool:
        return bool(self._pipelines) and self.question_count() > 0

    def _render(self) -> None:
        count = self.question_count()
        self.title_label.setText(self._title or "Summary")
        self._means = {}
        self._intervals = {}
        self._counts = {}
        if self._has_data():
            for metric, data in self._values.items():
                means = column_means(data)
                self._means[metric] = {p: float(means[j]) for j, p in enumerate(self._pipelines)}
                counts = (~np.isnan(data)).sum(axis=0)
                self._counts[metric] = tuple(int(c) for c in counts)
                for j, p in enumerate(self._pipelines):
                    found = self._interval(p, metric, float(means[j]), int(counts[j]))
                    if found is not None:
                        self._intervals[(metric, p)] = found
        self.count_label.setText(self._count_text(count))
        if self._intervals:
            self.intervals_label.setText("Error bars: 95% confidence intervals")
        else:
            self.intervals_label.setText(NO_INTERVALS if self._has_data() else "")
        current = self.metric_combo.currentData()
        self.metric_combo.blockSignals(True)
        self.metric_combo.clear()
        for metric in self._values:
            note = self._coverage(metric)
            self.metric_combo.addItem(metric_short(metric) + (f" ({note} questions)" if note else ""), metric)
        index = self.metric_combo.findData(current)
        self.metric_combo.setCurrentIndex(max(index, 0))
        self.metric_combo.blockSignals(False)
        # More metrics, more of the width for their means (the histogram shows one metric).
        self._charts.setStretch(0, max(3, (len(self._means) + 1) // 2))
        self._draw_means()
        self._draw_histogram()

    def _coverage(self, metric: str) -> str:
        """``2 of 10`` when ``metric``'s means rest on fewer questions than are shown, else ``""``."""
        return coverage_note(self._counts.get(metric, ()), self.question_count())

    def _count_text(self, count: int) -> str:
        """``10 questions · 3 pipelines``, then the metrics whose means rest on fewer questions
        (a judge run on a few): ``Faithfulness, Ans. relevancy: 2 of 10 questions``."""
        pipelines = len(self._pipelines)
        text = f"{count} question{'s' * (count != 1)} · {pipelines} pipeline{'s' * (pipelines != 1)}"
        fewer: dict[str, list[str]] = {}
        for metric in self._counts:
            note = self._coverage(metric)
            if note:
                fewer.setdefault(note, []).append(metric_short(metric))
        for note, names in fewer.items():
            text += f" · {', '.join(names)}: {note} questions"
        return text

    def _interval(self, pipeline: str, metric: str, mean: float, n: int) -> tuple[float, float] | None:
        estimate = self._decision.estimate(pipeline, metric) if self._decision is not None else None
        if estimate is None or estimate.mean is None or estimate.low is None or estimate.high is None:
            return None
        if np.isnan(mean) or estimate.n != n or abs(estimate.mean - mean) > _SAME_MEAN:
            return None
        return (estimate.low, estimate.high)

    def _colours(self) -> tuple[QColor, QColor]:
        palette = self.palette()
        return palette.color(palette.ColorRole.Base), palette.color(palette.ColorRole.Text)

    def _reset(self, plot: pg.PlotWidget) -> pg.PlotItem:
        item = plot.getPlotItem()
        item.clear()
        if plot is self.means_plot:
            self._labels = []
        background, text = self._colours()
        legend = item.addLegend(offset=(-8, 8))  # created once, then reused
        legend.clear()
        legend.setLabelTextColor(text)
        legend.setBrush(pg.mkBrush(background))
        legend.setPen(pg.mkPen(text, width=0.5))
        legend.setColumnCount(min(max(len(self._pipelines), 1), 4))
        legend.setVisible(self._has_data())
        return item

    def _empty_message(self, item: pg.PlotItem, message: str) -> None:
        _, text = self._colours()
        label = pg.TextItem(message, color=text, anchor=(0.5, 0.5))
        label.setPos(0.5, 0.5)
        item.addItem(label)
        item.setXRange(0, 1, padding=0)
        item.setYRange(0, 1, padding=0)
        item.getAxis("bottom").setTicks([[]])

    def _draw_means(self) -> None:
        item = self._reset(self.means_plot)
        if not self._has_data():
            self._empty_message(item, "No questions in the current filter")
            return
        _, text = self._colours()
        metrics = list(self._means)
        n = len(self._pipelines)
        width = 0.8 / n
        for j, pipeline in enumerate(self._pipelines):
            offset = (j - (n - 1) / 2) * width
            xs: FloatArray = np.arange(len(metrics), dtype=np.float64) + offset
            heights = np.array([self._means[m][pipeline] for m in metrics])
            colour = pipeline_colour(j)
            bars = pg.BarGraphItem(
                x=xs, height=np.nan_to_num(heights), width=width * 0.92, brush=colour, pen=pg.mkPen(None)
            )
            item.addItem(bars)
            item.legend.addItem(bars, pipeline)
            tops = self._draw_errors(item, metrics, pipeline, xs, width=width, text=text)
            for x, height, top in zip(xs, heights, tops, strict=True):
                label = pg.TextItem("n/a" if np.isnan(height) else f"{height:.2f}", color=text)
                # No document margin and a smaller font: an upright label fits a narrow bar.
                label.textItem.document().setDocumentMargin(0)
                font = label.textItem.font()
                font.setPointSizeF(font.pointSizeF() * 0.85)
                label.setFont(font)
                item.addItem(label)
                self._labels.append((label, float(x), width * 0.92, top))
        item.getAxis("left").setTicks([[(v, f"{v:.1f}") for v in np.linspace(0, 1, 6)]])
        item.setXRange(-0.5, len(metrics) - 0.5, padding=0)
        # A hair below 0 so the 0.0 tick label is not clipped; headroom above for labels/legend.
        item.setYRange(-0.01, 1.18, padding=0)
        box = item.getViewBox()
        # Before the chart has a size, one line per name; its first resize fits them.
        self._set_metric_ticks(box.width() / len(metrics) if box.width() > 0 else float("inf"))
        self._place_labels()

    def _draw_errors(
        self,
        item: pg.PlotItem,
        metrics: Sequence[str],
        pipeline: str,
        xs: FloatArray,
        *,
        width: float,
        text: QColor,
    ) -> list[float]:
        """Error bars of ``pipeline``'s intervals; returns where each bar's label may start
        (above the whisker, else above the bar)."""
        tops: list[float] = []
        found = [self._intervals.get((m, pipeline)) for m in metrics]
        keep = [i for i, f in enumerate(found) if f is not None]
        for i, metric in enumerate(metrics):
            interval = found[i]
            mean = self._means[metric][pipeline]
            tops.append(interval[1] if interval is not None else (0.0 if np.isnan(mean) else mean))
        if keep:
            x = np.array([xs[i] for i in keep])
            y = np.array([self._means[metrics[i]][pipeline] for i in keep])
            low = np.array([y[k] - found[i][0] for k, i in enumerate(keep)])  # type: ignore[index]
            high = np.array([found[i][1] - y[k] for k, i in enumerate(keep)])  # type: ignore[index]
            item.addItem(
                pg.ErrorBarItem(
                    x=x, y=y, top=high, bottom=low, beam=width * 0.4, pen=pg.mkPen(text, width=1.2)
                )
            )
        return tops

    def _place_labels(self) -> None:
        """Each value label above its bar: level while it fits the bar's width, turned upright
        when only that fits, hidden when neither does (many pipelines on a narrow chart) — never
        two labels over each other ("0.330.33")."""
        if not self._labels:
            return
        box = self.means_plot.getPlotItem().getViewBox()
        (x0, x1), _ = box.viewRange()
        pixels_per_unit = box.width() / max(x1 - x0, 1e-9)
        if pixels_per_unit <= 0:
            return
        self._set_metric_ticks(pixels_per_unit)
        sizes = [label.textItem.boundingRect() for label, *_ in self._labels]
        widest = max(size.width() for size in sizes) + 2
        tall = max(size.height() for size in sizes) + 1
        slot = min(bar for _, _, bar, _ in self._labels) * pixels_per_unit
        upright = widest > slot
        visible = slot >= (tall if upright else widest)
        for label, x, _bar, top in self._labels:
            label.setVisible(visible)
            label.setAngle(90 if upright else 0)
            label.setAnchor((0, 0.5) if upright else (0.5, 1))
            label.setPos(x, top + 0.01)

    def _set_metric_ticks(self, slot: float) -> None:
        """The metric names under their bars, fitted to ``slot`` pixels each (one per metric)."""
        axis = self.means_plot.getPlotItem().getAxis("bottom")
        font = self.font()
        axis.setStyle(tickFont=font)
        metrics = list(self._means)
        notes = [self._coverage(m) for m in metrics]
        measure = QFontMetricsF(font)
        texts = axis_texts([metric_short(m) for m in metrics], notes, slot, measure)
        axis.setTicks([list(enumerate(texts))])
        # pyqtgraph sizes the axis for 80% of a text's height, which cuts the last of several
        # lines: room for every line, and the gap above them.
        lines = max((text.count("\n") + 1 for text in texts), default=1)
        axis.setHeight(int(lines * measure.lineSpacing() + 8))

    def _draw_histogram(self) -> None:
        item = self._reset(self.hist_plot)
        metric = self.metric_combo.currentData()
        if not self._has_data() or metric not in self._values:
            self._empty_message(item, "No data")
            return
        counts = column_histograms(self._values[metric])
        n = len(self._pipelines)
        bin_width = float(BIN_EDGES[1] - BIN_EDGES[0])
        width = bin_width * 0.85 / n
        centres = (BIN_EDGES[:-1] + BIN_EDGES[1:]) / 2
        for j, pipeline in enumerate(self._pipelines):
            xs = centres + (j - (n - 1) / 2) * width
            colour = pipeline_colour(j)
            bars = pg.BarGraphItem(
                x=xs, height=counts[:, j], width=width * 0.92, brush=colour, pen=pg.mkPen(None)
            )
            item.addItem(bars)
            if n <= _HISTOGRAM_LEGEND_UP_TO:  # more: the means chart's legend names the colours
                item.legend.addItem(bars, pipeline)
        item.legend.setVisible(self._has_data() and n <= _HISTOGRAM_LEGEND_UP_TO)
        top = max(float(counts.max()), 1.0)
        step = max(1, int(np.ceil(top / 6)))
        # Whole-question ticks only: no fractional counts, no minor grid.
        item.getAxis("left").setTicks([[(float(v), str(v)) for v in range(0, int(top) + step, step)], []])
        item.getAxis("bottom").setTicks([[(float(e), f"{e:.1f}") for e in BIN_EDGES[::2]]])
        item.setXRange(-0.03, 1.03, padding=0)
        item.setYRange(-0.01 * top, top * 1.25, padding=0)

    # -- theme ----------------------------------------------------------------------------

    def _apply_theme(self) -> None:
        background, text = self._colours()
        for plot in (self.means_plot, self.hist_plot):
            plot.setBackground(background)
            item = plot.getPlotItem()
            for name in ("left", "bottom"):
                axis = item.getAxis(name)
                axis.setPen(pg.mkPen(text))
                axis.setTextPen(pg.mkPen(text))

    def changeEvent(self, event: QEvent) -> None:
        """Redraw in the new colours when the palette changes (light/dark switch)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
            self._render()

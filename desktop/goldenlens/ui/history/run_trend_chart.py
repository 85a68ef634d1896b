"""The trend of one metric across a project's finished runs: one line per pipeline.

Drawn with pyqtgraph in the Summary tab's plot style and pipeline colours
(:mod:`goldenlens.ui.summary.summary_view`), so a pipeline has the same colour everywhere. The x axis
is the runs in order (ticks ``run 3``), the y axis the mean score over the questions each run
scored; a run without a score for a pipeline leaves a gap. :meth:`RunTrendChart.series` is what
is drawn, for tests.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QVBoxLayout, QWidget

from goldenlens.core.view.metric_names import metric_label
from goldenlens.core.view.pipeline_colours import pipeline_colour
from goldenlens.jobs.reporting.run_history import RunTrend
from goldenlens.ui.summary.summary_view import plot_widget


class RunTrendChart(QWidget):
    """Mean of one metric per pipeline across runs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._trend = RunTrend()
        self._metric = ""
        self._series: dict[str, list[float | None]] = {}
        self.plot = plot_widget()
        self.plot.setLabel("left", "Mean score")
        self.plot.setLabel("bottom", "Run")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        palette = self.palette()
        background, text = palette.color(palette.ColorRole.Base), palette.color(palette.ColorRole.Text)
        self.plot.setBackground(background)
        self._text = text
        for name in ("left", "bottom"):
            axis = self.plot.getPlotItem().getAxis(name)
            axis.setPen(pg.mkPen(text))
            axis.setTextPen(pg.mkPen(text))

    def set_trend(self, trend: RunTrend, metric: str) -> None:
        """Show ``metric``'s means in ``trend``."""
        self._trend = trend
        self._metric = metric
        self._draw()

    def series(self) -> dict[str, list[float | None]]:
        """The drawn lines: pipeline → mean per run (``None``: no score)."""
        return {pipeline: list(values) for pipeline, values in self._series.items()}

    def _draw(self) -> None:
        item = self.plot.getPlotItem()
        item.clear()
        legend = item.addLegend(offset=(-8, 8))
        legend.clear()
        legend.setLabelTextColor(self._text)
        runs = self._trend.runs
        self._series = {}
        item.setTitle(f"{metric_label(self._metric)} across runs" if self._metric else "")
        if not runs or not self._metric:
            return
        xs = np.arange(len(runs), dtype=np.float64)
        for j, pipeline in enumerate(self._trend.pipelines):
            values = list(self._trend.means.get((pipeline, self._metric), ()))
            if not values:
                continue
            self._series[pipeline] = values
            ys = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
            colour = pipeline_colour(j)
            line = item.plot(
                xs,
                ys,
                pen=pg.mkPen(colour, width=2),
                symbol="o",
                symbolBrush=colour,
                symbolPen=pg.mkPen(colour),
                symbolSize=7,
                connect="finite",
                name=pipeline,
            )
            line.setToolTip(pipeline)
        item.getAxis("bottom").setTicks([[(float(i), f"run {run.id}") for i, run in enumerate(runs)]])
        item.getAxis("left").setTicks([[(v, f"{v:.1f}") for v in np.linspace(0, 1, 6)]])
        item.setXRange(-0.3, max(len(runs) - 1, 1) + 0.3, padding=0)
        item.setYRange(-0.02, 1.15, padding=0)

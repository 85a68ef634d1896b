"""The Summary tab's error bars (95% intervals of a decision) and value labels that never
overlap, with 3 to 7 pipelines."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.stats.decision import Decision, MetricEstimate
from goldenlens.ui.summary.summary_view import NO_INTERVALS, SummaryView


def _values(pipelines: int, questions: int = 10) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    # 1/3 everywhere on purpose: every label reads "0.33", the case that printed "0.330.33".
    base = np.full((questions, pipelines), 1 / 3)
    return {
        m: base + (rng.random((questions, pipelines)) - 0.5) * 0.01 * i
        for i, m in enumerate(LEXICAL_SCORE_NAMES)
    }


def _decision(pipelines: list[str], values: dict[str, np.ndarray], *, shift: float = 0.0) -> Decision:
    estimates = []
    for j, p in enumerate(pipelines):
        for m in LEXICAL_SCORE_NAMES:
            mean = float(np.mean(values[m][:, j]))
            estimates.append(MetricEstimate(p, m, mean + shift, mean - 0.1, mean + 0.15, values[m].shape[0]))
    return Decision(tuple(estimates), (), (), 0.95, 10_000, 1)


@pytest.fixture
def view(qtbot: QtBot) -> SummaryView:
    widget = SummaryView()
    qtbot.addWidget(widget)
    widget.resize(1400, 700)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


@pytest.mark.parametrize("count", [4, 5])
def test_value_labels_do_not_overlap(view: SummaryView, qtbot: QtBot, count: int) -> None:
    pipelines = [f"Pipeline{i + 1}" for i in range(count)]
    values = _values(count)
    view.set_data(pipelines, values, decision=_decision(pipelines, values))
    qtbot.wait(50)
    labels = view.value_labels()
    assert len(labels) == count * len(LEXICAL_SCORE_NAMES)  # at this width every label fits
    rects = [label.sceneBoundingRect() for label in labels]
    for a, b in itertools.combinations(range(len(rects)), 2):
        assert not rects[a].intersects(rects[b]), (labels[a].toPlainText(), labels[b].toPlainText())


def test_a_narrow_chart_hides_labels_rather_than_stacking_them(view: SummaryView, qtbot: QtBot) -> None:
    pipelines = [f"P{i}" for i in range(7)]
    values = _values(7)
    view.resize(500, 400)
    view.set_data(pipelines, values)
    qtbot.wait(50)
    rects = [label.sceneBoundingRect() for label in view.value_labels()]
    assert all(not a.intersects(b) for a, b in itertools.combinations(rects, 2))


def test_error_bars_follow_the_decision(view: SummaryView) -> None:
    pipelines = ["A", "B", "C"]
    values = _values(3)
    view.set_data(pipelines, values, decision=_decision(pipelines, values))
    intervals = view.intervals()
    assert len(intervals) == 3 * len(LEXICAL_SCORE_NAMES)
    for (metric, pipeline), (low, high) in intervals.items():
        mean = float(np.mean(values[metric][:, pipelines.index(pipeline)]))
        assert (low, high) == pytest.approx((mean - 0.1, mean + 0.15))
    assert view.intervals_label.text() == "Error bars: 95% confidence intervals"


def test_no_decision_or_another_mean_draws_no_interval(view: SummaryView) -> None:
    pipelines = ["A", "B", "C"]
    values = _values(3)
    view.set_data(pipelines, values)
    assert view.intervals() == {}
    assert view.intervals_label.text() == NO_INTERVALS
    # A filtered subset: the decision's estimates are of other means; no bar around them.
    view.set_data(pipelines, {m: v[:4] for m, v in values.items()}, decision=_decision(pipelines, values))
    assert view.intervals() == {}
    view.set_data(pipelines, values, decision=_decision(pipelines, values, shift=0.01))
    assert view.intervals() == {}

"""The summary charts draw what numpy computes from the rows the filter shows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QColor, QPalette
from pytestqt.qtbot import QtBot

from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES, RECALL
from goldenlens.store.project import ProjectStore
from goldenlens.ui.summary.summary_view import BIN_EDGES, SummaryView, column_means


def _sample_values(path: Path) -> tuple[list[str], list[str], dict[str, np.ndarray]]:
    with ProjectStore.open(path) as store:
        run = store.runs.latest("lexical", finished_only=True)
        assert run is not None
        pipelines = store.responses.pipelines()
        questions = [item.id for item in store.golden.items()]
        values: dict[str, np.ndarray] = {}
        for metric in LEXICAL_SCORE_NAMES:
            matrix = store.results.score_matrix(run.id, metric)
            values[metric] = np.array(
                [
                    [np.nan if matrix.get((q, p)) is None else matrix[(q, p)] for p in pipelines]
                    for q in questions
                ],
                dtype=float,
            )
    return pipelines, questions, values


@pytest.fixture
def view(qtbot: QtBot) -> SummaryView:
    widget = SummaryView()
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    return widget


def _assert_means_equal_nanmean(
    view: SummaryView, pipelines: list[str], values: dict[str, np.ndarray]
) -> None:
    means = view.means()
    assert list(means) == list(values)
    for metric, data in values.items():
        expected = np.nanmean(data, axis=0)
        assert list(means[metric]) == pipelines
        assert [means[metric][p] for p in pipelines] == pytest.approx(list(expected))


def test_means_are_numpy_nanmean_of_the_sample(view: SummaryView, scored_project: Path) -> None:
    pipelines, _questions, values = _sample_values(scored_project)
    view.set_data(pipelines, values, title="All questions")
    _assert_means_equal_nanmean(view, pipelines, values)
    # The Factual Knowledge Report of the sample: 8/10, 4/10 and 5/10 found.
    assert view.means()[FACTUAL_KNOWLEDGE] == pytest.approx(
        {"Pipeline1": 0.8, "Pipeline2": 0.4, "Pipeline3": 0.5}
    )
    assert view.title_label.text() == "All questions"
    assert view.count_label.text() == "10 questions · 3 pipelines"
    assert view.question_count() == 10


def test_a_filtered_subset_changes_the_means(view: SummaryView, scored_project: Path) -> None:
    pipelines, questions, values = _sample_values(scored_project)
    view.set_data(pipelines, values)
    before = view.means()
    rows = [questions.index(q) for q in ("q02", "q03", "q06")]
    subset = {metric: data[rows] for metric, data in values.items()}
    view.set_data(pipelines, subset, title="Flagged")
    _assert_means_equal_nanmean(view, pipelines, subset)
    assert view.means() != before
    assert view.means()[FACTUAL_KNOWLEDGE] == pytest.approx(
        {"Pipeline1": 1 / 3, "Pipeline2": 0.0, "Pipeline3": 0.0}
    )
    assert view.count_label.text().startswith("3 questions")


def test_nan_cells_are_left_out_and_an_all_nan_column_is_nan(view: SummaryView) -> None:
    data = np.array([[1.0, np.nan], [0.0, np.nan], [np.nan, np.nan]])
    view.set_data(["A", "B"], {F1_SCORE: data})
    means = view.means()[F1_SCORE]
    assert means["A"] == pytest.approx(0.5)
    assert np.isnan(means["B"])
    np.testing.assert_array_equal(column_means(data)[:1], np.nanmean(data[:, :1], axis=0))


def test_histograms_count_ten_bins_per_pipeline(view: SummaryView) -> None:
    data = np.array([[0.0, 1.0], [0.05, 0.95], [0.5, np.nan], [1.0, 0.1]])
    view.set_data(["A", "B"], {RECALL: data})
    hist = view.histograms()[RECALL]
    assert len(BIN_EDGES) == 11
    assert hist["A"].tolist() == [2, 0, 0, 0, 0, 1, 0, 0, 0, 1]
    assert hist["B"].tolist() == [0, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    assert view.metric_combo.count() == 1
    assert view.metric_combo.currentData() == RECALL


def test_metric_selector_keeps_its_choice_across_filter_changes(
    view: SummaryView, scored_project: Path
) -> None:
    pipelines, _questions, values = _sample_values(scored_project)
    view.set_data(pipelines, values)
    assert view.metric_combo.count() == 7
    view.metric_combo.setCurrentIndex(view.metric_combo.findData(F1_SCORE))
    view.set_data(pipelines, {m: d[:4] for m, d in values.items()})
    assert view.metric_combo.currentData() == F1_SCORE


def test_empty_data_is_handled(view: SummaryView) -> None:
    view.set_data([], {})
    assert view.means() == {}
    assert view.histograms() == {}
    assert view.count_label.text() == "0 questions · 0 pipelines"
    view.set_data(["A", "B"], {F1_SCORE: np.empty((0, 2))})
    assert view.means() == {}
    assert view.question_count() == 0
    view.set_data(["A"], {F1_SCORE: np.array([[0.3]])})
    assert view.means() == {F1_SCORE: {"A": pytest.approx(0.3)}}


def test_wrong_shape_is_refused(view: SummaryView) -> None:
    with pytest.raises(ValueError, match="expected"):
        view.set_data(["A", "B"], {F1_SCORE: np.zeros((3, 3))})


def test_dark_palette_gives_a_dark_chart_background(view: SummaryView) -> None:
    palette = QPalette(view.palette())
    palette.setColor(QPalette.ColorRole.Base, QColor("#17181a"))
    palette.setColor(QPalette.ColorRole.Text, QColor("#e8eaed"))
    view.setPalette(palette)
    view.set_data(["A"], {F1_SCORE: np.array([[0.3], [0.9]])})
    background = view.means_plot.backgroundBrush().color()
    assert background.lightness() < 60
    assert view.means()[F1_SCORE]["A"] == pytest.approx(0.6)

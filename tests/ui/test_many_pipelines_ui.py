"""The grid and the detail pane with a sweep of many pipelines (issue #22): the grid opens on
the ten leaders by Factual Knowledge, the picker shows any others, and the detail pane gives
cards to the pipelines the grid shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from tests.sweep_inputs import SWEEP_PIPELINES, write_sweep

from goldenlens.cli.main import main
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.view.grid_state import SHOWN_PIPELINES
from goldenlens.queries.grid_data import GridData
from goldenlens.queries.grid_loading import load_grid
from goldenlens.store.project import ProjectStore
from goldenlens.ui.grid.score_grid import ScoreGrid
from goldenlens.ui.main_window import MainWindow


@pytest.fixture
def sweep_grid(tmp_path: Path) -> GridData:
    golden, responses = write_sweep(tmp_path)
    project = tmp_path / "sweep.goldenlens"
    assert main(["score", str(golden), str(responses), "--project", str(project), "-q"]) == 0
    with ProjectStore.open(project) as store:
        run = store.runs.latest()
        assert run is not None
        return load_grid(store, run.id)


def _score_pipelines(grid: ScoreGrid) -> list[str]:
    model = grid._model
    return [c.pipeline for c in model.columns() if c.metric == FACTUAL_KNOWLEDGE and c.pipeline]


def _fk_means(data: GridData) -> dict[str, float]:
    values = data.values[FACTUAL_KNOWLEDGE]
    return {p: float(values[:, i].mean()) for i, p in enumerate(data.pipelines)}


def test_the_grid_opens_on_the_leaders_and_the_picker_shows_the_rest(
    qtbot: QtBot, sweep_grid: GridData
) -> None:
    grid = ScoreGrid()
    qtbot.addWidget(grid)
    grid.set_data(sweep_grid)
    shown = _score_pipelines(grid)
    assert len(sweep_grid.pipelines) == SWEEP_PIPELINES
    assert len(shown) == SHOWN_PIPELINES
    means = _fk_means(sweep_grid)
    # The ten with the highest means, in the project's order; Echo (right on all) among them.
    cut = sorted(means.values(), reverse=True)[SHOWN_PIPELINES - 1]
    assert "Echo" in shown
    assert all(means[p] >= cut for p in shown)
    assert shown == [p for p in sweep_grid.pipelines if p in shown]
    picker = grid.filter_bar.pipelines
    assert not picker.isHidden()
    assert picker.text() == f"Pipelines: {SHOWN_PIPELINES} of {SWEEP_PIPELINES}"
    # Ticking a hidden pipeline in the picker's list gives it columns.
    hidden = next(p for p in sweep_grid.pipelines if p not in shown)
    item = next(
        picker.list.item(i) for i in range(picker.list.count()) if picker.list.item(i).text() == hidden
    )
    item.setCheckState(Qt.CheckState.Checked)
    assert hidden in _score_pipelines(grid)
    assert picker.text() == f"Pipelines: {SHOWN_PIPELINES + 1} of {SWEEP_PIPELINES}"
    picker.everyone.click()
    assert _score_pipelines(grid) == list(sweep_grid.pipelines)
    assert picker.text() == f"Pipelines: all {SWEEP_PIPELINES}"
    picker.filter.setText("tuned1")
    visible = [
        picker.list.item(i).text() for i in range(picker.list.count()) if not picker.list.item(i).isHidden()
    ]
    assert visible == ["Tuned10", "Tuned11", "Tuned12", "Tuned13"]
    picker.leaders.click()
    assert _score_pipelines(grid) == shown
    # The analyst's choice holds when the same project's data comes again (a reload).
    item.setCheckState(Qt.CheckState.Checked)
    grid.set_data(sweep_grid)
    assert hidden in _score_pipelines(grid)


def test_a_few_pipelines_are_all_shown(qtbot: QtBot, scored_project: Path) -> None:
    with ProjectStore.open(scored_project) as store:
        run = store.runs.latest()
        assert run is not None
        data = load_grid(store, run.id)
    grid = ScoreGrid()
    qtbot.addWidget(grid)
    grid.set_data(data)
    assert _score_pipelines(grid) == list(data.pipelines)
    assert grid.filter_bar.pipelines.text() == f"Pipelines: all {len(data.pipelines)}"
    assert grid.filter_bar.pipelines.isHidden()  # three: no picker taking width from the detail pane


def _sweep_window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """The app on a scored sweep of 14 pipelines, its grid loaded."""
    golden, responses = write_sweep(tmp_path)
    project = tmp_path / "sweep.goldenlens"
    assert main(["score", str(golden), str(responses), "--project", str(project), "-q"]) == 0
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=20_000)
    return window


def test_the_detail_pane_gives_cards_to_the_pipelines_the_grid_shows(qtbot: QtBot, tmp_path: Path) -> None:
    window = _sweep_window(qtbot, tmp_path)
    assert window.grid.select_question("q03")
    qtbot.waitUntil(lambda: len(window.detail.cards()) == SHOWN_PIPELINES, timeout=20_000)
    shown = _score_pipelines(window.grid)
    assert [card.pipeline for card in window.detail.cards()] == shown
    window.grid.filter_bar.pipelines.everyone.click()
    data = window.grid.grid()
    assert data is not None
    assert [card.pipeline for card in window.detail.cards()] == list(data.pipelines)


def test_the_summary_draws_the_pipelines_the_grid_shows_and_sums_up_the_rest(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = _sweep_window(qtbot, tmp_path)
    shown = _score_pipelines(window.grid)
    qtbot.waitUntil(lambda: list(window.summary.means()[FACTUAL_KNOWLEDGE]) == shown, timeout=20_000)
    data = window.grid.grid()
    assert data is not None
    means = _fk_means(data)
    others = [means[p] for p in data.pipelines if p not in shown]
    title = window.summary.title_label.text()
    assert f"{SHOWN_PIPELINES} of {SWEEP_PIPELINES} pipelines drawn" in title
    assert (
        f"the other {len(others)} have Factual Knowledge means from {min(others):.2f} to {max(others):.2f}"
        in title
    )
    window.grid.filter_bar.pipelines.everyone.click()
    qtbot.waitUntil(lambda: len(window.summary.means()[FACTUAL_KNOWLEDGE]) == SWEEP_PIPELINES, timeout=20_000)
    assert "pipelines drawn" not in window.summary.title_label.text()


def test_the_labels_tab_makes_a_sweeps_answer_cards_a_batch_at_a_time(qtbot: QtBot, tmp_path: Path) -> None:
    """60 pipelines giving 60 different answers to q01: 40 cards at once, a button for the rest,
    and moving the selection past the last card made makes the cards it needs."""
    import csv

    from goldenlens.jobs import open_project
    from goldenlens.queries.project import ProjectQueries
    from goldenlens.ui.labelling.labelling_pane import CARD_BATCH, LabellingPane

    golden, _ = write_sweep(tmp_path)
    responses = tmp_path / "sixty.csv"
    with responses.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "pipeline", "response"])
        writer.writerows(["q01", f"P{p:02d}", f"Answer number {p}"] for p in range(60))
    project = tmp_path / "sixty.goldenlens"
    assert main(["score", str(golden), str(responses), "--project", str(project), "-q"]) == 0
    with open_project(project) as handle:
        queries = ProjectQueries(handle)
        question = queries.labelling_question(queries.latest_run_id(), "q01")
    assert question is not None
    assert len(question.cards) == 60
    pane = LabellingPane()
    qtbot.addWidget(pane)
    pane.show_question(question)
    assert len(pane.cards.cards()) == CARD_BATCH == 40
    assert not pane.more_button.isHidden()
    assert pane.more_button.text() == "Show 20 more of 20 other answers"
    pane.select(45)
    assert len(pane.cards.cards()) == 46
    assert pane.selected == 45
    pane.more_button.click()
    assert len(pane.cards.cards()) == 60
    assert pane.more_button.isHidden()

"""Progressive grid loading: a project larger than the head shows its first rows at once, then
all of them from a worker, with the analyst's place kept; a small project loads in one go.

A real 1,200-question project (golden items and responses through the store API, lexical
scores by ``score_project``) opened in the real main window; nothing is mocked.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.view.grid_state import ID_COLUMN, GridState
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.queries.grid_data import GridData
from goldenlens.queries.grid_loading import HEAD_LIMIT, load_grid, load_grid_head
from goldenlens.queries.project import ProjectQueries
from goldenlens.store.project import ProjectStore, store_of
from goldenlens.ui.grid.score_grid import ScoreGrid
from goldenlens.ui.grid.score_table_model import ScoreTableModel
from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.workers import live_worker_threads

QUESTIONS = 1_200
PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")
TIMEOUT = 30_000
WORDS = (
    "net", "sales", "quarter", "income", "cash", "shares", "stock", "segment", "growth", "billion",
    "million", "percent",
)  # fmt: skip


def _text(i: int, n: int) -> str:
    return " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(n))


@pytest.fixture(scope="module")
def big_project_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,200 questions x 3 pipelines, scored; made once, copied per test."""
    path = tmp_path_factory.mktemp("progressive") / "big.goldenlens"
    items = [
        GoldenItem(f"q{i:04d}", f"Question {i}: {_text(i, 8)}?", _text(i + 1, 12), WORDS[i % len(WORDS)])
        for i in range(QUESTIONS)
    ]
    responses = [
        PipelineResponse(item.id, name, _text(i + k, 6 + k * 4))
        for i, item in enumerate(items)
        for k, name in enumerate(PIPELINES)
    ]
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace(items, source="test")
        store.responses.replace(responses, list(PIPELINES))
        score_project(store)
    return path


@pytest.fixture
def big_project(big_project_file: Path, tmp_path: Path) -> Path:
    path = tmp_path / "big.goldenlens"
    shutil.copy(big_project_file, path)
    return path


@pytest.fixture
def window(qtbot: QtBot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1400, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def _count(window: MainWindow) -> str:
    return window.grid.filter_bar.count.text()


def _loaded(window: MainWindow) -> bool:
    data = window.grid.grid()
    return data is not None and data.complete and len(data) == QUESTIONS


def test_large_project_shows_the_first_rows_at_once_then_all(
    qtbot: QtBot, window: MainWindow, big_project: Path
) -> None:
    assert window.projects.open_project(big_project)
    grid = window.grid
    # Synchronously, before the event loop ran: the first rows, labelled as loading.
    data = grid.grid()
    assert data is not None
    assert (data.complete, data.total, len(data)) == (False, QUESTIONS, HEAD_LIMIT)
    assert grid.model().rowCount() == HEAD_LIMIT
    assert _count(window) == "Loading 1,200 questions…"
    assert "first 500" in grid.filter_bar.count.toolTip()
    assert grid.current_question() == "q0000"
    assert live_worker_threads()  # the full grid loads in a worker meanwhile

    # The analyst moves on while it loads: a question of the first rows, scrolled a little.
    assert grid.select_question("q0123")
    bar = grid.table_view().verticalScrollBar()
    bar.setValue(110)
    qtbot.waitUntil(lambda: _loaded(window), timeout=TIMEOUT)
    assert grid.model().rowCount() == QUESTIONS
    assert _count(window) == "1,200 of 1,200 questions"
    assert grid.filter_bar.count.toolTip() == ""
    assert grid.current_question() == "q0123"
    assert bar.value() == 110
    assert grid.visible_question_ids()[1199] == "q1199"


def test_filters_and_sorting_act_on_the_loaded_rows_then_on_all(
    qtbot: QtBot, window: MainWindow, big_project: Path
) -> None:
    assert window.projects.open_project(big_project)
    grid = window.grid
    grid.set_state(replace(GridState(), sort_column=ID_COLUMN, sort_descending=True))
    assert grid.visible_question_ids()[0] == "q0499"  # the last of the rows loaded so far
    grid.set_state(replace(grid.state(), text="question 1"))  # q0001, q0010..q0019, q0100..q0199
    assert grid.model().rowCount() == 111
    assert _count(window) == "111 of the first 500 · Loading 1,200 questions…"
    session = window.projects.session
    assert session is not None
    session.notify_question("q0001")  # an edit while loading: first rows again, load restarted
    assert grid.model().rowCount() == 111
    assert grid.visible_question_ids()[0] == "q0199"
    qtbot.waitUntil(lambda: _loaded(window), timeout=TIMEOUT)
    data = grid.grid()
    assert data is not None
    assert {"search", "ranks"} <= set(data._cache)  # built in the worker for this filter and order
    # The same state now covers every question (q1, q10-q19, q100-q199, q1000-q1199).
    assert grid.state().text == "question 1"
    assert grid.state().sort_column == ID_COLUMN
    assert grid.model().rowCount() == 311
    assert grid.visible_question_ids()[0] == "q1199"
    assert _count(window) == "311 of 1,200 questions"


def test_an_edit_keeps_the_full_grid_on_screen_while_it_reloads(
    qtbot: QtBot, window: MainWindow, big_project: Path
) -> None:
    assert window.projects.open_project(big_project)
    qtbot.waitUntil(lambda: _loaded(window), timeout=TIMEOUT)
    grid, session = window.grid, window.projects.session
    assert session is not None
    assert grid.select_question("q0900")
    store_of(session.handle).reviews.set("q0900", "accepted")
    session.notify_question("q0900")
    # Not shrunk back to the first rows: the place (q0900) stays while the worker reloads.
    assert grid.model().rowCount() == QUESTIONS
    assert grid.current_question() == "q0900"
    qtbot.waitUntil(lambda: grid.model().data(grid.model().index(900, 2)) == "✓ Accepted", timeout=TIMEOUT)
    assert grid.current_question() == "q0900"
    assert _loaded(window)


def _grid_workers() -> list[str]:
    return [t.name for t in live_worker_threads() if t.name.startswith("goldenlens-grid")]


def test_small_project_loads_in_one_go_without_a_worker(
    qtbot: QtBot, window: MainWindow, scored_project: Path
) -> None:
    assert window.projects.open_project(scored_project)
    data = window.grid.grid()
    assert data is not None
    assert (data.complete, data.total, len(data)) == (True, 10, 10)
    assert _count(window) == "10 of 10 questions"
    assert window.grid.current_question() == "q01"
    assert not _grid_workers()  # (the advice and the estimates are worked out in theirs)
    session = window.projects.session
    assert session is not None
    store_of(session.handle).reviews.set("q02", "needs_curation")
    session.notify_question("q02")  # an edit: reloaded at once, still no worker
    assert not _grid_workers()
    assert window.grid.model().data(window.grid.model().index(1, 2)) == "✎ Needs curation"


def test_set_data_keeps_the_top_question_and_a_current_one_in_view(qtbot: QtBot, big_project: Path) -> None:
    """Sorted descending by id, the first rows' order differs from the full grid's: the question
    at the top stays at the top, and a current question that was in view stays in view."""
    with ProjectStore.open(big_project) as store:
        run = store.runs.latest()
        assert run is not None
        head, full = load_grid_head(store, run.id, limit=HEAD_LIMIT), load_grid(store, run.id)
    grid = ScoreGrid()
    qtbot.addWidget(grid)
    grid.resize(1200, 600)
    grid.show()
    grid.set_data(head)
    grid.set_state(replace(GridState(), sort_column=ID_COLUMN, sort_descending=True))
    view, bar = grid.table_view(), grid.table_view().verticalScrollBar()
    bar.setValue(200)  # the top row shows q0299
    assert grid.select_question("q0290")
    grid.set_data(full)
    assert grid.model().question_id(bar.value()) == "q0299"  # row 900 of the full grid
    assert view.visualRect(view.currentIndex()).intersects(view.viewport().rect())
    assert grid.current_question() == "q0290"
    bar.setValue(0)
    grid.set_data(full)
    assert bar.value() == 0


def test_row_count_label_of_a_partial_grid(scored_project: Path) -> None:
    with ProjectStore.open(scored_project) as store:
        head = load_grid_head(store, None, limit=4)
    model = ScoreTableModel()
    model.set_data(head)
    text, tip = model.count_label()
    assert text == "Loading 10 questions…"
    assert tip.startswith("The first 4 questions while the rest load")
    model.set_state(replace(model.state(), text="q01"))
    assert model.count_label()[0] == "1 of the first 4 · Loading 10 questions…"
    model.set_data(GridData.empty())
    assert model.count_label() == ("0 of 0 questions", "")


def test_the_shown_metrics_load_first_then_the_others(
    qtbot: QtBot, window: MainWindow, big_project: Path
) -> None:
    """The full grid comes first with the metrics the state uses, so it is in use sooner; the
    other lexical metrics follow from a second job, equal to a one-go load of all of them."""
    seen: list[tuple[bool, frozenset[str]]] = []
    window.grid.model().modelReset.connect(
        lambda: seen.append(
            (window.grid.model().grid().complete, frozenset(window.grid.model().grid().values))
        )
    )
    assert window.projects.open_project(big_project)
    shown = frozenset(GridState().metrics)
    qtbot.waitUntil(
        lambda: bool(seen) and seen[-1] == (True, frozenset(LEXICAL_SCORE_NAMES)), timeout=TIMEOUT
    )
    complete = [metrics for done, metrics in seen if done]
    assert complete[0] == shown  # the first full grid: the shown metrics only
    data = window.grid.grid()
    assert data is not None
    with ProjectStore.open(big_project) as store:
        run = store.runs.latest()
        assert run is not None
        expected = load_grid(store, run.id, LEXICAL_SCORE_NAMES)
    for metric in LEXICAL_SCORE_NAMES:
        assert data.values[metric].tobytes() == expected.values[metric].tobytes(), metric


def test_an_edit_while_the_other_metrics_load_is_kept(
    qtbot: QtBot, window: MainWindow, big_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second job's grid is applied only onto the grid it started from: after an edit
    patched the grid meanwhile, it is loaded again from the patched one."""
    gate, started = threading.Event(), []
    real = ProjectQueries.grid_with_metrics

    def held_first(self: ProjectQueries, grid: GridData, metrics: Sequence[str]) -> GridData:
        started.append(grid)
        if len(started) == 1:
            gate.wait(TIMEOUT / 1000)  # the first run of the second job waits for the edit
        return real(self, grid, metrics)

    monkeypatch.setattr(ProjectQueries, "grid_with_metrics", held_first)
    assert window.projects.open_project(big_project)
    grid, session = window.grid, window.projects.session
    assert session is not None
    qtbot.waitUntil(lambda: bool(started), timeout=TIMEOUT)
    assert _loaded(window)
    store_of(session.handle).reviews.set("q1100", "accepted")
    session.notify_question("q1100")  # patched in place while the second job runs
    gate.set()
    qtbot.waitUntil(lambda: set(grid.grid().values) == set(LEXICAL_SCORE_NAMES), timeout=TIMEOUT)  # type: ignore[union-attr]
    data = grid.grid()
    assert data is not None
    assert data.review[data.index_of("q1100")] == "accepted"
    assert len(started) == 2
    assert started[1].review[data.index_of("q1100")] == "accepted"
    qtbot.waitUntil(lambda: not live_worker_threads(), timeout=TIMEOUT)

"""The desktop app opening a project that ``goldenlens score`` left between its import and its
run (issue 22): it scores the import with the options ``score`` was given, as ``goldenlens
resume`` does, not with the defaults."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.scoring.pending import recorded_scoring
from goldenlens.jobs.scoring.score_rows import ScoreOptions
from goldenlens.store.project import ProjectStore
from goldenlens.ui.main_window import MainWindow

TIMEOUT = 30_000


def test_a_project_with_an_import_and_no_run_is_scored_with_the_recorded_options(
    qtbot: QtBot, tmp_path: Path
) -> None:
    project = tmp_path / "killed.goldenlens"
    with ProjectStore.open(project, create=True) as store:  # what a `score --multiset` killed leaves
        recorded = recorded_scoring(ScoreOptions(multiset=True), None, None)
        import_inputs(
            store, sample_dir() / "golden.csv", sample_dir() / "responses.csv", score_options=recorded
        )
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not window.run_panel.busy, timeout=TIMEOUT)
    with ProjectStore.open(project) as store:
        (run,) = store.runs.all()
        assert (run.kind, run.status, run.params["multiset"]) == (LEXICAL_RUN, "finished", True)
        assert len(store.results.scored_keys(run.id)) == 30
    window.projects.close_project()

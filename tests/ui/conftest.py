"""Qt test fixtures: an isolated settings folder, a scored sample project, no leaked workers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("PySide6", reason="the desktop UI needs PySide6 (pip install '.[gui]')")

from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.store.project import ProjectStore


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Preferences and QSettings go to a temporary folder, never the user's."""
    from PySide6.QtCore import QCoreApplication, QSettings

    folder = tmp_path / "settings"
    folder.mkdir()
    monkeypatch.setenv("GOLDENLENS_CONFIG_DIR", str(folder))
    monkeypatch.setenv("GOLDENLENS_DATA_DIR", str(tmp_path / "data"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    QCoreApplication.setOrganizationName("GoldenLensTests")
    QCoreApplication.setApplicationName("GoldenLensTests")
    return folder


@pytest.fixture(autouse=True)
def no_worker_left_running() -> Iterator[None]:
    """Fail any test that leaves a worker thread running."""
    from goldenlens.ui.workers import live_worker_threads

    yield
    left = live_worker_threads()
    for thread in left:
        thread.join(10)
    assert not left, f"worker threads left running: {[t.name for t in left]}"


@pytest.fixture
def scored_project(tmp_path: Path) -> Path:
    """The sample project imported and scored (lexical) in a real project file."""
    path = tmp_path / "sample.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        score_project(store)
    return path

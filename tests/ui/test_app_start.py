"""``goldenlens gui --sample`` starts the app, builds the sample project and shows it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from goldenlens.cli.main import main as cli_main
from goldenlens.jobs.importing.sample_project import default_sample_path
from goldenlens.ui.main_window import MainWindow


def test_gui_sample_opens_the_scored_sample_and_closes_cleanly(qtbot: QtBot, isolated_settings: Path) -> None:
    seen: dict[str, object] = {}

    def close_when_loaded() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        if windows and windows[0].grid.model().rowCount() == 10:
            window = windows[0]
            seen["title"] = window.windowTitle()
            seen["rows"] = window.grid.model().rowCount()
            window.close()
            timer.stop()

    timer = QTimer()
    timer.timeout.connect(close_when_loaded)
    timer.start(100)
    watchdog = QTimer()
    watchdog.setSingleShot(True)
    watchdog.timeout.connect(lambda: [w.close() for w in QApplication.topLevelWidgets()])
    watchdog.start(60_000)
    assert cli_main(["gui", "--sample"]) == 0
    watchdog.stop()
    assert seen == {"title": "amazon_q2_2023.goldenlens — GoldenLens", "rows": 10}
    assert default_sample_path().exists()

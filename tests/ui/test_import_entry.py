"""How the import wizard is reached: File ▸ Import / Ctrl+I, a new project, the sample."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog
from pytestqt.qtbot import QtBot

from goldenlens.jobs.importing.sample_project import default_sample_path, ensure_sample_project
from goldenlens.ui.importer.import_wizard import ImportWizard
from goldenlens.ui.main_window import MainWindow

TIMEOUT = 30_000
REPLACED = "its golden set and responses are replaced"


def _window(qtbot: QtBot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def _wizards(window: MainWindow) -> list[ImportWizard]:
    return window.findChildren(ImportWizard)


@pytest.mark.filterwarnings("ignore:Function.*setActiveWindow:DeprecationWarning")
def test_ctrl_i_opens_the_wizard_with_empty_file_fields(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot)
    assert window.projects.open_project(scored_project)
    # Offscreen, a shown window is not made active by itself: window shortcuts need one.
    QApplication.setActiveWindow(window)
    qtbot.waitActive(window)
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(_wizards(window)) == 1, timeout=TIMEOUT)
    wizard = _wizards(window)[0]
    assert wizard.files_page.golden_field.edit.text() == ""
    assert wizard.files_page.responses_field.edit.text() == ""
    assert wizard.files_page.golden_field.error_label.isHidden()
    # The scored project holds a golden set: importing replaces it, and the page says so.
    assert REPLACED in wizard.files_page.into_label.text()
    wizard.reject()


def test_the_menu_action_passes_no_path_either(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot)
    assert window.projects.open_project(scored_project)
    action = next(a for a in window.actions() if a.text().startswith("&Import Golden Set"))
    action.trigger()
    wizard = _wizards(window)[0]
    assert wizard.files_page.golden_field.edit.text() == ""
    wizard.reject()


def test_a_new_project_is_not_called_existing(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "fresh.goldenlens"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window = _window(qtbot)
    window.projects.ask_new()
    assert target.exists()  # the empty project is created before the wizard opens
    wizard = _wizards(window)[0]
    text = wizard.files_page.into_label.text()
    assert "a new project" in text
    assert REPLACED not in text
    wizard.reject()


def test_importing_from_the_sample_goes_into_a_new_project(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = ensure_sample_project()
    assert sample == default_sample_path()
    target = tmp_path / "mine.goldenlens"
    asked: list[str] = []

    def save_name(*args: object, **kwargs: object) -> tuple[str, str]:
        asked.append("new project")
        return str(target), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    window = _window(qtbot)
    assert window.projects.open_project(sample)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    window.projects.import_files()
    assert asked == ["new project"]
    session = window.projects.session
    assert session is not None
    assert session.path == target
    wizard = _wizards(window)[-1]
    assert wizard.project_path == target
    assert REPLACED not in wizard.files_page.into_label.text()
    wizard.reject()

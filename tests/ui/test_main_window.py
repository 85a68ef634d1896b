"""Main window behaviour: export of filtered rows, drag and drop, recent projects, errors."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest
from PySide6.QtCore import QMimeData, QPoint, QSettings, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from goldenlens.core.view.grid_state import GridState
from goldenlens.io.importing.sample import sample_dir
from goldenlens.settings.preferences import load_preferences
from goldenlens.store.project import store_of
from goldenlens.ui.importer.import_wizard import ImportWizard
from goldenlens.ui.main_window import MainWindow

TIMEOUT = 30_000


def _window(qtbot: QtBot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    return window


def _open(qtbot: QtBot, window: MainWindow, project: Path) -> None:
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)


def test_export_only_filtered_rows(qtbot: QtBot, scored_project: Path, tmp_path: Path) -> None:
    window = _window(qtbot)
    _open(qtbot, window, scored_project)
    window.grid.set_state(GridState(threshold="factual_knowledge == 0", disagree_only=False))
    visible = window.grid.visible_question_ids()
    assert 0 < len(visible) < 10
    window.exports.filtered_only_action.setChecked(True)
    report = tmp_path / "filtered.xlsx"
    with qtbot.waitSignal(window.run_panel.finished_ok, timeout=TIMEOUT):
        window.exports.export_report(report)
    scores = openpyxl.load_workbook(report)["Scores"]
    exported = {row[0] for row in scores.iter_rows(min_row=2, values_only=True) if row[0]}
    assert exported == set(visible)
    golden = tmp_path / "golden.xlsx"
    with qtbot.waitSignal(window.run_panel.finished_ok, timeout=TIMEOUT):
        window.exports.export_golden(golden)
    sheet = openpyxl.load_workbook(golden).worksheets[0]
    ids = [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert ids == visible
    window.exports.filtered_only_action.setChecked(False)
    everything = tmp_path / "all.xlsx"
    with qtbot.waitSignal(window.run_panel.finished_ok, timeout=TIMEOUT):
        window.exports.export_golden(everything)
    assert openpyxl.load_workbook(everything).worksheets[0].max_row == 11
    window.close()


def _drop(window: MainWindow, paths: list[Path]) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(
        QPoint(10, 10).toPointF(), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )  # fmt: skip
    window.dropEvent(event)


def test_dropping_a_project_opens_it_and_remembers_it(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot)
    _drop(window, [scored_project])
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    assert window.windowTitle().startswith(scored_project.name)
    assert load_preferences().recent_projects[0] == str(scored_project)
    window.close()


def test_dropping_spreadsheets_opens_the_import_wizard_with_them(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot)
    assert window.projects.open_project(tmp_path / "new.goldenlens", create=True)
    _drop(window, [sample_dir() / "golden.csv", sample_dir() / "responses.csv"])
    wizard = window.findChild(ImportWizard)
    assert wizard is not None
    assert wizard.files_page.golden_field.path() == sample_dir() / "golden.csv"
    assert wizard.files_page.responses_field.path() == sample_dir() / "responses.csv"
    wizard.reject()
    window.close()


def test_opening_a_file_that_is_not_a_project_explains_and_keeps_the_current_one(
    qtbot: QtBot, scored_project: Path, tmp_path: Path
) -> None:
    window = _window(qtbot)
    _open(qtbot, window, scored_project)
    junk = tmp_path / "junk.goldenlens"
    junk.write_bytes(b"this is not sqlite at all" * 10)
    assert not window.projects.open_project(junk)
    box = window.findChild(QMessageBox, "errorDialog")
    assert box is not None
    assert "junk.goldenlens" in box.text()
    assert "not a GoldenLens project" in box.text()
    box.close()
    assert window.projects.session is not None
    assert window.projects.session.path == scored_project
    window.close()


def test_window_layout_is_remembered(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot)
    _open(qtbot, window, scored_project)
    default = window.splitter.sizes()
    assert default[0] < default[1]
    window.splitter.setSizes([900, 100])  # the analyst widens the grid
    window.close()
    assert QSettings().value("window/geometry") is not None
    again = _window(qtbot)
    left, right = again.splitter.sizes()
    assert left > right  # the default gives the detail pane the larger share
    again.close()


def test_an_edit_rescores_and_updates_the_grid_row_at_once(qtbot: QtBot, scored_project: Path) -> None:
    from dataclasses import replace

    from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
    from goldenlens.ui.review.undo_commands import push_edit

    window = _window(qtbot)
    _open(qtbot, window, scored_project)
    session = window.projects.session
    assert session is not None
    item = store_of(session.handle).golden.item("q03")
    assert item is not None
    grid = window.grid.grid()
    assert grid is not None
    row = grid.index_of("q03")
    assert row is not None
    assert list(grid.values[FACTUAL_KNOWLEDGE][row]) == [0.0, 0.0, 0.0]
    assert push_edit(window.undo_stack, session, replace(item, fact=item.fact + "<OR>410 Terry Ave. N."))
    updated = window.grid.grid()
    assert updated is not None
    assert list(updated.values[FACTUAL_KNOWLEDGE][row]) == [0.0, 0.0, 1.0]
    window.undo_stack.undo()
    reverted = window.grid.grid()
    assert reverted is not None
    assert list(reverted.values[FACTUAL_KNOWLEDGE][row]) == [0.0, 0.0, 0.0]
    window.close()


def test_opening_another_project_leaves_one_golden_editor_and_fits_1366x768(
    qtbot: QtBot, scored_project: Path, tmp_path: Path
) -> None:
    """The closed project's editor leaves the layout at once (not when the event loop gets to
    its deferred delete): no two editors stacked, and the window still fits a 1366x768 screen."""
    window = _window(qtbot)
    _open(qtbot, window, scored_project)
    second = tmp_path / "second.goldenlens"
    shutil.copyfile(scored_project, second)
    assert window.projects.open_project(second)
    # Before the event loop runs (the old editor's deferred delete has not happened yet):
    layout = window.editor.parentWidget().layout() if window.editor is not None else None
    assert layout is not None
    assert [layout.itemAt(n).widget() for n in range(layout.count())] == [window.editor]
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    window.grid.select_question("q06")
    assert window.minimumSizeHint().height() <= 768 - 40  # room for a panel or title bar


def test_a_filter_that_hides_the_shown_question_empties_the_detail_pane(
    qtbot: QtBot, scored_project: Path
) -> None:
    window = _window(qtbot)
    _open(qtbot, window, scored_project)
    assert window.grid.select_question("q03")
    qtbot.waitUntil(lambda: window.detail.detail() is not None, timeout=TIMEOUT)
    # q03's Factual Knowledge is 0 for every pipeline: "fk == 1" hides it.
    window.grid.set_state(replace(window.grid.state(), threshold="fk == 1"))
    assert "q03" not in window.grid.visible_question_ids()
    assert window.detail.detail() is None
    assert window.editor is not None
    assert window.editor.question_id is None
    window.close()


def test_export_dialogs_open_in_the_project_folder_then_the_last_used_one(
    qtbot: QtBot, scored_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    elsewhere = tmp_path / "reports"
    elsewhere.mkdir()
    offered: list[Path] = []

    def save_name(_parent: object, _title: str, suggested: str, _filter: str) -> tuple[str, str]:
        offered.append(Path(suggested))
        return "", ""  # cancelled: nothing is written

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    window = _window(qtbot)
    _open(qtbot, window, scored_project)
    window.exports.export_report()
    assert offered[-1] == scored_project.parent / f"{scored_project.stem}-report.xlsx"

    # The analyst saves the golden set in another folder: the next export dialog opens there.
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a: (str(elsewhere / "golden.xlsx"), XLSX))
    with qtbot.waitSignal(window.run_panel.finished_ok, timeout=TIMEOUT):
        window.exports.export_golden()
    assert (elsewhere / "golden.xlsx").exists()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    window.exports.export_report()
    assert offered[-1].parent == elsewhere
    window.close()

    # and it is remembered by the next session of the app
    again = _window(qtbot)
    _open(qtbot, again, scored_project)
    again.exports.export_golden()
    assert offered[-1] == elsewhere / f"{scored_project.stem}-golden.xlsx"
    again.close()


XLSX = "Excel workbook (*.xlsx)"


def test_the_summary_tab_draws_the_intervals_of_the_rows_shown(qtbot: QtBot, scored_project: Path) -> None:
    """The Summary tab's error bars come from a bootstrap of exactly the questions the grid
    shows: all ten first, then the five a filter keeps (whose means, and intervals, differ)."""
    window = _window(qtbot)
    _open(qtbot, window, scored_project)
    qtbot.waitUntil(lambda: bool(window.summary.intervals()), timeout=TIMEOUT)
    low, high = window.summary.intervals()[("factual_knowledge", "Pipeline1")]
    assert low <= 0.8 <= high  # Pipeline1 finds the fact in 8 of 10 (the sample README)
    window.grid.set_state(GridState(threshold="Pipeline2.factual_knowledge == 0", disagree_only=False))
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 6, timeout=TIMEOUT)
    qtbot.waitUntil(
        lambda: window.summary.intervals().get(("factual_knowledge", "Pipeline2")) == (0.0, 0.0),
        timeout=TIMEOUT,
    )
    window.close()


def test_a_project_whose_new_inputs_wait_is_scored_when_opened(qtbot: QtBot, tmp_path: Path) -> None:
    """A project scored once, then given a new golden set whose ``score`` died after the import:
    the app showed the older run's scores beside the new questions (none of them scored). It
    now scores the new inputs when it opens the project, as it does a project never scored."""
    from goldenlens.core.runs.run_kinds import LEXICAL_RUN
    from goldenlens.jobs.importing.import_job import import_inputs
    from goldenlens.jobs.scoring.score_job import score_project
    from goldenlens.store.project import ProjectStore

    project = tmp_path / "p.goldenlens"
    golden = tmp_path / "golden.csv"
    lines = (sample_dir() / "golden.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    golden.write_text("".join(lines[:6]), encoding="utf-8")  # the header and five questions
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, golden, sample_dir() / "responses.csv")
        score_project(store)
        import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")  # ten
        (first,) = store.runs.all()
    window = _window(qtbot)
    _open(qtbot, window, project)
    with ProjectStore.open(project) as store:
        qtbot.waitUntil(lambda: len(store.runs.all()) == 2 and not store.runs.unfinished(LEXICAL_RUN))
        newest = store.runs.latest(LEXICAL_RUN, finished_only=True)
        assert newest is not None
        assert newest.id != first.id
        assert newest.total == 30
    qtbot.waitUntil(lambda: window.summary.intervals().get(("factual_knowledge", "Pipeline1")) is not None)
    window.close()

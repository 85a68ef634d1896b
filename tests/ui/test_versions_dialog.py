"""The Versions dialog on a real project file: the versions table, diffs with highlighted words,
naming (and a refused name), reached from the Edit menu; edits made in the app make versions.

Real widgets driven with qtbot, offscreen; nothing is mocked.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from goldenlens.core.inputs import GoldenItem
from goldenlens.jobs.curation import edits as curation
from goldenlens.store.project import ProjectStore, store_of
from goldenlens.ui.history.versions_dialog import COLUMNS, VersionsDialog
from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.review.undo_commands import push_edit
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.widgets.highlight_html import STYLES

TIMEOUT = 30_000
Q03_FACT = "410 Terry Avenue North<OR>410 Terry Ave. N."


def _item(store: ProjectStore, question_id: str) -> GoldenItem:
    item = store.golden.item(question_id)
    assert item is not None
    return item


@pytest.fixture
def curated_project(scored_project: Path) -> Path:
    """The scored sample (v1), Ana's session (v2: q03's fact, q06's question), Ben's (v3: q09 deleted)."""
    with ProjectStore.open(scored_project) as store:
        curation.edit_golden_item(store, replace(_item(store, "q03"), fact=Q03_FACT), reviewer="Ana")
        q06 = _item(store, "q06")
        curation.edit_golden_item(
            store, replace(q06, question="What was the key challenge for the AWS segment?"), reviewer="Ana"
        )
        store.golden.delete("q09", reviewer="Ben")
    return scored_project


def _open_dialog(qtbot: QtBot, project: Path) -> tuple[MainWindow, VersionsDialog]:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() > 0, timeout=TIMEOUT)
    window.versions_action.trigger()
    dialog = window.findChild(VersionsDialog)
    assert isinstance(dialog, VersionsDialog)
    qtbot.waitUntil(dialog.isVisible, timeout=TIMEOUT)
    return window, dialog


def _cells(dialog: VersionsDialog) -> list[list[str]]:
    model = dialog.model
    return [
        [str(model.data(model.index(row, col))) for col in range(model.columnCount())]
        for row in range(model.rowCount())
    ]


def test_the_dialog_lists_versions_newest_first_and_shows_what_the_current_one_changed(
    qtbot: QtBot, qtmodeltester: object, curated_project: Path
) -> None:
    window, dialog = _open_dialog(qtbot, curated_project)
    qtmodeltester.check(dialog.model)  # type: ignore[attr-defined]
    assert [dialog.model.headerData(c, Qt.Orientation.Horizontal) for c in range(len(COLUMNS))] == list(
        COLUMNS
    )
    # The headers say what Who, Runs and the counts mean (these tips were written once and never shown).
    runs_tip = dialog.model.headerData(
        COLUMNS.index("Runs"), Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole
    )
    assert "(from vN)" in runs_tip
    assert dialog.model.headerData(0, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) is None
    rows = [[r[0], r[1], r[3], r[4], r[5], r[6]] for r in _cells(dialog)]
    assert rows == [
        ["v3 (current)", "", "Ben", "9", "1", ""],
        ["v2", "", "Ana", "10", "2", "lexical 1 (from v1)"],
        ["v1", "", "import golden.csv", "10", "10", ""],
    ]
    # Opened on the current version: what Ben's session changed.
    assert dialog.selected_version() is not None
    assert dialog.diff is not None
    assert (dialog.diff.old, dialog.diff.new) == (2, 3)
    assert [i.id for i in dialog.diff.diff.removed] == ["q09"]
    text = dialog.browser.toPlainText()
    assert "v2 → v3: 0 added, 1 removed, 0 changed" in text
    assert "Removed rows (1)" in text
    window.close()


def test_choosing_a_version_and_comparing_any_two(qtbot: QtBot, curated_project: Path) -> None:
    window, dialog = _open_dialog(qtbot, curated_project)
    dialog.table.selectRow(1)  # v2
    assert dialog.diff is not None
    assert (dialog.diff.old, dialog.diff.new) == (1, 2)
    assert (dialog.old_combo.currentData(), dialog.new_combo.currentData()) == (1, 2)
    changed = {r.question_id: [c.field for c in r.changes] for r in dialog.diff.diff.changed}
    assert changed == {"q03": ["fact"], "q06": ["question"]}
    html = dialog.browser.toHtml()
    # The added alternative of q03's fact is highlighted on the "added" colour, the question's
    # dropped words on the "removed" one.
    added, removed = STYLES["matched"].background, STYLES["missed"].background
    assert added in html
    assert removed in html
    plain = dialog.browser.toPlainText()
    assert "<OR>410 Terry Ave. N." in plain
    # The combo boxes compare any two, also with the empty set before the first import.
    dialog.old_combo.setCurrentIndex(dialog.old_combo.findData(0))
    assert (dialog.diff.old, dialog.diff.new) == (0, 2)
    assert len(dialog.diff.diff.added) == 10
    dialog.new_combo.setCurrentIndex(dialog.new_combo.findData(3))
    assert (dialog.diff.old, dialog.diff.new) == (0, 3)
    assert len(dialog.diff.diff.added) == 9
    window.close()


def test_naming_a_version_and_a_refused_name(qtbot: QtBot, curated_project: Path) -> None:
    window, dialog = _open_dialog(qtbot, curated_project)
    assert dialog.name_version(2, "curated by Ana")
    assert _cells(dialog)[1][1] == "curated by Ana"
    assert dialog.selected_version() is not None
    assert dialog.selected_version().number == 2  # type: ignore[union-attr]
    assert 'v2 "curated by Ana"' in [dialog.new_combo.itemText(i) for i in range(dialog.new_combo.count())]
    assert not dialog.name_version(3, "curated by Ana")  # another version has it
    boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
    assert boxes
    assert "already has the name" in boxes[0].text()
    boxes[0].close()
    window.close()
    with ProjectStore.open(curated_project) as store:
        assert [v.name for v in store.golden.versions()] == ["curated by Ana"]


def test_an_edit_in_the_app_makes_a_new_version(qtbot: QtBot, scored_project: Path) -> None:
    session = ProjectSession(scored_project)
    stack = QUndoStack()
    try:
        store = store_of(session.handle)
        assert push_edit(stack, session, replace(_item(store, "q02"), notes="checked in the filing"))
        dialog = VersionsDialog(session)
        qtbot.addWidget(dialog)
        assert [row[0] for row in _cells(dialog)] == ["v2 (current)", "v1"]
        assert dialog.diff is not None
        (row,) = dialog.diff.diff.changed
        assert [(c.field, c.before, c.after) for c in row.changes] == [("notes", "", "checked in the filing")]
        stack.undo()  # undoing is an edit too: same session, and the net change is none
        dialog.reload()
        assert [row[0] for row in _cells(dialog)] == ["v2 (current)", "v1"]
        assert _cells(dialog)[0][5] == "0"  # changes
        assert "no changes" in dialog.browser.toPlainText()
    finally:
        session.close()


def test_without_a_project_the_menu_says_what_to_do(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.versions_action.trigger()
    assert window.findChild(VersionsDialog) is None
    assert "Open a project" in window.statusBar().currentMessage()


def test_diff_html_shows_whitespace_changes_and_caps_long_lists() -> None:
    from goldenlens.core.golden.diff import diff_golden
    from goldenlens.ui.history.version_diff_html import MAX_ROWS, diff_html

    before = GoldenItem("q1", "Who?", "Ana  Lima", "Ana")
    after = GoldenItem("q1", "Who?", "Ana Lima", "Ana")
    html = diff_html("v1 → v2", diff_golden([before], [after]))
    assert "··" in html  # the removed double space is drawn, not an invisible highlight
    many = [GoldenItem(f"n{i:04d}", f"question {i}?", "a", "f") for i in range(MAX_ROWS + 5)]
    capped = diff_html("v0 → v1", diff_golden([], many))
    assert f"question {MAX_ROWS - 1}?" in capped
    assert f"question {MAX_ROWS}?" not in capped
    assert "… and 5 more rows" in capped


def test_a_project_without_a_golden_set_has_no_versions(qtbot: QtBot, tmp_path: Path) -> None:
    session = ProjectSession(tmp_path / "empty.goldenlens", create=True)
    try:
        dialog = VersionsDialog(session)
        qtbot.addWidget(dialog)
        assert dialog.model.rowCount() == 0
        assert not dialog.name_button.isEnabled()
        assert "no versions yet" in dialog.browser.toPlainText()
    finally:
        session.close()

"""Curation in the UI: undo/redo of every edit, the golden editor and the override dialog.

Real project files (the scored sample), real widgets driven with qtbot; nothing is mocked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextCursor, QUndoStack
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE
from goldenlens.settings.preferences import load_preferences
from goldenlens.store.project import ProjectStore, store_of
from goldenlens.ui.review.golden_editor import GoldenEditor
from goldenlens.ui.review.override_dialog import OverrideDialog, request_override
from goldenlens.ui.review.undo_commands import (
    curation_messages,
    push_add_fact_variant,
    push_edit,
    push_override,
    push_review,
)
from goldenlens.ui.session import ProjectSession

Q03_FACT = "410 Terry Avenue North<OR>410 Terry Ave. N."
KEY = ("q03", "Pipeline3", FACTUAL_KNOWLEDGE)


@pytest.fixture
def session(scored_project: Path, qtbot: QtBot) -> Iterator[ProjectSession]:
    opened = ProjectSession(scored_project)
    opened.set_preferences(replace(opened.preferences, reviewer="Ana"))
    yield opened
    opened.close()


@pytest.fixture
def stack(qtbot: QtBot) -> QUndoStack:
    return QUndoStack()


def _state(store: ProjectStore) -> tuple[Any, ...]:
    """Everything an edit can change, with score details (``ScoreRecord ==`` skips them);
    overrides and reviews without their ids and times (an undo writes a new entry)."""
    run = store.runs.latest(finished_only=True)
    assert run is not None
    scores = [(r, r.detail) for r in store.results.scores(run.id)]
    overrides = [replace(o, id=0, created_at="") for o in store.reviews.overrides()]
    reviews = {q: replace(r, updated_at="") for q, r in store.reviews.all().items()}
    return store.golden.items(), scores, store.results.flags(run.id), overrides, reviews


def _item(session: ProjectSession, question_id: str) -> GoldenItem:
    item = store_of(session.handle).golden.item(question_id)
    assert item is not None
    return item


def _fk(session: ProjectSession) -> float | None:
    run_id = session.run_id
    assert run_id is not None
    return store_of(session.handle).results.score_matrix(run_id, FACTUAL_KNOWLEDGE)[KEY[:2]]


# -- undo / redo ------------------------------------------------------------------------------


def test_undo_and_redo_round_trip_every_kind_of_edit(
    session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    original = _state(store_of(session.handle))
    edits: list[Callable[[], object]] = [
        lambda: push_edit(stack, session, replace(_item(session, "q03"), fact=Q03_FACT)),
        lambda: push_override(stack, session, *KEY, value=1.0, passed=True, note="abbreviated"),
        lambda: push_review(stack, session, "q03", "accepted", "fact fixed"),
    ]
    for edit in edits:
        with qtbot.waitSignal(session.question_changed, check_params_cb=lambda q: q == "q03"):
            edit()
    assert stack.count() == 3
    assert [stack.text(i) for i in range(3)] == [
        "Edit fact of q03",
        "Override factual knowledge of q03 / Pipeline3",
        "Accept q03",
    ]
    edited = _state(store_of(session.handle))
    assert _fk(session) == 1.0
    assert store_of(session.handle).reviews.all()["q03"].status == "accepted"

    for _ in range(3):
        with qtbot.waitSignal(session.question_changed):
            stack.undo()
    assert _state(store_of(session.handle)) == original

    for _ in range(3):
        with qtbot.waitSignal(session.question_changed):
            stack.redo()
    assert _state(store_of(session.handle)) == edited


def test_a_status_message_tells_what_the_edit_did(
    session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    with qtbot.waitSignal(curation_messages(session).message) as blocker:
        push_edit(stack, session, replace(_item(session, "q03"), fact=Q03_FACT))
    assert blocker.args == ["q03: Pipeline3 factual knowledge 0 → 1"]


def test_quick_edits_of_one_field_merge_into_one_step(session: ProjectSession, stack: QUndoStack) -> None:
    q03 = _item(session, "q03")
    push_edit(stack, session, replace(q03, fact="410 Terry"))
    push_edit(stack, session, replace(q03, fact=Q03_FACT))
    assert stack.count() == 1
    assert _item(session, "q03").fact == Q03_FACT
    stack.undo()
    assert _item(session, "q03") == q03

    stack.redo()
    push_edit(stack, session, q03)  # typed back to what it was: nothing left to undo
    assert stack.count() == 0
    assert _item(session, "q03") == q03


def test_invalid_edits_are_refused_before_they_reach_the_stack(
    session: ProjectSession, stack: QUndoStack
) -> None:
    with pytest.raises(ValueError, match="cannot be empty"):
        push_edit(stack, session, replace(_item(session, "q03"), question=" "))
    with pytest.raises(ValueError, match="needs a note"):
        push_override(stack, session, *KEY, value=1.0, passed=True, note="")
    with pytest.raises(ValueError, match="unknown review status"):
        push_review(stack, session, "q03", "maybe")
    assert push_edit(stack, session, _item(session, "q03")) is False
    assert push_review(stack, session, "q03", "unreviewed", "") is False
    assert stack.count() == 0


def test_fact_variants_are_undoable_and_duplicates_are_not_pushed(
    session: ProjectSession, stack: QUndoStack
) -> None:
    assert push_add_fact_variant(stack, session, "q03", " 410 Terry Ave. N. ") is True
    assert _fk(session) == 1.0
    assert push_add_fact_variant(stack, session, "q03", "410 terry ave. n.") is False
    with pytest.raises(ValueError, match="cannot contain"):
        push_add_fact_variant(stack, session, "q03", "a<OR>b")
    assert stack.count() == 1
    assert stack.text(0) == "Add fact variant “410 Terry Ave. N.” to q03"
    stack.undo()
    assert _item(session, "q03").fact == "410 Terry Avenue North"
    assert _fk(session) == 0.0


def test_a_command_that_cannot_be_undone_reports_and_leaves_the_stack(
    session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    push_review(stack, session, "q03", "accepted")
    store_of(session.handle).golden.delete("q03")  # e.g. a re-import dropped the question
    with qtbot.waitSignal(curation_messages(session).failed) as blocker:
        stack.undo()
    assert "no golden question 'q03'" in blocker.args[0]
    assert stack.count() == 0
    assert store_of(session.handle).golden.item("q03") is None


# -- golden editor ----------------------------------------------------------------------------


@pytest.fixture
def editor(session: ProjectSession, stack: QUndoStack, qtbot: QtBot) -> GoldenEditor:
    widget = GoldenEditor(session, stack)
    qtbot.addWidget(widget)
    widget.resize(620, 440)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_question("q03")
    return widget


def _type_at_end(qtbot: QtBot, editor: GoldenEditor, name: str, text: str) -> None:
    field = editor.fields[name]
    editor.activateWindow()
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(field, text)


def test_typing_in_the_fact_commits_one_command_on_focus_out(
    editor: GoldenEditor, session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    _type_at_end(qtbot, editor, "fact", "<OR>410 Terry Ave. N.")
    assert stack.count() == 0  # no command per keystroke
    assert [c.text() for c in editor.chips.chips()] == ["410 Terry Avenue North", "410 Terry Ave. N."]

    editor.fields["notes"].setFocus()
    qtbot.waitUntil(lambda: stack.count() == 1)
    assert _item(session, "q03").fact == Q03_FACT
    assert _fk(session) == 1.0

    stack.undo()
    assert editor.fields["fact"].toPlainText() == "410 Terry Avenue North"
    assert [c.text() for c in editor.chips.chips()] == ["410 Terry Avenue North"]
    stack.redo()
    assert editor.fields["fact"].toPlainText() == Q03_FACT


def test_ctrl_enter_commits_the_answer(
    editor: GoldenEditor, session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    _type_at_end(qtbot, editor, "answer", " Postal code 98109.")
    qtbot.keyClick(editor.fields["answer"], Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert stack.count() == 1
    assert stack.text(0) == "Edit answer of q03"
    assert _item(session, "q03").answer.endswith("98109-5210. Postal code 98109.")  # no newline typed


def test_a_review_key_does_not_wipe_text_being_typed(
    editor: GoldenEditor, session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    _type_at_end(qtbot, editor, "notes", "checked against the 10-Q")
    editor.accept_current()
    assert store_of(session.handle).reviews.all()["q03"].status == "accepted"
    assert editor.fields["notes"].toPlainText() == "checked against the 10-Q"
    editor.fields["fact"].setFocus()
    qtbot.waitUntil(lambda: stack.count() == 2)
    assert _item(session, "q03").notes == "checked against the 10-Q"


def test_switching_question_commits_what_was_typed(
    editor: GoldenEditor, session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    _type_at_end(qtbot, editor, "fact", "<OR>410 Terry Ave. N.")
    editor.set_question("q05")
    assert _item(session, "q03").fact == Q03_FACT
    assert editor.fields["fact"].toPlainText().startswith("Feb 22 2023")
    assert stack.count() == 1


def test_an_empty_question_is_refused_with_a_message(
    editor: GoldenEditor, session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    field = editor.fields["question"]
    field.setPlainText("")
    field.committed.emit()
    assert stack.count() == 0
    assert editor.error_text() == "The question of q03 cannot be empty."
    assert _item(session, "q03").question.startswith("Where is")


def test_review_buttons_and_keys_set_the_review(
    editor: GoldenEditor, session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    editor.accept_current()
    assert store_of(session.handle).reviews.all()["q03"].status == "accepted"
    assert [b.isChecked() for b in editor.review_buttons()] == [False, True, False]
    editor.review_note.setText("address verified")
    editor.review_note.editingFinished.emit()
    assert store_of(session.handle).reviews.all()["q03"].note == "address verified"
    editor.mark_needs_curation()
    assert store_of(session.handle).reviews.all()["q03"].status == "needs_curation"
    qtbot.mouseClick(editor.review_buttons()[0], Qt.MouseButton.LeftButton)
    assert store_of(session.handle).reviews.all()["q03"].status == "unreviewed"
    while stack.canUndo():
        stack.undo()
    assert "q03" not in store_of(session.handle).reviews.all()
    assert [b.isChecked() for b in editor.review_buttons()] == [True, False, False]


def test_fact_chips_warn_about_parts_that_misbehave(editor: GoldenEditor, tmp_path: Path) -> None:
    editor.fields["fact"].setPlainText(" 50.1 billion<OR>50<OR><AND>the cash")
    chips = editor.chips.chips()
    assert [c.text() for c in chips] == ["⚠ ␣50.1 billion", "⚠ 50", "⚠ empty part", "the cash"]
    assert [c.property("level") for c in chips] == ["warning", "warning", "error", "ok"]
    assert "not scored" in chips[2].toolTip()
    assert editor.chips.height() >= chips[0].sizeHint().height()  # the chips get their room
    assert editor.grab().save(str(tmp_path / "editor.png"))


def test_no_question_disables_the_editor(editor: GoldenEditor) -> None:
    editor.accept_current()
    editor.set_question(None)
    assert not editor.fields["fact"].isEnabled()
    assert not any(b.isChecked() for b in editor.review_buttons())
    editor.accept_current()  # nothing to accept: no error
    editor.set_question("q05")
    assert editor.fields["fact"].toPlainText().startswith("Feb 22 2023")


# -- override dialog --------------------------------------------------------------------------


def _when_dialog_opens(qtbot: QtBot, act: Callable[[OverrideDialog], None]) -> None:
    """Run ``act`` on the override dialog once ``exec()`` shows it."""

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, OverrideDialog):
            act(dialog)
        else:
            QTimer.singleShot(10, poll)

    QTimer.singleShot(0, poll)


def test_an_override_is_pushed_kept_apart_from_the_score_and_survives_reopening(
    session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    def fill(dialog: OverrideDialog) -> None:
        dialog.pass_button.setChecked(True)
        dialog.note_edit.setPlainText("address abbreviated as Ave. N.")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    _when_dialog_opens(qtbot, fill)
    assert request_override(None, session, stack, *KEY) is True
    assert stack.count() == 1
    (override,) = store_of(session.handle).reviews.overrides()
    assert (override.passed, override.value, override.reviewer) == (True, 1.0, "Ana")
    assert _fk(session) == 0.0  # the original score is never touched

    path = session.path
    session.close()
    with ProjectStore.open(path) as reopened:  # override kept across reopen
        assert [(o.question_id, o.pipeline, o.metric, o.passed) for o in reopened.reviews.overrides()] == [
            (*KEY, True)
        ]


def test_the_dialog_asks_for_a_missing_reviewer_name_and_keeps_it(
    session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    session.set_preferences(replace(session.preferences, reviewer=""))

    def fill(dialog: OverrideDialog) -> None:
        assert not dialog.reviewer_edit.isHidden()
        dialog.note_edit.setPlainText("right, but verbose")
        assert not dialog.save_button.isEnabled()
        dialog.value_box.setValue(0.8)
        dialog.reviewer_edit.setText("Bo")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    _when_dialog_opens(qtbot, fill)
    assert request_override(None, session, stack, "q10", "Pipeline1", F1_SCORE) is True
    (override,) = store_of(session.handle).reviews.overrides()
    assert (override.value, override.passed, override.reviewer) == (0.8, None, "Bo")
    assert session.reviewer == "Bo"
    assert load_preferences().reviewer == "Bo"


def test_removing_an_override_is_undoable_and_cancel_pushes_nothing(
    session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    push_override(stack, session, *KEY, value=1.0, passed=True, note="abbreviated")

    def remove(dialog: OverrideDialog) -> None:
        assert dialog.remove_button is not None
        assert dialog.pass_button.isChecked()  # starts from the override in effect
        qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)

    _when_dialog_opens(qtbot, remove)
    assert request_override(None, session, stack, *KEY) is True
    assert store_of(session.handle).reviews.overrides() == []
    assert stack.text(1) == "Remove override of factual knowledge of q03 / Pipeline3"
    stack.undo()
    assert [o.note for o in store_of(session.handle).reviews.overrides()] == ["abbreviated"]

    _when_dialog_opens(qtbot, lambda dialog: dialog.reject())
    assert request_override(None, session, stack, *KEY) is False
    assert stack.count() == 2


def test_the_dialog_result_for_each_kind_of_metric(qtbot: QtBot, tmp_path: Path) -> None:
    binary = OverrideDialog(FACTUAL_KNOWLEDGE, "Pipeline3", "q03", 0.0, None, "Ana")
    qtbot.addWidget(binary)
    assert binary.pass_button.isChecked()  # overriding a 0 most likely means Pass
    binary.note_edit.setPlainText("ok")
    binary.save_button.click()
    assert binary.result_override() == (1.0, True, "ok")

    value = OverrideDialog(F1_SCORE, "Pipeline1", "q10", 0.3636, None, "Ana")
    qtbot.addWidget(value)
    assert value.value_box.decimals() == 3
    assert value.remove_button is None
    assert value.result_override() is None  # not accepted yet
    value.value_box.setValue(0.12345)
    value.note_edit.setPlainText("partly right")
    value.save_button.click()
    assert value.result_override() == (0.123, None, "partly right")
    value.show()
    assert value.grab().save(str(tmp_path / "override.png"))


def _press(qtbot: QtBot, field: QWidget, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> None:
    qtbot.keyClick(field, key, modifiers)


def test_ctrl_z_in_the_fact_field_undoes_the_saved_edit_too(
    editor: GoldenEditor, session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    field = editor.fields["fact"]
    _type_at_end(qtbot, editor, "fact", "<OR>410 Terry Ave. N.")
    editor.fields["notes"].setFocus()
    qtbot.waitUntil(lambda: stack.count() == 1)
    assert _item(session, "q03").fact == Q03_FACT
    assert _fk(session) == 1.0

    # Back in the fact field, Ctrl+Z takes back the saved edit: field, store and score agree.
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    _press(qtbot, field, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _item(session, "q03").fact == "410 Terry Avenue North"
    assert field.toPlainText() == "410 Terry Avenue North"
    assert _fk(session) == 0.0
    assert stack.index() == 0

    _press(
        qtbot, field, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert _item(session, "q03").fact == Q03_FACT
    assert field.toPlainText() == Q03_FACT
    assert _fk(session) == 1.0


def test_ctrl_z_while_typing_takes_back_the_typing_through_the_one_history(
    editor: GoldenEditor, session: ProjectSession, stack: QUndoStack, qtbot: QtBot
) -> None:
    field = editor.fields["fact"]
    _type_at_end(qtbot, editor, "fact", "<OR>410 Terry Ave. N.")
    _press(qtbot, field, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert field.toPlainText() == "410 Terry Avenue North"
    assert _item(session, "q03").fact == "410 Terry Avenue North"
    # the typing is one redoable step, not lost
    assert stack.canRedo()
    _press(qtbot, field, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert field.toPlainText() == Q03_FACT
    assert _item(session, "q03").fact == Q03_FACT

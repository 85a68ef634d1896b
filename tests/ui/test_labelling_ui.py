"""The Labels tab on real project files, driven by keys as a reviewer drives it (offscreen):
a question with five answers labelled in six keystrokes, the same answer labelled once, the plan
walked with Enter, undo, judging a same-answer response on its own, and the estimates updated."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot
from tests.badinputs import write_csv

from goldenlens.core.calibration.labels import LabelSource, LabelState
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.labelling.plan import plan_labels
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.store.project import ProjectStore
from goldenlens.ui.main_window import MainWindow

TIMEOUT = 30_000
PIPELINES = ("P1", "P2", "P3", "P4", "P5")
#: Three questions; q1's five answers all differ, q2's P1 and P2 give the same one.
ANSWERS = {
    "q1": ("Paris", "Lyon", "paris, France", "Marseille", "I do not know."),
    "q2": ("Shakespeare.", "shakespeare", "Marlowe", "Bacon", "Shakespeare wrote it"),
    "q3": ("Jupiter", "Saturn", "Jupiter.", "Mars", "The largest is Jupiter"),
}


def _write(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    return write_csv(path, [header, *rows])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    golden = _write(
        tmp_path / "golden.csv",
        ["id", "question", "answer", "fact"],
        [
            ["q1", "Capital of France?", "Paris", "Paris"],
            ["q2", "Who wrote Hamlet?", "Shakespeare", "Shakespeare"],
            ["q3", "Largest planet?", "Jupiter", "Jupiter"],
        ],
    )
    responses = _write(
        tmp_path / "responses.csv",
        ["question_id", "pipeline", "response"],
        [[q, p, text] for q, texts in ANSWERS.items() for p, text in zip(PIPELINES, texts, strict=True)],
    )
    path = tmp_path / "labels.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        import_inputs(store, golden, responses)
        score_project(store)
        plan_labels(store, budget=100, seed=1)  # a census of the 13 distinct answers
    return path


def _window(qtbot: QtBot, project: Path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 3, timeout=TIMEOUT)
    window.labelling.show()
    pane = window.labelling_pane
    qtbot.waitUntil(lambda: pane.question is not None, timeout=TIMEOUT)
    return window


def _states(project: Path, question_id: str) -> dict[str, tuple[LabelState, LabelSource]]:
    with ProjectStore.open(project) as store:
        found = store.labels.in_force(question_id)
    return {key[1]: (label.state, label.source) for key, label in zip(found.keys, found.labels, strict=True)}


def test_five_answers_take_six_keystrokes_and_enter_goes_to_the_plans_next_question(
    qtbot: QtBot, project: Path
) -> None:
    window = _window(qtbot, project)
    pane = window.labelling_pane
    window.labelling.show_question("q1")  # five pipelines, five different answers
    assert pane.question is not None
    assert [card.pipelines for card in pane.question.cards] == [(p,) for p in PIPELINES]
    assert pane.selected == 0  # the first answer without a verdict is selected
    for key in (Qt.Key.Key_C, Qt.Key.Key_X, Qt.Key.Key_C, Qt.Key.Key_X, Qt.Key.Key_X):
        qtbot.keyClick(pane, key)  # each verdict selects the next answer without one
    assert _states(project, "q1") == {
        "P1": (LabelState.CORRECT, LabelSource.DIRECT),
        "P2": (LabelState.INCORRECT, LabelSource.DIRECT),
        "P3": (LabelState.CORRECT, LabelSource.DIRECT),
        "P4": (LabelState.INCORRECT, LabelSource.DIRECT),
        "P5": (LabelState.INCORRECT, LabelSource.DIRECT),
    }
    qtbot.keyClick(pane, Qt.Key.Key_Return)  # the sixth key: the plan's next question
    assert pane.question is not None
    assert pane.question.item.id in ("q2", "q3")
    assert all(not card.labelled for card in pane.question.cards)
    window.close()


def test_the_same_answer_is_one_card_and_can_be_judged_on_its_own(qtbot: QtBot, project: Path) -> None:
    window = _window(qtbot, project)
    pane = window.labelling_pane
    window.labelling.show_question("q2")
    assert pane.question is not None
    shared = [card for card in pane.question.cards if card.pipelines[:2] == ("P1", "P2")]
    assert len(shared) == 1  # "Shakespeare." and "shakespeare" are one answer
    pane.select(pane.question.cards.index(shared[0]))
    qtbot.keyClick(pane, Qt.Key.Key_C)
    states = _states(project, "q2")
    assert states["P1"] == (LabelState.CORRECT, LabelSource.DIRECT)
    assert states["P2"] == (LabelState.CORRECT, LabelSource.SAME_ANSWER)
    card = next(c for c in pane.cards.cards() if c.card.pipelines == ("P2",))
    assert card.detach_button is not None
    card.detach_button.click()
    assert _states(project, "q2")["P2"] == (LabelState.NONE, LabelSource.NONE)
    window.undo_stack.undo()
    assert _states(project, "q2")["P2"][0] is LabelState.CORRECT
    window.close()


def test_undo_withdraws_a_label_and_the_estimates_follow_the_labels(qtbot: QtBot, project: Path) -> None:
    window = _window(qtbot, project)
    pane = window.labelling_pane
    question = pane.question
    assert question is not None
    pipeline = question.cards[pane.selected].pipelines[0]
    qtbot.keyClick(pane, Qt.Key.Key_X)
    assert _states(project, question.item.id)[pipeline][0] is LabelState.INCORRECT
    window.undo_stack.undo()
    assert _states(project, question.item.id)[pipeline][0] is LabelState.NONE
    window.undo_stack.redo()
    # Every answer labelled: the estimates become exact, and the Summary tab leads with them.
    for question_id in ("q1", "q2", "q3"):
        window.labelling.show_question(question_id)
        while any(not card.labelled for card in pane.question.cards):  # type: ignore[union-attr]
            qtbot.keyClick(pane, Qt.Key.Key_C)
    qtbot.waitUntil(lambda: "labelled responses of 15" in pane.estimates_label.text(), timeout=TIMEOUT)
    qtbot.waitUntil(
        lambda: window.summary.reviewer.isVisible() or window.tabs.currentIndex() != 1, timeout=TIMEOUT
    )
    assert "As a reviewer would judge them" in window.summary.reviewer.text.text()
    window.close()


def test_the_review_letters_wait_on_the_labels_tab(qtbot: QtBot, project: Path) -> None:
    """N and C are the Review tab's "next unreviewed" and "needs curation"; on the Labels tab
    they mark the selected answer (the key goes through the window's shortcuts, as a person's
    does) and leave the review state and the grid's question alone."""
    window = _window(qtbot, project)
    pane = window.labelling_pane
    window.labelling.show_question("q1")
    window.activateWindow()  # window shortcuts fire only in the active window
    qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT)
    pane.setFocus()
    before = window.grid.current_question()
    qtbot.keyClick(pane, Qt.Key.Key_N)
    qtbot.keyClick(pane, Qt.Key.Key_C)
    states = _states(project, "q1")
    assert states["P1"] == (LabelState.INCORRECT, LabelSource.DIRECT)
    assert states["P2"] == (LabelState.CORRECT, LabelSource.DIRECT)
    assert window.grid.current_question() == before
    with ProjectStore.open(project) as store:
        assert store.reviews.of_question("q1") is None
    window.tabs.setCurrentIndex(0)  # back on the Review tab, N is "next unreviewed" again
    assert window.queue.next_unreviewed_action.isEnabled()
    window.close()


def test_planning_beside_an_unlabelled_round_asks_to_draw_it_anew(qtbot: QtBot, project: Path) -> None:
    """The fixture's round has no label: another plan would come from the same frame. The app
    asks; "Draw anew" replaces the round, and planning it again with its settings lists it."""
    window = _window(qtbot, project)
    pane = window.labelling_pane
    pane.budget.setValue(6)
    pane.seed.setValue(2)
    qtbot.mouseClick(pane.plan_button, Qt.MouseButton.LeftButton)

    def asked() -> QMessageBox | None:
        found = [box for box in window.findChildren(QMessageBox, "replaceRoundDialog") if box.isVisible()]
        return found[0] if found else None

    qtbot.waitUntil(lambda: asked() is not None, timeout=TIMEOUT)
    box = asked()
    assert box is not None
    assert "Round 1 (100 labels, seed 1, by response) has no label yet" in box.text()
    anew = box.button(QMessageBox.StandardButton.Yes)
    assert anew.text() == "Draw anew"
    qtbot.mouseClick(anew, Qt.MouseButton.LeftButton)

    def rounds() -> list[tuple[int, int]]:
        with ProjectStore.open(project) as store:
            return [(info.budget, info.seed) for info in store.labels.rounds()]

    qtbot.waitUntil(lambda: rounds() == [(6, 2)], timeout=TIMEOUT)
    qtbot.waitUntil(
        lambda: "Round 1: 6 answers to label" in window.statusBar().currentMessage(), timeout=TIMEOUT
    )
    qtbot.mouseClick(pane.plan_button, Qt.MouseButton.LeftButton)  # the same settings: listed again
    qtbot.waitUntil(lambda: "listed again" in window.statusBar().currentMessage(), timeout=TIMEOUT)
    assert rounds() == [(6, 2)]
    assert asked() is None
    window.close()

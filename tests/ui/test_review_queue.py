"""The review queue above the grid on the scored sample project (a real project file).

The sample's diagnosed questions, as the issue and `goldenlens advise` on the sample list them:
q02 and q07 (likely hallucination), q03 and q06 (ambiguous), q05, q03, q06, q07, q08 (correct
but rephrased, 7 responses on 5 questions), q06 (LLM-specific wording). q01, q04, q09 and q10
have none.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.review.undo_commands import push_add_fact_variant, push_review
from goldenlens.ui.shortcuts import EVERYWHERE, REVIEW_TAB, SHORTCUTS

TIMEOUT = 30_000
DIAGNOSED = ["q02", "q03", "q05", "q06", "q07", "q08"]


def _window(qtbot: QtBot, project: Path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1500, 950)
    window.show()
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: len(window.advisor.index) == 10, timeout=TIMEOUT)
    return window


def _accept(window: MainWindow, question_id: str) -> None:
    session = window.projects.session
    assert session is not None
    assert push_review(window.undo_stack, session, question_id, "accepted")


def test_filter_lists_questions_per_diagnosis_and_filters_the_grid(
    qtbot: QtBot, scored_project: Path
) -> None:
    window = _window(qtbot, scored_project)
    queue = window.queue
    assert queue.filter_entries() == [
        "All questions",
        "Any diagnosis (6)",
        "Ambiguous question (2)",
        "Likely hallucination (3)",
        "Correct but rephrased (4)",
        "LLM-specific wording (1)",
    ]
    assert queue.choose("ambiguous_question")
    assert window.grid.visible_question_ids() == ["q03", "q06"]
    assert queue.choose("correct_but_rephrased")
    assert window.grid.visible_question_ids() == ["q03", "q05", "q06", "q08"]
    assert queue.choose("*")
    assert window.grid.visible_question_ids() == DIAGNOSED
    assert queue.choose(None)
    assert len(window.grid.visible_question_ids()) == 10
    window.close()


def test_progress_counts_reviewed_questions(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    assert window.queue.progress_text() == "0 of 10 reviewed"
    _accept(window, "q01")
    qtbot.waitUntil(lambda: window.queue.progress_text() == "1 of 10 reviewed", timeout=TIMEOUT)
    session = window.projects.session
    assert session is not None
    assert push_review(window.undo_stack, session, "q04", "needs_curation")
    qtbot.waitUntil(lambda: window.queue.progress_text() == "2 of 10 reviewed", timeout=TIMEOUT)
    assert "1 accepted, 1 need curation, 8 unreviewed" in window.queue.progress.toolTip()
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: window.queue.progress_text() == "1 of 10 reviewed", timeout=TIMEOUT)
    window.close()


def test_next_unreviewed_skips_reviewed_questions_and_wraps(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    for question_id in ("q02", "q03", "q10"):
        _accept(window, question_id)
    qtbot.waitUntil(lambda: window.queue.progress_text() == "3 of 10 reviewed", timeout=TIMEOUT)
    assert window.grid.select_question("q01")
    visited = [window.queue.next_unreviewed() for _ in range(7)]
    assert visited == ["q04", "q05", "q06", "q07", "q08", "q09", "q01"]
    window.close()


def test_next_with_a_diagnosis_in_grid_order_and_within_the_filter(
    qtbot: QtBot, scored_project: Path
) -> None:
    window = _window(qtbot, scored_project)
    assert window.grid.select_question("q01")
    visited = [window.queue.next_with_diagnosis() for _ in range(7)]
    assert visited == [*DIAGNOSED, "q02"]
    # Under a filter the walk stays among its questions.
    window.queue.choose("likely_hallucination")
    assert window.grid.visible_question_ids() == ["q02", "q07", "q08"]
    assert [window.queue.next_with_diagnosis() for _ in range(4)] == ["q07", "q08", "q02", "q07"]
    window.close()


def test_keys_n_and_d_work_while_the_grid_has_focus(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    _accept(window, "q02")
    qtbot.waitUntil(lambda: window.queue.progress_text() == "1 of 10 reviewed", timeout=TIMEOUT)
    assert window.grid.select_question("q01")
    table = window.grid.table_view()
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_N)
    assert window.grid.current_question() == "q03"  # q02 is reviewed
    qtbot.keyClick(table, Qt.Key.Key_D)
    assert window.grid.current_question() == "q05"
    window.close()


def test_nothing_left_is_said_in_the_status_bar(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    window.queue.choose("ambiguous_question")
    for question_id in ("q03", "q06"):
        _accept(window, question_id)
    qtbot.waitUntil(lambda: window.queue.progress_text() == "2 of 10 reviewed", timeout=TIMEOUT)
    assert window.queue.next_unreviewed() is None
    assert (
        window.statusBar().currentMessage()
        == "No unreviewed question among the rows shown; 8 hidden by the filters."
    )
    window.close()


def test_a_fix_updates_the_counts_and_keeps_the_current_question_shown(
    qtbot: QtBot, scored_project: Path
) -> None:
    window = _window(qtbot, scored_project)
    window.queue.choose("ambiguous_question")
    assert window.grid.select_question("q03")
    session = window.projects.session
    assert session is not None
    assert push_add_fact_variant(window.undo_stack, session, "q03", "410 Terry Ave. N.")
    qtbot.waitUntil(lambda: "Ambiguous question (1)" in window.queue.filter_entries(), timeout=TIMEOUT)
    # q03 is no longer ambiguous, but stays while it is current …
    assert window.grid.visible_question_ids() == ["q03", "q06"]
    assert window.grid.current_question() == "q03"
    # … and leaves once the filter is chosen again.
    window.queue.choose(None)
    window.queue.choose("ambiguous_question")
    assert window.grid.visible_question_ids() == ["q06"]
    window.close()


def test_every_shortcut_key_is_bound_once_where_it_works() -> None:
    """A key serves once everywhere, or once per tab (N: next unreviewed on the Review tab,
    incorrect on the Labels tab), never both everywhere and on a tab."""
    everywhere = [key for s in SHORTCUTS if s.tab == EVERYWHERE for key in s.keys]
    for tab in {s.tab for s in SHORTCUTS} - {EVERYWHERE}:
        keys = everywhere + [key for s in SHORTCUTS if s.tab == tab for key in s.keys]
        assert len(keys) == len(set(keys)), (tab, sorted(k for k in keys if keys.count(k) > 1))
    review = {key for s in SHORTCUTS if s.tab == REVIEW_TAB for key in s.keys}
    assert {"N", "D"} <= review


def test_the_filter_is_reset_when_another_project_opens(
    qtbot: QtBot, scored_project: Path, tmp_path: Path
) -> None:
    window = _window(qtbot, scored_project)
    window.queue.choose("ambiguous_question")
    assert window.grid.visible_question_ids() == ["q03", "q06"]
    other = tmp_path / "other.goldenlens"
    other.write_bytes(scored_project.read_bytes())
    assert window.projects.open_project(other)
    qtbot.waitUntil(lambda: len(window.advisor.index) == 10, timeout=TIMEOUT)
    assert window.queue.chosen_code() is None
    assert len(window.grid.visible_question_ids()) == 10
    window.close()

"""The Golden Review tab: a review started from the Judge menu in a worker (a scripted judge,
never the real model), the verdicts and reasons of q03, Accept / Dismiss / an unsure verdict
decided / Withdraw with the agreement header computed by hand, a stale row after an edit,
and Cancel keeping the finished rows (then the same review resumes).

The sample project is a real project file, imported and scored. The scripted judge answers
by criterion and by a phrase of the row (the verdicts are the script's, set here).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot
from tests.jobs.test_golden_review_job import criterion_of
from tests.judge.scripted import ScriptedEngine

from goldenlens.core.golden.criteria import JUDGED_CRITERIA, Criterion
from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN
from goldenlens.core.stats.agreement import Agreement
from goldenlens.jobs import open_project
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.judging.golden_review_job import GoldenReviewOptions
from goldenlens.judge.engines.protocol import CancelCheck, ChatMessage, JudgeReply
from goldenlens.queries.project import ProjectQueries
from goldenlens.settings.judge_preferences import JudgeSettings
from goldenlens.store.project import ProjectStore
from goldenlens.ui.golden_review.golden_review_controller import (
    CANCELLED_MESSAGE,
    GoldenReviewDialog,
)
from goldenlens.ui.golden_review.golden_review_pane import agreement_sentence, trust_hint
from goldenlens.ui.main_window import MainWindow

TIMEOUT = 30_000
Q03 = "principal office"  # q03: "Where is Amazon's principal office located?"
Q06 = "key challenge"  # q06: "What was a key challenge ... AWS ..."
#: (criterion, phrase of the row) -> (verdict, reason); every other call passes.
SCRIPT: dict[tuple[Criterion, str], tuple[str, str]] = {
    (Criterion.UNAMBIGUOUS_QUESTION, Q03): (
        "fail",
        "A head office and a registered office could both be meant.",
    ),
    (Criterion.ANSWER_MATCHES_FACT, Q03): ("pass", "The answer states 410 Terry Avenue North."),
    (Criterion.FACT_MINIMAL, "410 Terry"): ("unsure", "The street address may or may not be the key value."),
    (Criterion.UNAMBIGUOUS_QUESTION, Q06): ("fail", "Any of several challenges would be correct."),
}


def reply(messages: Sequence[ChatMessage], _schema: Mapping[str, Any]) -> str:
    criterion, row = criterion_of(messages), messages[-1]["content"]
    verdict, reason = next(
        (v for (c, phrase), v in SCRIPT.items() if c is criterion and phrase in row),
        ("pass", "Plain and clear."),
    )
    return f'{{"verdict": "{verdict}", "reason": "{reason}"}}'


@pytest.fixture
def window(qtbot: QtBot, scored_project: Path) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.projects.open_project(scored_project)
    qtbot.waitUntil(lambda: win.grid.model().rowCount() == 10, timeout=TIMEOUT)
    return win


def start_from_menu(qtbot: QtBot, window: MainWindow, engine: ScriptedEngine) -> None:
    """Judge ▸ Review the Golden Set…, then "Review" in its dialog."""
    window.golden_review.engine_factory = lambda: engine
    action = window.golden_review.review_action
    assert action in window.judge.menu.actions()
    action.trigger()
    dialog = window.findChild(GoldenReviewDialog)
    assert isinstance(dialog, GoldenReviewDialog)
    assert dialog.max_answer_words() == 40  # the advisor's guardrail
    dialog.accept()


def reviewed(qtbot: QtBot, window: MainWindow) -> MainWindow:
    start_from_menu(qtbot, window, ScriptedEngine(responder=reply))
    qtbot.waitUntil(lambda: window.golden_review.last_run_id is not None, timeout=TIMEOUT)
    window.tabs.setCurrentWidget(window.golden_review_pane)
    window.grid.select_question("q03")
    return window


def header(window: MainWindow) -> str:
    return window.golden_review_pane.agreement_label.text()


# -- the words -----------------------------------------------------------------------------------


def test_agreement_sentence_and_trust_hint() -> None:
    assert agreement_sentence(Agreement(20, 16, 0.41)) == (
        "Judge and reviewer agree on 16 of 20 decisions (80%), Cohen's kappa 0.41"
    )
    assert (
        trust_hint(Agreement(20, 16, 0.41)) == "Moderate: check its fails and unsures, spot-check its passes."
    )
    assert trust_hint(Agreement(20, 14, 0.39)) == "Weak: verify its suggestions."
    assert trust_hint(Agreement(20, 19, 0.85)) == "Strong: keep sampling a few of its suggestions to verify."
    assert trust_hint(Agreement(20, 8, -0.1)).startswith("No better than chance")
    assert trust_hint(Agreement(3, 3, None)).startswith("Kappa undefined")
    assert "(only 3 decisions so far: too few to go by)" in trust_hint(Agreement(3, 3, None))
    assert agreement_sentence(Agreement(0, 0, None)) == "No decisions yet"
    assert agreement_sentence(Agreement(1, 1, None)).startswith(
        "Judge and reviewer agree on 1 of 1 decision (100%)"
    )


def test_the_review_uses_the_apps_judge_settings() -> None:
    server = JudgeSettings(
        judge_source="server", judge_url=" http://127.0.0.1:8080/v1 ", temperature=0.3, seed=7, n_threads=0
    )
    options = GoldenReviewOptions(engine=server.engine_spec(), max_answer_words=25)
    engine = options.engine
    assert (engine.judge_model, engine.judge_url) == (None, "http://127.0.0.1:8080/v1")
    assert (engine.temperature, engine.seed, engine.n_threads, options.max_answer_words) == (
        0.3,
        7,
        None,
        25,
    )
    assert options.criteria == tuple(Criterion)
    local = GoldenReviewOptions(
        engine=JudgeSettings(
            judge_source="file", judge_model_path="~/models/qwen.gguf", n_ctx=8192, n_threads=4
        ).engine_spec()
    )
    assert local.engine.judge_model == Path("~/models/qwen.gguf").expanduser()
    assert (local.engine.judge_url, local.engine.n_ctx, local.engine.n_threads, local.max_answer_words) == (
        None,
        8192,
        4,
        40,
    )
    bundled = JudgeSettings(judge_source="default", judge_url="http://ignored").engine_spec()
    assert (bundled.judge_model, bundled.judge_url) == (None, None)


# -- the run and the verdicts ------------------------------------------------------------------------


def test_menu_review_shows_q03_verdicts_with_reasons(qtbot: QtBot, window: MainWindow) -> None:
    window.tabs.setCurrentWidget(window.golden_review_pane)
    assert "has not reviewed this golden set yet" in header(window)
    window.tabs.setCurrentIndex(0)  # the review runs while another tab is in front
    reviewed(qtbot, window)
    pane = window.golden_review_pane
    assert pane.current == "q03"
    shown = {c.verdict.criterion: (c.badge.text(), c.reason.text()) for c in pane.cards()}
    assert shown == {
        Criterion.UNAMBIGUOUS_QUESTION: (
            "✗ Fail",
            "“A head office and a registered office could both be meant.”",
        ),
        Criterion.ANSWER_MATCHES_FACT: ("✓ Pass", "“The answer states 410 Terry Avenue North.”"),
        Criterion.FACT_MINIMAL: ("? Unsure", "“The street address may or may not be the key value.”"),
        Criterion.LLM_AGNOSTIC_WORDING: ("✓ Pass", "“Plain and clear.”"),
        # q03's answer, "Amazon's principal office is located at 410 Terry Avenue North, Seattle,
        # Washington 98109-5210.", counted by hand: 13 words.
        Criterion.VERBOSITY: ("✓ Pass", "“13 words, within the guardrail of 40”"),
    }
    assert "counted, not judged" in pane.card(Criterion.VERBOSITY).title.text()
    unsure = pane.card(Criterion.FACT_MINIMAL)
    assert set(unsure.buttons) == {"pass", "fail"}  # the reviewer picks
    assert set(pane.card(Criterion.ANSWER_MATCHES_FACT).buttons) == {"accept", "dismiss"}
    # The table: every question, every criterion; q06 fails on the unambiguous question.
    table = pane.table
    assert (table.rowCount(), table.columnCount()) == (10, 6)
    marks = {table.item(r, 0).text(): [table.item(r, c).text() for c in range(1, 6)] for r in range(10)}
    assert marks["q03"] == ["F", "P", "?", "P", "P"]
    assert marks["q06"] == ["F", "P", "P", "P", "P"]
    assert marks["q01"] == ["P"] * 5
    assert "No decisions yet" in header(window)
    assert not window.run_panel.isVisible()
    with open_project(window.projects.session.path) as project:  # type: ignore[union-attr]
        run = ProjectQueries(project).latest_run(GOLDEN_REVIEW_RUN)
    assert run is not None
    assert run.status == "finished"
    # Clicking a row of the table makes it the app's current question.
    table.setCurrentCell(5, 2)
    assert pane.current == "q06"
    assert window.grid.current_question() == "q06"
    assert (
        pane.card(Criterion.UNAMBIGUOUS_QUESTION).reason.text()
        == "“Any of several challenges would be correct.”"
    )


def test_decisions_update_the_agreement_header_and_withdraw_undoes(qtbot: QtBot, window: MainWindow) -> None:
    reviewed(qtbot, window)
    pane = window.golden_review_pane
    pane.card(Criterion.ANSWER_MATCHES_FACT).buttons["accept"].click()  # judge pass, reviewer pass
    pane.card(Criterion.UNAMBIGUOUS_QUESTION).buttons["dismiss"].click()  # judge fail, reviewer pass
    pane.card(Criterion.FACT_MINIMAL).buttons["pass"].click()  # judge unsure, reviewer pass
    window.grid.select_question("q06")
    pane.card(Criterion.UNAMBIGUOUS_QUESTION).buttons["accept"].click()  # judge fail, reviewer fail
    # By hand: judge (pass, fail, unsure, fail), reviewer (pass, pass, pass, fail): 2 of 4 agree;
    # chance = pass 1*3 + fail 2*1 = 5 of 16, kappa = (2*4 - 5) / (16 - 5) = 3/11 = 0.27.
    assert header(window) == (
        "<b>Judge and reviewer agree on 2 of 4 decisions (50%), Cohen's kappa 0.27</b> — "
        "Weak: verify its suggestions (only 4 decisions so far: too few to go by)."
    )
    # Unambiguous question alone: judge (fail, fail), reviewer (pass, fail): 1 of 2, chance 2 of 4,
    # kappa (1*2 - 2) / (4 - 2) = 0.
    by_criterion = pane.criteria_label.text()
    assert "Unambiguous: 1 of 2 (50%), κ 0.00" in by_criterion
    assert "Matches fact: 1 of 1 (100%), κ undefined" in by_criterion
    assert "Verbosity: no decisions (counted, not in the total)" in by_criterion
    with ProjectStore.open(window.projects.session.path) as store:  # type: ignore[union-attr]
        stored = {
            (d.question_id, d.criterion): (d.decision, d.judge_verdict, d.reviewer_verdict)
            for d in store.golden_review.decisions()
        }
    assert stored == {
        ("q03", "answer_consistent_with_fact"): ("accepted", "pass", "pass"),
        ("q03", "unambiguous_question"): ("dismissed", "fail", "pass"),
        ("q03", "fact_minimal"): ("accepted", "unsure", "pass"),
        ("q06", "unambiguous_question"): ("accepted", "fail", "fail"),
    }
    window.grid.select_question("q03")
    card = pane.card(Criterion.UNAMBIGUOUS_QUESTION)
    assert card.decision_label.text() == "Dismissed: the reviewer says pass"
    assert set(card.buttons) == {"withdraw"}
    assert pane.table.item(2, 1).text() == "F ✓"
    card.buttons["withdraw"].click()
    # Left: judge (pass, unsure, fail), reviewer (pass, pass, fail): 2 of 3; chance = pass 1*2 +
    # fail 1*1 = 3 of 9, kappa = (2*3 - 3) / (9 - 3) = 0.5.
    assert header(window).startswith(
        "<b>Judge and reviewer agree on 2 of 3 decisions (67%), Cohen's kappa 0.50</b> — Moderate"
    )
    again = pane.card(Criterion.UNAMBIGUOUS_QUESTION)
    assert set(again.buttons) == {"accept", "dismiss"}
    assert not again.decision_label.isVisibleTo(pane)
    assert pane.table.item(2, 1).text() == "F"


def test_an_edited_row_is_marked_stale(qtbot: QtBot, window: MainWindow) -> None:
    reviewed(qtbot, window)
    pane = window.golden_review_pane
    assert all(c.stale_chip is None for c in pane.cards())
    session = window.projects.session
    assert session is not None
    item = session.project.golden_item("q03")
    assert item is not None
    curation.edit_golden_item(
        session.handle, replace(item, fact="410 Terry Avenue North<OR>410 Terry Ave. N."), reviewer="Ana"
    )
    session.notify_question("q03")
    # Stale: the criteria that read the fact; the question and the answer did not change.
    stale = {c.verdict.criterion for c in pane.cards() if c.stale_chip is not None}
    assert stale == {Criterion.ANSWER_MATCHES_FACT, Criterion.FACT_MINIMAL}
    assert pane.card(Criterion.UNAMBIGUOUS_QUESTION).buttons["dismiss"].isEnabled()
    # A verdict on the old text cannot be decided on the new one.
    assert not pane.card(Criterion.ANSWER_MATCHES_FACT).buttons["accept"].isEnabled()
    assert not pane.card(Criterion.FACT_MINIMAL).buttons["pass"].isEnabled()
    assert pane.table.item(2, 0).text() == "q03 ⚠"
    assert pane.table.item(3, 0).text() == "q04"  # untouched rows are not stale
    # A notes-only edit changes no triplet: q04 stays current.
    q04 = session.project.golden_item("q04")
    assert q04 is not None
    curation.edit_golden_item(session.handle, replace(q04, notes="checked"), reviewer="Ana")
    session.notify_question("q04")
    assert pane.table.item(3, 0).text() == "q04"
    # Reviewing again re-asks only what reads the edited fact (answer consistent with the fact,
    # fact minimal); the row is current again.
    again = ScriptedEngine(responder=reply)
    window.golden_review.last_run_id = None
    start_from_menu(qtbot, window, again)
    qtbot.waitUntil(lambda: window.golden_review.last_run_id is not None, timeout=TIMEOUT)
    assert len(again.calls) == 2
    assert all("410 Terry Ave. N." in call.row for call in again.calls)
    assert pane.table.item(2, 0).text() == "q03"
    assert all(c.stale_chip is None for c in pane.cards())
    assert pane.card(Criterion.ANSWER_MATCHES_FACT).buttons["accept"].isEnabled()


# -- cancel and resume ------------------------------------------------------------------------------


class GatedEngine(ScriptedEngine):
    """Answers the first ``free`` calls at once, then waits for ``gate`` before each reply."""

    def __init__(self, free: int) -> None:
        super().__init__(responder=reply)
        self.free = free
        self.gate = threading.Event()
        self.waiting = threading.Event()

    def complete_json(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        seed: int = 42,
        cancel: CancelCheck | None = None,
    ) -> JudgeReply:
        if len(self.calls) >= self.free:
            self.waiting.set()
            assert self.gate.wait(20), "the test never opened the gate"
        return super().complete_json(
            messages, schema, max_tokens=max_tokens, temperature=temperature, seed=seed, cancel=cancel
        )


def test_the_run_is_in_a_worker_and_cancel_keeps_finished_rows(qtbot: QtBot, window: MainWindow) -> None:
    judged = len(JUDGED_CRITERIA)  # four judge calls per golden row
    engine = GatedEngine(free=judged)  # q01 at once, then q02's first call waits
    start_from_menu(qtbot, window, engine)
    qtbot.waitUntil(engine.waiting.is_set, timeout=TIMEOUT)
    # The worker waits on the judge while the GUI thread keeps drawing: the panel is up.
    assert window.run_panel.isVisible()
    assert window.golden_review.last_run_id is None
    window.run_panel._cancel.click()
    engine.gate.set()
    qtbot.waitUntil(lambda: not window.run_panel.runner.running, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == CANCELLED_MESSAGE, timeout=TIMEOUT)
    assert window.golden_review.last_run_id is None
    pane = window.golden_review_pane
    assert pane.review is None  # read only once the tab is in view
    window.tabs.setCurrentWidget(pane)
    review = pane.review
    assert review is not None
    assert review.run is not None
    assert review.run.status == "cancelled"
    rated = [row.item.id for row in review.rows if all(v.verdict is not None for v in row.verdicts)]
    assert rated == ["q01"]  # q02 was cut off after its first judge call: not saved
    assert ", cancelled)" in pane.run_label.text()
    # The same review again resumes the run; q02's answered call comes from the judge cache.
    rest = ScriptedEngine(responder=reply)
    start_from_menu(qtbot, window, rest)
    qtbot.waitUntil(lambda: window.golden_review.last_run_id is not None, timeout=TIMEOUT)
    assert window.golden_review.last_run_id == review.run.id
    assert len(rest.calls) == 10 * judged - judged - 1
    assert pane.review is not None
    assert pane.review.run is not None
    assert pane.review.run.status == "finished"

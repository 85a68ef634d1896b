"""Reviewer labels on a real project file: one verdict for the same answer, stale labels after a
golden edit, detaching, labels from a file (all or nothing), plans that never ask twice, and the
human-calibrated estimates they give."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.badinputs import write_csv

from goldenlens.core.calibration.labels import LabelSource, LabelState, Verdict
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.problems import InputError
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.labelling.calibration import calibrate
from goldenlens.jobs.labelling.label_edits import (
    LabelError,
    clear_label,
    confirm_stale,
    detach_response,
    label_response,
    labels_from_file,
)
from goldenlens.jobs.labelling.plan import NothingToReplaceError, plan_labels
from goldenlens.jobs.labelling.population import load_responses
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.store.project import ProjectStore

GOLDEN = [
    ("q1", "What is the capital of France?", "Paris", "Paris"),
    ("q2", "Who wrote Hamlet?", "William Shakespeare", "Shakespeare"),
    ("q3", "What is 2+2?", "4", "4<OR>four"),
    ("q4", "Largest planet?", "Jupiter", "Jupiter"),
]
#: A and B give the same answer to q1 and q2 (after trimming and case); C answers on its own.
RESPONSES = {
    ("q1", "A"): "Paris.",
    ("q1", "B"): "paris",
    ("q1", "C"): "Lyon",
    ("q2", "A"): "Shakespeare",
    ("q2", "B"): "Shakespeare",
    ("q2", "C"): "Christopher Marlowe",
    ("q3", "A"): "four",
    ("q3", "B"): "5",
    ("q3", "C"): "4",
    ("q4", "A"): "Jupiter",
    ("q4", "B"): "Saturn",
    ("q4", "C"): "It is Jupiter, the fifth planet.",
}


def _write(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    return write_csv(path, [header, *rows])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    golden = _write(tmp_path / "golden.csv", ["id", "question", "answer", "fact"], [list(g) for g in GOLDEN])
    responses = _write(
        tmp_path / "responses.csv",
        ["question_id", "pipeline", "response"],
        [[q, p, text] for (q, p), text in RESPONSES.items()],
    )
    path = tmp_path / "labels.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        import_inputs(store, golden, responses)
        score_project(store)
    return path


def _states(store: ProjectStore) -> dict[tuple[str, str], tuple[LabelState, LabelSource]]:
    found = load_responses(store)
    return {key: (label.state, label.source) for key, label in zip(found.keys, found.labels, strict=True)}


def test_a_verdict_holds_for_the_same_answer_from_another_pipeline(project: Path) -> None:
    with ProjectStore.open(project) as store:
        outcome = label_response(store, "q1", "A", "correct", note="capital", reviewer="ana")
        assert outcome.same_answer == ("B",)
        states = _states(store)
    assert states[("q1", "A")] == (LabelState.CORRECT, LabelSource.DIRECT)
    assert states[("q1", "B")] == (LabelState.CORRECT, LabelSource.SAME_ANSWER)
    assert states[("q1", "C")] == (LabelState.NONE, LabelSource.NONE)


def test_detaching_asks_about_the_response_on_its_own_and_clearing_withdraws(project: Path) -> None:
    with ProjectStore.open(project) as store:
        label_response(store, "q2", "A", Verdict.CORRECT)
        detach_response(store, "q2", "B")
        assert _states(store)[("q2", "B")] == (LabelState.NONE, LabelSource.NONE)
        detach_response(store, "q2", "B", attach=True)
        assert _states(store)[("q2", "B")][0] is LabelState.CORRECT
        clear_label(store, "q2", "A")
        assert _states(store)[("q2", "A")][0] is LabelState.NONE
        assert _states(store)[("q2", "B")][0] is LabelState.NONE


def test_a_golden_edit_makes_its_labels_stale_until_confirmed(project: Path) -> None:
    with ProjectStore.open(project) as store:
        label_response(store, "q3", "A", "correct")
        label_response(store, "q3", "B", "incorrect")
        item = store.golden.item("q3")
        assert item is not None
        store.golden.update(GoldenItem(item.id, item.question, item.answer, "4<OR>four<OR>IV", item.notes))
        states = _states(store)
        assert states[("q3", "A")] == (LabelState.NONE, LabelSource.STALE)
        assert states[("q3", "B")] == (LabelState.NONE, LabelSource.STALE)
        assert confirm_stale(store, ["q3"]) == 2
        states = _states(store)
    assert states[("q3", "A")] == (LabelState.CORRECT, LabelSource.DIRECT)
    assert states[("q3", "B")] == (LabelState.INCORRECT, LabelSource.DIRECT)


def test_a_label_for_a_response_that_does_not_exist_is_refused(project: Path) -> None:
    with ProjectStore.open(project) as store:
        with pytest.raises(LabelError, match="no question 'q9'"):
            label_response(store, "q9", "A", "correct")
        with pytest.raises(LabelError, match="has no response from 'Z'"):
            label_response(store, "q1", "Z", "correct")
        with pytest.raises(LabelError, match="not a verdict"):
            label_response(store, "q1", "A", "maybe")
        assert store.labels.count() == 0


def test_a_labels_file_is_written_whole_or_not_at_all(project: Path, tmp_path: Path) -> None:
    bad = _write(
        tmp_path / "bad.csv",
        ["question_id", "pipeline", "verdict"],
        [["q1", "A", "yes"], ["q1", "C", "perhaps"], ["q4", "Z", "no"], ["q2", "A", "1"], ["q2", "A", "0"]],
    )
    with ProjectStore.open(project) as store:
        with pytest.raises(InputError) as raised:
            labels_from_file(store, bad)
        assert store.labels.count() == 0
    problems = [raised.value.problem, *raised.value.others]
    # Every bad row at once, in the file's order: no verdict, no such response, a second verdict.
    assert [(p.row, p.column) for p in problems] == [(3, "verdict"), (4, "pipeline"), (6, "verdict")]
    fixed = _write(
        tmp_path / "fixed.csv",
        ["question_id", "pipeline", "verdict"],
        [["q1", "A", "yes"], ["q4", "Z", "no"], ["q2", "A", "1"], ["q2", "A", "0"]],
    )
    with ProjectStore.open(project) as store:
        with pytest.raises(InputError) as raised:
            labels_from_file(store, fixed)
        assert store.labels.count() == 0
    problems = [raised.value.problem, *raised.value.others]
    assert [(p.row, p.column) for p in problems] == [(3, "pipeline"), (5, "verdict")]
    assert "has no response from 'Z' (its responses are from A, B, C)" in problems[0].message
    good = _write(
        tmp_path / "good.csv",
        ["Question ID", "System", "Verdict", "Note"],
        [["q1", "A", "pass", "capital"], ["q4", "B", "FAIL", ""], ["q4", "C", "", ""]],
    )
    with ProjectStore.open(project) as store:
        written = labels_from_file(store, good, reviewer="bo")
        states = _states(store)
        records = store.labels.records()
    assert (written.written, written.skipped) == (2, 1)
    assert states[("q1", "B")][0] is LabelState.CORRECT
    assert states[("q4", "B")][0] is LabelState.INCORRECT
    assert [(r.reviewer, r.note) for r in records] == [("bo", "capital"), ("bo", "")]


def test_a_plan_asks_each_distinct_answer_once_and_never_a_labelled_one(project: Path) -> None:
    with ProjectStore.open(project) as store:
        label_response(store, "q4", "A", "correct")
        plan = plan_labels(store, budget=4, seed=3)
        assert plan.round_number == 1
        assert len(plan.rows) == 4
        asked = {(r.question_id, r.pipeline) for r in plan.rows}
        assert ("q4", "A") not in asked
        # q1 and q2: A and B gave one answer: it is asked about once, as A's, and covers B.
        assert not any(r.pipeline == "B" and r.question_id in ("q1", "q2") for r in plan.rows)
        assert all(
            r.same_answer == ("B",) for r in plan.rows if r.question_id in ("q1", "q2") and r.pipeline == "A"
        )
        # The first plan has no label yet: drawn anew in its place, it asks for everything still
        # unlabelled, and stays round 1.
        rest = plan_labels(store, budget=100, seed=4, replace=True)
        again = {(r.question_id, r.pipeline) for r in rest.rows}
        assert ("q4", "A") not in again
        assert len(rest.rows) == rest.unlabelled_answers == 9
        assert rest.round_number == 1
        assert [info.budget for info in store.labels.rounds()] == [100]


def test_without_labels_the_estimates_say_so_and_how_many_labels_would_do(project: Path) -> None:
    with ProjectStore.open(project) as store:
        found = calibrate(store)
    assert not found.checked
    assert found.headline().startswith("Not checked against a reviewer: no labels yet")
    assert set(found.labels_needed) == {0.05, 0.03}
    assert all(e.interval.estimate is None for e in found.estimates)


def test_every_response_labelled_gives_each_pipelines_exact_share(project: Path, tmp_path: Path) -> None:
    truth = dict.fromkeys(RESPONSES, "correct")
    for key in [("q1", "C"), ("q2", "C"), ("q3", "B"), ("q4", "B")]:
        truth[key] = "incorrect"
    rows = [[q, p, v] for (q, p), v in truth.items()]
    with ProjectStore.open(project) as store:
        labels_from_file(store, _write(tmp_path / "all.csv", ["question_id", "pipeline", "verdict"], rows))
        found = calibrate(store)
    shares = {e.pipeline: (e.interval.estimate, e.interval.low, e.interval.high) for e in found.estimates}
    assert shares == {"A": (1.0, 1.0, 1.0), "B": (0.5, 0.5, 0.5), "C": (0.5, 0.5, 0.5)}
    assert found.headline() == (
        "Estimated from 12 labelled responses of 12 (the labels alone, no sampled round)."
    )
    # Exact on these four questions, but A's lead (right on 2 of 4 where B is wrong, never the
    # reverse) is no verdict for questions like these: McNemar's exact test of 2 wins and no
    # loss gives p = 2 * (1/2)^2 = 0.5 (and B against C, 2 wins each way, 1).
    pairs = {(p.a, p.b): (p.better, p.p_value) for p in found.pairs}
    assert pairs == {("A", "B"): (None, 0.5), ("A", "C"): (None, 0.5), ("B", "C"): (None, 1.0)}
    block = found.as_dict()
    assert block["estimates"]["A"] == {
        "estimate": 1.0, "low": 1.0, "high": 1.0, "se": 0.0, "labelled": 4, "responses": 4,
    }  # fmt: skip
    assert block["pairs"][0]["verdict"].startswith("Cannot tell A and B apart")


def test_a_round_whose_labels_went_stale_is_not_replaced_or_listed_as_unlabelled(project: Path) -> None:
    """Stale labels are labels the reviewer gave: their round has begun, so planning again draws
    the next round, and --replace refuses (it would drop what the reviewer labelled)."""
    with ProjectStore.open(project) as store:
        plan = plan_labels(store, budget=100, seed=1)  # every distinct answer
        label_response(store, "q3", "A", "correct")
        item = store.golden.item("q3")
        assert item is not None
        store.golden.update(GoldenItem(item.id, item.question, item.answer, "4<OR>four<OR>IV", item.notes))
        assert _states(store)[("q3", "A")] == (LabelState.NONE, LabelSource.STALE)
        with pytest.raises(NothingToReplaceError, match="no unlabelled round to replace"):
            plan_labels(store, budget=100, seed=1, replace=True)
        following = plan_labels(store, budget=100, seed=1)
        assert not following.listed_again
        assert (plan.round_number, following.round_number) == (1, 2)
        # A budget below one is refused before anything is dropped (the replace is one transaction).
        before = [info.id for info in store.labels.rounds()]
        with pytest.raises(ValueError, match="at least one label"):
            plan_labels(store, budget=0, seed=1, replace=True)
        assert [info.id for info in store.labels.rounds()] == before


def test_a_detached_response_neither_takes_nor_gives_the_same_answers_verdict(project: Path) -> None:
    # q1: A "Paris." and B "paris" are one answer; B is detached: judged on its own.
    with ProjectStore.open(project) as store:
        detach_response(store, "q1", "B")
        mine = label_response(store, "q1", "B", "correct")
        assert mine.same_answer == ()
        assert mine.disagreeing == ()
        assert _states(store)[("q1", "A")] == (LabelState.NONE, LabelSource.NONE)  # B's verdict is B's
        outcome = label_response(store, "q1", "A", "incorrect")
        # Two verdicts on one text, but B was detached on purpose: no disagreement to settle.
        assert outcome.same_answer == ()
        assert outcome.disagreeing == ()
        states = _states(store)
    assert states[("q1", "A")] == (LabelState.INCORRECT, LabelSource.DIRECT)
    assert states[("q1", "B")] == (LabelState.CORRECT, LabelSource.DIRECT)


def test_a_labels_file_reports_disagreements_but_not_with_a_detached_response(
    project: Path, tmp_path: Path
) -> None:
    with ProjectStore.open(project) as store:
        label_response(store, "q1", "B", "incorrect")
        label_response(store, "q2", "B", "incorrect")
        detach_response(store, "q2", "B")
        labels = _write(
            tmp_path / "labels.csv",
            ["question_id", "pipeline", "verdict", "round"],
            [["q1", "A", "correct", "²"], ["q2", "A", "correct", "1" * 40]],
        )
        done = labels_from_file(store, labels)
    # q1: A and B gave one answer, now with two verdicts; q2: B is detached, judged on its own.
    assert done.disagreeing == (("q1", "A", "correct", "B", "incorrect"),)
    # A round cell that is no round number ("²" passes str.isdigit) names no round.
    assert done.written == 2
    assert done.outside_round == ()


def test_a_label_on_an_answer_that_changed_is_never_confirmed_as_it_was(
    project: Path, tmp_path: Path
) -> None:
    """q4/B said "Saturn" (incorrect) and now says "Jupiter": the old verdict is about another
    text, so --confirm-stale must not put it on the new answer; a label made before its golden
    item changed (q3/A) may be confirmed."""
    golden = _write(tmp_path / "golden2.csv", ["id", "question", "answer", "fact"], [list(g) for g in GOLDEN])
    now = {**RESPONSES, ("q4", "B"): "Jupiter"}
    responses = _write(
        tmp_path / "responses2.csv",
        ["question_id", "pipeline", "response"],
        [[q, p, text] for (q, p), text in now.items()],
    )
    with ProjectStore.open(project) as store:
        label_response(store, "q4", "B", "incorrect")
        label_response(store, "q3", "A", "correct")
        import_inputs(store, golden, responses)
        score_project(store)
        item = store.golden.item("q3")
        assert item is not None
        store.golden.update(GoldenItem(item.id, item.question, item.answer, "4<OR>four<OR>IV", item.notes))
        summary = calibrate(store).headline()
        assert confirm_stale(store) == 1
        states = _states(store)
    assert "1 label was given on an answer that has changed since" in summary
    assert "label the new answer (the next plan lists it)" in summary
    assert states[("q4", "B")] == (LabelState.NONE, LabelSource.STALE)
    assert states[("q3", "A")] == (LabelState.CORRECT, LabelSource.DIRECT)

"""The golden-review job with a scripted judge: verdicts per triplet and criterion, the judge
cache, cancel, a killed run resumed (a real subprocess), engine errors, and the reviewer's
decisions with the agreement figures they give.

The golden set is a CSV written by the test: a clean row, an ambiguous one, and a verbose
row with chat-assistant filler. The scripted judge answers by criterion and row, so the
expected verdicts are the script's, set here, not the code's.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.judge.scripted import ScriptedEngine

from goldenlens.core.golden.criteria import JUDGED_CRITERIA, Criterion, criterion_metric
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN
from goldenlens.core.scores import ScoreStatus
from goldenlens.jobs.curation import golden_review_decisions as decisions
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.judging.golden_review_job import GoldenReviewOptions, JudgeRunError, review_golden_set
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress
from goldenlens.judge.engines.protocol import CancelCheck, ChatMessage, JudgeReply, make_reply
from goldenlens.judge.golden_review import CriterionJudge, triplet_inputs
from goldenlens.judge.metrics.base import JudgeCall
from goldenlens.queries.golden_review import load_golden_review
from goldenlens.store.project import ProjectStore

FILLER = (
    "Certainly! The bridge opened to traffic in 1932 after a long period of construction that many "
    "people in the city followed closely, and it has since become one of the most photographed "
    "landmarks of the region. I hope this helps!"
)
GOLDEN = [
    ("id", "question", "answer", "fact"),
    ("g1", "Who founded the museum?", "The museum was founded by Clara Hoff.", "Clara Hoff"),
    ("g2", "What is one risk the company names?", "Rising interest rates.", "interest rates<OR>rates"),
    ("g3", "When did the bridge open?", FILLER, "1932"),
]
#: The script: (criterion, a word of the row) -> verdict; every other call passes.
SCRIPT = {
    (Criterion.UNAMBIGUOUS_QUESTION, "one risk"): "fail",
    (Criterion.LLM_AGNOSTIC_WORDING, "Certainly"): "fail",
    (Criterion.FACT_MINIMAL, "rates"): "unsure",
}
OPTIONS = GoldenReviewOptions(max_answer_words=30)


def criterion_of(messages: Sequence[ChatMessage]) -> Criterion:
    """Which criterion a call asks about: its first few-shot example is that criterion's."""
    return next(c for c in JUDGED_CRITERIA if CriterionJudge(c).examples()[0][0] == messages[1]["content"])


def scripted_reply(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> str:
    criterion, row = criterion_of(messages), messages[-1]["content"]
    verdict = next((v for (c, word), v in SCRIPT.items() if c is criterion and word in row), "pass")
    return f'{{"verdict": "{verdict}", "reason": "scripted {criterion.value}"}}'


def scripted() -> ScriptedEngine:
    return ScriptedEngine(responder=scripted_reply)


def expected_verdicts() -> dict[tuple[str, str], str]:
    out = {}
    for qid, _q, answer, _f in GOLDEN[1:]:
        for criterion in JUDGED_CRITERIA:
            row = next(r for r in GOLDEN[1:] if r[0] == qid)
            text = " ".join(row[1:])
            out[(qid, criterion.value)] = next(
                (v for (c, word), v in SCRIPT.items() if c is criterion and word in text), "pass"
            )
        out[(qid, Criterion.VERBOSITY.value)] = "fail" if len(answer.split()) > 30 else "pass"
    return out


def write_golden(folder: Path, rows: Sequence[Sequence[str]] = GOLDEN) -> Path:
    path = folder / "golden.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ProjectStore]:
    with ProjectStore.open(tmp_path / "g.goldenlens", create=True) as opened:
        import_inputs(opened, write_golden(tmp_path))
        yield opened


def verdicts(store: ProjectStore, run_id: int) -> dict[tuple[str, str], str | None]:
    review = load_golden_review(store, run_id)
    return {
        (row.item.id, v.criterion.value): None if v.verdict is None else v.verdict.value
        for row in review.rows
        for v in row.verdicts
    }


def test_a_review_rates_every_triplet_on_every_criterion(store: ProjectStore) -> None:
    engine = scripted()
    seen: list[Progress] = []
    run_id = review_golden_set(store, OPTIONS, engine=engine, progress=seen.append)
    run = store.runs.get(run_id)
    assert run is not None
    assert (run.kind, run.status, run.total) == (GOLDEN_REVIEW_RUN, "finished", 3)
    assert verdicts(store, run_id) == expected_verdicts()
    assert len(engine.calls) == 3 * 4  # verbosity is counted, never asked
    records = store.results.scores(run_id)
    assert {r.pipeline for r in records} == {""}  # the golden row
    for record in records:
        assert record.status is ScoreStatus.SCORED
        params = Signature.from_json(record.signature).params
        if record.metric == criterion_metric(Criterion.VERBOSITY):
            assert record.detail["source"] == "rule"
            assert params == {"max_answer_words": 30, "rule": "word count"}
        else:
            assert record.detail["source"] == "judge"
            assert record.detail["reason"] == "scripted " + record.metric.removeprefix("golden_review.")
            assert (params["judge_sha256"], params["prompt_version"], params["seed"]) == ("0" * 64, "2", 42)
            assert record.detail["usage"]["calls"] == 1  # type: ignore[index]
    g3 = load_golden_review(store, run_id).rows[2].verdict(Criterion.VERBOSITY)
    assert g3 is not None
    assert g3.reason == "40 words; the guardrail is 30"
    assert seen[-1].stage == GOLDEN_REVIEW_RUN
    assert seen[-1].message.startswith("judged 3/3 golden rows")


def test_each_prompt_holds_only_the_fields_its_criterion_reads(store: ProjectStore) -> None:
    engine = scripted()
    review_golden_set(store, replace(OPTIONS, criteria=JUDGED_CRITERIA), engine=engine)
    rows = {criterion_of(call.messages): call.row for call in engine.calls if "museum" in call.row}
    assert rows[Criterion.UNAMBIGUOUS_QUESTION] == (
        "Question: Who founded the museum?\nGolden answer: The museum was founded by Clara Hoff."
    )
    assert rows[Criterion.ANSWER_MATCHES_FACT] == (
        'Golden answer: The museum was founded by Clara Hoff.\nFact: "Clara Hoff"'
    )
    assert rows[Criterion.LLM_AGNOSTIC_WORDING] == "Golden answer: The museum was founded by Clara Hoff."
    g2 = next(
        call.row
        for call in engine.calls
        if criterion_of(call.messages) is Criterion.FACT_MINIMAL and "risk" in call.row
    )
    assert g2.endswith('Fact: "interest rates" or "rates"')
    schema = engine.calls[0].schema
    assert schema["properties"]["verdict"]["enum"] == ["pass", "fail", "unsure"]
    assert schema["required"] == ["verdict"]


def test_a_rerun_asks_nothing_and_an_edit_reasks_only_what_reads_it(store: ProjectStore) -> None:
    first = review_golden_set(store, OPTIONS, engine=scripted())
    again = scripted()
    second = review_golden_set(store, OPTIONS, engine=again)
    assert second != first  # a finished run is not reopened: a new run, answered from the cache
    assert again.calls == []
    assert verdicts(store, second) == verdicts(store, first)

    item = store.golden.item("g1")
    assert item is not None
    store.golden.update(replace(item, fact="Clara Hoff<OR>Hoff"))
    edited = scripted()
    review_golden_set(store, OPTIONS, engine=edited)
    asked = sorted(criterion_of(call.messages).value for call in edited.calls)
    # The fact is read by these two criteria only; the question and answer did not change.
    assert asked == ["answer_consistent_with_fact", "fact_minimal"]
    assert all("Hoff" in call.row for call in edited.calls)


def test_an_unreadable_reply_is_not_rated_and_a_cut_reason_keeps_its_verdict(store: ProjectStore) -> None:
    def reply(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> str | tuple[str, Any]:
        row, criterion = messages[-1]["content"], criterion_of(messages)
        if "museum" in row and criterion is Criterion.FACT_MINIMAL:
            return '{"verdict": "maybe"}'  # not in the schema's enum
        if "museum" in row and criterion is Criterion.UNAMBIGUOUS_QUESTION:
            return ('{"verdict": "fail", "reason": "It could mean the', "length")
        return scripted_reply(messages, schema)

    run_id = review_golden_set(store, OPTIONS, engine=ScriptedEngine(responder=reply))
    review = load_golden_review(store, run_id)
    g1 = review.rows[0]
    minimal = g1.verdict(Criterion.FACT_MINIMAL)
    assert minimal is not None
    assert minimal.verdict is None
    assert "judge output unusable" in minimal.reason
    assert "'maybe' is not one of" in minimal.reason
    cut = g1.verdict(Criterion.UNAMBIGUOUS_QUESTION)
    assert cut is not None
    assert cut.verdict is not None
    assert cut.verdict.value == "fail"
    assert cut.reason == "(the judge's reason was cut off at max_tokens)"
    assert review.counts()[Criterion.FACT_MINIMAL] == {"pass": 1, "fail": 0, "unsure": 1, "not_rated": 1}


def test_cancel_keeps_finished_rows_and_resume_completes_the_same_run(store: ProjectStore) -> None:
    token = CancelToken()

    def cancel_after_one(progress: Progress) -> None:
        if progress.done >= 1:
            token.cancel()

    first = scripted()
    with pytest.raises(Cancelled):
        review_golden_set(store, OPTIONS, engine=first, progress=cancel_after_one, cancel=token)
    run = store.runs.latest(GOLDEN_REVIEW_RUN)
    assert run is not None
    assert run.status == "cancelled"
    assert store.results.scored_keys(run.id) == {("g1", "")}
    assert len(first.calls) == 4
    rest = scripted()
    resumed = review_golden_set(store, OPTIONS, engine=rest)
    assert resumed == run.id
    assert len(rest.calls) == 2 * 4
    assert store.runs.get(run.id).status == "finished"  # type: ignore[union-attr]
    assert verdicts(store, resumed) == expected_verdicts()


def test_other_options_or_an_edited_golden_set_start_a_new_run(store: ProjectStore) -> None:
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        review_golden_set(store, OPTIONS, engine=scripted(), cancel=token)
    stopped = store.runs.latest(GOLDEN_REVIEW_RUN)
    assert stopped is not None
    other = review_golden_set(store, replace(OPTIONS, max_answer_words=50), engine=scripted())
    assert other != stopped.id
    item = store.golden.item("g2")
    assert item is not None
    store.golden.update(replace(item, question="Which risk does the company name first?"))
    fresh = review_golden_set(store, OPTIONS, engine=scripted())
    assert fresh not in (stopped.id, other)
    assert store.runs.get(stopped.id).status == "superseded"  # type: ignore[union-attr]


KILLED_RUN = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from tests.jobs.test_golden_review_job import OPTIONS, scripted
    from goldenlens.jobs.judging.golden_review_job import review_golden_set
    from goldenlens.store.project import ProjectStore

    def progress(p):
        if p.done >= 2:
            os.kill(os.getpid(), signal.SIGKILL)

    with ProjectStore.open(Path(sys.argv[1])) as store:
        review_golden_set(store, OPTIONS, engine=scripted(), progress=progress)
    """
)


def test_a_killed_review_resumes_to_the_uninterrupted_verdicts(tmp_path: Path) -> None:
    path = tmp_path / "k.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        import_inputs(store, write_golden(tmp_path))
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", KILLED_RUN, str(path)], env=env, cwd=root, timeout=120, check=False
    )
    assert done.returncode == -9
    with ProjectStore.open(path) as store:
        (run,) = store.runs.unfinished(GOLDEN_REVIEW_RUN)
        assert run.status == "running"
        assert store.results.scored_keys(run.id) == {("g1", ""), ("g2", "")}
        rest = scripted()
        resumed = review_golden_set(store, OPTIONS, engine=rest)
        assert resumed == run.id
        assert len(rest.calls) == 4  # only g3, the row the kill cut off, is asked
        assert verdicts(store, resumed) == expected_verdicts()


class FailingEngine:
    """A server that is down: every call comes back as an error reply."""

    model_name = "down"
    model_sha256 = "server:down"

    def __init__(self) -> None:
        self.calls = 0

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
        self.calls += 1
        return make_reply("", "error", schema, error="connection refused")


def test_engine_errors_stop_the_run_and_save_nothing_of_those_rows(store: ProjectStore) -> None:
    engine = FailingEngine()
    with pytest.raises(JudgeRunError, match=r"2 consecutive golden rows.*connection refused"):
        review_golden_set(store, OPTIONS, engine=engine, max_engine_errors=2)
    run = store.runs.latest(GOLDEN_REVIEW_RUN)
    assert run is not None
    assert run.status == "failed"
    assert store.results.scored_keys(run.id) == set()
    assert engine.calls == 2  # one call per row: the row stops at its first engine error
    assert store.cache.get("anything") is None
    resumed = review_golden_set(store, OPTIONS, engine=scripted())
    assert resumed == run.id
    assert verdicts(store, resumed) == expected_verdicts()


def test_the_options_round_trip_through_the_runs_params() -> None:
    options = GoldenReviewOptions(
        engine=JudgeEngineSpec(judge_url="http://localhost:8080"),
        criteria=(Criterion.FACT_MINIMAL,),
        max_answer_words=12,
        reason_chars=40,
    )
    assert GoldenReviewOptions.from_params(options.params()) == options
    assert GoldenReviewOptions.from_params(GoldenReviewOptions().params()) == GoldenReviewOptions()


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"engine": {"judge_model": Path("m.gguf"), "judge_url": "http://x"}}, "not both"),
        ({"criteria": ()}, "at least one criterion"),
        ({"max_answer_words": 0}, "at least 1"),
        ({"reason_chars": 5}, "between 20 and 200"),
        ({"criteria": ("clarity",)}, "'clarity' is not a valid Criterion"),
    ],
)
def test_bad_options_are_refused(kwargs: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        GoldenReviewOptions(**{k: JudgeEngineSpec(**v) if k == "engine" else v for k, v in kwargs.items()})


def test_only_counted_criteria_need_no_judge(store: ProjectStore) -> None:
    run_id = review_golden_set(
        store, GoldenReviewOptions(criteria=(Criterion.VERBOSITY,), max_answer_words=30)
    )
    assert verdicts(store, run_id) == {
        ("g1", "verbosity_within_guardrail"): "pass",
        ("g2", "verbosity_within_guardrail"): "pass",
        ("g3", "verbosity_within_guardrail"): "fail",
    }


def test_decisions_give_the_agreement_figures(store: ProjectStore) -> None:
    project = store  # the desktop app passes the project it opened: the same handle
    with pytest.raises(ValueError, match="not been reviewed"):
        decisions.decide(project, "g1", "fact_minimal", "accepted")
    review_golden_set(store, OPTIONS, engine=scripted())
    # Judge: g1 pass, g2 fail (unambiguous); g2 unsure (fact minimal); g3 fail (wording).
    decisions.decide(project, "g1", "unambiguous_question", "accepted", reviewer="ana")  # pass / pass
    decisions.decide(project, "g2", "unambiguous_question", "accepted")  # fail / fail
    decisions.decide(project, "g3", "unambiguous_question", "dismissed")  # pass / fail
    decisions.decide(project, "g2", "fact_minimal", "dismissed", verdict="fail")  # unsure / fail
    saved = decisions.decide(
        project, "g3", "llm_agnostic_wording", "dismissed", note="quoted text"
    )  # fail / pass
    assert (saved.judge_verdict, saved.reviewer_verdict, saved.note) == ("fail", "pass", "quoted text")
    decisions.decide(project, "g3", "verbosity_within_guardrail", "accepted")  # rule: fail / fail
    with pytest.raises(ValueError, match="give your own verdict"):
        decisions.decide(project, "g2", "fact_minimal", "accepted")
    with pytest.raises(ValueError, match="no golden question 'g9'"):
        decisions.decide(project, "g9", "fact_minimal", "accepted")

    figures = load_golden_review(store).agreement
    # Judged criteria: pairs (pass,pass) (fail,fail) (pass,fail) (unsure,fail) (fail,pass):
    # agreed 2 of 5; judge marginals pass 2, fail 2, unsure 1; reviewer pass 2, fail 3;
    # p_e = (2*2 + 2*3 + 0) / 25 = 10/25, kappa = (2*5 - 10) / (25 - 10) = 0.
    assert (figures.overall.n, figures.overall.agreed) == (5, 2)
    assert figures.overall.kappa == pytest.approx(0.0, abs=1e-12)
    unambiguous = figures.by_criterion[Criterion.UNAMBIGUOUS_QUESTION]
    # (pass,pass) (fail,fail) (pass,fail): p_o 2/3, p_e = (2*1 + 1*2)/9 = 4/9, kappa = (6-4)/(9-4).
    assert (unambiguous.n, unambiguous.agreed) == (3, 2)
    assert unambiguous.kappa == pytest.approx(2 / 5, rel=1e-12)
    verbosity = figures.by_criterion[Criterion.VERBOSITY]
    assert (verbosity.n, verbosity.agreed, verbosity.kappa) == (1, 1, None)  # kept out of the total

    decisions.withdraw(project, "g3", "unambiguous_question")
    after = load_golden_review(store)
    assert (after.agreement.overall.n, after.agreement.overall.agreed) == (4, 2)
    with pytest.raises(ValueError, match="no decision on unambiguous_question for 'g3'"):
        decisions.withdraw(project, "g3", "unambiguous_question")
    g1 = after.rows[0].verdict(Criterion.UNAMBIGUOUS_QUESTION)
    assert g1 is not None
    assert g1.decision is not None
    assert (g1.decision.reviewer, g1.decision_current) == ("ana", True)

    # Editing the triplet makes the decision out of date; it still counts (it was true of what was shown).
    item = store.golden.item("g1")
    assert item is not None
    store.golden.update(replace(item, question="Who founded the city museum?"))
    edited = load_golden_review(store).rows[0].verdict(Criterion.UNAMBIGUOUS_QUESTION)
    assert edited is not None
    assert edited.decision_current is False
    assert load_golden_review(store).agreement.overall.n == 4


KILLED_MID_ROW = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from tests.jobs.test_golden_review_job import OPTIONS, scripted_reply
    from tests.judge.scripted import ScriptedEngine
    from goldenlens.jobs.judging.golden_review_job import review_golden_set
    from goldenlens.store.project import ProjectStore

    calls = []

    def reply(messages, schema):
        calls.append(1)
        if len(calls) == 10:  # g3's second criterion: its first is answered and cached
            os.kill(os.getpid(), signal.SIGKILL)
        return scripted_reply(messages, schema)

    with ProjectStore.open(Path(sys.argv[1])) as store:
        review_golden_set(store, OPTIONS, engine=ScriptedEngine(responder=reply))
    """
)


def test_a_row_killed_halfway_reuses_its_cached_verdicts(tmp_path: Path) -> None:
    path = tmp_path / "m.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        import_inputs(store, write_golden(tmp_path))
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", KILLED_MID_ROW, str(path)], env=env, cwd=root, timeout=120, check=False
    )
    assert done.returncode == -9
    with ProjectStore.open(path) as store:
        rest = scripted()
        resumed = review_golden_set(store, OPTIONS, engine=rest)
        assert len(rest.calls) == 3  # g3's three criteria after the one cached before the kill
        assert all("bridge" in call.row or "Certainly" in call.row for call in rest.calls)
        assert verdicts(store, resumed) == expected_verdicts()


@pytest.mark.parametrize(("answer", "fact", "blank"), [("A.", "<OR> <OR>", "fact"), ("  ", "x", "answer")])
def test_a_criterion_with_a_blank_field_is_not_rated_and_asks_nothing(
    answer: str, fact: str, blank: str
) -> None:
    engine = ScriptedEngine()  # any call would fail the test
    judge = CriterionJudge(Criterion.ANSWER_MATCHES_FACT)
    result = judge.score(triplet_inputs("Who?", answer, fact), JudgeCall(engine), None)
    assert (result.value, result.status, result.reason) == (
        None,
        ScoreStatus.NOT_SCORED,
        f"missing input: {blank}",
    )
    assert engine.calls == []

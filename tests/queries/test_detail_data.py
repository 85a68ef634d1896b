"""load_question_detail on a real scored project file: spans as stored, flags, overrides, judge."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from goldenlens.core.lexical.flags import Flag, FlagThresholds
from goldenlens.core.lexical.scorer import (
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    LEXICAL_SCORE_NAMES,
    LexicalScorer,
    WordKind,
)
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.jobs.scoring.score_rows import ScoreOptions
from goldenlens.queries.detail_data import PipelineDetail, QuestionDetail, load_question_detail
from goldenlens.store.project import ProjectStore

PIPELINES = ["Pipeline1", "Pipeline2", "Pipeline3"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ProjectStore]:
    """The sample imported into a real project file (not scored yet)."""
    with ProjectStore.open(tmp_path / "sample.goldenlens", create=True) as opened:
        import_inputs(opened, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        yield opened


@pytest.fixture
def run_id(store: ProjectStore) -> int:
    return score_project(store)


def _detail(store: ProjectStore, run_id: int | None, question_id: str) -> QuestionDetail:
    detail = load_question_detail(store, run_id, question_id)
    assert detail is not None
    return detail


def _pipeline(detail: QuestionDetail, name: str) -> PipelineDetail:
    found = detail.pipeline(name)
    assert found is not None
    return found


def test_alignment_is_the_core_alignment_and_the_fact_span_covers_the_number(
    store: ProjectStore, run_id: int
) -> None:
    detail = _detail(store, run_id, "q10")
    p1 = _pipeline(detail, "Pipeline1")
    item = detail.item
    expected = LexicalScorer().score(p1.response, item.answer, item.fact)
    assert p1.alignment == expected.alignment
    assert p1.fact == expected.fact
    assert p1.scores == expected.scores
    assert set(p1.scores) == set(LEXICAL_SCORE_NAMES)
    assert [p1.response[m.start : m.end] for m in p1.fact.matches] == ["10,317,750,796"]
    assert p1.fact.matched_by == "exact"
    assert p1.scores[F1_SCORE] == pytest.approx(0.364, abs=5e-4)


def test_answer_spans_differ_per_pipeline_and_missed_words_are_answer_text(
    store: ProjectStore, run_id: int
) -> None:
    detail = _detail(store, run_id, "q10")
    answer = detail.item.answer
    for pipeline in detail.pipelines:
        assert pipeline.alignment is not None
        missed = [answer[s.start : s.end] for s in pipeline.alignment.answer if s.kind is WordKind.MISSED]
        assert list(pipeline.missed) == list(dict.fromkeys(missed))
    assert _pipeline(detail, "Pipeline1").missed == ("There", "were", "Amazon's")
    assert _pipeline(detail, "Pipeline2").missed == ("Amazon's",)


def test_pipelines_follow_project_order_with_signature(store: ProjectStore, run_id: int) -> None:
    detail = _detail(store, run_id, "q02")
    assert [p.pipeline for p in detail.pipelines] == store.responses.pipelines() == PIPELINES
    assert detail.run_id == run_id
    for pipeline in detail.pipelines:
        assert pipeline.signature.startswith("f1_score|v1|")
        assert "counting=set" in pipeline.signature
        assert pipeline.contexts
        assert not pipeline.pipeline_missing
        assert pipeline.judge == ()


def test_response_flags_carry_label_and_explanation_with_run_thresholds(
    store: ProjectStore, run_id: int
) -> None:
    q02 = _detail(store, run_id, "q02")
    assert [n.flag for n in _pipeline(q02, "Pipeline2").flags] == [Flag.LIKELY_HALLUCINATION]
    assert [n.flag for n in _pipeline(q02, "Pipeline3").flags] == [Flag.REFUSAL]
    assert _pipeline(q02, "Pipeline1").flags == ()
    verbose = _pipeline(_detail(store, run_id, "q10"), "Pipeline1").flags
    assert [(n.flag, n.label) for n in verbose] == [(Flag.VERBOSE, "Verbose")]
    assert "recall >= 0.7" in verbose[0].explanation
    assert "precision <= 0.3" in verbose[0].explanation

    custom = score_project(
        store, ScoreOptions(thresholds=FlagThresholds(hallucination_recall=0.65)), resume=False
    )
    note = _pipeline(_detail(store, custom, "q02"), "Pipeline2").flags[0]
    assert note.flag is Flag.LIKELY_HALLUCINATION
    assert "recall >= 0.65" in note.explanation


def test_golden_row_flag_of_q03(store: ProjectStore, run_id: int) -> None:
    q03 = _detail(store, run_id, "q03")
    assert [n.flag for n in q03.golden_flags] == [Flag.AMBIGUOUS_QUESTION]
    assert q03.golden_flags[0].label == "Ambiguous question"
    assert "No pipeline" in q03.golden_flags[0].explanation
    assert _detail(store, run_id, "q10").golden_flags == ()


def test_latest_override_and_review_show_up(store: ProjectStore, run_id: int) -> None:
    store.reviews.set_override("q02", "Pipeline1", F1_SCORE, value=0.5, passed=None, reviewer="ana")
    store.reviews.set_override(
        "q02", "Pipeline1", F1_SCORE, value=1.0, passed=True, note="right figure", reviewer="ana"
    )
    store.reviews.set_override("q02", "Pipeline2", FACTUAL_KNOWLEDGE, value=None, passed=False)
    store.reviews.set("q02", "needs_curation", "add a variant")
    detail = _detail(store, run_id, "q02")
    p1 = _pipeline(detail, "Pipeline1")
    assert set(p1.overrides) == {F1_SCORE}
    assert p1.overrides[F1_SCORE].value == 1.0
    assert p1.overrides[F1_SCORE].note == "right figure"
    assert p1.effective_score(F1_SCORE) == 1.0
    assert p1.scores[F1_SCORE] == pytest.approx(0.4615, abs=1e-4)  # the stored score is untouched
    p2 = _pipeline(detail, "Pipeline2")
    assert p2.overrides[FACTUAL_KNOWLEDGE].passed is False
    assert p2.effective_score(FACTUAL_KNOWLEDGE) == 0.0  # a verdict alone keeps the number
    assert _pipeline(detail, "Pipeline3").overrides == {}
    assert detail.review is not None
    assert (detail.review.status, detail.review.note) == ("needs_curation", "add a variant")
    assert _detail(store, run_id, "q01").review is None


def test_multiset_run_gives_the_multiset_alignment(store: ProjectStore) -> None:
    run = score_project(store, ScoreOptions(multiset=True))
    detail = _detail(store, run, "q10")
    p1 = _pipeline(detail, "Pipeline1")
    expected = LexicalScorer(multiset=True).score(p1.response, detail.item.answer, detail.item.fact)
    assert p1.alignment is not None
    assert p1.alignment.multiset
    assert p1.alignment == expected.alignment
    assert "counting=multiset" in p1.signature


def test_without_a_run_the_item_and_responses_come_back_unscored(store: ProjectStore) -> None:
    detail = _detail(store, None, "q02")
    assert detail.item.id == "q02"
    assert detail.golden_flags == ()
    assert [p.pipeline for p in detail.pipelines] == PIPELINES
    for pipeline in detail.pipelines:
        assert pipeline.response
        assert pipeline.scores == {}
        assert pipeline.alignment is None
        assert pipeline.fact.matches == ()
        assert pipeline.flags == ()
        assert not pipeline.scored
        assert pipeline.missed == ()


def test_unknown_question_gives_none(store: ProjectStore, run_id: int) -> None:
    assert load_question_detail(store, run_id, "nope") is None


def test_a_pipeline_without_a_response_is_marked_missing(store: ProjectStore) -> None:
    responses = [r for r in store.responses.all() if (r.question_id, r.pipeline) != ("q01", "Pipeline3")]
    store.responses.replace(responses, PIPELINES)
    run = score_project(store)
    detail = _detail(store, run, "q01")
    missing = _pipeline(detail, "Pipeline3")
    assert missing.pipeline_missing
    assert (missing.response, missing.scores, missing.alignment) == ("", {}, None)
    assert not _pipeline(detail, "Pipeline1").pipeline_missing


def test_judge_run_scores_become_judge_notes(store: ProjectStore, run_id: int) -> None:
    judge_run = store.runs.start("judge", {"model": "qwen2.5-0.5b-instruct-q4_k_m.gguf"}, total=1)
    signature = Signature("faithfulness", "1", {"model": "qwen2.5-0.5b-instruct-q4_k_m.gguf", "seed": 0})
    store.results.save(
        judge_run,
        [
            ScoreRecord(
                "q02", "Pipeline1", "faithfulness", 0.5, signature.to_json(),
                detail={"statements": ["a", "b"], "verdicts": [1, 0]},
            ),
            ScoreRecord(
                "q02", "Pipeline1", "context_recall", None, signature.to_json(),
                status=ScoreStatus.NOT_SCORED, reason="context missing",
            ),
        ],
    )  # fmt: skip
    detail = load_question_detail(store, run_id, "q02", judge_run_id=judge_run)
    assert detail is not None
    notes = {n.metric: n for n in _pipeline(detail, "Pipeline1").judge}
    assert notes["faithfulness"].value == 0.5
    assert notes["faithfulness"].status == "scored"
    assert notes["faithfulness"].model == "qwen2.5-0.5b-instruct-q4_k_m.gguf"
    assert notes["faithfulness"].detail["verdicts"] == [1, 0]
    assert notes["context_recall"].value is None
    assert (notes["context_recall"].status, notes["context_recall"].reason) == (
        "not_scored",
        "context missing",
    )
    assert _pipeline(detail, "Pipeline2").judge == ()


@pytest.mark.parametrize("question_id", ["q01", "q02", "q03", "q10"])
def test_per_question_reads_equal_the_whole_run(store: ProjectStore, run_id: int, question_id: str) -> None:
    """What a click reads through the per-question queries equals the whole-run reads."""
    store.reviews.set_override(question_id, "Pipeline2", F1_SCORE, value=0.25, passed=None)
    store.reviews.set(question_id, "accepted")
    detail = load_question_detail(store, run_id, question_id)
    assert detail is not None
    records = [r for r in store.results.scores(run_id) if r.question_id == question_id]
    assert store.results.scores_of_question(run_id, question_id) == records
    flags = [f for f in store.results.flags(run_id) if f[0] == question_id]
    assert store.results.flags_of_question(run_id, question_id) == flags
    assert detail.review == store.reviews.all()[question_id]
    assert [p.response for p in detail.pipelines] == [
        r.response for r in store.responses.all() if r.question_id == question_id
    ]

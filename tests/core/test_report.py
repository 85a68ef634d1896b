"""score_all / summarise / fact_matrix on the sample project, checked against the reference."""

from __future__ import annotations

import json

import pytest
from core_sample import SampleRows

import fmeval_reference as ref
from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.flags import Flag, FlagThresholds
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES, LexicalResult
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.problems import Problem
from goldenlens.core.scored_rows import Report, ScoredRow, score_all, summarise
from sample_expectations import FK_REPORT

PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")


def _inputs(sample: SampleRows) -> tuple[list[GoldenItem], list[PipelineResponse]]:
    golden = [GoldenItem(r["id"], r["question"], r["answer"], r["fact"]) for r in sample.golden.values()]
    responses = [
        PipelineResponse(r["question_id"], r["pipeline"], r["response"], tuple(json.loads(r["contexts"])))
        for r in sample.responses.values()
    ]
    return golden, responses


@pytest.fixture(scope="module")
def report(sample: SampleRows) -> Report:
    golden, responses = _inputs(sample)
    return score_all(golden, responses, PIPELINES)


def test_every_row_is_scored_like_the_reference(report: Report, sample: SampleRows) -> None:
    assert len(report.rows) == 30
    for row in report.rows:
        assert row.scores == ref.all_scores(*sample.row(*row.key)), row.key
        assert row.result.alignment is not None


def test_fact_matrix_is_the_factual_knowledge_report(report: Report) -> None:
    assert report.fact_matrix() == {
        qid: dict(zip(PIPELINES, map(float, values), strict=True)) for qid, values in FK_REPORT.items()
    }


def test_fact_matrix_shows_missing_responses_as_none(sample: SampleRows) -> None:
    golden, responses = _inputs(sample)
    partial = [r for r in responses if (r.question_id, r.pipeline) != ("q05", "Pipeline2")]
    matrix = score_all(golden, partial, PIPELINES).fact_matrix()
    assert matrix["q05"] == {"Pipeline1": 1.0, "Pipeline2": None, "Pipeline3": 1.0}


def test_summary_is_the_mean_per_pipeline(report: Report, sample: SampleRows) -> None:
    summary = report.summary()
    assert list(summary) == list(PIPELINES)
    for pipeline in PIPELINES:
        rows = [ref.all_scores(*sample.row(qid, pipeline)) for qid in sample.golden]
        expected = {name: sum(r[name] for r in rows) / len(rows) for name in LEXICAL_SCORE_NAMES}
        assert summary[pipeline] == pytest.approx(expected, rel=1e-12)
    # Factual Knowledge means are the README table's column means.
    assert [summary[p]["factual_knowledge"] for p in PIPELINES] == pytest.approx([0.8, 0.4, 0.5])
    assert summary["Pipeline1"]["exact_match_score"] == pytest.approx(0.1)  # q09/Pipeline1 is word for word


def test_summary_of_selected_scores(report: Report) -> None:
    summary = report.summary(["factual_knowledge"])
    assert summary == {
        p: {"factual_knowledge": pytest.approx(v)} for p, v in zip(PIPELINES, (0.8, 0.4, 0.5), strict=True)
    }


def test_summarise_by_hand() -> None:
    item = GoldenItem("q", "?", "a", "f")

    def row(pipeline: str, value: float) -> ScoredRow:
        result = LexicalResult(dict.fromkeys(LEXICAL_SCORE_NAMES, value), fact=None)  # type: ignore[arg-type]
        return ScoredRow(item, PipelineResponse("q", pipeline, ""), result)

    summary = summarise(
        [row("A", 1.0), row("A", 0.0), row("A", 0.5), row("B", 0.25)], ["A", "B"], ["f1_score"]
    )
    assert summary == {"A": {"f1_score": 0.5}, "B": {"f1_score": 0.25}}


def test_response_flags_in_the_report(report: Report) -> None:
    flags = {row.key: row.flags for row in report.rows}
    assert flags["q02", "Pipeline2"] == (Flag.LIKELY_HALLUCINATION,)
    assert flags["q10", "Pipeline1"] == (Flag.VERBOSE,)
    assert flags["q02", "Pipeline3"] == (Flag.REFUSAL,)
    assert flags["q01", "Pipeline1"] == ()


def test_golden_flags_in_the_report(report: Report) -> None:
    assert {qid: flags for qid, flags in report.golden_flags.items() if flags} == {
        "q03": (Flag.AMBIGUOUS_QUESTION,),
        "q06": (Flag.AMBIGUOUS_QUESTION,),
    }
    assert set(report.golden_flags) == {f"q{i:02d}" for i in range(1, 11)}


def test_thresholds_reach_the_flags(sample: SampleRows) -> None:
    golden, responses = _inputs(sample)
    t = FlagThresholds(verbose_precision=0.2, hallucination_recall=0.95)
    report = score_all(golden, responses, PIPELINES, thresholds=t)
    assert report.thresholds == t
    assert report.row("q10", "Pipeline1").flags == ()  # type: ignore[union-attr]
    assert report.row("q02", "Pipeline2").flags == (Flag.POSSIBLY_CORRECT_REPHRASED,)  # type: ignore[union-attr]


def test_row_lookup(report: Report) -> None:
    row = report.row("q10", "Pipeline2")
    assert row is not None
    assert row.key == ("q10", "Pipeline2")
    assert row.item.fact == "10317750796<OR>10,317,750,796"
    assert report.row("q99", "Pipeline1") is None


def test_signatures_name_the_counting_and_the_reference(report: Report) -> None:
    assert set(report.signatures) == set(LEXICAL_SCORE_NAMES)
    signature = report.signatures["f1_score"]
    assert signature.params["counting"] == "set"
    assert signature.params["reference"] == "fmeval-1.2.3"
    assert Signature.from_json(signature.to_json()) == signature


def test_multiset_and_no_alignment_options(sample: SampleRows) -> None:
    golden, responses = _inputs(sample)
    fast = score_all(golden, responses, PIPELINES, with_alignment=False)
    assert all(r.result.alignment is None for r in fast.rows)
    assert [r.scores for r in fast.rows] == [r.scores for r in score_all(golden, responses, PIPELINES).rows]
    multiset = score_all(golden, responses, PIPELINES, multiset=True)
    assert multiset.signatures["f1_score"].params["counting"] == "multiset"
    counts = multiset.row("q10", "Pipeline3").result.alignment.counts()  # type: ignore[union-attr]
    assert counts == {"tp": 11, "fp": 7, "fn": 3}


def test_problems_are_carried(sample: SampleRows) -> None:
    golden, responses = _inputs(sample)
    problem = Problem("golden.csv", "duplicate id", row=3, column="id")
    assert score_all(golden, responses, PIPELINES, problems=[problem]).problems == (problem,)

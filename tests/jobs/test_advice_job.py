"""The advice of a real project file: the bundled sample, scored by the real job.

Expected diagnoses come from the sample's README (resources/sample/README.md: q03 and q06
ambiguous — no pipeline matches the fact — and the q02/Pipeline2 "$170.0 billion"
hallucination with recall 0.92) and the Factual Knowledge Report in sample_expectations.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goldenlens.core.advice.values import AdviceCode, AdviceSeverity, Diagnosis, ProjectAdvice
from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.scores import ScoreRecord
from goldenlens.jobs.curation.advice_job import build_advice
from goldenlens.jobs.curation.review_job import override_score
from goldenlens.jobs.importing.sample_project import ensure_sample_project
from goldenlens.jobs.labelling.label_edits import label_response
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress
from goldenlens.jobs.project_access import on_project_at, open_project
from goldenlens.jobs.scoring.pending import NoScoresError
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.store.project import ProjectStore
from sample_expectations import FK_REPORT, PIPELINES

SIMILARITY = Signature("semantic_similarity", "1", {"embedding_model": "e.gguf"})


@pytest.fixture(scope="module")
def sample_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ensure_sample_project(tmp_path_factory.mktemp("advice") / "sample.goldenlens")


@pytest.fixture(scope="module")
def advice(sample_project: Path) -> ProjectAdvice:
    return on_project_at(sample_project, build_advice)


def _find(advice: ProjectAdvice, code: AdviceCode, question_id: str, pipeline: str = "") -> list[Diagnosis]:
    return [
        d for d in advice.diagnoses if (d.code, d.question_id, d.pipeline) == (code, question_id, pipeline)
    ]


@pytest.mark.parametrize("question_id", ["q03", "q06"])
def test_q03_and_q06_are_ambiguous_for_all_three_pipelines(advice: ProjectAdvice, question_id: str) -> None:
    assert FK_REPORT[question_id] == (0, 0, 0)
    (d,) = _find(advice, AdviceCode.AMBIGUOUS_QUESTION, question_id)
    assert d.severity is AdviceSeverity.HIGH
    assert [a.pipeline for a in d.answers] == list(PIPELINES)
    assert [a.factual_knowledge for a in d.answers] == [0.0, 0.0, 0.0]
    assert d.numbers["responses"] == 3
    assert all(a.response for a in d.answers)


def test_only_q03_and_q06_are_ambiguous(advice: ProjectAdvice) -> None:
    ambiguous = {d.question_id for d in advice.diagnoses if d.code is AdviceCode.AMBIGUOUS_QUESTION}
    assert ambiguous == {qid for qid, found in FK_REPORT.items() if not any(found)} == {"q03", "q06"}


def test_q02_pipeline2_is_a_likely_hallucination(advice: ProjectAdvice) -> None:
    (d,) = _find(advice, AdviceCode.LIKELY_HALLUCINATION, "q02", "Pipeline2")
    # golden words: amazons total net sales for second quarter of 2023 were 1344 billion (12);
    # the response has all but 1344: it states another amount, $170.0 billion (2023 is the
    # question's own number).
    assert d.numbers["recall"] == pytest.approx(11 / 12)
    assert (d.numbers["stated"], d.numbers["expected"]) == ("170,000,000,000", "134,400,000,000")
    assert "states '$170.0 billion' where the fact says '134.4 billion'" in d.explanation


def test_q02_pipeline3_refusal_is_not_diagnosed(advice: ProjectAdvice) -> None:
    assert not [d for d in advice.diagnoses if (d.question_id, d.pipeline) == ("q02", "Pipeline3")]


def test_q06_pipeline1_is_rephrased_not_hallucinated(advice: ProjectAdvice) -> None:
    # "foreign currency exchange rates": every fact word present, not contiguously.
    assert not _find(advice, AdviceCode.LIKELY_HALLUCINATION, "q06", "Pipeline1")
    (d,) = _find(advice, AdviceCode.CORRECT_BUT_REPHRASED, "q06", "Pipeline1")
    assert d.numbers["fact_word_coverage"] == 1.0


def test_similarity_of_the_newest_judge_run_is_used(tmp_path: Path) -> None:
    path = ensure_sample_project(tmp_path / "judged.goldenlens")
    with ProjectStore.open(path) as store:
        before = build_advice(store)
        run_id = store.runs.start(JUDGE_RUN, {"metrics": ["semantic_similarity"]}, 2)
        store.results.save(
            run_id,
            [
                # "Amazon is headquartered in Seattle, WA." shares 2 of 13 golden words
                ScoreRecord("q03", "Pipeline2", "semantic_similarity", 0.93, SIMILARITY.to_json()),
                # recall 0.312 (the rephrased band) but dissimilar: not rephrased any more
                ScoreRecord("q05", "Pipeline2", "semantic_similarity", 0.31, SIMILARITY.to_json()),
            ],
        )
        store.runs.finish(run_id)
        after = build_advice(store)
    assert _find(before, AdviceCode.CORRECT_BUT_REPHRASED, "q05", "Pipeline2")
    assert not _find(before, AdviceCode.CORRECT_BUT_REPHRASED, "q03", "Pipeline2")
    assert not _find(after, AdviceCode.CORRECT_BUT_REPHRASED, "q05", "Pipeline2")
    (d,) = _find(after, AdviceCode.CORRECT_BUT_REPHRASED, "q03", "Pipeline2")
    assert d.numbers["similarity"] == 0.93
    assert after.similarity_source == f"semantic_similarity of judge run {run_id}"
    assert before.similarity_source == ""


def test_threshold_changes_reach_the_advice(sample_project: Path) -> None:
    # q03/Pipeline1 ("located in Seattle, Washington") has recall 7/13 = 0.538: correct but
    # rephrased from 0.3 on, not from 0.6 on.
    default = on_project_at(sample_project, build_advice)
    assert _find(default, AdviceCode.CORRECT_BUT_REPHRASED, "q03", "Pipeline1")
    changed = on_project_at(sample_project, build_advice, {"rephrased_recall": 0.6})
    assert not _find(changed, AdviceCode.CORRECT_BUT_REPHRASED, "q03", "Pipeline1")
    assert _find(changed, AdviceCode.CORRECT_BUT_REPHRASED, "q03", "Pipeline3")


def test_an_unscored_project_has_no_advice(tmp_path: Path) -> None:
    path = tmp_path / "unscored.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace([GoldenItem("q1", "Q?", "A.", "A")])
        store.responses.replace([PipelineResponse("q1", "P", "A.")], ["P"])
        with pytest.raises(NoScoresError, match="no finished scoring run"):
            build_advice(store)


def test_advice_reports_each_question_and_stops_when_cancelled(sample_project: Path) -> None:
    """The desktop app computes the advice in a worker: progress per question, and a cancel
    (a newer edit, the window closing) stops it after the question under way."""
    seen: list[Progress] = []
    advice = on_project_at(sample_project, build_advice, progress=seen.append)
    assert [(p.done, p.total) for p in seen] == [(n, 10) for n in range(1, 11)]
    assert len(advice.questions) == 10
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        on_project_at(sample_project, build_advice, cancel=token)


def _said(advice: ProjectAdvice, question_id: str, pipeline: str, code: AdviceCode) -> Diagnosis:
    (found,) = _find(advice, code, question_id, pipeline)
    return found


def test_a_diagnosis_says_what_the_reviewer_said_of_its_response(tmp_path: Path) -> None:
    """The sample's q02/Pipeline2 ("$170.0 billion") is a likely hallucination: a claim that the
    response is wrong. A reviewer who overrides its Factual Knowledge to 1 says it is right, so
    the diagnosis must read as refuted, not as an open finding. q03/Pipeline1 ("Seattle,
    Washington"), correct but rephrased, labelled correct: the reviewer agrees. A label wins
    over an override on the same response; the golden row's diagnosis lists both verdicts."""
    path = ensure_sample_project(tmp_path / "reviewed.goldenlens")
    with open_project(path) as project:
        before = build_advice(project)
        assert not any(d.reviewer or d.refuted for d in before.diagnoses)
        override_score(project, "q02", "Pipeline2", "FK", "1", note="the filing restated it", reviewer="Ana")
        label_response(project, "q03", "Pipeline1", "correct", reviewer="Bo", note="Seattle is enough")
        override_score(project, "q03", "Pipeline3", "FK", "0", note="address only", reviewer="Ana")
        label_response(project, "q03", "Pipeline3", "correct", reviewer="Bo")
        advice = build_advice(project)

    hallucination = _said(advice, "q02", "Pipeline2", AdviceCode.LIKELY_HALLUCINATION)
    assert hallucination.refuted
    assert hallucination.reviewer == (
        "The reviewer counted this response correct (Factual Knowledge overridden to 1 by Ana: "
        "the filing restated it): this diagnosis does not hold here."
    )
    assert hallucination.as_dict()["refuted"] is True
    rephrased = _said(advice, "q03", "Pipeline1", AdviceCode.CORRECT_BUT_REPHRASED)
    assert not rephrased.refuted
    assert rephrased.reviewer == (
        "The reviewer counted this response correct (labelled by Bo: Seattle is enough), as this "
        "diagnosis says."
    )
    labelled_over_override = _said(advice, "q03", "Pipeline3", AdviceCode.CORRECT_BUT_REPHRASED)
    assert (labelled_over_override.refuted, labelled_over_override.reviewer) == (
        False,
        "The reviewer counted this response correct (labelled by Bo), as this diagnosis says.",
    )
    (ambiguous,) = _find(advice, AdviceCode.AMBIGUOUS_QUESTION, "q03")
    assert ambiguous.reviewer == (
        "The reviewer counted Pipeline1 correct (labelled by Bo: Seattle is enough); "
        "Pipeline3 correct (labelled by Bo)."
    )
    # The diagnoses themselves are what the automatic scoring saw: the same set as before.
    assert [(d.code, d.question_id, d.pipeline) for d in advice.diagnoses] == [
        (d.code, d.question_id, d.pipeline) for d in before.diagnoses
    ]
    # The checks count labels only (a random sample), not the overrides a diagnosis prompted.
    assert advice.checks["correct_but_rephrased"].labelled == 2
    assert "likely_hallucination" not in advice.checks


def test_a_false_match_the_reviewer_overrode_still_counts_for_the_fact_check(tmp_path: Path) -> None:
    """'117' is inside 'DOC-2117-B': the fact matched (Factual Knowledge 1) by accident, so the
    fact is prone to false matches. The reviewer labels that response incorrect and also
    overrides its Factual Knowledge to 0: the check of the fact diagnosis must still count it
    (the fact matched as scored), as it does without the override."""
    path = tmp_path / "prone.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace(
            [GoldenItem("q1", "What is the contract number?", "The contract number is 117.", "117")]
        )
        store.responses.replace(
            [
                PipelineResponse("q1", "A", "See document DOC-2117-B for details."),
                PipelineResponse("q1", "B", "The contract number is 117."),
            ],
            ["A", "B"],
        )
        score_project(store)
        label_response(store, "q1", "A", "incorrect", reviewer="Ana")
        labelled_only = build_advice(store).checks
        override_score(store, "q1", "A", "FK", "0", note="not the contract", reviewer="Ana")
        both = build_advice(store).checks
    assert labelled_only["fact_prone_to_false_matches"].as_dict() == {
        "held": 1,
        "labelled": 1,
        "demoted": False,
    }
    assert both == labelled_only


def test_a_filtered_export_shows_the_projects_advice_on_the_rows_exported(tmp_path: Path) -> None:
    """Exporting q02 and q03 only: the Advice sheet lists those two questions, with the whole
    project's label checks (as the Decision sheet has them), not checks worked out again on the
    two questions' labels. The labels: q02/P2 and q07/P2 incorrect, q08/P2 correct, so "likely
    hallucination" held on 2 of 3 over the project, on 1 of 1 over q02 and q03 alone."""
    import openpyxl

    from goldenlens.jobs.reporting.report_job import export_report

    path = ensure_sample_project(tmp_path / "labelled.goldenlens")
    out = tmp_path / "filtered.xlsx"
    with open_project(path) as project:
        for question_id, verdict in [("q02", "incorrect"), ("q07", "incorrect"), ("q08", "correct")]:
            label_response(project, question_id, "Pipeline2", verdict, reviewer="Ana")
        assert build_advice(project).check_note("likely_hallucination") == "right on 2 of 3 labelled"
        export_report(project, out, question_ids={"q02", "q03"})
    rows = list(openpyxl.load_workbook(out)["Advice"].iter_rows(values_only=True))
    ids = {r[0] for r in rows[1:] if r[0] and str(r[0]).startswith("q")}
    assert ids == {"q02", "q03"}
    (hallucination,) = [r for r in rows if r[0] == "q02" and r[1] == "Pipeline2"]
    assert hallucination[3] == "Likely hallucination\n(right on 2 of 3 labelled)"

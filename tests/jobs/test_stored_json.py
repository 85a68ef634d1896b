"""The JSON report written straight from a project (``write_stored_json``, what ``goldenlens
score --project`` and ``goldenlens report -o .json`` write) is byte for byte the JSON of the full
:class:`Report` (``calibrated_report`` of ``build_report`` + ``write_report_json``), on projects
that have everything a report carries: reviewer labels, reviewer overrides of lexical and judge
metrics, review states and notes, a judge run with scored and not-scored rows, flags, and
not-scored Factual Knowledge.

The two share no row code: one walks the stored columns by key without reading a response text,
the other builds a row object per response; the comparison is what holds them together.
"""

from __future__ import annotations

import json
from pathlib import Path

from goldenlens.core.calibration.labels import Verdict
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.io.reports.json_report import write_report_json
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.importing.sample_project import ensure_sample_project
from goldenlens.jobs.labelling.calibration import calibrated_report
from goldenlens.jobs.labelling.label_edits import label_response
from goldenlens.jobs.reporting.report_job import write_stored_json
from goldenlens.jobs.reporting.stored_run import build_report, judge_scores
from goldenlens.store.project import ProjectStore

FAITHFULNESS = Signature("faithfulness", "1", {"judge_model": "m.gguf"})


def _both(store: ProjectStore, folder: Path) -> tuple[str, str]:
    stored, full = folder / "stored.json", folder / "full.json"
    written = write_stored_json(store, stored)
    write_report_json(calibrated_report(store, build_report(store)), full, judge_scores(store))
    assert written.rows == len(json.loads(full.read_text(encoding="utf-8"))["rows"])
    assert written.summary == json.loads(full.read_text(encoding="utf-8"))["summary"]
    return stored.read_text(encoding="utf-8"), full.read_text(encoding="utf-8")


def test_a_fresh_sample_project(tmp_path: Path) -> None:
    with ProjectStore.open(ensure_sample_project(tmp_path / "p.goldenlens")) as store:
        stored, full = _both(store, tmp_path)
    assert stored == full
    assert len(json.loads(stored)["rows"]) == 30


def test_with_overrides_reviews_and_a_judge_run(tmp_path: Path) -> None:
    with ProjectStore.open(ensure_sample_project(tmp_path / "p.goldenlens")) as store:
        run_id = store.runs.start(JUDGE_RUN, {"metrics": ["faithfulness"]}, 3)
        store.results.save(
            run_id,
            [
                ScoreRecord("q01", "Pipeline1", "faithfulness", 0.5, FAITHFULNESS.to_json()),
                ScoreRecord(
                    "q01",
                    "Pipeline2",
                    "faithfulness",
                    None,
                    FAITHFULNESS.to_json(),
                    status=ScoreStatus.NOT_SCORED,
                    reason="no contexts",
                ),
            ],
        )
        store.runs.finish(run_id)
        for question_id, pipeline, metric, value in [
            ("q02", "Pipeline2", FACTUAL_KNOWLEDGE, 1.0),
            ("q10", "Pipeline1", F1_SCORE, 0.75),
            ("q01", "Pipeline2", "faithfulness", 1.0),
        ]:
            curation.set_override(
                store, question_id, pipeline, metric, value=value, passed=None, note="checked", reviewer="Ana"
            )
        curation.set_review(store, "q02", "accepted", "figure checked", reviewer="Ana")
        curation.set_review(store, "q05", "needs_curation", "fact misses the segment", reviewer="Bo")
        stored, full = _both(store, tmp_path)
    assert stored == full
    report = json.loads(stored)
    assert report["overridden_total"] == 3
    assert report["reviews"]["q05"]["status"] == "needs_curation"
    row = next(r for r in report["rows"] if (r["question_id"], r["pipeline"]) == ("q01", "Pipeline2"))
    assert row["judge"]["faithfulness"] == 1.0


def test_with_labels(tmp_path: Path) -> None:
    """What reviewers would judge is worked out once per path and written the same way."""
    with ProjectStore.open(ensure_sample_project(tmp_path / "p.goldenlens")) as store:
        for question_id, pipeline, verdict in [
            ("q01", "Pipeline1", Verdict.CORRECT),
            ("q02", "Pipeline2", Verdict.INCORRECT),
            ("q03", "Pipeline3", Verdict.UNSURE),
        ]:
            label_response(store, question_id, pipeline, verdict, reviewer="Ana")
        stored, full = _both(store, tmp_path)
    assert stored == full
    calibrated = json.loads(stored)["human_calibrated"]
    assert (calibrated["labelled"], calibrated["unsure_labels"]) == (2, 1)  # correct or incorrect; unsure
    assert set(calibrated["estimates"]) == {"Pipeline1", "Pipeline2", "Pipeline3"}
    rows = {(row["question_id"], row["pipeline"]): row for row in json.loads(stored)["rows"]}
    label = rows[("q02", "Pipeline2")]["label"]
    assert {key: label[key] for key in ("verdict", "reviewer", "note", "same_answer_as")} == {
        "verdict": "incorrect",
        "reviewer": "Ana",
        "note": "",
        "same_answer_as": "",
    }
    assert label["created_at"].startswith("20")
    assert rows[("q03", "Pipeline3")]["label"]["verdict"] == "unsure"
    assert rows[("q04", "Pipeline1")]["label"] is None
    labelled = {key for key, row in rows.items() if row["label"] is not None}
    assert {("q01", "Pipeline1"), ("q02", "Pipeline2"), ("q03", "Pipeline3")} <= labelled


def test_the_csv_report_carries_each_responses_label(tmp_path: Path) -> None:
    """The CSV a script reads gets the verdict in force, who gave it, when and why, per row (it
    used to carry no label at all); a row nobody labelled has the four cells empty."""
    import csv

    from goldenlens.io.reports.csv_report import write_report_csv

    with ProjectStore.open(ensure_sample_project(tmp_path / "p.goldenlens")) as store:
        label_response(store, "q02", "Pipeline2", Verdict.INCORRECT, reviewer="Ana", note="wrong year")
        report = calibrated_report(store, build_report(store))
    out = tmp_path / "report.csv"
    write_report_csv(report, out)
    with out.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = {(row["question_id"], row["pipeline"]): row for row in reader}
    # Last, so a script that reads the override columns by position finds them where they were.
    assert list(reader.fieldnames or [])[-5:] == [
        "label",
        "label_by",
        "label_at",
        "label_note",
        "label_same_answer_as",
    ]
    row = rows[("q02", "Pipeline2")]
    assert (row["label"], row["label_by"], row["label_note"]) == ("incorrect", "Ana", "wrong year")
    assert row["label_at"].startswith("20")
    assert [rows[("q01", "Pipeline1")][c] for c in ("label", "label_by", "label_at", "label_note")] == [
        ""
    ] * 4


def test_a_label_given_to_the_same_answer_elsewhere_says_so(tmp_path: Path) -> None:
    """Two pipelines answer "Paris." word for word; the reviewer labels A's. B's row carries the
    verdict too (it holds for the same answer), and says it was given to A's answer, so Ana's
    name and note are not read as a judgement of B's row on its own. Both JSON paths agree."""
    from goldenlens.core.inputs import GoldenItem, PipelineResponse
    from goldenlens.io.reports.html.page import write_report_html
    from goldenlens.jobs.scoring.score_job import score_project

    answers = [PipelineResponse("q1", "A", "Paris."), PipelineResponse("q1", "B", "Paris.")]
    with ProjectStore.open(tmp_path / "same.goldenlens", create=True) as store:
        store.golden.replace([GoldenItem("q1", "Capital of France?", "Paris.", "Paris")])
        store.responses.replace([*answers, PipelineResponse("q1", "C", "Lyon.")], ["A", "B", "C"])
        score_project(store)
        label_response(store, "q1", "A", Verdict.CORRECT, reviewer="Ana", note="checked")
        stored, full = _both(store, tmp_path)
        page = tmp_path / "report.html"
        write_report_html(calibrated_report(store, build_report(store)), page)
    # The HTML's label cell of B names where its verdict was given.
    assert "Ana · checked · same answer as A</small>" in page.read_text(encoding="utf-8")
    assert stored == full
    labels = {row["pipeline"]: row["label"] for row in json.loads(stored)["rows"]}
    assert labels["A"] == {**labels["A"], "verdict": "correct", "reviewer": "Ana", "same_answer_as": ""}
    assert labels["B"] == {**labels["A"], "same_answer_as": "A"}
    assert labels["C"] is None

"""The Advice sheet of the report workbook, read back with openpyxl.

The sample's expected diagnoses come from its README (q03 and q06 ambiguous, q02/Pipeline2
a likely hallucination with recall 0.92); the similarity case from a judge score the test
writes itself.
"""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from goldenlens.core.advice.advisor import advise
from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.scored_rows import Report, score_all
from goldenlens.core.scores import ScoreRecord
from goldenlens.io.reports.xlsx.advice_sheet import ADVICE_COLUMNS, ADVICE_SHEET
from goldenlens.io.reports.xlsx.workbook import write_report_workbook
from sample_expectations import PIPELINES

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


@pytest.fixture(scope="module")
def report() -> Report:
    with (SAMPLE / "golden.csv").open(newline="", encoding="utf-8") as f:
        golden = [GoldenItem(r["id"], r["question"], r["answer"], r["fact"]) for r in csv.DictReader(f)]
    with (SAMPLE / "responses.csv").open(newline="", encoding="utf-8") as f:
        responses = [
            PipelineResponse(r["question_id"], r["pipeline"], r["response"]) for r in csv.DictReader(f)
        ]
    return score_all(golden, responses, PIPELINES, with_alignment=False)


@pytest.fixture(scope="module")
def sheet_rows(report: Report, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[object, ...]]:
    path = tmp_path_factory.mktemp("advice") / "report.xlsx"
    write_report_workbook(report, path)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames.index(ADVICE_SHEET) == book.sheetnames.index("Flags") + 1
    ws = book[ADVICE_SHEET]
    assert ws.page_setup.orientation == "landscape"
    assert ws.page_setup.fitToWidth == 1
    assert ws.print_area is not None
    assert "$A$1:$H$" in ws.print_area
    return list(ws.iter_rows(values_only=True))


def test_header_and_one_group_row_per_question(sheet_rows: list[tuple[object, ...]], report: Report) -> None:
    assert sheet_rows[0] == ADVICE_COLUMNS
    groups = [r for r in sheet_rows[1:] if r[0] and not r[2] and r[4] and "diagnos" in str(r[4])]
    assert [r[0] for r in groups] == [item.id for item in report.golden]
    q01 = next(r for r in groups if r[0] == "q01")
    assert q01[4] == "Who is Andrew R. Jassy?  (no diagnosis)"


def test_ambiguous_questions_list_every_pipeline_answer(sheet_rows: list[tuple[object, ...]]) -> None:
    ambiguous = [r for r in sheet_rows if r[3] == "Ambiguous question"]
    assert [r[0] for r in ambiguous] == ["q03", "q06"]
    for row in ambiguous:
        assert row[2] == "high"
        text = str(row[4])
        assert "None of the 3 pipelines' responses contains the fact" in text
        assert [line.split(" (")[0] for line in text.splitlines() if line.startswith("• ")] == [
            f"• {p}" for p in PIPELINES
        ]
        assert "Reframe the question" in str(row[5])
        assert "responses = 3" in str(row[7])
    q03 = str(ambiguous[0][4])
    assert "The principal executive offices are at 410 Terry Ave. N., Seattle, WA 98109." in q03


def test_hallucination_row_names_its_numbers(sheet_rows: list[tuple[object, ...]]) -> None:
    (row,) = [r for r in sheet_rows if r[:2] == ("q02", "Pipeline2")]
    assert row[2:4] == ("medium", "Likely hallucination")
    assert "states '$170.0 billion' where the fact says '134.4 billion'" in str(row[4])
    assert str(row[7]).splitlines()[:2] == ["factual_knowledge = 0", "recall = 0.917"]
    assert "Check the value against the source" in str(row[5])


def test_thresholds_and_similarity_source_are_noted(sheet_rows: list[tuple[object, ...]]) -> None:
    notes = {r[0]: r[4] for r in sheet_rows if r[0] in ("Thresholds", "Similarity")}
    assert "hallucination_recall 0.7" in str(notes["Thresholds"])
    assert "verbose_answer_words 40" in str(notes["Thresholds"])
    assert str(notes["Similarity"]).startswith("not measured")


def test_judge_similarity_reaches_the_sheet(report: Report, tmp_path: Path) -> None:
    # q03/Pipeline2 ("headquartered in Seattle, WA", recall 0.154) is rephrased only when the
    # judge measured a similarity at or above 0.8.
    judge = {
        ("q03", "Pipeline2"): {
            "semantic_similarity": ScoreRecord("q03", "Pipeline2", "semantic_similarity", 0.9, "{}")
        }
    }
    path = tmp_path / "judged.xlsx"
    write_report_workbook(report, path, judge=judge)
    rows = list(openpyxl.load_workbook(path)[ADVICE_SHEET].iter_rows(values_only=True))
    (row,) = [r for r in rows if r[:2] == ("q03", "Pipeline2")]
    assert row[2:4] == ("high", "Correct but rephrased")
    assert "semantic similarity to the golden answer is 0.900 ≥ 0.8" in str(row[4])
    assert any(r[0] == "Similarity" and r[4] == "semantic_similarity" for r in rows)


def test_long_responses_side_by_side_fit_in_one_cell(tmp_path: Path) -> None:
    # Three 20,000-character responses to an ambiguous question: joined whole they would pass
    # Excel's 32,767 characters per cell; the evidence shows the start of each.
    long = "word " * 4000
    golden = [GoldenItem("q1", "Which?", "The answer is Paris.", "Paris")]
    responses = [PipelineResponse("q1", p, f"{p} says {long}") for p in PIPELINES]
    path = tmp_path / "long.xlsx"
    write_report_workbook(score_all(golden, responses, PIPELINES, with_alignment=False), path)
    rows = list(openpyxl.load_workbook(path)[ADVICE_SHEET].iter_rows(values_only=True))
    (row,) = [r for r in rows if r[3] == "Ambiguous question"]
    lines = [line for line in str(row[4]).splitlines() if line.startswith("• ")]
    assert [line.split(" (")[0] for line in lines] == [f"• {p}" for p in PIPELINES]
    assert all(line.endswith("…") and len(line) < 700 for line in lines)


def test_many_false_matches_are_listed_up_to_a_limit(tmp_path: Path) -> None:
    """The sheet lists 20 with the count of the rest; the JSON advice lists 25 and counts 30."""
    # "42" (a 2-digit number: prone by shape) is in the response to each of 30 other questions
    golden = [GoldenItem("q0", "How many?", "There are 42.", "42")]
    golden += [GoldenItem(f"q{n}", f"Question {n}?", f"Answer {n}.", f"Answer {n}") for n in range(1, 31)]
    responses = [PipelineResponse("q0", "P", "There are 42.")]
    responses += [PipelineResponse(f"q{n}", "P", f"Answer {n}, see page 42.") for n in range(1, 31)]
    path = tmp_path / "many.xlsx"
    write_report_workbook(score_all(golden, responses, ["P"], with_alignment=False), path)
    rows = list(openpyxl.load_workbook(path)[ADVICE_SHEET].iter_rows(values_only=True))
    (row,) = [r for r in rows if r[0] == "q0" and r[3] == "Fact prone to false matches"]
    lines = [line for line in str(row[4]).splitlines() if line.startswith("• ")]
    assert len(lines) == 21
    assert lines[0] == "• q1/P: “Answer 1, see page 42.”"
    assert lines[-1] == "• … and 10 more (the JSON advice lists 25)"
    assert "other_responses = 30" in str(row[7])
    (diagnosis,) = [
        d
        for d in advise(score_all(golden, responses, ["P"], with_alignment=False)).diagnoses
        if d.code.value == "fact_prone_to_false_matches"
    ]
    data = diagnosis.as_dict()
    assert [m["question_id"] for m in data["false_matches"]] == [f"q{n}" for n in range(1, 26)]
    assert (data["numbers"]["other_responses"], diagnosis.false_match_count) == (30, 30)

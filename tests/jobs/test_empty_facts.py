"""An empty fact never counts as found: such a row's Factual Knowledge is not scored.

Real files throughout: a golden workbook written with openpyxl whose fact cells are empty, have
a trailing ``<OR>``, an ``<AND>`` with nothing after it, only spaces, or only an article;
responses as CSV; the CLI scores them into a project and writes JSON, CSV and XLSX reports.
Expected values come from the hand-built table below and from ``tests/fmeval_reference.py``
(the independent FMEval transcription), never from the code under test.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import fmeval_reference as fmeval
from goldenlens.cli.main import main
from goldenlens.core.lexical.flags import Flag, response_flags
from goldenlens.core.lexical.scorer import (
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    LEXICAL_SCORE_NAMES,
    score_response,
)
from goldenlens.jobs.curation.edits import edit_golden_item
from goldenlens.queries.detail_data import load_question_detail
from goldenlens.queries.grid_loading import load_grid
from goldenlens.store.project import ProjectStore

FK, QUASI = FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT

# id, question, answer, fact cell (None: empty cell)
GOLDEN = [
    ("q01", "Who is Andrew R. Jassy?", "He is the CEO of Amazon.", "CEO of Amazon"),
    ("q02", "What were AWS sales?", "AWS sales were $22.1 billion.", None),
    ("q03", "How many Rivian shares?", "Amazon held 158 million shares.", "158 million<OR>"),
    ("q04", "What was net income?", "Net income was $6.7 billion.", "6.7 billion<AND>"),
    ("q05", "When did the quarter end?", "The quarter ended June 30.", "   "),
    ("q06", "Where is the stock listed?", "The stock is listed on the Nasdaq.", "the"),
    ("q07", "How much did revenue grow?", "Revenue grew 11 percent.", "11 percent"),
]
RESPONSES = {
    ("q01", "P1"): "Andrew Jassy is the CEO of Amazon.",
    ("q01", "P2"): "He runs a bookstore.",
    ("q02", "P1"): "AWS sales were $22.1 billion.",
    ("q02", "P2"): "Sales were strong.",
    ("q03", "P1"): "Amazon held 158 million shares.",
    ("q03", "P2"): "Amazon held no shares.",
    ("q04", "P1"): "Net income was $6.7 billion.",
    ("q04", "P2"): "Net income was $7.6 billion.",  # a likely hallucination, were the fact valid
    ("q05", "P1"): "It ended on June 30.",
    ("q05", "P2"): "The quarter ended.",
    ("q06", "P1"): "It trades on the Nasdaq.",
    ("q06", "P2"): "Nasdaq listing.",
    ("q07", "P1"): "Revenue grew 11 percent.",
    ("q07", "P2"): "Revenue grew 11 percent this year.",
}
NOT_SCORED_ROWS = {"q02", "q03", "q04", "q05"}  # excel rows 3..6
# Hand-worked: exact inclusion of the (valid) fact in the response, per row.
EXPECTED_FK: dict[tuple[str, str], float | None] = {
    **{key: None for key in RESPONSES if key[0] in NOT_SCORED_ROWS},
    ("q01", "P1"): 1.0, ("q01", "P2"): 0.0,
    ("q06", "P1"): 1.0, ("q06", "P2"): 0.0,  # "the" in "nasdaq listing." is false
    ("q07", "P1"): 1.0, ("q07", "P2"): 1.0,
}  # fmt: skip
EXPECTED_QUASI: dict[tuple[str, str], float | None] = {
    **EXPECTED_FK,
    ("q06", "P1"): None,  # "the" normalises to nothing: it would match every response
    ("q06", "P2"): None,
}


def _mean(values: list[float | None]) -> float | None:
    scored = [v for v in values if v is not None]
    return sum(scored) / len(scored) if scored else None


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("empty_facts")
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Golden"
    sheet.append(["id", "question", "answer", "fact"])
    for row in GOLDEN:
        sheet.append(list(row))
    golden = folder / "golden.xlsx"
    book.save(golden)
    responses = folder / "responses.csv"
    with responses.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "pipeline", "response"])
        writer.writerows([qid, pipeline, text] for (qid, pipeline), text in RESPONSES.items())
    return golden, responses


@pytest.fixture(scope="module")
def scored(inputs: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Score once through the CLI into a project, writing all three report formats."""
    folder = tmp_path_factory.mktemp("scored")
    project = folder / "p.goldenlens"
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        code = main(
            ["score", str(inputs[0]), str(inputs[1]), "--project", str(project), "-o", str(folder / "r.json")]
        )
        assert main(["report", str(project), "-o", str(folder / "r.csv")]) == 0
        assert main(["report", str(project), "-o", str(folder / "r.xlsx")]) == 0
    assert code == 0, stderr.getvalue()
    return {"project": project, "folder": folder, "stderr": stderr.getvalue(),
            "json": json.loads((folder / "r.json").read_text(encoding="utf-8"))}  # fmt: skip


def test_fmeval_counts_these_facts_as_found_and_goldenlens_does_not(inputs: tuple[Path, Path]) -> None:
    """The deviation, stated against the FMEval transcription."""
    for qid, _question, answer, fact in GOLDEN:
        for pipeline in ("P1", "P2"):
            response = RESPONSES[(qid, pipeline)]
            reference = fmeval.all_scores(response, answer, fact or "")
            ours = score_response(response, answer, fact or "")
            if qid in {"q02", "q03"}:
                assert reference[FK] == 1.0  # FMEval: found, whatever the response says
            if qid == "q06":
                assert reference[QUASI] == 1.0  # FMEval: "" in any normalised response
            assert ours.scores[FK] == EXPECTED_FK[(qid, pipeline)]
            assert ours.scores[QUASI] == EXPECTED_QUASI[(qid, pipeline)]
            for name in LEXICAL_SCORE_NAMES:
                if ours.scores[name] is not None:  # everything scored is FMEval to the bit
                    assert ours.scores[name] == reference[name], (qid, pipeline, name)
                else:
                    assert ours.reasons[name]


def test_cli_json_has_null_with_reason_and_means_over_scored_rows(scored: dict[str, Any]) -> None:
    report = scored["json"]
    rows = {(r["question_id"], r["pipeline"]): r for r in report["rows"]}
    assert set(rows) == set(RESPONSES)
    for key, row in rows.items():
        assert row[FK] == EXPECTED_FK[key], key
        assert row[QUASI] == EXPECTED_QUASI[key], key
        for name, expected in ((FK, EXPECTED_FK[key]), (QUASI, EXPECTED_QUASI[key])):
            assert row["status"][name] == ("not_scored" if expected is None else "scored")
            assert (name in row["reasons"]) == (expected is None)
        assert all(row["status"][n] == "scored" for n in LEXICAL_SCORE_NAMES if n not in (FK, QUASI))
    assert "empty" in rows[("q02", "P1")]["reasons"][FK]
    assert "empty <OR>/<AND> part" in rows[("q03", "P1")]["reasons"][FK]
    assert "normalisation" in rows[("q06", "P1")]["reasons"][QUASI]
    answers = {qid: answer for qid, _q, answer, _f in GOLDEN}
    for pipeline in ("P1", "P2"):
        keys = [key for key in RESPONSES if key[1] == pipeline]
        means = report["summary"][pipeline]
        assert means[FK] == pytest.approx(_mean([EXPECTED_FK[k] for k in keys]))
        assert means[QUASI] == pytest.approx(_mean([EXPECTED_QUASI[k] for k in keys]))
        f1 = [fmeval.all_scores(RESPONSES[k], answers[k[0]], "x")[F1_SCORE] for k in keys]
        assert means[F1_SCORE] == pytest.approx(sum(f1) / len(f1))  # every row counts for F1
    assert report["summary"]["P2"][FK] == pytest.approx(1 / 3)


def test_import_reports_each_empty_fact_as_an_error_naming_the_cell(scored: dict[str, Any]) -> None:
    problems = [p for p in scored["json"]["problems"] if p["column"] == "fact"]
    errors = {p["row"]: p for p in problems if p["severity"] == "error"}
    assert sorted(errors) == [3, 4, 5, 6]
    assert all(p["file"].endswith("golden.xlsx") and p["sheet"] == "Golden" for p in errors.values())
    warnings = [p for p in problems if p["severity"] == "warning"]
    assert [p["row"] for p in warnings] == [7]  # "the": quasi-exact only
    assert "golden.xlsx, sheet 'Golden', row 3, column 'fact': error: the fact is empty" in scored["stderr"]
    assert "not scored" in scored["stderr"]


def test_flags_neither_fire_nor_misfire_on_a_not_scored_fact(scored: dict[str, Any]) -> None:
    report = scored["json"]
    golden_flags = report["golden_flags"]
    for qid in NOT_SCORED_ROWS:
        assert Flag.EMPTY_FACT_PART.value in golden_flags[qid]
        assert Flag.AMBIGUOUS_QUESTION.value not in golden_flags[qid]
    rows = {(r["question_id"], r["pipeline"]): r for r in report["rows"]}
    assert rows[("q04", "P2")]["flags"] == []
    # The same response against a valid fact is a likely hallucination: the flag is real.
    valid = score_response(RESPONSES[("q04", "P2")], "Net income was $6.7 billion.", "6.7 billion")
    assert Flag.LIKELY_HALLUCINATION in response_flags(RESPONSES[("q04", "P2")], valid.scores)


def test_csv_report_has_empty_cells_and_reasons(scored: dict[str, Any]) -> None:
    with (scored["folder"] / "r.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = {(r["question_id"], r["pipeline"]): r for r in csv.DictReader(handle)}
    assert rows[("q02", "P1")][FK] == ""
    assert "empty" in rows[("q02", "P1")][f"{FK}_reason"]
    assert rows[("q06", "P1")][FK] == "1.0"
    assert rows[("q06", "P1")][QUASI] == ""
    assert "normalisation" in rows[("q06", "P1")][f"{QUASI}_reason"]
    assert rows[("q01", "P1")][f"{FK}_reason"] == ""


def test_xlsx_report_shows_not_scored_and_scored_only_means(scored: dict[str, Any]) -> None:
    book = openpyxl.load_workbook(scored["folder"] / "r.xlsx", read_only=True)
    fk = [list(row) for row in book["Factual Knowledge Report"].iter_rows(values_only=True)]
    assert fk[0][:4] == ["id", "question", "P1", "P2"]
    by_id = {row[0]: row[2:4] for row in fk[1:-1]}
    assert by_id["q02"] == ["not scored", "not scored"]
    assert by_id["q01"] == [1, 0]
    assert fk[-1][0] == "Mean"
    assert fk[-1][2] == pytest.approx(1.0)
    assert fk[-1][3] == pytest.approx(1 / 3)
    scores = [list(row) for row in book["Scores"].iter_rows(values_only=True)]
    header = scores[0]
    q02 = next(row for row in scores[1:] if row[0] == "q02" and row[2] == "P1")
    assert q02[header.index(FK)] == "not scored"
    assert isinstance(q02[header.index(F1_SCORE)], float)


def test_desktop_detail_and_grid_show_not_scored(scored: dict[str, Any]) -> None:
    with ProjectStore.open(scored["project"]) as store:
        run = store.runs.latest("lexical", finished_only=True)
        assert run is not None
        detail = load_question_detail(store, run.id, "q02")
        grid = load_grid(store, run.id)
    assert detail is not None
    p1 = detail.pipeline("P1")
    assert p1 is not None
    assert p1.scores[FK] is None
    assert "empty" in p1.reasons[FK]
    assert p1.scores[F1_SCORE] is not None
    row = grid.index_of("q02")
    assert row is not None
    assert math.isnan(float(grid.values[FK][row, 0]))
    assert not math.isnan(float(grid.values[F1_SCORE][row, 0]))


def test_fixing_the_fact_scores_it_at_once(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    project = tmp_path / "fix.goldenlens"
    assert main(["score", str(inputs[0]), str(inputs[1]), "--project", str(project), "-q"]) == 0
    with ProjectStore.open(project) as store:
        item = store.golden.item("q02")
        assert item is not None
        result = edit_golden_item(store, replace(item, fact="22.1 billion"), reviewer="analyst")
        run = store.runs.latest("lexical", finished_only=True)
        assert run is not None
        values = {
            (r.pipeline, r.metric): (r.value, str(r.status))
            for r in store.results.scores_of_question(run.id, "q02")
        }
        flags = [f for q, p, f in store.results.flags(run.id) if q == "q02" and p == ""]
    assert values[("P1", FK)] == (1.0, "scored")
    assert values[("P2", FK)] == (0.0, "scored")
    assert values[("P1", QUASI)] == (1.0, "scored")
    assert Flag.EMPTY_FACT_PART.value not in flags
    assert any(c.metric == FK and c.old is None and c.new == 1.0 for c in result.changes)

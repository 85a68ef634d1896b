"""Judge scores in the report workbook: a judge run stored by hand (no model), then exported."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from goldenlens.cli.main import main
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.io.reports.xlsx.judge_sheet import NOT_JUDGED
from goldenlens.jobs.importing.sample_project import ensure_sample_project
from goldenlens.jobs.reporting.report_job import export_report
from goldenlens.store.project import ProjectStore
from sample_expectations import PIPELINES, REPORT_SHEETS

SHEETS = REPORT_SHEETS
JUDGE_SHEETS = [
    "Decision", "Summary", "Scores", "Judge", "Factual Knowledge Report", "Highlights", "Flags", "Advice",
    "Comparisons", "About",
]  # fmt: skip
JUDGE_MODEL = "SmolLM2-135M-Instruct-Q8_0.gguf"
EMBEDDING_MODEL = "bge-small-en-v1.5"
FAITHFULNESS = Signature(
    "faithfulness",
    "1",
    {
        "judge_model": JUDGE_MODEL,
        "judge_sha256": "ab12",
        "prompt_version": "2",
        "seed": 0,
        "temperature": 0.0,
    },
)
SIMILARITY = Signature(
    "semantic_similarity", "1", {"embedding_model": EMBEDDING_MODEL, "embedding_sha256": "cd34"}
)
FORMULA_REASON = '=HYPERLINK("http://x")'


def _judge_records(store: ProjectStore) -> list[ScoreRecord]:
    """Faithfulness on every row (not scored on q01: no statements; q02 Pipeline2: a formula-
    looking reason) and semantic similarity on every row but the q03 ones."""
    records = []
    for qi, item in enumerate(store.golden.items()):
        for pi, pipeline in enumerate(store.responses.pipelines()):
            if item.id == "q01":
                records.append(
                    ScoreRecord(
                        item.id, pipeline, "faithfulness", None, FAITHFULNESS.to_json(),
                        ScoreStatus.NOT_SCORED, "the response has no statements",
                    )
                )  # fmt: skip
            elif (item.id, pipeline) == ("q02", "Pipeline2"):
                records.append(
                    ScoreRecord(
                        item.id, pipeline, "faithfulness", None, FAITHFULNESS.to_json(),
                        ScoreStatus.NOT_SCORED, FORMULA_REASON,
                    )
                )  # fmt: skip
            else:
                value = ((qi * 3 + pi) % 11) / 10
                records.append(ScoreRecord(item.id, pipeline, "faithfulness", value, FAITHFULNESS.to_json()))
            if item.id != "q03":
                value = 0.5 + pi / 10
                records.append(
                    ScoreRecord(item.id, pipeline, "semantic_similarity", value, SIMILARITY.to_json())
                )
    return records


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = ensure_sample_project(tmp_path_factory.mktemp("judge") / "sample.goldenlens")
    with ProjectStore.open(path) as store:
        run_id = store.runs.start("judge", {"metrics": ["faithfulness", "semantic_similarity"]}, 30)
        store.results.save(run_id, _judge_records(store))
        store.runs.finish(run_id)
    return path


@pytest.fixture(scope="module")
def book(project: Path, tmp_path_factory: pytest.TempPathFactory) -> openpyxl.Workbook:
    out = tmp_path_factory.mktemp("out") / "report.xlsx"
    with ProjectStore.open(project) as store:
        export_report(store, out)
    return openpyxl.load_workbook(out)


def _expected(project: Path) -> dict[tuple[str, str], dict[str, ScoreRecord]]:
    with ProjectStore.open(project) as store:
        records = _judge_records(store)
    found: dict[tuple[str, str], dict[str, ScoreRecord]] = {}
    for record in records:
        found.setdefault((record.question_id, record.pipeline), {})[record.metric] = record
    return found


def test_judge_sheet_follows_scores(book: openpyxl.Workbook) -> None:
    assert book.sheetnames == JUDGE_SHEETS


def test_judge_sheet_layout(book: openpyxl.Workbook) -> None:
    ws = book["Judge"]
    header = [c.value for c in ws[1]]
    assert header == [
        "question_id",
        "question",
        "pipeline",
        "faithfulness",
        "semantic_similarity",
        "not scored",
    ]
    assert ws.freeze_panes == "D2"
    assert ws.auto_filter.ref == "A1:F31"
    formats = {str(cf.sqref): [r.type for r in cf.rules] for cf in ws.conditional_formatting}
    assert formats == {"D2:E31": ["colorScale"]}
    assert ws.max_row == 31


def test_judge_sheet_values_and_reasons(book: openpyxl.Workbook, project: Path) -> None:
    expected = _expected(project)
    ws = book["Judge"]
    seen = []
    for row in ws.iter_rows(min_row=2):
        question_id, pipeline = row[0].value, row[2].value
        assert isinstance(question_id, str)
        assert isinstance(pipeline, str)
        seen.append((question_id, pipeline))
        by_metric = expected[(question_id, pipeline)]
        for cell, metric in ((row[3], "faithfulness"), (row[4], "semantic_similarity")):
            record = by_metric.get(metric)
            assert cell.value == (None if record is None else record.value)
            assert cell.number_format == "0.000"
        reasons = row[5].value or ""
        if question_id == "q01":
            assert reasons == "faithfulness: the response has no statements"
        elif question_id == "q03":
            assert reasons == f"semantic_similarity: {NOT_JUDGED}"
        elif (question_id, pipeline) == ("q02", "Pipeline2"):
            assert reasons == f"faithfulness: {FORMULA_REASON}"
            assert row[5].data_type == "s"  # formula-looking text stays text
        else:
            assert reasons == ""
    assert seen[:3] == [("q01", p) for p in PIPELINES]
    assert len(seen) == 30


def test_summary_judge_means(book: openpyxl.Workbook, project: Path) -> None:
    expected = _expected(project)
    rows = list(book["Summary"].iter_rows(values_only=True))
    title = next(i for i, row in enumerate(rows) if row[0] == "Judge metrics: mean of the scored rows")
    assert title == 7  # right below the lexical table (rows 3-6) and one blank row
    assert rows[title + 1][:4] == ("pipeline", "faithfulness", "semantic_similarity", "not scored")
    for offset, pipeline in enumerate(PIPELINES):
        row = rows[title + 2 + offset]
        assert row[0] == pipeline
        for col, metric in ((1, "faithfulness"), (2, "semantic_similarity")):
            values = [
                r[metric].value
                for (_q, p), r in expected.items()
                if p == pipeline and metric in r and r[metric].value is not None
            ]
            assert row[col] == pytest.approx(sum(v for v in values if v is not None) / len(values))
        not_scored = 2 if pipeline == "Pipeline2" else 1  # q01 faithfulness (+ q02 on Pipeline2)
        assert row[3] == not_scored + 1  # + q03 semantic_similarity, not judged
    ws = book["Summary"]
    assert ws.cell(title + 3, 2).number_format == "0.000"
    formats = {str(cf.sqref): [r.type for r in cf.rules] for cf in ws.conditional_formatting}
    assert formats == {"B4:H6": ["colorScale"], f"B{title + 3}:C{title + 5}": ["colorScale"]}
    assert len(ws._charts) == 1


def test_summary_about_names_the_models_and_signatures(book: openpyxl.Workbook) -> None:
    about = {row[0]: row[1] for row in book["About"].iter_rows(values_only=True) if row[0]}
    assert about["Judge model"] == JUDGE_MODEL
    assert about["Embedding model"] == EMBEDDING_MODEL
    # Every report that shows judge means carries the judge's caveat next to its model.
    assert "not measurements" in about["Caveat"]
    assert about["faithfulness"] == FAITHFULNESS.short()
    assert about["semantic_similarity"] == SIMILARITY.short()
    assert about["f1_score"].startswith("f1_score|v1")  # the lexical signatures stay


def test_filtered_export_keeps_the_judge_rows_of_its_questions(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "filtered.xlsx"
    with ProjectStore.open(project) as store:
        export_report(store, out, question_ids={"q01", "q04"})
    ws = openpyxl.load_workbook(out)["Judge"]
    assert [(r[0], r[2]) for r in ws.iter_rows(min_row=2, values_only=True)] == [
        (q, p) for q in ("q01", "q04") for p in PIPELINES
    ]


def test_project_without_judge_run_has_no_judge_sheet(tmp_path: Path) -> None:
    path = ensure_sample_project(tmp_path / "plain.goldenlens")
    out = tmp_path / "plain.xlsx"
    with ProjectStore.open(path) as store:
        export_report(store, out)
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == SHEETS
    labels = [row[0] for row in book["Summary"].iter_rows(values_only=True)]
    assert "Local judge" not in labels
    assert "Judge metrics: mean of the scored rows" not in labels
    assert "Generated at" not in labels  # the About sheet holds it
    assert len(labels) == 6  # title, note, header, three pipelines: nothing under the table


def test_cli_report_includes_the_judge_sheet(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "cli.xlsx"
    assert main(["report", str(project), "-o", str(out)]) == 0
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == JUDGE_SHEETS
    assert book["Judge"].cell(2, 6).value == "faithfulness: the response has no statements"

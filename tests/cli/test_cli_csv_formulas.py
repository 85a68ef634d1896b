"""The CSV report and the run comparison CSV opened by a spreadsheet (issue 22, OWASP "CSV
injection"): a pipeline named ``=1+1``, ids beginning with ``@``/``+``/``-`` and notes that are
formulas stay text when LibreOffice opens the file, while the scores stay numbers.

LibreOffice (headless) converts each CSV to .xlsx as a user's spreadsheet would open it, and
openpyxl reads the cells back. LibreOffice, like Excel, shows the OWASP apostrophe as part of
the text of a CSV cell: what matters is that the cell is text holding the name, never a formula
and never its result (the control file, written without the apostrophes, gives 2).
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from goldenlens.cli.main import main
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.io.importing.sample import sample_dir

SOFFICE = shutil.which("soffice")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="needs LibreOffice (soffice) on PATH to open the CSV")

PIPELINES = ("=1+1", "-1", "P1")
IDS = ("q01", "@q02", "+q03")
REVIEW_NOTE = "+cmd|' /C calc'!A0"
OVERRIDE_NOTE = "@SUM(A1)"
REVIEWER = '=HYPERLINK("http://example.invalid","x")'


def _inputs(folder: Path, changed: bool = False) -> tuple[Path, Path]:
    with (sample_dir() / "golden.csv").open(newline="", encoding="utf-8") as handle:
        golden_rows = list(csv.reader(handle))[1:4]
    with (sample_dir() / "responses.csv").open(newline="", encoding="utf-8") as handle:
        answers = {(row[0], row[1]): row[2] for row in list(csv.reader(handle))[1:]}
    golden, responses = folder / "golden.csv", folder / ("responses2.csv" if changed else "responses.csv")
    with golden.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["id", "question", "answer", "fact"])
        out.writerows([new_id, *row[1:]] for new_id, row in zip(IDS, golden_rows, strict=True))
    with responses.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["question_id", "pipeline", "response"])
        for new_id, row in zip(IDS, golden_rows, strict=True):
            for n, pipeline in enumerate(PIPELINES, start=1):
                text = answers[(row[0], f"Pipeline{n}")]
                if changed and pipeline == "=1+1" and new_id == "q01":
                    text = "I do not know."  # run 2 loses q01's fact: negative changes
                out.writerow([new_id, pipeline, text])
    return golden, responses


def _open_in_libreoffice(folder: Path, *csv_files: Path) -> list[list[openpyxl.cell.Cell]]:
    """Each CSV converted to .xlsx by LibreOffice as a user opens it (comma, ", UTF-8); the cells
    of each first sheet, row by row (openpyxl: a formula stays a formula, ``data_type`` 'f')."""
    out = folder / "converted"
    done = subprocess.run(
        [str(SOFFICE), f"-env:UserInstallation={(folder / 'lo-profile').as_uri()}", "--headless",
         "--infilter=CSV:44,34,76,1", "--convert-to", "xlsx", "--outdir", str(out), *map(str, csv_files)],
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    sheets = []
    for path in csv_files:
        book = openpyxl.load_workbook(out / f"{path.stem}.xlsx")
        sheets.append([list(row) for row in book.worksheets[0].iter_rows()])
    return sheets


def test_formula_like_text_opens_as_text_and_scores_as_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GOLDENLENS_DATA_DIR", str(tmp_path / "data"))
    project = tmp_path / "p.goldenlens"
    golden, responses = _inputs(tmp_path)
    assert main(["score", str(golden), str(responses), "--project", str(project), "-q"]) == 0
    assert (
        main(["review", str(project), "@q02", "needs_curation", "--note", REVIEW_NOTE, "--reviewer", "ann"])
        == 0
    )
    override = ["override", str(project), "q01", "-1", "f1", "0.25", "--note", OVERRIDE_NOTE]
    assert main([*override, "--reviewer", REVIEWER]) == 0
    report, data = tmp_path / "report.csv", tmp_path / "report.json"
    assert main(["report", str(project), "-o", str(report)]) == 0
    assert main(["report", str(project), "-o", str(data)]) == 0
    _golden2, responses2 = _inputs(tmp_path, changed=True)
    assert main(["score", str(golden), str(responses2), "--project", str(project), "-q"]) == 0
    comparison = tmp_path / "comparison.csv"
    assert main(["compare", str(project), "-o", str(comparison)]) == 0
    control = tmp_path / "control.csv"
    control.write_text("pipeline,f1_score\n=1+1,-0.5\n", encoding="utf-8")
    capsys.readouterr()

    # The file itself: text cells that begin like a formula carry the apostrophe, nothing else.
    with report.open(encoding="utf-8-sig", newline="") as handle:
        lines = list(csv.DictReader(handle))
    assert [(line["question_id"], line["pipeline"]) for line in lines[:3]] == [
        ("q01", "'=1+1"), ("q01", "'-1"), ("q01", "P1")
    ]  # fmt: skip
    second = next(line for line in lines if line["question_id"] == "'@q02")
    assert second["review_note"] == "'" + REVIEW_NOTE
    overridden = next(line for line in lines if (line["question_id"], line["pipeline"]) == ("q01", "'-1"))
    assert (overridden["f1_score_override_note"], overridden["f1_score_override_by"]) == (
        "'" + OVERRIDE_NOTE,
        "'" + REVIEWER,
    )
    assert overridden["f1_score"] == "0.25"
    # Every score is the number the JSON report holds, written as that number.
    rows = json.loads(data.read_text(encoding="utf-8"))["rows"]
    assert [[float(line[m]) for m in LEXICAL_SCORE_NAMES] for line in lines] == [
        [row[m] for m in LEXICAL_SCORE_NAMES] for row in rows
    ]

    report_cells, comparison_cells, control_cells = _open_in_libreoffice(
        tmp_path, report, comparison, control
    )
    # The control shows the conversion evaluates formulas: unneutralised, =1+1 is a formula.
    assert (control_cells[1][0].data_type, control_cells[1][0].value) == ("f", "=1+1")
    assert control_cells[1][1].value == -0.5

    header = [cell.value for cell in report_cells[0]]
    assert not [cell.coordinate for row in report_cells for cell in row if cell.data_type == "f"]
    table = [dict(zip(header, row, strict=True)) for row in report_cells[1:]]
    texts = {(row["question_id"].value, row["pipeline"].value) for row in table}
    assert texts == {
        (f"'{q}" if q[0] in "@+" else q, f"'{p}" if p[0] in "=-" else p) for q in IDS for p in PIPELINES
    }
    for row in table:
        assert row["pipeline"].data_type == "s"
        assert row["pipeline"].value.removeprefix("'") in PIPELINES
        for metric in LEXICAL_SCORE_NAMES:
            assert row[metric].data_type == "n"
            assert isinstance(row[metric].value, int | float)
    cell = next(row for row in table if row["pipeline"].value == "'=1+1")["pipeline"]
    assert (cell.data_type, cell.value.removeprefix("'")) == ("s", "=1+1")  # the name, not 2
    curated = next(row for row in table if row["question_id"].value == "'@q02")
    assert curated["review_note"].value == "'" + REVIEW_NOTE
    hand = next(row for row in table if (row["question_id"].value, row["pipeline"].value) == ("q01", "'-1"))
    assert (hand["f1_score"].value, hand["f1_score_override_by"].value) == (0.25, "'" + REVIEWER)

    # The run comparison: the names are text, a negative change stays a negative number.
    header = [cell.value for cell in comparison_cells[0]]
    changes = [dict(zip(header, row, strict=True)) for row in comparison_cells[1:]]
    lost = next(
        row for row in changes
        if (row["question_id"].value, row["pipeline"].value, row["metric"].value)
        == ("q01", "'=1+1", "factual_knowledge")
    )  # fmt: skip
    assert (lost["before"].value, lost["after"].value, lost["delta"].value) == (1, 0, -1)
    assert lost["delta"].data_type == "n"
    assert not [cell.coordinate for row in comparison_cells for cell in row if cell.data_type == "f"]

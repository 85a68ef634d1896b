"""The ``goldenlens`` command line on the sample project and on bad input."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from cli_process import PACKAGE_ROOT, run_goldenlens
from goldenlens.cli.main import main
from goldenlens.io.importing.sample import sample_dir
from sample_expectations import FK_REPORT, PIPELINES


def _csv_rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def _both_sheets_workbook(tmp_path: Path) -> Path:
    """One workbook holding the golden set and the long responses, as an analyst would send it."""
    wb = openpyxl.Workbook()
    golden = wb.active
    assert golden is not None
    golden.title = "Golden"
    for row in _csv_rows(sample_dir() / "golden.csv"):
        golden.append(row)
    responses = wb.create_sheet("Responses")
    for row in _csv_rows(sample_dir() / "responses.csv"):
        responses.append(row)
    path = tmp_path / "amazon.xlsx"
    wb.save(path)
    return path


def _check_seed_numbers(data: dict[str, object]) -> None:
    rows = {(r["question_id"], r["pipeline"]): r for r in data["rows"]}  # type: ignore[attr-defined]
    fk = {qid: tuple(int(rows[(qid, p)]["factual_knowledge"]) for p in PIPELINES) for qid in FK_REPORT}
    assert fk == FK_REPORT
    assert round(rows[("q10", "Pipeline1")]["precision_over_words"], 3) == 0.238
    assert round(rows[("q10", "Pipeline1")]["f1_score"], 3) == 0.364
    p2 = rows[("q10", "Pipeline2")]
    assert (round(p2["recall_over_words"], 3), p2["precision_over_words"], round(p2["f1_score"], 2)) == (
        0.923,
        1.0,
        0.96,
    )
    hallucination = rows[("q02", "Pipeline2")]
    assert round(hallucination["recall_over_words"], 2) == 0.92
    assert hallucination["factual_knowledge"] == 0.0
    assert "likely_hallucination" in hallucination["flags"]
    assert round(rows[("q03", "Pipeline1")]["recall_over_words"], 2) == 0.54


@pytest.mark.parametrize("layout", ["long_csv", "wide_csv", "xlsx_both_sheets"])
def test_score_reproduces_the_fk_report_and_seed_numbers(layout: str, tmp_path: Path) -> None:
    golden = sample_dir() / "golden.csv"
    responses = sample_dir() / ("responses_wide.csv" if layout == "wide_csv" else "responses.csv")
    if layout == "xlsx_both_sheets":
        golden = responses = _both_sheets_workbook(tmp_path)
    out = tmp_path / "scores.json"
    assert main(["score", str(golden), str(responses), "-o", str(out), "-q"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len(data["rows"]) == 30
    assert set(data["summary"]) == set(PIPELINES)
    assert data["summary"]["Pipeline1"]["factual_knowledge"] == pytest.approx(0.8)
    _check_seed_numbers(data)


def test_score_without_output_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(sample_dir() / "golden.csv"), str(sample_dir() / "responses.csv"), "-q"]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("Pipeline")]
    assert len(lines) == 3
    assert lines[0].split()[:3] == ["Pipeline1", "10", "0.800"]


def test_csv_and_xlsx_outputs(tmp_path: Path) -> None:
    args = [str(sample_dir() / "golden.csv"), str(sample_dir() / "responses.csv"), "-q"]
    assert main(["score", *args, "-o", str(tmp_path / "s.csv")]) == 0
    with (tmp_path / "s.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 30
    assert (rows[0]["question_id"], rows[0]["pipeline"]) == ("q01", "Pipeline1")
    assert main(["score", *args, "-o", str(tmp_path / "s.xlsx")]) == 0
    wb = openpyxl.load_workbook(tmp_path / "s.xlsx")
    assert {"Summary", "Scores", "Factual Knowledge Report", "Highlights", "Flags"} <= set(wb.sheetnames)


def test_project_option_keeps_the_project_and_report_reads_it(tmp_path: Path) -> None:
    project = tmp_path / "amazon.goldenlens"
    args = [str(sample_dir() / "golden.csv"), str(sample_dir() / "responses.csv"), "-q"]
    assert main(["score", *args, "--project", str(project)]) == 0
    assert project.exists()
    out = tmp_path / "again.json"
    assert main(["report", str(project), "-o", str(out)]) == 0
    _check_seed_numbers(json.loads(out.read_text(encoding="utf-8")))


def test_mapping_renamed_columns(tmp_path: Path) -> None:
    rows = _csv_rows(sample_dir() / "golden.csv")
    rows[0] = ["Ref", "Ask", "Ideal", "Minimal"]
    golden = tmp_path / "renamed.csv"
    with golden.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    out = tmp_path / "s.json"
    code = main(
        [
            "score",
            str(golden),
            str(sample_dir() / "responses.csv"),
            "-q",
            "-o",
            str(out),
            "--map",
            "id=Ref",
            "--map",
            "question=Ask",
            "--map",
            "answer=Ideal",
            "--map",
            "fact=Minimal",
        ]
    )
    assert code == 0
    _check_seed_numbers(json.loads(out.read_text(encoding="utf-8")))


def test_a_mapping_to_a_missing_column_exits_2_naming_the_file_and_its_columns(tmp_path: Path) -> None:
    """``--map fact=Fakt`` used to be ignored (exit 0, the file's ``fact`` column scored)."""
    out = tmp_path / "s.json"
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    done = run_goldenlens("score", str(golden), str(responses), "-q", "-o", str(out), "--map", "fact=Fakt")
    assert done.returncode == 2
    assert not out.exists()
    assert "Traceback" not in done.stderr
    assert "'Fakt' (for fact)" in done.stderr
    assert "golden.csv has no such column; its columns are: id, question, answer, fact." in done.stderr


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("--map", "fact", "--map: expected FIELD=COLUMN, got 'fact'"),
        ("--map", "fact= ", "--map: expected FIELD=COLUMN, got 'fact= '"),
        ("--aspect", "=is it polite?", "--aspect: expected NAME=DEFINITION, got '=is it polite?'"),
    ],
)
def test_a_key_value_option_without_its_key_or_value_exits_2_saying_the_form(
    tmp_path: Path, option: str, value: str, expected: str
) -> None:
    out = tmp_path / "s.json"
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    extra = ["--metrics", "aspect_critic"] if option == "--aspect" else []
    done = run_goldenlens("score", str(golden), str(responses), "-q", "-o", str(out), option, value, *extra)
    assert done.returncode == 2, done.stderr
    assert not out.exists()
    assert expected in done.stderr
    assert "Traceback" not in done.stderr


def test_output_piped_into_a_reader_that_left_ends_quietly(tmp_path: Path) -> None:
    """``goldenlens advise p | head -1``: the reader closes the pipe. The read end is closed
    before the command starts, so its first write meets the closed pipe every time."""
    project = tmp_path / "p.goldenlens"
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    assert main(["score", str(golden), str(responses), "-q", "--project", str(project)]) == 0
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([PACKAGE_ROOT, os.environ.get("PYTHONPATH", "")])}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "goldenlens", "advise", str(project)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 141
    assert done.stderr == ""


def test_the_golden_file_given_as_the_responses_too_is_refused_not_scored_as_a_pipeline(
    tmp_path: Path,
) -> None:
    """It used to score a pipeline called 'answer' (the golden answer against itself): 1.000 everywhere."""
    out = tmp_path / "s.json"
    golden = sample_dir() / "golden.csv"
    done = run_goldenlens("score", str(golden), str(golden), "-q", "-o", str(out))
    assert done.returncode == 2
    assert not out.exists()
    assert "'answer' of the golden set's own golden.csv" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_mapping_that_takes_the_question_column_says_so(tmp_path: Path) -> None:
    """It used to say 'no question column … columns found: id, question, …', which read as a contradiction."""
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    done = run_goldenlens("score", str(golden), str(responses), "-q", "--map", "answer=question")
    assert done.returncode == 2
    assert "Column 'question' is mapped to answer, so no column is left for the question" in done.stderr


def test_the_two_files_given_the_other_way_round_are_named_as_such(tmp_path: Path) -> None:
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    done = run_goldenlens("score", str(responses), str(golden), "-q", "-o", str(tmp_path / "s.json"))
    assert done.returncode == 2
    assert "responses.csv has no question column" in done.stderr
    assert "were the golden set and the responses given the other way round?" in done.stderr


def test_a_report_name_of_no_format_is_refused_before_anything_is_scored(tmp_path: Path) -> None:
    project = tmp_path / "p.goldenlens"
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    done = run_goldenlens(
        "score", str(golden), str(responses), "--project", str(project), "-o", str(tmp_path / "r.txt")
    )
    assert done.returncode == 2
    assert "r.txt is no report file name: the report must be .xlsx, .html, .json or .csv" in done.stderr
    null = run_goldenlens("report", str(project), "-o", "/dev/null")  # it read "null: the report …"
    assert null.returncode == 2
    assert null.stderr.strip() == (
        "goldenlens: error: /dev/null is no report file name: the report must be .xlsx, .html, .json or .csv"
    )
    assert not project.exists()  # refused up front: nothing imported or scored


def test_an_output_that_is_a_file_the_command_reads_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    """``score g.csv r.csv -o g.csv`` replaced the analyst's golden set with the report (exit 0).
    Refused up front, whichever input it is and however it is named (a link, ``./``)."""
    golden, responses = tmp_path / "golden.csv", tmp_path / "responses.csv"
    golden.write_bytes((sample_dir() / "golden.csv").read_bytes())
    responses.write_bytes((sample_dir() / "responses.csv").read_bytes())
    (tmp_path / "link.json").symlink_to(responses)  # a report name whose file is the responses
    workbook = tmp_path / "both.xlsx"
    assert main(["export-golden", str(golden), "-o", str(workbook)]) == 0
    before = {path: path.read_bytes() for path in (golden, responses, workbook)}
    cases = [
        (("score", str(golden), str(responses), "-o", str(golden)), "golden set"),
        (("score", str(golden), str(responses), "-o", f"{tmp_path}/./responses.csv"), "responses file"),
        (("score", str(golden), str(responses), "-o", str(tmp_path / "link.json")), "responses file"),
        (("export-golden", str(workbook), "-o", str(workbook)), "golden set"),
    ]
    for arguments, what in cases:
        done = run_goldenlens(*arguments)
        assert done.returncode == 2, (arguments, done.stderr)
        assert f"the output (-o) would replace the {what} this command reads" in done.stderr
        assert "Traceback" not in done.stderr
    assert {path: path.read_bytes() for path in before} == before
    project = tmp_path / "p.goldenlens"
    assert main(["score", str(golden), str(responses), "-q", "--project", str(project)]) == 0
    done = run_goldenlens("score", str(golden), str(responses), "--project", str(project), "-o", str(golden))
    assert done.returncode == 2
    assert "would replace the golden set" in done.stderr
    assert golden.read_bytes() == before[golden]


def test_export_golden_refuses_an_output_that_is_not_a_workbook(tmp_path: Path) -> None:
    out = tmp_path / "golden.csv"
    done = run_goldenlens("export-golden", str(sample_dir() / "golden.csv"), "-o", str(out))
    assert done.returncode == 2
    assert "golden.csv: export-golden writes a workbook: name the output FILE.xlsx" in done.stderr
    assert not out.exists()  # used to be an .xlsx under a .csv name


def test_export_golden_from_spreadsheet_and_from_project(tmp_path: Path) -> None:
    out = tmp_path / "golden.xlsx"
    assert main(["export-golden", str(sample_dir() / "golden.csv"), "-o", str(out)]) == 0
    ws = openpyxl.load_workbook(out).worksheets[0]
    values = list(ws.iter_rows(values_only=True))
    assert [str(v).lower() for v in values[0][:4]] == ["id", "question", "answer", "fact"]
    assert values[10][3] == "10317750796<OR>10,317,750,796"
    project = tmp_path / "p.goldenlens"
    assert (
        main(["score", str(out), str(sample_dir() / "responses.csv"), "-q", "--project", str(project)]) == 0
    )
    again = tmp_path / "again.xlsx"
    assert main(["export-golden", str(project), "-o", str(again)]) == 0
    assert (
        list(openpyxl.load_workbook(again).worksheets[0].iter_rows(values_only=True))[1][:4] == values[1][:4]
    )


def test_the_analysts_numbering_and_other_columns_survive_the_golden_round_trip(tmp_path: Path) -> None:
    """A golden workbook numbered in '#' with a Category and an Owner column: the questions used
    to get ids row-2 … and the export had neither the numbering nor the other columns."""
    rows = _csv_rows(sample_dir() / "golden.csv")
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["#", "question", "answer", "fact", "Category", "Owner"])
    for n, row in enumerate(rows[1:], start=1):
        sheet.append([n, *row[1:], "finance" if n % 2 else "", f"analyst {n}"])
    golden = tmp_path / "numbered.xlsx"
    book.save(golden)
    responses = tmp_path / "responses.csv"  # keyed by the question's text, as the file has no ids
    by_id = {row[0]: row[1] for row in rows[1:]}
    answered = [[by_id[r[0]], r[1], r[2]] for r in _csv_rows(sample_dir() / "responses.csv")[1:]]
    with responses.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["question", "pipeline", "response"], *answered])
    project = tmp_path / "p.goldenlens"
    assert main(["score", str(golden), str(responses), "-q", "--project", str(project)]) == 0

    exported = tmp_path / "golden-out.xlsx"
    assert main(["export-golden", str(project), "-o", str(exported)]) == 0
    values = list(openpyxl.load_workbook(exported).worksheets[0].iter_rows(values_only=True))
    assert values[0][:7] == ("id", "question", "answer", "fact", "notes", "Category", "Owner")
    assert [row[0] for row in values[1:]] == [str(n) for n in range(1, 11)]
    assert values[1][5:7] == ("finance", "analyst 1")
    assert values[2][5:7] in ((None, "analyst 2"), ("", "analyst 2"))

    again = tmp_path / "again.goldenlens"
    assert main(["score", str(exported), str(responses), "-q", "--project", str(again)]) == 0
    twice = tmp_path / "golden-twice.xlsx"
    assert main(["export-golden", str(again), "-o", str(twice)]) == 0
    assert list(openpyxl.load_workbook(twice).worksheets[0].iter_rows(values_only=True)) == values


@pytest.mark.parametrize(
    ("golden", "fragment"),
    [
        ("missing.csv", "missing.csv"),
        ("folder", "folder"),
        ("empty.csv", "empty.csv"),
        ("junk.xlsx", "junk.xlsx"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_traceback(golden: str, fragment: str, tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "empty.csv").write_bytes(b"")
    (tmp_path / "junk.xlsx").write_bytes(bytes(range(256)) * 8)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "goldenlens",
            "score",
            str(tmp_path / golden),
            str(sample_dir() / "responses.csv"),
            "-q",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    first = proc.stderr.strip().splitlines()[0]
    assert first.startswith("goldenlens: error: ")
    assert fragment in first


def test_sample_command_writes_project_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sample", "--out-dir", str(tmp_path), "-q"]) == 0
    assert (tmp_path / "amazon_q2_2023.goldenlens").exists()
    assert (tmp_path / "amazon_q2_2023-report.xlsx").exists()
    assert "Pipeline1" in capsys.readouterr().out

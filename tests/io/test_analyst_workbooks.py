"""Workbooks laid out the way analysts make them, read as the analyst sees them.

Title rows above the header, a ``#`` column, formatted numbers, booleans, error cells,
formulas never calculated, hidden sheets, a stray cell at XFD1048576: every file is written
by the test, and each case checks the text, the header row, the pipelines, or the problem
(file, sheet, row, column) that the analyst is shown.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import zipfile
from datetime import datetime
from pathlib import Path

import pytest
from openpyxl import Workbook
from tests.fmeval_reference import factual_knowledge as reference_fk

from goldenlens.core.problems import InputError, Severity
from goldenlens.io.importing.input_files import load_inputs, preview, read_golden
from goldenlens.io.sheets.spreadsheet_reader import read_table


def _book(
    path: Path, sheets: dict[str, list[list[object]]], formats: dict[tuple[str, str], str] | None = None
) -> Path:
    wb = Workbook()
    first = True
    for title, rows in sheets.items():
        ws = wb.active if first else wb.create_sheet()
        assert ws is not None
        first = False
        ws.title = title
        for row in rows:
            ws.append(row)
    for (title, ref), code in (formats or {}).items():
        wb[title][ref].number_format = code
    wb.save(path)
    return path


def _golden_with_title_rows(path: Path) -> Path:
    return _book(
        path,
        {
            "Golden": [
                ["Amazon 10-Q, Q2 2023 — golden set"],
                ["prepared by Finance, reviewed 1 Aug"],
                [],
                ["#", "ID", "Question", "Golden answer", "Fact"],
                [1, "q01", "What were net sales?", "Net sales were $134,383 million.", 134383],
                [2, "q02", "What share came from AWS?", "AWS was 16% of sales.", 0.16],
                [
                    3,
                    "q03",
                    "When was the filing dated?",
                    "It was dated February 22, 2023.",
                    datetime(2023, 2, 22),
                ],
                [4, "q04", "Did sales grow?", "Yes.", True],
            ],
            "Responses": [
                ["Pipeline answers, run 7"],
                ["No.", "ID", "RAG-v1", "RAG-v2"],
                [1, "q01", "Net sales were 134,383 million dollars.", "About 134 billion."],
                [2, "q02", "AWS contributed 16% of net sales.", "A sixth."],
                [3, "q03", "The report is dated February 22, 2023.", "In 2023."],
                [4, "q04", "TRUE, sales grew.", "No idea."],
            ],
        },
        {
            ("Golden", "E5"): "#,##0",
            ("Golden", "E6"): "0%",
            ("Golden", "E7"): "mmmm d, yyyy",
        },
    )


def test_title_rows_are_skipped_and_formatted_facts_read_as_shown(tmp_path: Path) -> None:
    path = _golden_with_title_rows(tmp_path / "analyst.xlsx")
    loaded = load_inputs(path, path)
    facts = {item.id: item.fact for item in loaded.golden.items}
    # What Excel shows in those cells (the formats #,##0, 0%, mmmm d, yyyy and a boolean).
    assert facts == {"q01": "134,383", "q02": "16%", "q03": "February 22, 2023", "q04": "TRUE"}
    assert [item.source_row for item in loaded.golden.items] == [5, 6, 7, 8]
    notes = [p for p in loaded.problems if p.severity is Severity.INFO]
    header_notes = [p.message for p in notes if p.message.startswith("the header is row")]
    assert header_notes[0].startswith("the header is row 4; the 2 non-blank row(s) above it")
    assert "'Amazon 10-Q, Q2 2023 — golden set'" in header_notes[0]
    assert header_notes[1].startswith("the header is row 2; the 1 non-blank row(s) above it")
    assert loaded.responses is not None
    # The "No." column numbers rows: it is no pipeline, and the note says which columns are.
    assert loaded.responses.pipelines == ("RAG-v1", "RAG-v2")
    layout = [p.message for p in notes if p.message.startswith("wide layout")]
    assert layout == [
        "wide layout: 2 pipeline column(s): 'RAG-v1' (C), 'RAG-v2' (D). Not pipelines (golden-set, "
        "contexts or row-number columns): 'No.' (A)."
    ]
    # The correct pipeline finds every fact, as FMEval's own algorithm says on the same text.
    found = {r.question_id: r.response for r in loaded.responses.responses if r.pipeline == "RAG-v1"}
    for item in loaded.golden.items:
        assert reference_fk(found[item.id], item.fact)["factual_knowledge"] == 1.0


def test_the_analysts_own_numbering_is_the_question_id(tmp_path: Path) -> None:
    """A golden sheet numbered in a ``#`` column, with no id column, under two title rows: the
    questions used to get ids ``row-4`` … ``row-7`` and the numbering was lost."""
    rows: list[list[object]] = [[n, f"Question {n}?", f"Answer {n}.", f"fact {n}"] for n in (1, 2, 3, 5)]
    path = _book(
        tmp_path / "numbered.xlsx",
        {"Golden": [["Q2 golden set"], [], ["#", "Question", "Answer", "Fact"], *rows]},
    )
    responses = tmp_path / "responses.csv"
    responses.write_text("question,RAG\nQuestion 5?,fact 5\nQuestion 1?,no\n", encoding="utf-8")
    loaded = load_inputs(path, responses)
    assert [item.id for item in loaded.golden.items] == ["1", "2", "3", "5"]
    assert [item.source_row for item in loaded.golden.items] == [4, 5, 6, 7]
    [note] = [p for p in loaded.problems if "numbers the questions" in p.message]
    assert (note.severity, note.column) == (Severity.INFO, "#")
    assert (
        "column '#' numbers the questions (distinct whole numbers), so its numbers are their ids"
        in note.message
    )
    assert not [p for p in loaded.problems if "there is no id column" in p.message and "'#'" not in p.message]
    assert loaded.responses is not None  # joined by the question's text
    assert sorted((r.question_id, r.response) for r in loaded.responses.responses) == [
        ("1", "no"),
        ("5", "fact 5"),
    ]
    shown = preview(path)
    assert shown.columns.as_dict()["id"] == "#"  # what the wizard offers as the question id

    # Numbers that repeat, or a blank, number nothing: the rows keep their row ids.
    for bad in ([1, 1, 2, 3], [1, None, 2, 3]):
        again = _book(
            tmp_path / "again.xlsx",
            {"Golden": [["No.", "Question", "Answer"], *[[n, f"Q{i}?", "A."] for i, n in enumerate(bad)]]},
        )
        golden, _ = read_golden(again)
        assert [item.id for item in golden.items] == ["row-2", "row-3", "row-4", "row-5"]
    # A column named as an id wins over the numbering.
    named = _book(tmp_path / "named.xlsx", {"G": [["#", "ID", "Question", "Answer"], [1, "q1", "Q?", "A."]]})
    assert [item.id for item in read_golden(named)[0].items] == ["q1"]


def test_a_column_of_consecutive_numbers_is_not_a_pipeline(tmp_path: Path) -> None:
    golden = _book(
        tmp_path / "g.xlsx",
        {"G": [["id", "question", "fact"], ["a", "Q1?", "x"], ["b", "Q2?", "y"], ["c", "Q3?", "z"]]},
    )
    responses = _book(
        tmp_path / "r.xlsx",
        {"R": [["Line", "id", "P1", "P2"], [7, "a", "x", "no"], [8, "b", "y", "no"], [9, "c", "z", "no"]]},
    )
    loaded = load_inputs(golden, responses)
    assert loaded.responses is not None
    assert loaded.responses.pipelines == ("P1", "P2")
    assert any("'Line' (A)" in p.message for p in loaded.problems if p.message.startswith("wide layout"))


def test_header_row_can_be_set_explicitly(tmp_path: Path) -> None:
    # Row 1 names a known column ("question") but is a note; the real header is row 3.
    path = _book(
        tmp_path / "g.xlsx",
        {
            "G": [
                ["question", "asked by the CFO"],
                [],
                ["id", "question", "answer"],
                ["q1", "Why?", "Because."],
            ]
        },
    )
    table = read_table(path)
    assert table.header_row == 1  # detection takes the first row naming a known column
    golden, problems = read_golden(path, header_row=3)
    assert [(i.id, i.question, i.answer, i.source_row) for i in golden.items] == [
        ("q1", "Why?", "Because.", 4)
    ]
    assert any(p.message.startswith("the header is row 3; the 1 non-blank row(s)") for p in problems)
    shown = preview(path, header_row=3)
    assert shown.header == ("id", "question", "answer")
    assert shown.header_row == 3
    with pytest.raises(InputError) as raised:
        read_golden(path, header_row=2)
    assert (
        "the header row is set to row 2, but that row of sheet 'G' is empty" in raised.value.problem.message
    )


def test_error_cells_and_uncalculated_formulas_are_problems_never_silent_text(tmp_path: Path) -> None:
    path = _book(
        tmp_path / "errors.xlsx",
        {
            "Golden": [
                ["id", "question", "answer", "fact"],
                ["q1", "Net sales?", "134.4 billion", "#N/A"],
                ["q2", "AWS share?", '=B2&"!"', "16%"],
                ["q3", "Filing date?", "February 22", "=VLOOKUP(A4,Sheet2!A:B,2,FALSE)"],
                ["q4", "Growth?", "#DIV/0!", "11%"],
            ]
        },
    )
    golden, problems = read_golden(path)
    located: dict[tuple[int | None, str | None], list[str]] = {}
    for p in problems:
        if p.severity is Severity.ERROR:
            located.setdefault((p.row, p.column), []).append(p.message)
    assert "cell D2 shows the error #N/A" in located[(2, "fact")][0]
    assert "cell C3 holds a formula that was never calculated" in located[(3, "answer")][0]
    assert "the row is skipped" in located[(3, "answer")][1]
    assert "cell D4 holds a formula that was never calculated" in located[(4, "fact")][0]
    assert "cell C5 shows the error #DIV/0!" in located[(5, "answer")][0]
    assert all(p.file == "errors.xlsx" and p.sheet == "Golden" for p in problems if p.row in {2, 3, 4, 5})
    # A question whose answer has no text is skipped; one whose fact has none keeps an empty
    # fact (its factual knowledge is not scored) - never "#N/A" scored as if it were a fact.
    assert {item.id: item.fact for item in golden.items} == {"q1": "", "q3": ""}


def test_an_error_in_a_response_is_not_scored_as_an_empty_answer(tmp_path: Path) -> None:
    golden = _book(
        tmp_path / "g.xlsx", {"G": [["id", "question", "fact"], ["q1", "Q?", "x"], ["q2", "R?", "y"]]}
    )
    responses = _book(
        tmp_path / "r.xlsx", {"R": [["id", "P1", "P2"], ["q1", "#REF!", "x"], ["q2", "y", "y"]]}
    )
    loaded = load_inputs(golden, responses)
    assert loaded.responses is not None
    kept = {(r.question_id, r.pipeline) for r in loaded.responses.responses}
    assert kept == {("q1", "P2"), ("q2", "P1"), ("q2", "P2")}
    errors = [p for p in loaded.problems if p.severity is Severity.ERROR]
    assert [(p.file, p.sheet, p.row, p.column) for p in errors] == [("r.xlsx", "R", 2, "P1")] * 2
    assert "error #REF!" in errors[0].message
    assert "is not scored" in errors[1].message


def test_hidden_sheets_are_skipped_unless_named(tmp_path: Path) -> None:
    wb = Workbook()
    old = wb.active
    assert old is not None
    old.title = "Old golden"
    old.append(["id", "question", "answer"])
    old.append(["x1", "Stale?", "yes"])
    old.sheet_state = "hidden"
    current = wb.create_sheet("Golden")
    current.append(["id", "question", "answer"])
    current.append(["q1", "Current?", "yes"])
    path = tmp_path / "book.xlsx"
    wb.save(path)
    golden, problems = read_golden(path)
    assert golden.sheet == "Golden"
    (warning,) = [p for p in problems if "hidden" in p.message]
    assert warning.severity is Severity.WARNING
    assert "hidden sheet(s) 'Old golden' were skipped" in warning.message
    chosen, _ = read_golden(path, sheet="Old golden")
    assert [item.id for item in chosen.items] == ["x1"]
    assert preview(path).hidden_sheets == ("Old golden",)


def _with_far_cell(source: Path, target: Path, cell: bytes) -> Path:
    """``source`` with ``cell`` appended as the sheet's last row (a stray far-away cell)."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"</sheetData>", b'<row r="1048576">' + cell + b"</row></sheetData>")
            out.writestr(item.filename, data)
    return target


_READ_IN_CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))
from goldenlens.core.problems import InputError
from goldenlens.io.sheets.spreadsheet_reader import read_table
try:
    table = read_table(sys.argv[1])
    print(json.dumps({"rows": table.rows, "problems": [p.message for p in table.problems]}))
except InputError as error:
    print(json.dumps({"fatal": error.problem.message}))
"""


def _read_bounded(path: Path) -> dict[str, object]:
    """Read ``path`` in a child process limited to 3 GiB, so a runaway allocation cannot hurt."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", _READ_IN_CHILD, str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_AS"), reason="needs an address-space limit")
def test_a_blank_cell_at_xfd1048576_does_not_exhaust_memory(tmp_path: Path) -> None:
    base = _book(tmp_path / "base.xlsx", {"S": [["id", "question", "answer"], ["q1", "Q?", "A"]]})
    blank = _with_far_cell(
        base, tmp_path / "blank.xlsx", b'<c r="XFD1048576" t="inlineStr"><is><t></t></is></c>'
    )
    read = _read_bounded(blank)
    assert read["rows"] == [["q1", "Q?", "A"]]
    problems = read["problems"]
    assert isinstance(problems, list)
    assert any("used range reaches XFD1048576 although its values end at C2" in p for p in problems)


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_AS"), reason="needs an address-space limit")
def test_a_real_value_at_xfd1048576_is_refused_with_a_message(tmp_path: Path) -> None:
    base = _book(tmp_path / "base.xlsx", {"S": [["id", "question", "answer"], ["q1", "Q?", "A"]]})
    far = _with_far_cell(
        base, tmp_path / "far.xlsx", b'<c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c>'
    )
    read = _read_bounded(far)
    message = read["fatal"]
    assert isinstance(message, str)
    assert "values as far apart as A1 and XFD1048576" in message
    # 16,384 x 1,048,576 cells of 32 bytes: 512 GiB (it said "more than 0 GiB").
    assert "reading that range would take about 512 GiB of memory" in message
    assert "Ctrl+End" in message


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "goldenlens", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )


def test_cli_says_how_the_workbook_was_read(tmp_path: Path) -> None:
    path = _golden_with_title_rows(tmp_path / "analyst.xlsx")
    out = tmp_path / "report.json"
    done = _cli("score", str(path), str(path), "-o", str(out), "-q")
    assert done.returncode == 0, done.stderr
    assert "sheet 'Golden': info: the header is row 4" in done.stderr
    assert "wide layout: 2 pipeline column(s): 'RAG-v1' (C), 'RAG-v2' (D)" in done.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    fk = {(r["question_id"], r["pipeline"]): r["factual_knowledge"] for r in rows}
    # Before cells were read as shown, 134383 / 0.16 / 2023-02-22 made every correct answer FK 0.
    assert [fk[(q, "RAG-v1")] for q in ("q01", "q02", "q03", "q04")] == [1.0, 1.0, 1.0, 1.0]

    explicit = _cli(
        "score", str(path), str(path), "--header-row", "4", "--responses-header-row", "2", "-o", str(out)
    )
    assert explicit.returncode == 0, explicit.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["rows"] == rows
    bad = _cli("score", str(path), str(path), "--header-row", "0")
    assert bad.returncode == 2
    assert "a row number is 1 or more" in bad.stderr


def test_responses_taken_from_the_golden_sheet_warn_when_another_sheet_was_passed_over(
    tmp_path: Path,
) -> None:
    """A responses sheet keyed by '#' maps as no responses: the golden sheet's other columns are
    scored instead. That used to be an info line only; it is a warning naming the sheet passed over."""
    book = Workbook()
    golden = book.active
    assert golden is not None
    golden.title = "Golden"
    golden.append(["#", "Question", "Ideal answer", "Key fact", "Owner"])
    golden.append([1, "Who is the CEO?", "Andy Jassy is the CEO.", "Andy Jassy", "Ana"])
    golden.append([2, "Where is HQ?", "HQ is in Seattle.", "Seattle", "Ben"])
    responses = book.create_sheet("Responses")
    responses.append(["#", "pipeline", "response"])
    responses.append([1, "P1", "Andy Jassy"])
    path = tmp_path / "analyst.xlsx"
    book.save(path)
    loaded = load_inputs(path, path)
    assert loaded.responses is not None
    assert loaded.responses.pipelines == ("Owner",)
    warnings = [p for p in loaded.problems if p.severity is Severity.WARNING]
    assert len(warnings) == 1
    assert warnings[0].sheet == "Golden"
    assert "other column(s) 'Owner', scored as pipelines: sheet(s) 'Responses'" in warnings[0].message

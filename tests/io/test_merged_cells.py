"""Merged cells read as the analyst sees them: a range spanning rows shows its first cell's
text on every row, so each row of it reads that text, with a note naming the range.

The workbooks are written here by openpyxl (its ``merge_cells`` writes the ``<mergeCell>``
elements Excel writes, and clears the cells under the range as Excel does), by xlwt
(``write_merge``: the MERGEDCELLS record of a legacy .xls) and, for .ods, as LibreOffice Calc
writes a merge (checked against a file it converted: the first cell carries
``table:number-rows-spanned``, the cells below are ``<table:covered-table-cell/>``). The
merged-away rows were skipped as "no question id" before.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook
from tests.badinputs import write_ods

from goldenlens.core.problems import Severity
from goldenlens.io.importing.input_files import load_inputs
from goldenlens.io.sheets.merged_cells import MergedRange, xlsx_merged_ranges
from goldenlens.io.sheets.spreadsheet_reader import read_table

_RESPONSES: list[list[str | None]] = [
    ["question_id", "pipeline", "response"],
    ["q1", "A", "Paris"],
    [None, "B", "Lyon"],
    [None, "C", "It is Paris."],
    ["q2", "A", "Rome"],
    [None, "B", "Milan"],
    ["q3", "A", "Lima"],
]
#: The rows the eye reads in _RESPONSES with A2:A4 and A5:A6 merged.
_SEEN = [
    ("q1", "A", "Paris"),
    ("q1", "B", "Lyon"),
    ("q1", "C", "It is Paris."),
    ("q2", "A", "Rome"),
    ("q2", "B", "Milan"),
    ("q3", "A", "Lima"),
]


def _book(path: Path, rows: list[list[object]], merges: list[str]) -> Path:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for row in rows:
        ws.append(row)
    for merge in merges:
        ws.merge_cells(merge)
    wb.save(path)
    return path


def _golden(path: Path) -> Path:
    return _book(
        path,
        [
            ["id", "question", "answer", "fact", "topic"],
            ["q1", "Capital of France?", "Paris.", "Paris", "Europe"],
            ["q2", "Capital of Italy?", "Rome.", "Rome", None],
            ["q3", "Capital of Peru?", "Lima.", "Lima", "Americas"],
        ],
        ["E2:E3"],  # a topic merged over the first two questions
    )


def test_a_question_id_merged_down_its_pipelines_rows_joins_every_row(tmp_path: Path) -> None:
    responses = _book(tmp_path / "responses.xlsx", list(_RESPONSES), ["A2:A4", "A5:A6"])
    loaded = load_inputs(_golden(tmp_path / "golden.xlsx"), responses)
    assert loaded.responses is not None
    got = [(r.question_id, r.pipeline, r.response, r.source_row) for r in loaded.responses.responses]
    assert sorted(got) == [
        ("q1", "A", "Paris", 2),
        ("q1", "B", "Lyon", 3),
        ("q1", "C", "It is Paris.", 4),
        ("q2", "A", "Rome", 5),
        ("q2", "B", "Milan", 6),
        ("q3", "A", "Lima", 7),
    ]
    assert not [p for p in loaded.problems if p.severity is Severity.ERROR]
    notes = [(p.file, p.row, p.column, p.message) for p in loaded.problems if p.file == "responses.xlsx"]
    assert [(file, row, column) for file, row, column, _message in notes if "merged" in _message] == [
        ("responses.xlsx", 3, "question_id"),
        ("responses.xlsx", 4, "question_id"),
        ("responses.xlsx", 6, "question_id"),
    ]
    assert notes[0][3] == (
        "cell A3 is part of the merged range A2:A4: it reads 'q1', the text the merged cell shows on "
        "every row of the range."
    )
    merged_notes = [p for p in loaded.problems if "merged range" in p.message]
    assert {p.severity for p in merged_notes} == {Severity.INFO}

    # The golden set's merged topic is kept on both questions it spans.
    topics = {item.id: dict(item.extra).get("topic") for item in loaded.golden.items}
    assert topics == {"q1": "Europe", "q2": "Europe", "q3": "Americas"}


def test_a_range_within_one_row_and_a_merged_empty_cell_are_read_as_stored(tmp_path: Path) -> None:
    path = _book(
        tmp_path / "book.xlsx",
        [
            ["GoldenLens test book — a title across the columns"],
            ["id", "question", "answer"],
            ["q1", "Who?", "Ada"],
            ["q2", None, "Bob"],
            ["q3", None, "Cy"],
        ],
        ["A1:C1", "B4:B5"],  # a title; an empty question merged over two rows
    )
    table = read_table(path)
    assert table.header == ("id", "question", "answer")
    assert [list(row) for row in table.rows] == [["q1", "Who?", "Ada"], ["q2", "", "Bob"], ["q3", "", "Cy"]]
    assert not [p for p in table.problems if "merged" in p.message]


def test_merged_ranges_are_read_whatever_the_prefix_and_corner_order(tmp_path: Path) -> None:
    xml = (
        b'<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        b'<x:mergeCells count="3"><x:mergeCell ref="B7:A5"/><x:mergeCell ref="AA10:AB12"/>'
        b'<x:mergeCell ref="C3"/></x:mergeCells></x:worksheet>'
    )
    assert xlsx_merged_ranges(xml) == [MergedRange(4, 0, 6, 1), MergedRange(9, 26, 11, 27)]
    assert [m.name for m in xlsx_merged_ranges(xml)] == ["A5:B7", "AA10:AB12"]
    # openpyxl's own file lists what it merged
    path = _book(tmp_path / "m.xlsx", [["a", "b"], ["1", "2"], [None, "3"]], ["A2:A3"])
    with zipfile.ZipFile(path) as book:
        sheet = book.read("xl/worksheets/sheet1.xml")
    assert xlsx_merged_ranges(sheet) == [MergedRange(1, 0, 2, 0)]


def _xls(path: Path) -> Path:
    xlwt = pytest.importorskip("xlwt")
    book = xlwt.Workbook()
    sheet = book.add_sheet("Responses")
    for r, row in enumerate(_RESPONSES):
        for c, value in enumerate(row):
            if value is not None and not (c == 0 and r in (1, 4)):
                sheet.write(r, c, value)
    sheet.write_merge(1, 3, 0, 0, "q1")  # rows 2-4 of column A, as Excel numbers them
    sheet.write_merge(4, 5, 0, 0, "q2")
    book.save(str(path))
    return path


def _ods(path: Path) -> Path:
    def cell(text: str) -> str:
        return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'

    def merged(text: str, rows: int) -> str:
        return (
            '<table:table-cell office:value-type="string" table:number-columns-spanned="1" '
            f'table:number-rows-spanned="{rows}"><text:p>{text}</text:p></table:table-cell>'
        )

    covered = "<table:covered-table-cell/>"
    rows = [
        [cell("question_id"), cell("pipeline"), cell("response")],
        [merged("q1", 3), cell("A"), cell("Paris")],
        [covered, cell("B"), cell("Lyon")],
        [covered, cell("C"), cell("It is Paris.")],
        [merged("q2", 2), cell("A"), cell("Rome")],
        [covered, cell("B"), cell("Milan")],
        [cell("q3"), cell("A"), cell("Lima")],
    ]
    return write_ods(path, "Responses", rows)


@pytest.mark.parametrize("write", [_xls, _ods], ids=["xls", "ods"])
def test_a_question_id_merged_down_in_an_xls_or_ods_sheet_joins_every_row(
    write: Callable[[Path], Path], tmp_path: Path
) -> None:
    responses = write(tmp_path / f"responses.{write.__name__.strip('_')}")
    table = read_table(responses)
    assert [tuple(row) for row in table.rows] == _SEEN  # read as stored before: ("", "B", "Lyon")…
    notes = [(p.row, p.column, p.severity) for p in table.problems if "merged range" in p.message]
    assert notes == [
        (3, "question_id", Severity.INFO),
        (4, "question_id", Severity.INFO),
        (6, "question_id", Severity.INFO),
    ]
    loaded = load_inputs(_golden(tmp_path / "golden.xlsx"), responses)
    assert loaded.responses is not None
    assert sorted((r.question_id, r.pipeline, r.response) for r in loaded.responses.responses) == _SEEN
    assert not [p for p in loaded.problems if p.severity is Severity.ERROR]

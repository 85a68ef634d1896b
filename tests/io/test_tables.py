"""read_table: every format's cells as the text an analyst sees, with Excel's row numbers."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from datetime import time as clock
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from openpyxl import Workbook
from tests.badinputs import write_csv, write_xlsx
from tests.badinputs import write_ods as write_ods_table

from goldenlens.core.problems import InputError, Severity
from goldenlens.io.importing.columns import column_letter
from goldenlens.io.sheets.cell_text import cell_text
from goldenlens.io.sheets.csv_decoder import sniff_delimiter
from goldenlens.io.sheets.spreadsheet_reader import list_sheets, read_table

# (value written to the workbook, text expected back)
NUMBERS_AND_DATES: list[tuple[object, str]] = [
    (158, "158"),
    (158.0, "158"),
    (10317750796, "10317750796"),
    (10317750796.0, "10317750796"),
    # A whole number of more than 15 digits is shown in scientific form, from the double the
    # cell holds (LibreOffice saving as shown: 1.23456789012346E+018), as the same float is;
    # its int from calamine had been written out digit by digit, binary noise included.
    (999999999999999, "999999999999999"),
    (1234567890123456789, "1.23456789012346E+18"),
    (12345678901234567, "1.23456789012346E+16"),
    (10**20, "1E+20"),
    (-(10**16), "-1E+16"),
    (0.1, "0.1"),
    (12.5, "12.5"),
    (0.1 + 0.2, "0.3"),
    (-3.25, "-3.25"),
    (True, "TRUE"),
    (False, "FALSE"),
    # openpyxl gives datetimes the format yyyy-mm-dd h:mm:ss and dates yyyy-mm-dd: Excel shows
    # them so (an unpadded hour), and so must the import.
    (datetime(2023, 2, 22), "2023-02-22 0:00:00"),
    (datetime(2023, 2, 22, 13, 5), "2023-02-22 13:05:00"),
    (date(2023, 6, 30), "2023-06-30"),
    (None, ""),
    ("nan", "nan"),
    ("NA", "NA"),
    ("  spaced  ", "  spaced  "),
    ("line one\nline two", "line one\nline two"),
    ("Café “quoted” — 東京 🚀", "Café “quoted” — 東京 🚀"),
    ("=not a formula", "=not a formula"),
]


def _value_sheet() -> list[list[object]]:
    return [["label", "value"], *([f"v{i}", value] for i, (value, _) in enumerate(NUMBERS_AND_DATES))]


@pytest.mark.parametrize("suffix", [".xlsx", ".xlsm"])
def test_workbook_cells_become_the_text_excel_shows(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"values{suffix}"
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Values"
    for row in _value_sheet():
        sheet.append(row)
        if isinstance(row[1], str) and row[1].startswith("="):
            sheet.cell(sheet.max_row, 2).data_type = "s"  # text, as Excel stores '=... typed with a quote
    book.save(path)
    table = read_table(path)
    assert table.sheet == "Values"
    assert table.header == ("label", "value")
    got = dict(table.rows)
    assert [got[f"v{i}"] for i in range(len(NUMBERS_AND_DATES))] == [text for _, text in NUMBERS_AND_DATES]
    assert table.row_numbers == tuple(range(2, len(NUMBERS_AND_DATES) + 2))
    assert table.problems == ()


def _ods_cell(value: object) -> str:
    if isinstance(value, bool):
        return (
            f'<table:table-cell office:value-type="boolean" office:boolean-value="{str(value).lower()}">'
            "</table:table-cell>"
        )
    if isinstance(value, int | float):
        return f'<table:table-cell office:value-type="float" office:value="{value!r}"></table:table-cell>'
    if isinstance(value, date):
        return (
            f'<table:table-cell office:value-type="date" office:date-value="{value.isoformat()}">'
            "</table:table-cell>"
        )
    if value is None:
        return "<table:table-cell/>"
    paragraphs = "".join(f"<text:p>{escape(line)}</text:p>" for line in str(value).split("\n"))
    return f'<table:table-cell office:value-type="string">{paragraphs}</table:table-cell>'


def write_ods(path: Path, title: str, rows: list[list[object]]) -> Path:
    """A minimal OpenDocument spreadsheet of these values."""
    return write_ods_table(path, title, [[_ods_cell(v) for v in row] for row in rows])


def test_ods_cells_become_text(tmp_path: Path) -> None:
    values: list[tuple[object, str]] = [
        (158.0, "158"),
        (10317750796, "10317750796"),
        (0.1, "0.1"),
        (True, "TRUE"),
        (date(2023, 2, 22), "2023-02-22"),
        ("two\nlines", "two\nlines"),
        (None, ""),
    ]
    rows: list[list[object]] = [["label", "value"], *([f"v{i}", v] for i, (v, _) in enumerate(values))]
    table = read_table(write_ods(tmp_path / "golden.ods", "Golden", rows))
    assert table.sheet == "Golden"
    assert [cells[1] for cells in table.rows] == [text for _, text in values]


def test_legacy_xls_cells_become_text(tmp_path: Path) -> None:
    xlwt = pytest.importorskip("xlwt")
    book = xlwt.Workbook()
    sheet = book.add_sheet("Golden")
    rows: list[list[object]] = [
        ["id", "question", "answer", "fact"],
        ["q09", "How many Rivian shares?", "158 million shares", 158.0],
        ["q10", "Shares outstanding?", "10,317,750,796 shares", 10317750796],
    ]
    for r, cells in enumerate(rows):
        for c, value in enumerate(cells):
            sheet.write(r, c, value)
    path = tmp_path / "golden.xls"
    book.save(str(path))
    table = read_table(path)
    assert table.sheet == "Golden"
    assert table.header == ("id", "question", "answer", "fact")
    assert [cells[3] for cells in table.rows] == ["158", "10317750796"]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        # General as LibreOffice shows it in a wide column: scientific from 1E+15 and below 1E-09.
        (1e20, "1E+20"),
        (1 / 3, "0.333333333333333"),
        (1.5e-7, "0.00000015"),
        (1e-10, "1E-10"),
        (float("nan"), ""),
        (-0.0, "0"),
        (clock(13, 5), "13:05:00"),
        (timedelta(hours=26, minutes=3), "26:03:00"),
        (datetime(2023, 2, 22, 0, 0, 0, 500000), "2023-02-22 00:00:00.500"),
    ],
)
def test_cell_text_edge_values(value: object, text: str) -> None:
    assert cell_text(value) == text


def test_blank_leading_rows_and_columns_keep_excel_row_numbers(tmp_path: Path) -> None:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet["C4"], sheet["D4"] = "id", "question"
    sheet["C5"], sheet["D5"] = "q01", "Who?"
    sheet["C7"], sheet["D7"] = "q02", "What?"  # row 6 left blank
    path = tmp_path / "offset.xlsx"
    book.save(path)
    table = read_table(path)
    assert table.header == ("id", "question")
    assert table.header_row == 4
    assert table.rows == (("q01", "Who?"), ("q02", "What?"))
    assert table.row_numbers == (5, 7)


def test_unnamed_and_repeated_columns_are_reported(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "cols.xlsx",
        {
            "S": [
                ["id", "question", None, "answer", "Answer", None],
                ["q01", "Who?", "stray", "A", "B", None],
            ]
        },
    )
    table = read_table(path)
    # Names compare ignoring case: 'Answer' repeats 'answer', and the first filled one is used.
    assert table.header == ("id", "question", "answer")
    assert table.rows == (("q01", "Who?", "A"),)
    messages = {(p.severity, p.message, p.column) for p in table.problems}
    assert (Severity.WARNING, "column C has values but no header name; it is ignored.", None) in messages
    duplicate = [p for p in table.problems if "appears 2 times" in p.message]
    assert len(duplicate) == 1
    assert duplicate[0].severity == Severity.WARNING
    assert duplicate[0].column == "answer"
    assert "(columns D, E); column D is used and E ignored" in duplicate[0].message
    assert duplicate[0].sheet == "S"
    assert duplicate[0].row == 1


def test_sheets_are_listed_and_chosen_by_name(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "book.xlsx", {"First": [["a"], ["1"]], "Second": [["b"], ["2"]]})
    assert list_sheets(path) == ["First", "Second"]
    assert read_table(path).sheet == "First"
    assert read_table(path, sheet="Second").rows == (("2",),)
    assert read_table(path, sheet="second").sheet == "Second"  # case-insensitive when unambiguous
    with pytest.raises(InputError, match="no sheet named 'Third'; its sheets are: 'First', 'Second'"):
        read_table(path, sheet="Third")


def test_list_sheets_of_a_csv_is_empty(tmp_path: Path) -> None:
    assert list_sheets(write_csv(tmp_path / "a.csv", [["a"], ["1"]])) == []


def test_empty_sheet_and_header_only_sheet_are_fatal(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "book.xlsx", {"Empty": [], "Header": [["id", "question"]]})
    with pytest.raises(InputError) as empty:
        read_table(path, sheet="Empty")
    assert empty.value.problem.format() == (
        "book.xlsx, sheet 'Empty': fatal: sheet 'Empty' of book.xlsx is empty: it has no cells with a value."
    )
    with pytest.raises(InputError, match="has a header row \\(row 1\\) but no data rows"):
        read_table(path, sheet="Header")


SMART = "Caf\u00e9 \u201csmart quotes\u201d \u2013 na\u00efve"  # all in Windows-1252


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252", "utf-16"])
def test_csv_encodings(tmp_path: Path, encoding: str) -> None:
    path = write_csv(
        tmp_path / "golden.csv",
        [["id", "question"], ["q01", SMART]],
        encoding=encoding,
        delimiter="\t" if encoding == "utf-16" else ",",
    )
    table = read_table(path)
    assert table.header == ("id", "question")  # no BOM left in the first name
    assert table.rows == (("q01", SMART),)
    assert table.encoding == encoding
    notes = [p for p in table.problems if p.severity is Severity.INFO]
    assert bool(notes) == (encoding == "cp1252")
    if notes:
        assert "read as Windows-1252" in notes[0].message


@pytest.mark.parametrize(
    ("suffix", "delimiter"),
    [
        (".csv", ","),
        (".csv", ";"),
        (".csv", "\t"),
        (".tsv", "\t"),
        (".txt", "\t"),
        (".tsv", ","),
        (".txt", ";"),
    ],
)
def test_csv_delimiters_are_sniffed(tmp_path: Path, suffix: str, delimiter: str) -> None:
    rows = [
        ["id", "question", "answer"],
        ["q01", "Sales, in total?", "12,5 billion; roughly"],
        ["q02", "x", "y"],
    ]
    table = read_table(write_csv(tmp_path / f"golden{suffix}", rows, delimiter=delimiter))
    assert table.header == ("id", "question", "answer")
    assert table.rows == (tuple(rows[1]), tuple(rows[2]))
    assert table.delimiter == delimiter


def test_semicolon_file_with_decimal_commas() -> None:
    text = "id;value;note\nq01;12,5;a\nq02;3,75;b\nq03;1;c\n"
    assert sniff_delimiter(text) == ";"


def test_newlines_inside_quoted_cells_and_row_numbers(tmp_path: Path) -> None:
    data = (
        b"id,question,answer\r\n"
        b'q01,"Two\r\nlines","One ""quoted"" word"\r\n'
        b"\r\n"
        b'q02,Plain,"Three\nshort\nlines"\r\n'
    )
    path = tmp_path / "golden.csv"
    path.write_bytes(data)
    table = read_table(path)
    assert table.rows == (
        ("q01", "Two\r\nlines", 'One "quoted" word'),
        ("q02", "Plain", "Three\nshort\nlines"),
    )
    # Excel shows one row per record and counts the blank line: q02 is row 4.
    assert table.row_numbers == (2, 4)


def test_ragged_rows(tmp_path: Path) -> None:
    path = tmp_path / "golden.csv"
    path.write_text("id,question,answer\nq01,Who?\nq02,What?,It,,\nq03,Why,so,extra\n", encoding="utf-8")
    table = read_table(path)
    # Short rows are padded silently; empty extra cells trimmed silently; real extras drop the row.
    assert table.rows == (("q01", "Who?", ""), ("q02", "What?", "It"))
    [problem] = table.problems
    assert (problem.severity, problem.row, problem.sheet) == (Severity.ERROR, 4, None)
    assert problem.message.startswith("this row has 4 cells but the header has 3 columns")


def test_csv_text_is_kept_verbatim(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "golden.csv", [["id", "answer"], ["q01", "158.0"], ["q02", "nan"], ["q03", " NA "]]
    )
    assert [row[1] for row in read_table(path).rows] == ["158.0", "nan", " NA "]


def test_cells_up_to_excels_limit_are_read(tmp_path: Path) -> None:
    # A field holds what a spreadsheet cell can: 32,767 characters. Since issue 22 a longer one
    # is refused, naming its row and column (tests/io/test_hostile_inputs.py), where a 320,000
    # character field used to be read.
    big = ("passage " * 5_000)[:32_767]
    path = write_csv(tmp_path / "responses.csv", [["id", "contexts"], ["q01", big]])
    assert read_table(path).rows[0][1] == big
    path = write_csv(tmp_path / "longer.csv", [["id", "contexts"], ["q01", big + "s"]])
    with pytest.raises(InputError, match="row 2, column B, holds 32,768 characters"):
        read_table(path)


def test_column_letters() -> None:
    assert [column_letter(i) for i in (0, 25, 26, 27, 701, 702)] == ["A", "Z", "AA", "AB", "ZZ", "AAA"]


def test_hundred_thousand_rows_read_completely(tmp_path: Path) -> None:
    # Correctness at scale only: speed is measured by benchmarks, never by timed unit tests.
    rows = [["id", "question", "answer", "fact"]]
    rows += [[f"q{i}", f"What is item {i}?", f"Item {i} is a thing.", f"{i}"] for i in range(100_000)]
    csv_path = write_csv(tmp_path / "big.csv", rows)
    xlsx_path = tmp_path / "big.xlsx"
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Golden")
    for number, row in enumerate(rows):
        sheet.append([row[0], number * 1.5])  # two columns: writing with openpyxl is the slow part
    book.save(xlsx_path)
    expected = {
        csv_path: ("q99999", "What is item 99999?", "Item 99999 is a thing.", "99999"),
        xlsx_path: ("q99999", "150000"),
    }
    for path, last in expected.items():
        table = read_table(path)
        assert len(table.rows) == 100_000
        assert table.rows[-1] == last


def test_a_header_wider_than_a_spreadsheet_is_refused_naming_the_file_and_row(tmp_path: Path) -> None:
    """A one-line file of 25 million delimiters took two minutes and 6 GB before it said "no data
    rows". A header of more columns than Excel's 16,384 is refused with its count and row."""
    path = tmp_path / "one-line.csv"
    path.write_text("id,question,answer,fact" + ",x" * 20_000 + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_table(path)
    problem = caught.value.problem
    assert (problem.file, problem.row) == ("one-line.csv", 1)
    assert "the header row has 20,004 columns, more than a spreadsheet holds (16,384, up to column XFD)" in (
        problem.message
    )


def test_thousands_of_columns_are_read_and_a_repeated_name_is_one_short_warning(tmp_path: Path) -> None:
    """16,384 columns (a spreadsheet's widest): each read in place, and a name repeated 10,000
    times is one warning listing eight columns and how many more (it listed all of them, and the
    lookups searched the header for each column: 40,000 columns took 23 s)."""
    names = ["id", "question", *(f"c{n}" for n in range(6_382)), *(["x"] * 10_000)]
    assert len(names) == 16_384
    path = write_csv(tmp_path / "wide.csv", [names, ["q1", "Who?", *(str(n) for n in range(16_382))]])
    table = read_table(path)
    assert table.header == ("id", "question", *(f"c{n}" for n in range(6_382)), "x")
    assert table.rows == (("q1", "Who?", *(str(n) for n in range(6_382)), "6382"),)
    assert table.values("c6381") == ["6381"]
    (repeated,) = [p for p in table.problems if "appears" in p.message]
    first = [column_letter(j) for j in range(6_384, 6_392)]
    assert repeated.message == (
        f"column name 'x' appears 10,000 times (columns {', '.join(first)} and 9,992 more); column "
        f"{first[0]} is used and {', '.join(first[1:])}, {column_letter(6_392)} and 9,991 more ignored. "
        "Rename the columns so each name is unique."
    )


def test_an_empty_duplicate_column_never_hides_a_filled_one(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "dup.xlsx",
        {
            "S": [
                ["id", "question", "answer", "Answer"],
                ["q01", "Who?", None, "Ada"],
                ["q02", "What?", None, "X"],
            ]
        },
    )
    table = read_table(path)
    assert table.header == ("id", "question", "Answer")
    assert table.values("Answer") == ["Ada", "X"]
    (duplicate,) = [p for p in table.problems if "appears 2 times" in p.message]
    assert "column D is used (the others are empty) and C ignored" in duplicate.message

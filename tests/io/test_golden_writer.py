"""Golden-set workbook: exact round trips through openpyxl and calamine, and refusals that touch nothing."""

from __future__ import annotations

import math
import re
import zipfile
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from openpyxl.utils.escape import unescape

from goldenlens.core.golden.versions import ChangeLogRow
from goldenlens.core.inputs import GoldenItem
from goldenlens.io.reports.xlsx.golden_workbook import (
    CHANGE_LOG_COLUMNS,
    CHANGE_LOG_SHEET,
    GOLDEN_COLUMNS,
    GOLDEN_SHEET,
    REVIEW_COLUMNS,
    ExportError,
    write_golden_workbook,
)

# Values that spreadsheet code classically mangles: formulas, numbers, whitespace, unicode.
TRICKY: list[str] = [
    "=SUM(A1)",
    "=1+1",
    "+1",
    "-x",
    "-",
    "@user",
    "line1\nline2",
    "  padded  ",
    "\ttab first",
    "trailing newline\n",
    " ",  # whitespace only: needs xml:space="preserve", which openpyxl alone omits
    "\n",
    " \t\n ",
    "😀 café",
    "e\u0301 combining accent, \u00a0nbsp, \u2028 line separator",
    "0012",
    "1e5",
    "158",
    "3.14",
    "10,317,750,796",
    "TRUE",
    "2023-07-21",
    "'quoted",
    "#DIV/0!",
    "134.4 billion<OR>134,383 million",
    "x" * 32_767,  # exactly Excel's limit: allowed
    "🙂" * 16_383,  # 32,766 UTF-16 units: allowed
]


def _items(values: list[str]) -> list[GoldenItem]:
    # Each value goes in every text column, so every column's round trip is tested.
    return [GoldenItem(f"case{i:02d}", v, v, v, notes=v) for i, v in enumerate(values)]


def _calamine_rows(path: Path) -> list[list[object]]:
    frame = pd.read_excel(path, engine="calamine", dtype=object, header=None)
    return [[None if isinstance(v, float) and math.isnan(v) else v for v in row] for row in frame.to_numpy()]


def _openpyxl_rows(path: Path) -> list[list[object]]:
    ws = openpyxl.load_workbook(path)[GOLDEN_SHEET]
    return [list(row) for row in ws.iter_rows(values_only=True)]


def _sheet_xml(path: Path) -> str:
    with zipfile.ZipFile(path) as archive:
        return archive.read("xl/worksheets/sheet1.xml").decode("utf-8")


@pytest.fixture(scope="module")
def tricky_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("golden") / "tricky.xlsx"
    write_golden_workbook(_items(TRICKY), path)
    return path


@pytest.mark.parametrize("index", range(len(TRICKY)), ids=lambda i: repr(TRICKY[i][:20]))
def test_round_trip_openpyxl(tricky_book: Path, index: int) -> None:
    row = _openpyxl_rows(tricky_book)[index + 1]
    assert row == [f"case{index:02d}", *[TRICKY[index]] * 4]


@pytest.mark.parametrize("index", range(len(TRICKY)), ids=lambda i: repr(TRICKY[i][:20]))
def test_round_trip_calamine(tricky_book: Path, index: int) -> None:
    row = _calamine_rows(tricky_book)[index + 1]
    assert row == [f"case{index:02d}", *[TRICKY[index]] * 4]
    assert all(type(v) is str for v in row)


def test_no_formula_and_no_number_is_written(tricky_book: Path) -> None:
    xml = _sheet_xml(tricky_book)
    assert "<f>" not in xml
    assert "<f " not in xml
    # Every cell is a string: nothing was typed as a number, boolean or date.
    assert "<v>" not in xml
    assert 't="inlineStr"' in xml


def test_whitespace_is_marked_preserve(tricky_book: Path) -> None:
    # Excel and calamine drop the text of a <t> that starts or ends with whitespace unless it
    # says xml:space="preserve"; every such <t> must say so.
    xml = _sheet_xml(tricky_book)
    bare = re.findall(r"<t>(\s[^<]*|[^<]*\s)</t>", xml)
    assert bare == []


def test_layout(tmp_path: Path) -> None:
    path = tmp_path / "golden.xlsx"
    write_golden_workbook(_items(["a", "b", "c"]), path)
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == [GOLDEN_SHEET]
    ws = wb[GOLDEN_SHEET]
    assert [c.value for c in ws[1]] == list(GOLDEN_COLUMNS)
    assert all(c.font.b for c in ws[1])
    assert ws.freeze_panes == "B2"
    assert ws.auto_filter.ref == "A1:E4"
    assert ws.column_dimensions["C"].width == 60
    assert ws["C2"].alignment.wrap_text


def test_ids_that_look_like_numbers_stay_text(tmp_path: Path) -> None:
    path = tmp_path / "ids.xlsx"
    write_golden_workbook([GoldenItem("0012", "q", "a", "f"), GoldenItem("1e5", "q", "a", "f")], path)
    assert [r[0] for r in _calamine_rows(path)[1:]] == ["0012", "1e5"]
    assert [r[0] for r in _openpyxl_rows(path)[1:]] == ["0012", "1e5"]


def test_review_columns(tmp_path: Path) -> None:
    path = tmp_path / "review.xlsx"
    items = _items(["a", "b"])
    review = {"case00": ("approved", "=looks right"), "unknown": ("rejected", "ignored")}
    write_golden_workbook(items, path, review=review)
    rows = _openpyxl_rows(path)
    assert rows[0] == list(GOLDEN_COLUMNS + REVIEW_COLUMNS)
    assert rows[1][5:] == ["approved", "=looks right"]
    assert rows[2][5:] == [None, None]
    assert openpyxl.load_workbook(path)[GOLDEN_SHEET].auto_filter.ref == "A1:G3"


def test_empty_golden_set_writes_a_header(tmp_path: Path) -> None:
    path = tmp_path / "empty.xlsx"
    write_golden_workbook([], path)
    assert _openpyxl_rows(path) == [list(GOLDEN_COLUMNS)]


# CR and literal "_xHHHH_" need OOXML escaping; Excel and calamine decode it, openpyxl leaves it
# to the caller (openpyxl.utils.escape.unescape inverts it exactly).
ESCAPED: list[str] = ["a\r\nb", "\r", "_x0041_", "_x005F_", "x_x000D_y", "__x1234_", "_X0041_ stays"]


@pytest.mark.parametrize("value", ESCAPED)
def test_escaped_round_trip(tmp_path: Path, value: str) -> None:
    path = tmp_path / "escaped.xlsx"
    write_golden_workbook([GoldenItem("q1", value, "a", "f")], path)
    assert _calamine_rows(path)[1][1] == value
    stored = _openpyxl_rows(path)[1][1]
    assert isinstance(stored, str)
    assert unescape(stored) == value


def _existing(tmp_path: Path) -> Path:
    path = tmp_path / "golden.xlsx"
    path.write_bytes(b"the analyst's previous export")
    return path


def test_too_long_cell_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    path = _existing(tmp_path)
    items = [GoldenItem("q01", "q", "a", "f"), GoldenItem("q02", "q", "x" * 32_768, "f")]
    with pytest.raises(ExportError) as caught:
        write_golden_workbook(items, path)
    message = str(caught.value)
    assert "row 3" in message
    assert "id 'q02'" in message
    assert "column 'answer' (C)" in message
    assert "32,768" in message
    assert (caught.value.sheet, caught.value.row, caught.value.column, caught.value.item_id) == (
        GOLDEN_SHEET,
        3,
        "answer",
        "q02",
    )
    assert path.read_bytes() == b"the analyst's previous export"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["golden.xlsx"]


def test_too_long_cell_does_not_create_the_file(tmp_path: Path) -> None:
    path = tmp_path / "new.xlsx"
    with pytest.raises(ExportError):
        write_golden_workbook([GoldenItem("q01", "q", "a", "f", notes="n" * 40_000)], path)
    assert list(tmp_path.iterdir()) == []


def test_length_counts_utf16_units_like_excel(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="32,768 characters"):
        write_golden_workbook([GoldenItem("q01", "😀" * 16_384, "a", "f")], tmp_path / "g.xlsx")


def test_escaping_that_would_overflow_is_refused(tmp_path: Path) -> None:
    # 25,000 characters, but each CR is stored as "_x000D_": more than a cell holds once escaped.
    with pytest.raises(ExportError, match="carriage returns"):
        write_golden_workbook([GoldenItem("q01", "q", "\r" * 5_000 + "x" * 20_000, "f")], tmp_path / "g.xlsx")


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("nul\x00here", "U+0000"),
        ("bell\x07", "U+0007"),
        ("\x1b[31mred", "U+001B"),
        ("form\x0cfeed", "U+000C"),
        ("bad \ufffe", "U+FFFE"),
        ("lone \ud800 surrogate", "U+D800"),
    ],
)
def test_illegal_character_is_refused(tmp_path: Path, value: str, code: str) -> None:
    path = _existing(tmp_path)
    items = [GoldenItem("q01", "q", "a", "f"), GoldenItem("q02", "q", "a", value)]
    with pytest.raises(ExportError) as caught:
        write_golden_workbook(items, path)
    message = str(caught.value)
    assert code in message
    assert "row 3" in message
    assert "id 'q02'" in message
    assert "column 'fact' (D)" in message
    assert path.read_bytes() == b"the analyst's previous export"


def test_missing_folder_is_an_export_error(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="does not exist"):
        write_golden_workbook(_items(["a"]), tmp_path / "nowhere" / "g.xlsx")


def test_overwrites_an_existing_workbook_whole(tmp_path: Path) -> None:
    path = _existing(tmp_path)
    write_golden_workbook(_items(["new"]), path)
    assert _openpyxl_rows(path)[1][1] == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["golden.xlsx"]


# -- the change-log sheet ------------------------------------------------------------------

_LOG = [
    ChangeLogRow(
        'v1 "as imported"', "2026-12-01 09:00 UTC", "import golden.xlsx", "", "set created", "", "2 rows"
    ),
    ChangeLogRow("v2", "2026-12-01 10:08 UTC", "Ana", "case01", "fact", "=old", "new\nline"),
]


def test_change_log_sheet_follows_the_golden_set(tmp_path: Path) -> None:
    path = tmp_path / "golden.xlsx"
    write_golden_workbook(_items(["a", "b"]), path, change_log=_LOG)
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == [GOLDEN_SHEET, CHANGE_LOG_SHEET]
    log = wb[CHANGE_LOG_SHEET]
    rows = [[c.value for c in row] for row in log.iter_rows()]
    assert rows == [
        list(CHANGE_LOG_COLUMNS),
        [
            'v1 "as imported"',
            "2026-12-01 09:00 UTC",
            "import golden.xlsx",
            None,
            "set created",
            None,
            "2 rows",
        ],
        ["v2", "2026-12-01 10:08 UTC", "Ana", "case01", "fact", "=old", "new\nline"],
    ]
    assert log["F3"].data_type == "s"  # "=old" stays text, never a formula
    assert log.page_setup.orientation == "landscape"
    assert log.page_setup.fitToWidth == 1
    assert log.print_title_rows == "$1:$1"
    assert log.auto_filter.ref == "A1:G3"
    # The golden set still reads back first and unchanged: the log does not get in the way.
    assert _calamine_rows(path)[1][0] == "case00"


def test_a_change_log_cell_that_cannot_be_stored_names_its_sheet_row_and_column(tmp_path: Path) -> None:
    path = _existing(tmp_path)
    bad = [*_LOG, ChangeLogRow("v3", "when", "Ana", "case01", "answer", "x" * 32_768, "")]
    with pytest.raises(ExportError) as caught:
        write_golden_workbook(_items(["a"]), path, change_log=bad)
    assert (caught.value.sheet, caught.value.row, caught.value.column, caught.value.item_id) == (
        CHANGE_LOG_SHEET,
        4,
        "before",
        "case01",
    )
    assert path.read_bytes() == b"the analyst's previous export"

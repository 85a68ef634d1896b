"""Number formats rendered as a spreadsheet program shows them.

The expected displays in ``number_formats/expected.csv`` were produced by LibreOffice Calc
(``make_expected.py``: the cells saved as CSV "as shown"), not by GoldenLens. The same cells
are read back from an .xlsx written by openpyxl and from the .ods and .xls files LibreOffice
saved, through the import path an analyst uses.
"""

from __future__ import annotations

import ast
import csv
from pathlib import Path

import pytest

from goldenlens.io.sheets.number_format.codes import UnsupportedFormatError
from goldenlens.io.sheets.number_format.display import format_number, format_text
from goldenlens.io.sheets.spreadsheet_reader import read_table

HERE = Path(__file__).resolve().parent / "number_formats"

# LibreOffice does not reproduce Excel's fictitious 29 February 1900: its serials 1-60 are one
# day earlier than Excel's. Excel's own displays for them (Microsoft: "1 is January 1, 1900").
EXCEL_ONLY = {("1", "yyyy-mm-dd"): "1900-01-01", ("59", "yyyy-mm-dd"): "1900-02-28"}


def _expected() -> list[tuple[object, str, str]]:
    with (HERE / "expected.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    cases = []
    for row in rows:
        display = EXCEL_ONLY.get((row["value"], row["format"]), row["display"])
        cases.append((ast.literal_eval(row["value"]), row["format"], display))
    return cases


CASES = _expected()


def test_the_table_is_large_and_covers_every_kind_of_format() -> None:
    assert len(CASES) >= 25
    codes = " ".join(code for _, code, _ in CASES)
    for needle in ("%", "#,##0", "$", "E+", "?/?", "yyyy", "AM/PM", "[h]", "@", ";", "[>="):
        assert needle in codes


@pytest.mark.parametrize(("value", "code", "display"), CASES, ids=[f"{v!r}|{c}" for v, c, _ in CASES])
def test_format_matches_the_spreadsheet_display(value: object, code: str, display: str) -> None:
    if isinstance(value, str):
        assert format_text(value, code) == display
    else:
        assert isinstance(value, int | float)
        assert format_number(float(value), code) == display


def _column_texts(path: Path) -> list[str]:
    table = read_table(path)
    assert table.header == ("value",)
    return [cells[0] for cells in table.rows]


@pytest.mark.parametrize("name", ["cases.xlsx", "cases.ods", "cases.xls"])
def test_imported_cells_read_as_displayed(name: str) -> None:
    texts = _column_texts(HERE / name)
    # Blank displays (none today) would be dropped as blank rows; the table has none.
    expected = [display for _, _, display in CASES]
    if name == "cases.ods":
        # An .ods file stores the display LibreOffice computed, 1900 dates included.
        expected = _raw_displays()
    assert texts == expected


def _raw_displays() -> list[str]:
    with (HERE / "expected.csv").open(encoding="utf-8", newline="") as handle:
        return [row["display"] for row in csv.DictReader(handle)]


def test_formats_that_cannot_be_shown_faithfully_are_refused() -> None:
    with pytest.raises(UnsupportedFormatError):
        format_number(3.0, "[DBNum1]0")
    with pytest.raises(UnsupportedFormatError):
        format_number(-1.0, "yyyy-mm-dd")  # Excel shows ######
    with pytest.raises(UnsupportedFormatError):
        format_number(60.0, "yyyy-mm-dd")  # 29 February 1900 never existed

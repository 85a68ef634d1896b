"""The cells searched for mojibake and invisible characters are found, in row order per column,
whichever cells are ASCII (skipped unsearched) and whatever their neighbours hold."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from goldenlens.io.sheets.raw_table import RawTable
from goldenlens.io.sheets.suspect_text import _is_suspect, _suspect_cells

#: ASCII, legitimate accents, mojibake pairs (also split over two pieces), a zero-width space.
_PIECES = [
    "plain",
    "caf\u00e9",
    "na\u00c3\u00afve",
    "\u00c3",
    "\u00a9",
    "x\u200by",
    "\u2019",
    " ",
    "",
    "\u00f4\u20ac",
]
_CELLS = st.lists(st.sampled_from(_PIECES), max_size=3).map("".join)


@given(st.lists(st.tuples(_CELLS, _CELLS), max_size=10), st.sampled_from(["text", "t\u200bext"]))
def test_every_suspect_cell_is_found_in_row_order_per_column(rows: list[tuple[str, str]], name: str) -> None:
    header = ("id", name)
    numbers = tuple(range(2, len(rows) + 2))
    table = RawTable("t.csv", None, header, tuple(rows), numbers)
    expected = [(1, column, column) for column in header if _is_suspect(column)]
    expected += [
        (number, column, row[position])
        for position, column in enumerate(header)
        for number, row in zip(numbers, rows, strict=True)
        if _is_suspect(row[position])
    ]
    assert list(_suspect_cells(table)) == expected

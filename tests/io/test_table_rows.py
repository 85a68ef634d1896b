"""A table keeps exactly the rows that hold a non-blank cell, with their numbers, whether the
quick check (a non-blank first cell in every row) settles it or each row's cells are joined."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from goldenlens.io.sheets.raw_table import build_table

_CELLS = st.sampled_from(["", " ", "\t", "\xa0", "\u3000", "x", " y ", "0", "\u200b"])


@given(st.lists(st.lists(_CELLS, min_size=0, max_size=4), max_size=12), st.booleans())
def test_the_rows_kept_are_those_with_a_non_blank_cell(body: list[list[str]], drop_column: bool) -> None:
    header = ["id", "question", "answer", "" if drop_column else "fact"]
    grid = [header, *body]
    table = build_table("t.csv", None, grid)
    width = len(header)
    expected = []
    for number, row in enumerate(body, start=2):
        cells = [*row, *([""] * (width - len(row)))][:width]
        kept = cells[:3] if drop_column else cells
        if len(row) > width and "".join(row[width:]).strip():
            continue  # a ragged row: skipped and reported
        if "".join(kept).strip():
            expected.append((tuple(kept), number))
    assert list(zip(table.rows, table.row_numbers, strict=True)) == expected
    assert all(type(row) is tuple for row in table.rows)

"""Merged cells of a workbook sheet: a range whose first cell holds the text and shows it across
the range, while the file stores the other cells empty.

A responses sheet with each question's id merged down over its pipelines' rows, or a golden
set with a category merged over its questions, reads to the eye as that text on every row of
the range. Read cell by cell, every row but the first would have no id and be skipped. So a
range that spans rows gives each cell of its first column the first cell's text — what the
analyst sees — and each such cell gets a note naming the range, so the reading is never a
silent guess. A range within one row (a title across the columns) is left as the file stores
it: its text belongs to its first column.

The ranges come from each format's own record of them: the ``<mergeCell ref="A2:A4"/>``
elements of an .xlsx/.xlsm sheet (:func:`xlsx_merged_ranges`), xlrd's ``merged_cells`` of an
.xls sheet, and the ``table:number-rows-spanned`` cells of an .ods table. An .xlsb sheet's are
not read: its merged rows read as stored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from goldenlens.io.sheets.sheet_facts import cell_name, column_index


@dataclass(frozen=True)
class MergedRange:
    """A merged range by 0-based grid positions, corners included."""

    first_row: int
    first_col: int
    last_row: int
    last_col: int

    @property
    def name(self) -> str:
        """``A2:A4``, as Excel names the range."""
        return f"{cell_name(self.first_row, self.first_col)}:{cell_name(self.last_row, self.last_col)}"


#: A ``mergeCell`` element's range, with any namespace prefix: ``ref="A2:B4"`` (a single cell
#: ``ref="A2"`` merges nothing).
_MERGE = re.compile(
    rb'<(?:[\w.-]+:)?mergeCell\s[^>]*?\bref="([A-Z]{1,3})([0-9]{1,7}):([A-Z]{1,3})([0-9]{1,7})"'
)


def xlsx_merged_ranges(sheet_xml: bytes) -> list[MergedRange]:
    """The merged ranges a worksheet part lists, in file order (none when it lists none)."""
    if b"mergeCell" not in sheet_xml:
        return []
    found: list[MergedRange] = []
    for match in _MERGE.finditer(sheet_xml):
        first_col, first_row, last_col, last_row = match.groups()
        rows = sorted((int(first_row) - 1, int(last_row) - 1))
        cols = sorted((column_index(first_col), column_index(last_col)))
        found.append(MergedRange(rows[0], cols[0], rows[1], cols[1]))
    return found


def fill_merged(columns: list[list[str]], ranges: Sequence[MergedRange]) -> list[tuple[int, int, str]]:
    """Give each empty cell below the first in the first column of a range spanning rows the
    first cell's text, in place (``columns`` is column-major display text); ``(row, col,
    note)`` of each cell filled, in row order. A range whose first cell is empty fills nothing."""
    notes: list[tuple[int, int, str]] = []
    for merged in ranges:
        col = merged.first_col
        if merged.last_row == merged.first_row or col >= len(columns):
            continue
        column = columns[col]
        if merged.first_row >= len(column):
            continue
        text = column[merged.first_row]
        if not text:
            continue
        for row in range(merged.first_row + 1, min(merged.last_row, len(column) - 1) + 1):
            if column[row]:
                continue  # a value the file keeps under the merge: as it is
            column[row] = text
            notes.append(
                (
                    row,
                    col,
                    f"cell {cell_name(row, col)} is part of the merged range {merged.name}: it reads "
                    f"{_shown(text)}, the text the merged cell shows on every row of the range.",
                )
            )
    return sorted(notes)


def _shown(text: str, limit: int = 60) -> str:
    """The text quoted for a note, cut to ``limit`` characters."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")

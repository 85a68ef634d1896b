"""Rows as tall as their wrapped text, so a printed or PDF sheet never draws a cell's lines
over the row below.

Spreadsheet programs do not grow a row for wrapped text that a file gives a height (or no
height) to: LibreOffice draws the extra lines over the next rows, and a PDF of the workbook is
unreadable. A write-only sheet must give a row its height before the row is appended, so
:func:`append_fitted` estimates it then, from the cells themselves: each wrapped cell's text,
its font size and boldness, and the width of its column (of its merged span, for a merged
cell), wrapped at spaces line by line as the programs wrap.

Widths are measured in the unit column widths are given in, the width of the digit "0":
each character counts its advance in DejaVu Sans (the font LibreOffice falls back on when
Calibri is missing, and wider than Calibri), so the estimate errs on the tall side — a row a
little too tall prints whole, one too short does not.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from openpyxl.cell.cell import Cell
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.io.reports.xlsx.cells import RowRef, text_cell
from goldenlens.io.reports.xlsx.style import CellStyle, SheetParts, parts

#: Points per line of 11-point text (a little over the line spacing of Calibri and DejaVu Sans).
LINE_HEIGHT: Final = 15.0
#: The tallest row a spreadsheet allows, in points.
MAX_ROW_HEIGHT: Final = 409.0
#: The width Excel gives a column nobody sized.
DEFAULT_COLUMN_WIDTH: Final = 8.43
_DEFAULT_SIZE: Final = 11.0
#: A cell's inner margins, in digit widths.
_PADDING: Final = 0.6
#: Bold text is wider (DejaVu Serif Bold, LibreOffice's fallback for a font given no name).
_BOLD: Final = 1.12

# Advance widths in DejaVu Sans, relative to its digits (1303 of 2048 font units).
_NARROW = dict.fromkeys(" ,.:;'|!iIjl", 0.5)
_NARROW |= dict.fromkeys('ft()[]{}-/\\"r', 0.66)
_WIDE = dict.fromkeys("mwMW%@&", 1.55)
_UPPER = dict.fromkeys("ABCDEFGHJKLNOPQRSTUVXYZ", 1.17)
_WIDTHS: Final = {**_UPPER, **_WIDE, **_NARROW}
_WIDEST: Final = 2.0


def _char_width(char: str) -> float:
    found = _WIDTHS.get(char)
    if found is not None:
        return found
    if char.isascii():
        return 1.0
    return 2.0 if unicodedata.east_asian_width(char) in ("W", "F") else 1.2


@lru_cache(maxsize=65_536)
def _word_width(word: str) -> float:
    return sum(_char_width(char) for char in word)


def _paragraph_lines(paragraph: str, room: float) -> int:
    """Lines of one paragraph in a line ``room`` digit widths wide: words move to the next line
    whole; a word longer than a line is broken across lines."""
    if len(paragraph) * _WIDEST <= room:  # even the widest characters fit: one line
        return 1
    space = _WIDTHS[" "]
    lines, used = 1, 0.0
    for word in paragraph.split(" "):
        width = _word_width(word)
        needed = width if used == 0 else used + space + width
        if needed <= room:
            used = needed
            continue
        if used > 0:  # the word starts the next line
            lines += 1
        spill = math.ceil(width / room) - 1  # the lines a too-long word fills before its last
        lines += spill
        used = width - spill * room
    return lines


def wrapped_lines(text: str, width: float, *, size: float = _DEFAULT_SIZE, bold: bool = False) -> int:
    """How many lines ``text`` takes wrapped in a column ``width`` characters wide (a column
    width as Excel gives it), in a ``size``-point font."""
    scale = size / _DEFAULT_SIZE * (_BOLD if bold else 1.0)
    room = max(1.0, (width - _PADDING) / scale)
    return sum(_paragraph_lines(paragraph, room) for paragraph in text.split("\n"))


def lines_height(lines: int, size: float = _DEFAULT_SIZE) -> float:
    """Points for ``lines`` lines of ``size``-point text (capped at the tallest row)."""
    return min(MAX_ROW_HEIGHT, LINE_HEIGHT * size / _DEFAULT_SIZE * lines)


def column_width(sheet: SheetParts, col: int) -> float:
    """The width a column was given (Excel's default when none)."""
    found = sheet.column_dimensions.get(get_column_letter(col))
    return float(found.width) if found is not None and found.width else DEFAULT_COLUMN_WIDTH


def cell_text(cell: Cell) -> str:
    """A text cell's text (rich text joined); ``""`` for a number or a blank."""
    value = cell.value
    if isinstance(value, CellRichText):
        return "".join(piece.text if isinstance(piece, TextBlock) else str(piece) for piece in value)
    return value if isinstance(value, str) else ""


def needed_height(ws: WriteOnlyWorksheet, row: int, cells: Sequence[Cell | None]) -> float:
    """The height row ``row`` of ``cells`` needs for its wrapped cells (0: one line will do)."""
    sheet = parts(ws)
    spans = {r.min_col: r.max_col for r in sheet.merged_cells.ranges if r.min_row <= row <= r.max_row}
    height = 0.0
    for col, cell in enumerate(cells, start=1):
        if cell is None or not cell.alignment.wrap_text:
            continue
        text = cell_text(cell)
        if not text:
            continue
        width = sum(column_width(sheet, c) for c in range(col, spans.get(col, col) + 1))
        size = float(cell.font.sz or _DEFAULT_SIZE)
        lines = wrapped_lines(text, width, size=size, bold=bool(cell.font.b))
        if lines > 1 or size > _DEFAULT_SIZE:
            height = max(height, lines_height(lines, size))
    return height


def append_fitted(ws: WriteOnlyWorksheet, row: int, cells: Sequence[Cell | None]) -> None:
    """Append ``cells`` as row ``row`` (as Excel numbers it), the row made as tall as its
    wrapped cells need (never shorter than a height it was given)."""
    height = needed_height(ws, row, cells)
    if height:
        dims = parts(ws).row_dimensions
        given = dims[row].height if row in dims else None
        dims[row].height = max(height, given or 0.0)
    ws.append(list(cells))


def append_across(
    ws: WriteOnlyWorksheet, where: RowRef, text: str, style: CellStyle, *, last_col: int
) -> None:
    """Append ``text`` as row ``where.row`` in one cell merged from column A to ``last_col``
    (``style`` should wrap), the row as tall as the wrapped text needs: a line across a table
    that neither runs off the printed page nor over the row below."""
    parts(ws).merged_cells.add(f"A{where.row}:{get_column_letter(last_col)}{where.row}")
    append_fitted(ws, where.row, [text_cell(ws, text, where, 1, style)])

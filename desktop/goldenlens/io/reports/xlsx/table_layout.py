"""A table sheet of the report workbook laid out the one way they all are: column widths, the
header row frozen (with the key columns left of it), an auto-filter over the header and the
data rows, and the header row itself, bold, wrapped and as tall as its names need."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.io.reports.xlsx.cells import RowRef, text_cell
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import HEADER, SheetParts, area, parts, set_widths

#: The columns a sheet with one row per (question, pipeline) starts with.
ROW_KEY_COLUMNS: tuple[str, ...] = ("question_id", "question", "pipeline")


def lay_out_table(
    ws: WriteOnlyWorksheet,
    headers: Sequence[str],
    *,
    rows: int,
    widths: Mapping[int, float],
    freeze: str = "A2",
    header_height: float | None = None,
) -> SheetParts:
    """Lay out a table sheet before its first row is appended (a write-only sheet needs it
    then): column ``widths``, the panes frozen at ``freeze``, the header row's height (a tall
    wrapped header keeps long names in narrow columns) and an auto-filter over the header and
    ``rows`` data rows. Returns the sheet's parts, for its conditional formats."""
    set_widths(ws, widths)
    ws.freeze_panes = freeze
    sheet = parts(ws)
    if header_height is not None:
        sheet.row_dimensions[1].height = header_height
    sheet.auto_filter.ref = area(1, 1, len(headers), rows + 1)
    return sheet


def append_header(ws: WriteOnlyWorksheet, sheet: str, headers: Sequence[str], row: int = 1) -> None:
    """Append the header row of ``headers`` (``row`` as Excel numbers it, which the cells'
    messages name), bold and wrapped, the row as tall as its longest name needs in its column."""
    where = RowRef(sheet, row, headers)
    append_fitted(
        ws, row, [text_cell(ws, name, where, col, HEADER) for col, name in enumerate(headers, start=1)]
    )

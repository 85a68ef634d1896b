"""Looks shared by every GoldenLens workbook: colours, cell styles, headers, conditional formats.

Colours carry meaning across the app (green = matched / good, red = missed / bad, orange =
extra), so they are defined once here and the exported workbooks read like the UI.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import copy
from dataclasses import dataclass
from typing import Protocol, cast

from openpyxl.cell.cell import Cell
from openpyxl.chart._chart import ChartBase
from openpyxl.formatting.formatting import ConditionalFormattingList
from openpyxl.formatting.rule import ColorScale, FormatObject, Rule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.colors import Color
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.cell_range import MultiCellRange
from openpyxl.worksheet.datavalidation import DataValidationList
from openpyxl.worksheet.dimensions import ColumnDimension, DimensionHolder, RowDimension
from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.header_footer import HeaderFooterItem
from openpyxl.worksheet.page import PageMargins, PrintPageSetup
from openpyxl.worksheet.properties import PageSetupProperties, WorksheetProperties

from goldenlens.core.view.score_colours import SCORE_STOPS, STOP_SCORES


def argb(rgb: tuple[int, int, int]) -> str:
    """An opaque colour as openpyxl takes it: ``(248, 105, 107)`` → ``FFF8696B``."""
    return "FF" + "".join(f"{channel:02X}" for channel in rgb)


# ARGB. The score scale's stops are the grid's (Excel's own red/yellow/green, which analysts
# recognise), so a colour means the same number in the app and in the workbook.
RED, YELLOW, GREEN = (argb(stop) for stop in SCORE_STOPS)
LIGHT_RED = "FFFFC7CE"
LIGHT_GREEN = "FFC6EFCE"
HEADER_FILL = "FFDDE4EE"
# Text colours for word highlighting: darker than the fills so words stay readable on white.
MATCHED_TEXT = "FF1E7B34"
EXTRA_TEXT = "FFC55A11"
MISSED_TEXT = "FFC00000"


@dataclass(frozen=True)
class CellStyle:
    """A reusable cell look; ``None`` parts keep openpyxl's default."""

    font: Font | None = None
    fill: PatternFill | None = None
    alignment: Alignment | None = None
    number_format: str | None = None

    def apply(self, cell: Cell) -> None:
        """Give ``cell`` this look (each part registers once in the workbook's style table)."""
        if self.font is not None:
            cell.font = self.font
        if self.fill is not None:
            cell.fill = self.fill
        if self.alignment is not None:
            cell.alignment = self.alignment
        if self.number_format is not None:
            cell.number_format = self.number_format


def solid(argb: str) -> PatternFill:
    """A solid fill; both colours set, since conditional formats read the background one."""
    return PatternFill(fill_type="solid", start_color=argb, end_color=argb)


HEADER = CellStyle(
    font=Font(bold=True),
    fill=solid(HEADER_FILL),
    alignment=Alignment(wrap_text=True, vertical="center"),
)
TITLE = CellStyle(font=Font(bold=True, size=14))
BOLD = CellStyle(font=Font(bold=True))
WRAP = CellStyle(alignment=Alignment(wrap_text=True, vertical="top"))
BOLD_WRAP = CellStyle(font=Font(bold=True), alignment=WRAP.alignment)
TOP = CellStyle(alignment=Alignment(vertical="top"))
SCORE = CellStyle(number_format="0.000")
BOLD_SCORE = CellStyle(font=Font(bold=True), number_format="0.000")
NOTE = CellStyle(font=Font(italic=True, color="FF595959"))
#: A note that wraps in its column (or merged span), its row as tall as it needs.
WRAPPED_NOTE = CellStyle(font=NOTE.font, alignment=Alignment(wrap_text=True, vertical="top"))


class SheetParts(Protocol):
    """What every write-only sheet has (``Worksheet._setup``, ``add_chart``) but the stubs omit or mistype."""

    column_dimensions: DimensionHolder[str, ColumnDimension]
    row_dimensions: DimensionHolder[int, RowDimension]
    conditional_formatting: ConditionalFormattingList
    auto_filter: AutoFilter
    sheet_properties: WorksheetProperties
    page_setup: PrintPageSetup
    page_margins: PageMargins
    oddFooter: HeaderFooterItem  # noqa: N815 - openpyxl's name
    merged_cells: MultiCellRange
    data_validations: DataValidationList

    def add_chart(self, chart: ChartBase, anchor: str | None = None) -> None: ...


def parts(ws: WriteOnlyWorksheet) -> SheetParts:
    """The typed view of a write-only sheet's dimensions, conditional formats, filter and charts."""
    return cast(SheetParts, ws)


#: Print margins in inches: narrow enough for wide tables, wide enough for any printer.
PRINT_MARGINS = PageMargins(left=0.5, right=0.5, top=0.6, bottom=0.7, header=0.3, footer=0.3)
#: Footer on every printed page: the sheet's name left, "Page 2 of 5" centred.
FOOTER_LEFT = "&A"
FOOTER_CENTRE = "Page &P of &N"


def print_landscape_fit_width(ws: WriteOnlyWorksheet, *, header_row: int = 1, one_page: bool = False) -> None:
    """Print (and PDF) the sheet landscape, one page wide, as tall as it needs (``one_page``:
    one page tall too), with its header row ``header_row`` repeated on every page, narrow
    margins and the sheet name and page numbers in the footer: a report's wide tables otherwise
    split across pages by column, and loose pages could not be put back in order."""
    sheet = parts(ws)
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 1 if one_page else 0
    sheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    sheet.page_margins = copy(PRINT_MARGINS)
    sheet.oddFooter.left.text = FOOTER_LEFT
    sheet.oddFooter.center.text = FOOTER_CENTRE
    ws.print_title_rows = f"{header_row}:{header_row}"


def set_widths(ws: WriteOnlyWorksheet, widths: Mapping[int, float]) -> None:
    """Column widths (in characters); a write-only sheet needs them before its first row."""
    dims = parts(ws).column_dimensions
    for index, width in widths.items():
        dims[get_column_letter(index)].width = width


def area(first_col: int, first_row: int, last_col: int, last_row: int) -> str:
    """``A1:C9`` style reference."""
    return f"{get_column_letter(first_col)}{first_row}:{get_column_letter(last_col)}{last_row}"


def score_scale() -> Rule:
    """Red at 0, yellow at 0.5, green at 1 — fixed points, so a colour means the same everywhere.

    Built from the typed parts that ``ColorScaleRule`` (an untyped convenience factory) would
    assemble, so mypy --strict checks the call.
    """
    return Rule(
        type="colorScale",
        colorScale=ColorScale(
            cfvo=[FormatObject(type="num", val=score) for score in STOP_SCORES],
            color=[Color(rgb=RED), Color(rgb=YELLOW), Color(rgb=GREEN)],
        ),
    )


def formula_fill(formula: str, fill: str, text: str) -> Rule:
    """Fill and text colour where ``formula`` (relative to the range's top-left cell) is true."""
    return Rule(
        type="expression", formula=[formula], dxf=DifferentialStyle(fill=solid(fill), font=Font(color=text))
    )

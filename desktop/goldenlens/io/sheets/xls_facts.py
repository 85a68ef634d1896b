"""Number formats and error cells of legacy Excel (.xls) sheets, read with xlrd.

calamine reads the values; xlrd, with ``formatting_info``, tells which format each number
cell uses, which cells hold an error code and which ranges are merged.
"""

from __future__ import annotations

from pathlib import Path

import xlrd

from goldenlens.io.sheets.merged_cells import MergedRange
from goldenlens.io.sheets.number_format.codes import BUILTIN_FORMATS, is_date_format, is_general
from goldenlens.io.sheets.number_format.dates import DAYS_1900_TO_1904
from goldenlens.io.sheets.sheet_facts import SheetFacts, error_issue

# Format ids from 164 on are the workbook's own; lower ones are Excel's built-ins.
_FIRST_CUSTOM = 164


class XlsFacts:
    """Opened once per workbook (xlrd reads the whole file); :meth:`facts` per sheet."""

    def __init__(self, path: Path) -> None:
        self._book = xlrd.open_workbook(str(path), formatting_info=True, on_demand=True)

    def close(self) -> None:
        """Release the file."""
        self._book.release_resources()

    def hidden_sheets(self) -> set[str]:
        """Sheets Excel does not show."""
        return {
            self._book.sheet_by_index(i).name
            for i in range(self._book.nsheets)
            if self._book.sheet_by_index(i).visibility != 0
        }

    def facts(self, sheet: str) -> SheetFacts:
        """Display facts of ``sheet``."""
        result = SheetFacts()
        book = self._book
        ws = book.sheet_by_name(sheet)
        codes: dict[int, str | None] = {}
        for r in range(ws.nrows):
            types = ws.row_types(r)
            for c, kind in enumerate(types):
                if kind in (xlrd.XL_CELL_NUMBER, xlrd.XL_CELL_DATE):
                    code = self._code(ws.cell_xf_index(r, c), codes)
                    if code is not None:
                        result.formats[(r, c)] = code
                        number = float(ws.cell_value(r, c))
                        if book.datemode == 1 and is_date_format(code):
                            number += DAYS_1900_TO_1904  # a 1904-system workbook (Mac Excel)
                        result.numbers[(r, c)] = number
                elif kind == xlrd.XL_CELL_TEXT:
                    code = self._code(ws.cell_xf_index(r, c), codes)
                    if code is not None and "@" in code:
                        result.formats[(r, c)] = code
                elif kind == xlrd.XL_CELL_ERROR:
                    text = xlrd.error_text_from_code.get(ws.cell_value(r, c), "#VALUE!")
                    result.issues.append(error_issue(r, c, text))
        # xlrd lists a sheet's merged ranges (with formatting_info) as (first row, row past the
        # last, first column, column past the last).
        result.merged = [
            MergedRange(first_row, first_col, past_row - 1, past_col - 1)
            for first_row, past_row, first_col, past_col in ws.merged_cells
        ]
        return result

    def _code(self, xf: int, codes: dict[int, str | None]) -> str | None:
        """The number format of cell style ``xf`` (``None`` for General), memoised in ``codes``."""
        if xf not in codes:
            key = self._book.xf_list[xf].format_key
            fmt = self._book.format_map.get(key)
            # Built-in ids as Excel shows them in en-US (xlrd's table has 14 as m/d/yy).
            code = BUILTIN_FORMATS.get(key) if key < _FIRST_CUSTOM else None
            if code is None:
                code = fmt.format_str if fmt is not None else None
            codes[xf] = None if is_general(code) else code
        return codes[xf]

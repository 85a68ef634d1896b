"""Displayed text and error cells of OpenDocument (.ods) sheets.

An .ods file stores each cell's display beside its value (``<text:p>``), as the spreadsheet
program rendered it with the cell's format when it saved the file. For number, percentage,
currency, date, time and boolean cells that display is what the analyst saw, so it replaces
calamine's bare value. Cells with an error result are reported, and cells merged over several
rows (``table:number-rows-spanned``) listed as merged ranges.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

from goldenlens.io.sheets.merged_cells import MergedRange
from goldenlens.io.sheets.sheet_facts import SheetFacts, error_issue

_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_CALCEXT = "{urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0}"
_SHOWN_TYPES = frozenset({"float", "percentage", "currency", "date", "time", "boolean"})
# Beyond this many repeats a cell is formatting padding, not data worth a display entry.
_MAX_REPEAT = 10_000


def _paragraph_text(element: ET.Element) -> str:
    parts: list[str] = [element.text or ""]
    for child in element:
        tag = child.tag
        if tag == f"{_TEXT}s":
            parts.append(" " * int(child.get(f"{_TEXT}c", "1")))
        elif tag == f"{_TEXT}tab":
            parts.append("\t")
        elif tag == f"{_TEXT}line-break":
            parts.append("\n")
        else:
            parts.append(_paragraph_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _cell_text(cell: ET.Element) -> str:
    # Only the cell's own paragraphs: a comment (<office:annotation>) holds paragraphs too.
    return "\n".join(_paragraph_text(p) for p in cell if p.tag == f"{_TEXT}p")


def ods_facts(path: Path, sheet: str) -> SheetFacts:
    """Display facts of ``sheet`` in the .ods file at ``path``."""
    result = SheetFacts()
    with zipfile.ZipFile(path) as book, book.open("content.xml") as content:
        inside = False
        row = 0
        for event, element in ET.iterparse(content, events=("start", "end")):  # noqa: S314
            tag = element.tag
            if tag == f"{_TABLE}table":
                if event == "start":
                    inside = element.get(f"{_TABLE}name") == sheet
                    row = 0
                elif inside:
                    break
                continue
            if not inside or event != "end":
                continue
            if tag == f"{_TABLE}table-row":
                repeat = int(element.get(f"{_TABLE}number-rows-repeated", "1"))
                _row_cells(element, row, min(repeat, _MAX_REPEAT), result)
                row += repeat
                element.clear()
    return result


def _row_cells(row_element: ET.Element, row: int, repeat: int, result: SheetFacts) -> None:
    col = 0
    for cell in row_element:
        if cell.tag not in {f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"}:
            continue
        span = int(cell.get(f"{_TABLE}number-columns-repeated", "1"))
        rows_spanned = int(cell.get(f"{_TABLE}number-rows-spanned", "1"))
        if rows_spanned > 1:  # the cells it covers below are <table:covered-table-cell/>
            columns_spanned = int(cell.get(f"{_TABLE}number-columns-spanned", "1"))
            last = (row + rows_spanned - 1, col + max(columns_spanned, 1) - 1)
            result.merged.append(MergedRange(row, col, *last))
        kind = cell.get(f"{_OFFICE}value-type")
        if cell.get(f"{_CALCEXT}value-type") == "error":
            shown = _cell_text(cell) or "an error"
            for r in range(row, row + repeat):
                for c in range(col, col + min(span, _MAX_REPEAT)):
                    result.issues.append(error_issue(r, c, shown))
        elif (kind in _SHOWN_TYPES or cell.get(f"{_OFFICE}string-value") is not None) and cell.find(
            f"{_TEXT}p"
        ) is not None:
            # A text cell with a separate string-value has a text format ("Q: "@): the
            # paragraph is its display.
            # Without a <text:p> the writer stored no display: the value is shown as General.
            text = _cell_text(cell)
            for r in range(row, row + repeat):
                for c in range(col, col + min(span, _MAX_REPEAT)):
                    result.shown[(r, c)] = text
        col += span

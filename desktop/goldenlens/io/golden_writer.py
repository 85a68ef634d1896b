"""Export a golden set to .xlsx so analysts can curate it in Excel and import it back unchanged.

The round trip is exact for any text a cell can hold: every value is stored as text (never a
number or a formula), whitespace and line breaks are kept, and values a cell cannot hold are
refused with their row and column before anything is written (see :mod:`goldenlens.io.xlsx_cells`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from openpyxl import Workbook

from goldenlens.core.model import GoldenItem
from goldenlens.io.output_files import ExportError, streaming_failure
from goldenlens.io.xlsx_cells import (
    RowRef,
    check_text,
    discard_streams,
    save_atomically,
    text_cell,
)
from goldenlens.io.xlsx_style import HEADER, WRAP, area, parts, set_widths

__all__ = ["GOLDEN_COLUMNS", "GOLDEN_SHEET", "REVIEW_COLUMNS", "ExportError", "write_golden_workbook"]

GOLDEN_SHEET = "Golden set"
GOLDEN_COLUMNS: tuple[str, ...] = ("id", "question", "answer", "fact", "notes")
REVIEW_COLUMNS: tuple[str, ...] = ("review_status", "review_note")
_WIDTHS: dict[str, float] = {
    "id": 14,
    "question": 50,
    "answer": 60,
    "fact": 36,
    "notes": 36,
    "review_status": 16,
    "review_note": 40,
}


def write_golden_workbook(
    items: Sequence[GoldenItem],
    path: Path,
    *,
    review: Mapping[str, tuple[str, str]] | None = None,
) -> None:
    """Write ``items`` to sheet "Golden set" of a new workbook at ``path``.

    Columns are ``id, question, answer, fact, notes`` (``notes`` holds the curation notes),
    plus ``review_status, review_note`` when ``review`` (id → (status, note)) is given; items
    without a review get blank review cells and reviews of ids not in ``items`` are ignored.

    Every cell is checked first: a value that cannot be stored exactly (longer than 32,767
    characters, or holding a control character) raises :class:`ExportError` naming the id,
    Excel row and column, and ``path`` is neither created nor changed. The file is written
    beside ``path`` and renamed over it, so a crash never leaves half a workbook.
    """
    headers = GOLDEN_COLUMNS + (REVIEW_COLUMNS if review is not None else ())
    rows = [_values(item, review) for item in items]
    refs = [
        RowRef(GOLDEN_SHEET, excel_row, headers, item.id) for excel_row, item in enumerate(items, start=2)
    ]
    # Check everything before the workbook exists: the refusal costs nothing on disk.
    for values, where in zip(rows, refs, strict=True):
        for col, value in enumerate(values, start=1):
            check_text(value, where, col)

    workbook = Workbook(write_only=True)
    ws = workbook.create_sheet(GOLDEN_SHEET)
    set_widths(ws, {col: _WIDTHS[name] for col, name in enumerate(headers, start=1)})
    # Keep the header and the id visible while scrolling through long answers.
    ws.freeze_panes = "B2"
    parts(ws).auto_filter.ref = area(1, 1, len(headers), len(items) + 1)

    header_ref = RowRef(GOLDEN_SHEET, 1, headers)
    try:
        ws.append([text_cell(ws, name, header_ref, col, HEADER) for col, name in enumerate(headers, start=1)])
        for values, where in zip(rows, refs, strict=True):
            ws.append([text_cell(ws, value, where, col, WRAP) for col, value in enumerate(values, start=1)])
    except OSError as error:  # openpyxl streams write-only rows to the temporary folder
        discard_streams(workbook)
        raise streaming_failure(path, error) from error
    save_atomically(workbook, path)


def _values(item: GoldenItem, review: Mapping[str, tuple[str, str]] | None) -> list[str]:
    values = [item.id, item.question, item.answer, item.fact, item.notes]
    if review is not None:
        status, note = review.get(item.id, ("", ""))
        values += [status, note]
    return values

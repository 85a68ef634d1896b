"""Export a golden set to .xlsx so analysts can curate it in Excel and import it back unchanged.

The round trip is exact for any text a cell can hold: every value is stored as text (never a
number or a formula), whitespace and line breaks are kept, and values a cell cannot hold are
refused with their row and column before anything is written (see :mod:`goldenlens.io.reports.xlsx.cells`).

With a change log, a second sheet "Change log" lists every change of the golden set, one row
per change (version, when, who, question id, field, before, after), laid out to print: one
page wide, landscape, the header on every page. The golden set stays the first sheet, so
importing the workbook back reads the rows and not the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from openpyxl import Workbook

from goldenlens.core.golden.versions import ChangeLogRow
from goldenlens.core.inputs import GoldenItem
from goldenlens.io.atomic_files import ExportError, streaming_failure
from goldenlens.io.reports.xlsx.cells import (
    RowRef,
    check_text,
    discard_streams,
    save_atomically,
    text_cell,
)
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import WRAP, print_landscape_fit_width
from goldenlens.io.reports.xlsx.table_layout import append_header, lay_out_table

__all__ = [
    "CHANGE_LOG_COLUMNS",
    "CHANGE_LOG_SHEET",
    "GOLDEN_COLUMNS",
    "GOLDEN_SHEET",
    "REVIEW_COLUMNS",
    "ExportError",
    "write_golden_workbook",
]

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
_EXTRA_WIDTH = 20.0
CHANGE_LOG_SHEET = "Change log"
CHANGE_LOG_COLUMNS: tuple[str, ...] = ("version", "when", "who", "question id", "field", "before", "after")
# Sized so that the seven columns print one landscape A4/Letter page wide at a readable size.
_LOG_WIDTHS: dict[int, float] = {1: 15, 2: 19, 3: 16, 4: 11, 5: 11, 6: 42, 7: 42}


def write_golden_workbook(
    items: Sequence[GoldenItem],
    path: Path,
    *,
    review: Mapping[str, tuple[str, str]] | None = None,
    change_log: Sequence[ChangeLogRow] | None = None,
) -> None:
    """Write ``items`` to sheet "Golden set" of a new workbook at ``path``, and
    ``change_log`` (when given) to sheet "Change log" after it.

    Columns are ``id, question, answer, fact, notes`` (``notes`` holds the curation notes),
    then the analyst's other columns (:attr:`GoldenItem.extra`, in first-seen order; a cell
    an item lacks is blank), plus ``review_status, review_note`` when ``review`` (id →
    (status, note)) is given; items without a review get blank review cells and reviews of ids
    not in ``items`` are ignored.

    Every cell is checked first: a value that cannot be stored exactly (longer than 32,767
    characters, or holding a control character) raises :class:`ExportError` naming the id,
    Excel row and column, and ``path`` is neither created nor changed. The file is written
    beside ``path`` and renamed over it, so a crash never leaves half a workbook.
    """
    # The analyst's other columns (GoldenItem.extra) follow the notes, so a round trip keeps them.
    extra = _extra_columns(items, GOLDEN_COLUMNS + REVIEW_COLUMNS)
    headers = GOLDEN_COLUMNS + extra + (REVIEW_COLUMNS if review is not None else ())
    rows = [_values(item, extra, review) for item in items]
    refs = [
        RowRef(GOLDEN_SHEET, excel_row, headers, item.id) for excel_row, item in enumerate(items, start=2)
    ]
    # Check everything before the workbook exists: the refusal costs nothing on disk.
    log_rows = [_log_values(row) for row in change_log or ()]
    log_refs = [
        RowRef(CHANGE_LOG_SHEET, excel_row, CHANGE_LOG_COLUMNS, row.question_id or None)
        for excel_row, row in enumerate(change_log or (), start=2)
    ]
    for values, where in [*zip(rows, refs, strict=True), *zip(log_rows, log_refs, strict=True)]:
        for col, value in enumerate(values, start=1):
            check_text(value, where, col)

    workbook = Workbook(write_only=True)
    ws = workbook.create_sheet(GOLDEN_SHEET)
    widths = {col: _WIDTHS.get(name, _EXTRA_WIDTH) for col, name in enumerate(headers, start=1)}
    # Keep the header and the id visible while scrolling through long answers.
    lay_out_table(ws, headers, rows=len(items), widths=widths, freeze="B2")
    try:
        append_header(ws, GOLDEN_SHEET, headers)
        for values, where in zip(rows, refs, strict=True):
            ws.append([text_cell(ws, value, where, col, WRAP) for col, value in enumerate(values, start=1)])
        if change_log is not None:
            _write_change_log(workbook, log_rows, log_refs)
    except OSError as error:  # openpyxl streams write-only rows to the temporary folder
        discard_streams(workbook)
        raise streaming_failure(path, error) from error
    save_atomically(workbook, path)


def _log_values(row: ChangeLogRow) -> list[str]:
    return [row.version, row.when, row.who, row.question_id, row.field, row.before, row.after]


def _write_change_log(workbook: Workbook, rows: Sequence[list[str]], refs: Sequence[RowRef]) -> None:
    ws = workbook.create_sheet(CHANGE_LOG_SHEET)
    lay_out_table(ws, CHANGE_LOG_COLUMNS, rows=len(rows), widths=_LOG_WIDTHS)
    print_landscape_fit_width(ws)
    append_header(ws, CHANGE_LOG_SHEET, CHANGE_LOG_COLUMNS)
    for excel_row, (values, where) in enumerate(zip(rows, refs, strict=True), start=2):
        append_fitted(
            ws,
            excel_row,
            [text_cell(ws, value, where, col, WRAP) for col, value in enumerate(values, start=1)],
        )


def _extra_columns(items: Sequence[GoldenItem], own: Sequence[str]) -> tuple[str, ...]:
    """The other columns of ``items`` in first-seen order, less those named as the export's own."""
    taken = {name.casefold() for name in own}
    found: dict[str, None] = {}
    for item in items:
        for name, _ in item.extra:
            if name.casefold() not in taken:
                found.setdefault(name)
    return tuple(found)


def _values(
    item: GoldenItem, extra: Sequence[str], review: Mapping[str, tuple[str, str]] | None
) -> list[str]:
    values = [item.id, item.question, item.answer, item.fact, item.notes]
    if extra:
        cells = dict(item.extra)
        values += [cells.get(name, "") for name in extra]
    if review is not None:
        status, note = review.get(item.id, ("", ""))
        values += [status, note]
    return values

"""Excel's 32,767 characters a cell: no input cell may hold more, whatever its format.

A spreadsheet cannot hold a longer cell (Excel refuses to type one and cuts one when it opens
a CSV file), so a longer one is a damaged file or a file built to exhaust memory: one 400 MB
shared string used by 30 cells made a 410 KB workbook take 23 GB. The readers refuse it with
the file, sheet and cell (``Sheet1!B7``) or the CSV row and column, rather than read it.

This module holds the limit, the wording of the refusal and the checks of a grid already read
(workbooks) or parsed (CSV); :mod:`goldenlens.io.sheets.limits.package_guard` refuses a workbook
before a library unpacks it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import chain

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import column_letter
from goldenlens.io.sheets.sheet_facts import cell_name

#: Excel's limit on the characters of one cell (Excel specifications and limits).
MAX_CELL_CHARS = 32_767

# A sheet name Excel writes without quotes in a reference (``Sheet1!B7``, ``'Q3 data'!B7``).
_PLAIN_SHEET = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def cell_reference(sheet: str, row: int, col: int) -> str:
    """``Sheet1!B7`` (``'Q3 data'!B7`` when the name needs quotes) for 0-based ``row``/``col``."""
    shown = sheet if _PLAIN_SHEET.fullmatch(sheet) else "'" + sheet.replace("'", "''") + "'"
    return f"{shown}!{cell_name(row, col)}"


def long_cell_message(where: str, length: int | None) -> str:
    """Why the cell at ``where`` is refused; ``length`` when it is known (else "more than")."""
    size = (
        f"{length:,} characters, more than the {MAX_CELL_CHARS:,}"
        if length is not None
        else (f"more than the {MAX_CELL_CHARS:,} characters")
    )
    return (
        f"{where} holds {size} a spreadsheet cell can hold (Excel's limit), so the file is not "
        "read: it is damaged or was built to exhaust memory. Shorten or split that cell and import again."
    )


def long_cell_error(
    file: str, sheet: str, row: int, col: int, length: int | None, *, others: int = 0
) -> InputError:
    """The refusal of a workbook cell (0-based ``row``/``col``); ``others``: more cells sharing
    the same text (a shared string)."""
    where = f"cell {cell_reference(sheet, row, col)}"
    if others:
        where += f" (and {others:,} other cell{'s' if others > 1 else ''} with the same text)"
    problem = Problem(file, long_cell_message(where, length), Severity.FATAL, sheet=sheet, row=row + 1)
    return InputError(problem)


def refuse_long_cells(file: str, sheet: str, columns: Sequence[Sequence[str]]) -> None:
    """Raise :func:`long_cell_error` for the first over-long cell (by row, then column) of a
    column-major grid of text, as read from ``sheet``.

    One C-level ``max`` per column: 600,000 cells take about 20 ms."""
    found: tuple[int, int, int] | None = None
    for col, values in enumerate(columns):
        if max(map(len, values), default=0) <= MAX_CELL_CHARS:
            continue
        row = next(i for i, text in enumerate(values) if len(text) > MAX_CELL_CHARS)
        if found is None or row < found[0]:
            found = (row, col, len(values[row]))
    if found is not None:
        row, col, length = found
        raise long_cell_error(file, sheet, row, col, length)


def long_field_problem(file: str, records: Sequence[Sequence[str]]) -> Problem | None:
    """The fatal problem of the first CSV field longer than the limit (Excel row and column
    letter, as Excel would open the file), or ``None``."""
    if max(map(len, chain.from_iterable(records)), default=0) <= MAX_CELL_CHARS:
        return None
    for index, record in enumerate(records):
        for position, text in enumerate(record):
            if len(text) > MAX_CELL_CHARS:
                where = f"the field in row {index + 1}, column {column_letter(position)},"
                return Problem(file, long_cell_message(where, len(text)), Severity.FATAL, row=index + 1)
    return None  # unreachable: the maximum is one of the fields

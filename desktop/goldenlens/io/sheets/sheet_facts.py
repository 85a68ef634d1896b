"""What a workbook says about its cells beyond their values, read beside calamine.

calamine (through pandas) returns each cell's value fast, but not how the cell is shown: a
``0.5`` formatted ``0%``, an error ``#N/A`` (calamine returns an empty string), a formula never
calculated (also empty). The per-format readers (:mod:`goldenlens.io.sheets.xlsx_facts`,
:mod:`goldenlens.io.sheets.ods_facts`, :mod:`goldenlens.io.sheets.xls_facts`) collect those facts into a
:class:`SheetFacts`, and :func:`apply_facts` turns calamine's values into the text the analyst
sees, reporting every cell it cannot show faithfully.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING

from goldenlens.io.sheets.number_format.codes import UnsupportedFormatError
from goldenlens.io.sheets.number_format.dates import datetime_to_serial
from goldenlens.io.sheets.number_format.display import format_number, format_text
from goldenlens.io.sheets.number_format.numbers import general_text

if TYPE_CHECKING:
    from goldenlens.io.sheets.merged_cells import MergedRange


@dataclass(frozen=True)
class CellIssue:
    """A cell whose value cannot be read as text: ``row``/``col`` are 0-based grid positions."""

    row: int
    col: int
    message: str
    fatal_for_cell: bool = True  # the text is unknown (error, no cached value) vs merely approximate


@dataclass
class SheetFacts:
    """Display facts of one sheet, keyed by 0-based (row, column) of the full sheet grid.

    ``formats`` holds the number format of each cell that has one other than General, and
    ``numbers`` the exact number such a cell stores, where the file gives it (calamine turns a
    date-formatted number into a datetime rounded to the millisecond);
    ``shown`` holds text the file itself stores as the display (ODS writes it beside the
    value), which wins over formatting; ``issues`` lists error cells and formulas without a
    cached value. ``note`` says what could not be read for the whole sheet (e.g. .xlsb formats).
    """

    formats: dict[tuple[int, int], str] = field(default_factory=dict)
    numbers: dict[tuple[int, int], float] = field(default_factory=dict)
    shown: dict[tuple[int, int], str] = field(default_factory=dict)
    issues: list[CellIssue] = field(default_factory=list)
    note: str | None = None
    # (package part, its new XML): the sheet must be read from a copy with this part replaced.
    trimmed: tuple[str, bytes] | None = None
    #: Merged ranges (:mod:`goldenlens.io.sheets.merged_cells`), where the format lists them.
    merged: list[MergedRange] = field(default_factory=list)


def column_index(letters: bytes | str) -> int:
    """0-based column of Excel letters: ``A`` → 0, ``AB`` → 27."""
    text = letters.decode("ascii") if isinstance(letters, bytes) else letters
    index = 0
    for char in text:
        index = index * 26 + (ord(char) - 64)
    return index - 1


def cell_name(row: int, col: int) -> str:
    """``C5`` for 0-based ``row`` 4, ``col`` 2."""
    letters = ""
    index = col + 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return f"{letters}{row + 1}"


def error_issue(row: int, col: int, shown: str) -> CellIssue:
    """The issue of a cell that shows an error value such as ``#N/A``."""
    return CellIssue(
        row,
        col,
        f"cell {cell_name(row, col)} shows the error {shown}, which is not text GoldenLens can score; fix "
        "the formula or type the value.",
    )


def uncached_issue(row: int, col: int) -> CellIssue:
    """The issue of a formula cell saved without its result."""
    return CellIssue(
        row,
        col,
        f"cell {cell_name(row, col)} holds a formula that was never calculated (no saved value), so its "
        "text is unknown; open the workbook in Excel or LibreOffice, save it, and import again.",
    )


def _number_of(value: object) -> float | None:
    """The number a spreadsheet stores for ``value`` (dates as 1900-system serials)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, date) and not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    if isinstance(value, datetime):
        return datetime_to_serial(value)
    if isinstance(value, time):
        value = timedelta(
            hours=value.hour, minutes=value.minute, seconds=value.second, microseconds=value.microsecond
        )
    if isinstance(value, timedelta):
        return value.total_seconds() / 86400
    return None


def display_text(value: object, code: str) -> str:
    """The text a cell holding ``value`` shows under number format ``code``.

    Raises :class:`UnsupportedFormatError` when it cannot be rendered faithfully.
    """
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return format_text(value, code)
    number = _number_of(value)
    if number is None:
        raise UnsupportedFormatError(f"a {type(value).__name__} value")
    return format_number(number, code)


def apply_facts(
    columns: list[list[object]],
    facts: SheetFacts,
    report: Callable[[int, int, str], None],
) -> None:
    """Replace values in ``columns`` (column-major grid) by their displayed text, in place.

    Cells with an unsupported format keep their General text and are reported through
    ``report(row, col, message)``; error and uncached-formula cells become ``""`` (the
    caller reports them from ``facts.issues``).
    """
    for (row, col), text in facts.shown.items():
        if col < len(columns) and row < len(columns[col]):
            columns[col][row] = text
    for (row, col), code in facts.formats.items():
        if (row, col) in facts.shown or col >= len(columns) or row >= len(columns[col]):
            continue
        value = facts.numbers.get((row, col), columns[col][row])
        if value is None or value == "":
            continue
        try:
            columns[col][row] = display_text(value, code)
        except UnsupportedFormatError as error:
            number = _number_of(value)
            fallback = general_text(number) if number is not None else str(value)
            columns[col][row] = fallback
            report(
                row,
                col,
                f"the number format {code!r} cannot be shown exactly ({error}); the value is read as "
                f"{fallback!r}. Check it, or format the cell as Text.",
            )
    for issue in facts.issues:
        if issue.col < len(columns) and issue.row < len(columns[issue.col]):
            columns[issue.col][issue.row] = ""

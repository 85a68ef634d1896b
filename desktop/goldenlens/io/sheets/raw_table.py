"""A table read from a sheet or a delimited text file, as text: :class:`RawTable`, and the
table rules that turn a grid of cells into one (:func:`build_table`).

Table rules (the same for every format):

* the header is the first row, among the first 20, that names a known column (a question or
  id column, or a column of the explicit mapping); rows above it (title rows, notes, blank
  rows) are skipped and reported. When no row qualifies it is the first non-blank row, so the
  messages can say what the header lacks. An explicit ``header_row`` overrides both. Header
  names are stripped of surrounding spaces and of invisible characters (zero-width spaces,
  no-break spaces: see :mod:`goldenlens.io.sheets.header_names`), none of which Excel shows;
* blank rows are skipped, but row numbers still count them, as Excel does;
* a column with no header name is dropped, with a warning if it holds any value;
* a repeated header name is a warning naming both columns: lookups use the first occurrence
  that holds any value (an empty duplicate never hides a filled one);
* a CSV row with fewer cells than the header is padded with ``""`` silently (many writers
  omit trailing empty cells); a row with more non-empty cells than the header is an error and
  the row is skipped (usually an unquoted delimiter inside a cell shifted the row).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter
from typing import Final, cast

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.view.wording import listing
from goldenlens.io.importing.columns import column_key, column_letter
from goldenlens.io.sheets.header_names import clean_header_name, header_name_problems

#: Columns a table may have: a spreadsheet's (Excel's last column is XFD). A wider header
#: row is no table of questions or responses (a one-line file of delimiters: 25 million empty
#: columns took two minutes and 6 GB before anything was said).
MAX_COLUMNS: Final = 16_384

# How far down a header row is looked for (title rows, notes and blank rows above it).
HEADER_SEARCH_ROWS = 20


@dataclass(frozen=True)
class RawTable:
    """One sheet (or CSV file) as text: header names, data rows and their Excel row numbers.

    Every row has exactly ``len(header)`` cells. ``row_numbers[i]`` is the 1-based row Excel
    shows for ``rows[i]``; ``header_row`` is the header's. ``sheet`` is ``None`` for CSV;
    ``encoding`` and ``delimiter`` say how a CSV file was read (``None`` for workbooks).
    """

    file: str
    sheet: str | None
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    row_numbers: tuple[int, ...]
    problems: tuple[Problem, ...] = ()
    header_row: int = 1
    encoding: str | None = None
    delimiter: str | None = None
    # (Excel row, column name) of cells whose text could not be read (an error value, a
    # formula never calculated): they read as "", and whoever uses the column skips the row.
    unreadable: frozenset[tuple[int, str]] = frozenset()

    def is_unreadable(self, row: int, column: str | None) -> bool:
        """True when the cell at Excel ``row`` of ``column`` has no faithful text."""
        return column is not None and (row, column) in self.unreadable

    def index(self, column: str) -> int:
        """Position of the first column named exactly ``column`` (``ValueError`` if none is)."""
        found = self._positions.get(column)
        if found is None:
            raise ValueError(f"{column!r} is not in the header")
        return found

    @cached_property
    def _positions(self) -> dict[str, int]:
        """Each header name's first position: found at once in a sheet of thousands of columns,
        where searching the header for each column took time growing with their square."""
        positions: dict[str, int] = {}
        for position, name in enumerate(self.header):
            positions.setdefault(name, position)
        return positions

    def values(self, column: str) -> list[str]:
        """Every data cell of ``column``, in row order."""
        return list(map(itemgetter(self.index(column)), self.rows))

    def problem(
        self, message: str, severity: Severity, *, row: int | None = None, column: str | None = None
    ) -> Problem:
        """A problem located in this table."""
        return Problem(self.file, message, severity, sheet=self.sheet, row=row, column=column)

    def where(self) -> str:
        """``golden.csv`` or ``sheet 'Golden' of golden.xlsx`` for messages."""
        return self.file if self.sheet is None else f"sheet '{self.sheet}' of {self.file}"


def fatal(file: str, message: str, *, sheet: str | None = None) -> InputError:
    """An :class:`InputError` carrying one fatal problem."""
    return InputError.fatal(file, message, sheet=sheet)


@dataclass(frozen=True)
class CellProblem:
    """A problem with one cell of a grid, before the header is known (0-based positions)."""

    row: int
    col: int
    message: str
    severity: Severity
    unreadable: bool = False


def build_table(
    file: str,
    sheet: str | None,
    grid: Sequence[Sequence[str]],
    read_problems: Sequence[Problem] = (),
    *,
    header_row: int | None = None,
    known: frozenset[str] = frozenset(),
    cell_problems: Sequence[CellProblem] = (),
) -> RawTable:
    """Apply the table rules (this module's docstring) to a grid of text rows.

    ``grid[i]`` is Excel row ``i + 1``; rows may be ragged (CSV). ``read_problems`` (from
    decoding, say) come first in the table's problems. ``known`` holds the column keys that
    identify a header row; ``header_row`` (1-based) fixes it. ``cell_problems`` are located
    by grid position and reported with the header name of their column.
    """
    problems = list(read_problems)
    start = _header_index(file, sheet, grid, header_row=header_row, known=known, problems=problems)
    if start is None:
        return RawTable(file, sheet, (), (), (), tuple(problems))
    if len(grid[start]) > MAX_COLUMNS:
        raise InputError(
            Problem(
                file,
                f"the header row has {len(grid[start]):,} columns, more than a spreadsheet holds "
                f"({MAX_COLUMNS:,}, up to column {column_letter(MAX_COLUMNS - 1)}): this is not a golden set "
                "or responses table (a file with no line breaks?).",
                Severity.FATAL,
                sheet=sheet,
                row=start + 1,
            )
        )
    names = [clean_header_name(cell) for cell in grid[start]]
    problems.extend(header_name_problems(file, sheet, grid[start], start + 1))
    width = len(names)
    rows: Sequence[Sequence[str]] = grid[start + 1 :]
    numbers: Sequence[int] = range(start + 2, len(grid) + 1)
    if set(map(len, rows)) - {width}:  # only CSV rows can be ragged
        rows, numbers, ragged = _even_rows(file, sheet, rows, numbers, width)
        problems.extend(ragged)

    filled = [any(row[j].strip() for row in rows) for j in range(width)]
    keep = [j for j, name in enumerate(names) if name]
    for j, name in enumerate(names):
        if not name and filled[j]:
            problems.append(
                Problem(
                    file,
                    f"column {column_letter(j)} has values but no header name; it is ignored.",
                    Severity.WARNING,
                    sheet=sheet,
                    row=start + 1,
                )
            )
    keep, duplicate_problems = _resolve_duplicates(
        file, sheet, names, keep=keep, filled=filled, header_row=start + 1
    )
    problems.extend(duplicate_problems)

    unreadable: set[tuple[int, str]] = set()
    for cell in cell_problems:
        if cell.row <= start or cell.col >= width:
            continue
        column = names[cell.col] or None
        problems.append(
            Problem(file, cell.message, cell.severity, sheet=sheet, row=cell.row + 1, column=column)
        )
        if cell.unreadable and column is not None:
            unreadable.add((cell.row + 1, column))

    header = tuple(names[j] for j in keep)
    kept_rows, kept_numbers = _non_blank(list(map(_projector(keep, width), rows)), numbers)
    return RawTable(
        file,
        sheet,
        header,
        kept_rows,
        kept_numbers,
        tuple(problems),
        start + 1,
        unreadable=frozenset(unreadable),
    )


def _non_blank(
    rows: list[tuple[str, ...]], numbers: Sequence[int]
) -> tuple[tuple[tuple[str, ...], ...], tuple[int, ...]]:
    """The rows holding any non-blank cell, with their numbers.

    A row whose first cell is not blank is kept without joining its cells: when every row's
    is (an id column first: the usual file), all are kept, and the check runs in C."""
    firsts = list(map(itemgetter(0), rows)) if all(rows) else [""]
    if all(firsts) and not any(map(str.isspace, firsts)):
        return tuple(rows), tuple(numbers)
    kept = [(cells, number) for cells, number in zip(rows, numbers, strict=True) if "".join(cells).strip()]
    return tuple(cells for cells, _ in kept), tuple(number for _, number in kept)


def _header_index(
    file: str,
    sheet: str | None,
    grid: Sequence[Sequence[str]],
    *,
    header_row: int | None,
    known: frozenset[str],
    problems: list[Problem],
) -> int | None:
    """The 0-based grid row of the header (reporting the rows skipped above it), or ``None``."""
    if header_row is not None:
        if header_row > len(grid) or not "".join(grid[header_row - 1]).strip():
            raise fatal(
                file,
                f"the header row is set to row {header_row}, but that row of "
                f"{file if sheet is None else f'sheet {sheet!r}'} is empty.",
                sheet=sheet,
            )
        start = header_row - 1
    else:
        first = next((i for i, row in enumerate(grid) if "".join(row).strip()), None)
        if first is None:
            return None
        start = next(
            (
                i
                for i, row in enumerate(grid[:HEADER_SEARCH_ROWS])
                if any(column_key(clean_header_name(cell)) in known for cell in row if cell.strip())
            ),
            first,
        )
    above = [(i, row) for i, row in enumerate(grid[:start]) if "".join(row).strip()]
    if above:
        shown = "; ".join(
            f"row {i + 1}: {' | '.join(cell.strip() for cell in row if cell.strip())[:60]!r}"
            for i, row in above[:3]
        )
        more = f" and {len(above) - 3} more" if len(above) > 3 else ""
        problems.append(
            Problem(
                file,
                f"the header is row {start + 1}; the {len(above)} non-blank row(s) above it are not data "
                f"and were skipped ({shown}{more}). Set the header row if this is wrong.",
                Severity.INFO,
                sheet=sheet,  # a note about the whole table (its message names the rows)
            )
        )
    return start


def _even_rows(
    file: str, sheet: str | None, rows: Sequence[Sequence[str]], numbers: Sequence[int], width: int
) -> tuple[list[Sequence[str]], list[int], list[Problem]]:
    """Pad short rows, trim empty overhang, and drop (reporting) rows with real extra cells."""
    even: list[Sequence[str]] = []
    kept: list[int] = []
    problems: list[Problem] = []
    for row, number in zip(rows, numbers, strict=True):
        cells = row
        if len(row) < width:
            cells = [*row, *([""] * (width - len(row)))]
        elif len(row) > width:
            if "".join(row[width:]).strip():
                problems.append(_ragged(file, sheet, row, width, number))
                continue
            cells = row[:width]
        even.append(cells)
        kept.append(number)
    return even, kept, problems


def _projector(keep: list[int], width: int) -> Callable[[Sequence[str]], tuple[str, ...]]:
    """A fast row → kept-cells function (``itemgetter`` runs in C)."""
    if keep == list(range(width)):
        return tuple
    if len(keep) == 1:
        only = keep[0]
        return lambda row: (row[only],)
    return cast("Callable[[Sequence[str]], tuple[str, ...]]", itemgetter(*keep))  # 2+ keys: a tuple


def _resolve_duplicates(
    file: str, sheet: str | None, names: list[str], *, keep: list[int], filled: list[bool], header_row: int
) -> tuple[list[int], list[Problem]]:
    """Keep one column per name (ignoring case): the first that holds a value, else the first."""
    groups: dict[str, list[int]] = {}
    for j in keep:
        groups.setdefault(names[j].casefold(), []).append(j)
    chosen: set[int] = set()
    problems: list[Problem] = []
    for columns in groups.values():
        used = next((j for j in columns if filled[j]), columns[0])
        chosen.add(used)
        if len(columns) == 1:
            continue
        others = [j for j in columns if j != used]
        letters, other_letters = [column_letter(j) for j in columns], [column_letter(j) for j in others]
        empty = sum(1 for j in others if not filled[j])
        why = " (the others are empty)" if empty == len(others) else ""
        problems.append(
            Problem(
                file,
                f"column name '{names[used]}' appears {len(columns):,} times (columns "
                f"{listing(letters, 8)}); column {column_letter(used)} is used{why} and "
                f"{listing(other_letters, 8)} "
                "ignored. Rename the columns so each name is unique.",
                Severity.WARNING,
                sheet=sheet,
                row=header_row,
                column=names[used],
            )
        )
    return [j for j in keep if j in chosen], problems


def _ragged(file: str, sheet: str | None, row: Sequence[str], width: int, number: int) -> Problem:
    return Problem(
        file,
        f"this row has {len(row)} cells but the header has {width} columns (an unquoted "
        "delimiter inside a cell?); the row is skipped.",
        Severity.ERROR,
        sheet=sheet,
        row=number,
    )

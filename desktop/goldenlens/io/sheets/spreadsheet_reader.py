"""Read any supported spreadsheet or delimited text file into a :class:`RawTable` of text.

Workbooks (.xlsx .xlsm .xls .xlsb .ods) go through ``pandas.read_excel`` with the calamine
engine; CSV/TSV/TXT through :mod:`goldenlens.io.sheets.csv_decoder`. Either way every cell becomes the
text an analyst sees, rows keep the numbers Excel shows, and every failure of a library
becomes an :class:`~goldenlens.core.problems.InputError` with a plain message.

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

import codecs
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from operator import itemgetter
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self, cast

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import column_key, column_letter, header_keys
from goldenlens.io.sheets.cell_text import column_text
from goldenlens.io.sheets.csv_decoder import parse_records
from goldenlens.io.sheets.header_names import clean_header_name, header_name_problems
from goldenlens.io.sheets.link_paths import unreachable_reason
from goldenlens.io.sheets.sheet_facts import SheetFacts, apply_facts
from goldenlens.io.sheets.suspect_text import suspect_text_problems

if TYPE_CHECKING:  # pandas and the workbook readers load when a workbook is opened: a CSV needs none
    import pandas as pd

    from goldenlens.io.sheets.xls_facts import XlsFacts
    from goldenlens.io.sheets.xlsx_facts import XlsxFacts

# How far down a header row is looked for (title rows, notes and blank rows above it).
HEADER_SEARCH_ROWS = 20

WORKBOOK_SUFFIXES: frozenset[str] = frozenset({".xlsx", ".xlsm", ".xls", ".xlsb", ".ods"})
# The delimiter tried first for each text suffix; the file is sniffed regardless.
TEXT_SUFFIXES: dict[str, str] = {".csv": ",", ".tsv": "\t", ".txt": "\t"}
SUPPORTED = ".xlsx, .xlsm, .xls, .xlsb, .ods, .csv, .tsv or .txt"


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
        """Position of the first column named exactly ``column``."""
        return self.header.index(column)

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
    return InputError(Problem(file, message, Severity.FATAL, sheet=sheet))


class TableFile:
    """An input file opened once; its tables are read on demand and cached.

    Use it as a context manager: an open workbook holds its file (and locks it on Windows).
    ``mapping`` (FIELD → COLUMN) adds its column names to those that identify a header row;
    ``header_row`` (1-based, as Excel numbers rows) fixes the header row of every table read.
    """

    def __init__(
        self, path: Path, *, mapping: Mapping[str, str] | None = None, header_row: int | None = None
    ) -> None:
        self.path = Path(path)
        self.file = self.path.name or str(path)
        suffix = _check_path(self.path, self.file)
        self._suffix = suffix
        self._delimiter = TEXT_SUFFIXES.get(suffix)
        self._book: pd.ExcelFile | None = None
        self._facts: XlsxFacts | XlsFacts | None = None
        self._sheets: tuple[str, ...] = ()
        self._hidden: frozenset[str] = frozenset()
        self._cache: dict[str | None, RawTable] = {}
        self._header_keys = header_keys(mapping)
        self._header_row = header_row
        if header_row is not None and header_row < 1:
            raise fatal(self.file, f"the header row must be 1 or more (got {header_row}).")
        if self._delimiter is None:
            self._book = _open_workbook(self.path, self.file)
            self._sheets = tuple(str(name) for name in self._book.sheet_names)
            if not self._sheets:
                self.close()
                raise fatal(self.file, f"{self.file} has no worksheets.")
            self._hidden = _hidden_sheets(self._book)
            self._facts = _open_facts(self.path, self.file, suffix)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release the workbook's file handles."""
        if self._book is not None:
            self._book.close()
            self._book = None
        if self._facts is not None:
            self._facts.close()
            self._facts = None

    @property
    def is_workbook(self) -> bool:
        """True for spreadsheets (which have sheets), False for CSV/TSV/TXT."""
        return self._delimiter is None

    @property
    def sheets(self) -> tuple[str, ...]:
        """Worksheet names in workbook order (hidden ones included); empty for CSV/TSV/TXT."""
        return self._sheets

    @property
    def hidden_sheets(self) -> frozenset[str]:
        """Sheets Excel does not show; they are read only when chosen by name."""
        return self._hidden

    @property
    def visible_sheets(self) -> tuple[str, ...]:
        """The sheets an automatic choice looks through, in workbook order."""
        return tuple(name for name in self._sheets if name not in self._hidden)

    def resolve_sheet(self, sheet: str | None) -> str | None:
        """The actual sheet name for ``sheet`` (exact, else case-insensitive); first visible if ``None``.

        CSV files have no sheets: ``sheet`` is ignored and ``None`` returned.
        """
        if not self.is_workbook:
            return None
        if sheet is None:
            return (self.visible_sheets or self._sheets)[0]
        if sheet in self._sheets:
            return sheet
        folded = [name for name in self._sheets if name.casefold() == sheet.strip().casefold()]
        if len(folded) == 1:
            return folded[0]
        available = ", ".join(f"'{name}'" for name in self._sheets)
        raise fatal(self.file, f"{self.file} has no sheet named '{sheet}'; its sheets are: {available}.")

    def read(self, sheet: str | None = None, *, require_rows: bool = True) -> RawTable:
        """The table of ``sheet`` (the first visible sheet if ``None``; ignored for CSV).

        With ``require_rows`` an empty sheet or a header without data rows is fatal;
        without it such tables are returned (with an empty header when the sheet is blank)
        so callers can look through a workbook's sheets.
        """
        name = self.resolve_sheet(sheet)
        table = self._cache.get(name)
        if table is None:
            table = self._read_csv() if self._delimiter is not None else self._read_sheet(name)
            self._cache[name] = table
        if require_rows:
            where = table.where()
            if not table.header:
                raise fatal(self.file, f"{where} is empty: it has no cells with a value.", sheet=name)
            if not table.rows:
                raise fatal(
                    self.file,
                    f"{where} has a header row (row {table.header_row}) but no data rows.",
                    sheet=name,
                )
        return table

    def _read_csv(self) -> RawTable:
        parsed = parse_records(
            _read_bytes(self.path, self.file), self.file, preferred_delimiter=self._delimiter or ","
        )
        table = build_table(
            self.file,
            None,
            parsed.records,
            parsed.problems,
            header_row=self._header_row,
            known=self._header_keys,
        )
        table = replace(table, encoding=parsed.encoding, delimiter=parsed.delimiter)
        if parsed.ascii:  # neither mojibake nor an invisible character is ASCII
            return table
        return replace(table, problems=(*table.problems, *suspect_text_problems(table)))

    def _read_sheet(self, sheet: str | None) -> RawTable:
        if self._book is None or sheet is None:
            raise fatal(self.file, f"{self.file} was closed before its sheets were read.")
        facts = self._sheet_facts(sheet)
        frame = self._frame(sheet, facts)
        raw = [frame[label].tolist() for label in frame.columns]
        cell_problems: list[CellProblem] = []
        apply_facts(
            raw,
            facts,
            lambda row, col, message: cell_problems.append(CellProblem(row, col, message, Severity.WARNING)),
        )
        cell_problems.extend(CellProblem(i.row, i.col, i.message, Severity.ERROR, True) for i in facts.issues)
        notes: list[Problem] = []
        if facts.note:
            notes.append(Problem(self.file, f"sheet '{sheet}': {facts.note}.", Severity.WARNING, sheet=sheet))
        columns = [column_text(values) for values in raw]
        grid: list[Sequence[str]] = list(zip(*columns, strict=True)) if columns else []
        table = build_table(
            self.file,
            sheet,
            grid,
            notes,
            header_row=self._header_row,
            known=self._header_keys,
            cell_problems=cell_problems,
        )
        return replace(table, problems=(*table.problems, *suspect_text_problems(table)))

    def _sheet_facts(self, sheet: str) -> SheetFacts:
        import zipfile
        from xml.etree import ElementTree as ET

        from goldenlens.io.sheets.ods_facts import ods_facts
        from goldenlens.io.sheets.xlsx_facts import SheetTooLargeError

        try:
            if self._facts is not None:
                return self._facts.facts(sheet)
            if self._suffix == ".ods":
                return ods_facts(self.path, sheet)
        except SheetTooLargeError as error:
            raise fatal(self.file, f"{self.file}: {error}", sheet=sheet) from None
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, ET.ParseError) as error:
            return SheetFacts(
                note=f"its number formats could not be read ({error}); numbers are shown as General"
            )
        if self._suffix == ".xlsb":
            return SheetFacts(
                note="number formats of .xlsb workbooks are not read; numbers are shown as General"
            )
        return SheetFacts()

    def _frame(self, sheet: str, facts: SheetFacts) -> pd.DataFrame:
        import pandas as pd

        try:
            if facts.trimmed is not None:
                with _replaced_part(self.path, *facts.trimmed) as copy:
                    return pd.read_excel(
                        copy, sheet_name=sheet, header=None, dtype=object, na_filter=False, engine="calamine"
                    )
            assert self._book is not None
            return pd.read_excel(self._book, sheet_name=sheet, header=None, dtype=object, na_filter=False)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:  # calamine raises its own errors, and Rust panics derive BaseException
            raise _unreadable(self.path, self.file, error) from None


@dataclass(frozen=True)
class CellProblem:
    """A problem with one cell of a grid, before the header is known (0-based positions)."""

    row: int
    col: int
    message: str
    severity: Severity
    unreadable: bool = False


@contextmanager
def _replaced_part(path: Path, part: str, data: bytes) -> Iterator[Path]:
    """A temporary copy of the workbook at ``path`` with package part ``part`` replaced."""
    import tempfile
    import zipfile

    with tempfile.TemporaryDirectory(prefix="goldenlens-") as folder:
        copy = Path(folder) / f"trimmed{path.suffix.lower()}"
        with zipfile.ZipFile(path) as source, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as target:
            for item in source.infolist():
                target.writestr(item.filename, data if item.filename == part else source.read(item.filename))
        yield copy


def _hidden_sheets(book: pd.ExcelFile) -> frozenset[str]:
    metadata = getattr(book.book, "sheets_metadata", None) or []
    # SheetVisibleEnum.Visible / .Hidden / .VeryHidden
    return frozenset(str(m.name) for m in metadata if str(m.visible).rsplit(".", 1)[-1].lower() != "visible")


def _open_facts(path: Path, file: str, suffix: str) -> XlsxFacts | XlsFacts | None:
    """The reader of display facts for workbooks that need one opened up front."""
    import zipfile
    from xml.etree import ElementTree as ET

    import xlrd

    from goldenlens.io.sheets.xls_facts import XlsFacts
    from goldenlens.io.sheets.xlsx_facts import XlsxFacts

    try:
        if suffix in {".xlsx", ".xlsm"}:
            return XlsxFacts(path)
        if suffix == ".xls":
            return XlsFacts(path)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, ET.ParseError, xlrd.XLRDError) as error:
        raise _unreadable(path, file, error) from None
    return None


def read_table(path: Path, *, sheet: str | None = None) -> RawTable:
    """Read one sheet (default: the first) or one CSV/TSV/TXT file as text.

    Raises :class:`InputError` for a missing path, a folder, an unsupported extension, an
    empty or unreadable file, an unknown sheet, or a table without data rows.
    """
    with TableFile(path) as source:
        return source.read(sheet)


def list_sheets(path: Path) -> list[str]:
    """Worksheet names of a workbook in order; ``[]`` for CSV/TSV/TXT files."""
    with TableFile(path) as source:
        return list(source.sheets)


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
    """Apply the table rules of this module's docstring to a grid of text rows.

    ``grid[i]`` is Excel row ``i + 1``; rows may be ragged (CSV). ``read_problems`` (from
    decoding, say) come first in the table's problems. ``known`` holds the column keys that
    identify a header row; ``header_row`` (1-based) fixes it. ``cell_problems`` are located
    by grid position and reported with the header name of their column.
    """
    problems = list(read_problems)
    start = _header_index(file, sheet, grid, header_row=header_row, known=known, problems=problems)
    if start is None:
        return RawTable(file, sheet, (), (), (), tuple(problems))
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
        listed = ", ".join(column_letter(j) for j in columns)
        empty = [column_letter(j) for j in others if not filled[j]]
        why = " (the others are empty)" if len(empty) == len(others) else ""
        problems.append(
            Problem(
                file,
                f"column name '{names[used]}' appears {len(columns)} times (columns {listed}); column "
                f"{column_letter(used)} is used{why} and {', '.join(column_letter(j) for j in others)} "
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


def _check_path(path: Path, file: str) -> str:
    """Validate the path before any library sees it; return its lower-case suffix."""
    if not path.exists():
        reason = unreachable_reason(path)
        if reason is not None:
            raise fatal(file, f"{file} {reason}.")
        raise fatal(file, f"{file} was not found (looked for {path}).")
    if path.is_dir():
        raise fatal(file, f"{file} is a folder, not a file.")
    suffix = path.suffix.lower()
    if suffix not in WORKBOOK_SUFFIXES and suffix not in TEXT_SUFFIXES:
        kind = f"'{suffix}'" if suffix else "(no extension)"
        raise fatal(file, f"{file} has an unsupported file type {kind}; use {SUPPORTED}.")
    try:
        size = path.stat().st_size
    except OSError as error:
        raise fatal(file, f"{file} could not be read: {error.strerror or error}.") from None
    if size == 0:
        raise fatal(file, f"{file} is empty (0 bytes).")
    return suffix


def _read_bytes(path: Path, file: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise fatal(file, f"{file} could not be read: {error.strerror or error}.") from None


def _open_workbook(path: Path, file: str) -> pd.ExcelFile:
    import pandas as pd

    try:
        return pd.ExcelFile(path, engine="calamine")
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # see _read_grid: every library failure becomes an InputError
        raise _unreadable(path, file, error) from None


def _unreadable(path: Path, file: str, error: BaseException) -> InputError:
    cause = (str(error).strip().splitlines() or [type(error).__name__])[0][:200]
    hint = _content_hint(path)
    detail = f"{hint} ({cause})" if hint else cause
    return fatal(
        file, f"{file} is not a readable spreadsheet (the file is damaged or not an Excel file): {detail}"
    )


def _content_hint(path: Path) -> str:
    """What the first bytes say the file really is, to make the message actionable."""
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return ""
    for magic, hint in _CONTENT_HINTS:
        if head.startswith(magic):
            return hint
    if b"\x00" in head:
        return "it is not a spreadsheet file"
    try:
        # Incremental, so a character cut at the 4 KiB boundary does not count as binary.
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return "it is not a spreadsheet file"
    return "it looks like plain text (a CSV file with the wrong extension?)"


_CONTENT_HINTS: tuple[tuple[bytes, str], ...] = (
    (b"PK\x03\x04", "the zip archive inside is incomplete or damaged"),
    (b"\xd0\xcf\x11\xe0", "the Office file is damaged or password-protected"),
    (b"%PDF", "it is a PDF document"),
)

"""Read any supported spreadsheet or delimited text file into a :class:`RawTable` of text.

Workbooks (.xlsx .xlsm .xls .xlsb .ods) go through ``pandas.read_excel`` with the calamine
engine; CSV/TSV/TXT through :mod:`goldenlens.io.sheets.csv_decoder`. Either way every cell becomes the
text an analyst sees, rows keep the numbers Excel shows, and every failure of a library
becomes an :class:`~goldenlens.core.problems.InputError` with a plain message.

The table rules (header row, blank rows, unnamed and repeated columns, ragged CSV rows) are
:mod:`goldenlens.io.sheets.raw_table`'s.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.core.closing import ClosedOnExit
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import header_keys
from goldenlens.io.sheets.cell_text import column_text
from goldenlens.io.sheets.csv_decoder import parse_records
from goldenlens.io.sheets.limits.cell_limit import refuse_long_cells
from goldenlens.io.sheets.link_paths import unreachable_reason
from goldenlens.io.sheets.merged_cells import fill_merged
from goldenlens.io.sheets.raw_table import CellProblem, RawTable, build_table, fatal
from goldenlens.io.sheets.sheet_facts import SheetFacts, apply_facts
from goldenlens.io.sheets.suspect_text import suspect_text_problems

if TYPE_CHECKING:  # pandas and the workbook readers load when a workbook is opened: a CSV needs none
    import pandas as pd

    from goldenlens.io.sheets.xls_facts import XlsFacts
    from goldenlens.io.sheets.xlsx_facts import XlsxFacts

WORKBOOK_SUFFIXES: frozenset[str] = frozenset({".xlsx", ".xlsm", ".xls", ".xlsb", ".ods"})
# The delimiter tried first for each text suffix; the file is sniffed regardless.
TEXT_SUFFIXES: dict[str, str] = {".csv": ",", ".tsv": "\t", ".txt": "\t"}
SUPPORTED = ".xlsx, .xlsm, .xls, .xlsb, .ods, .csv, .tsv or .txt"


class TableFile(ClosedOnExit):
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
            if suffix != ".xls":  # the zip packages: refuse a bomb before calamine unpacks it
                from goldenlens.io.sheets.limits.package_guard import guard_package

                guard_package(self.path, self.file, suffix)
            self._book = _open_workbook(self.path, self.file)
            self._sheets = tuple(str(name) for name in self._book.sheet_names)
            if not self._sheets:
                self.close()
                raise fatal(self.file, f"{self.file} has no worksheets.")
            self._hidden = _hidden_sheets(self._book)
            self._facts = _open_facts(self.path, self.file, suffix)

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
        refuse_long_cells(self.file, sheet, columns)
        if facts.merged:
            filled = fill_merged(columns, facts.merged)
            cell_problems.extend(CellProblem(row, col, note, Severity.INFO) for row, col, note in filled)
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
    from xlrd.compdoc import CompDocError

    from goldenlens.io.sheets.xls_facts import XlsFacts
    from goldenlens.io.sheets.xlsx_facts import XlsxFacts

    # CompDocError: an .xls file declares a stream larger than the file (xlrd checks the sizes).
    damaged = (zipfile.BadZipFile, ET.ParseError, xlrd.XLRDError, CompDocError)
    failures = (OSError, ValueError, KeyError, *damaged)
    try:
        if suffix in {".xlsx", ".xlsm"}:
            return XlsxFacts(path)
        if suffix == ".xls":
            return XlsFacts(path)
    except failures as error:
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

"""Refuse a zip-packaged workbook (.xlsx .xlsm .xlsb .ods) that would unpack out of proportion,
before any library unpacks it.

A workbook is a zip archive of XML parts. calamine unpacks each part whole, so a 410 KB file
whose shared strings unpack to 400 MB (one string, used by 30 cells) took 23 GB of memory.
The archive's central directory says what each part unpacks to, and the zip readers stop at
that size (calamine's refuses a part larger than it says), so the declared sizes are checked
first, reading nothing:

* a part is out of proportion when it unpacks to more than :data:`MAX_RATIO` times its packed
  size and to more than :data:`SMALL_PART` bytes; so is the archive when all its parts
  together are. Real workbooks pack 4-15x (Excel, LibreOffice, openpyxl: sheets of 60,000 rows;
  a sheet of empty styled rows 21x), deflate at most about 1,030x;
* every .xlsx shared-strings part is then streamed (:mod:`goldenlens.io.sheets.limits.long_cell_scan`)
  for a string longer than a cell can hold, which calamine would copy into each cell using it;
* and the text the cells would hold, each shared string times the cells naming it, is bounded
  (:mod:`goldenlens.io.sheets.limits.repeated_strings`): one long string in 800,000 tiny cells passes
  the checks above yet unpacks to 26 GB.

A part out of proportion is scanned for an over-long cell in its first few mebibytes, so the
refusal names the cell when it can (``Sheet1!B2``) and the part when it cannot. Everything
else (a long inline string, a long .ods cell) is bounded by these sizes and refused once read
by :func:`~goldenlens.io.sheets.limits.cell_limit.refuse_long_cells`.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import IO

from goldenlens.core.problems import InputError
from goldenlens.io.sheets.limits.cell_limit import MAX_CELL_CHARS, long_cell_error, long_cell_message
from goldenlens.io.sheets.limits.long_cell_scan import (
    DeclaredTypeError,
    LongCell,
    first_long_ods_cell,
    first_long_shared_string,
    first_long_sheet_cell,
)
from goldenlens.io.sheets.limits.repeated_strings import (
    exact_string_sizes,
    repeated_text_sheet,
    string_sizes,
    text_budget,
)
from goldenlens.io.sheets.raw_table import fatal
from goldenlens.io.sheets.sheet_facts import column_index
from goldenlens.io.sheets.xlsx_facts import (
    WORKBOOK_PART,
    WORKBOOK_RELATIONS,
    read_workbook,
    workbook_relations,
)

#: A part may unpack to this many times its packed size (Apache POI's default, too).
MAX_RATIO = 100
#: Parts up to this size are never out of proportion: small parts of repeated markup pack
#: tighter than large ones, and this much is cheap to read whatever it holds.
SMALL_PART = 16 * 2**20
#: How far into a part out of proportion the first over-long cell is looked for, to name it
#: (expat reads 4 MiB of tiny cells in about a second); beyond, the part itself is named.
SCAN_BUDGET = 4 * 2**20

_ODS_CONTENT = "content.xml"
ScanFunction = Callable[[IO[bytes], int | None], tuple[LongCell | None, bool]]


def guard_package(path: Path, file: str, suffix: str) -> None:
    """Raise :class:`InputError` for a zip workbook out of proportion or holding an over-long
    cell found before unpacking; return quietly for any other file (a damaged archive is left
    to the reader, whose message says so)."""
    try:
        book = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile, ValueError):
        return
    with book:
        try:
            _guard(book, path, file, suffix)
        except DeclaredTypeError as error:
            raise fatal(file, f"{file} is not read: {error}.") from None
        except (
            OSError,
            zipfile.BadZipFile,
            zlib.error,
            ValueError,
            EOFError,
            RuntimeError,
            NotImplementedError,
        ):
            return  # damaged or encrypted: calamine reports it in the words every damaged file gets


def _guard(book: zipfile.ZipFile, path: Path, file: str, suffix: str) -> None:
    parts = book.infolist()
    flagged = [part for part in parts if _out_of_proportion(part.file_size, part.compress_size)]
    if suffix == ".ods":
        _guard_ods(book, file, flagged)
    elif suffix in {".xlsx", ".xlsm"}:
        _guard_xlsx(book, file, flagged)
    elif flagged:  # .xlsb: binary parts, only their sizes are checked
        raise _part_error(file, flagged[0])
    total, packed = sum(p.file_size for p in parts), path.stat().st_size
    if _out_of_proportion(total, packed):
        raise fatal(
            file,
            f"{file} is not read: its parts unpack to {_size(total)} from a file of {_size(packed)} "
            f"({total // max(packed, 1):,} times), far more than a real workbook packs (at most "
            f"{MAX_RATIO} times): it is damaged or was built to exhaust memory. {_RESAVE}",
        )


def _guard_ods(book: zipfile.ZipFile, file: str, flagged: list[zipfile.ZipInfo]) -> None:
    """content.xml holds every sheet: out of proportion, it is refused by its first long cell."""
    for part in flagged:
        if part.filename != _ODS_CONTENT:
            raise _part_error(file, part)
        cell = _scan_flagged(book, file, part, first_long_ods_cell)
        raise long_cell_error(file, cell.sheet, cell.row, cell.col, None)


def _guard_xlsx(book: zipfile.ZipFile, file: str, flagged: list[zipfile.ZipInfo]) -> None:
    """Sheets and shared strings out of proportion are refused by their first long cell, any
    other part by name; the shared strings are streamed for a long string in any case."""
    for part in flagged:
        if part.filename in {WORKBOOK_PART, WORKBOOK_RELATIONS}:  # read to find the others
            raise _part_error(file, part)
    sheets, strings = _package_map(book)
    for part in flagged:
        if part.filename not in sheets and part.filename != strings:
            raise _part_error(file, part)
    for part in flagged:
        if part.filename in sheets:
            cell = _scan_flagged(book, file, part, first_long_sheet_cell)
            raise long_cell_error(file, sheets[part.filename], cell.row, cell.col, None)
    if strings is not None and strings in book.namelist():
        if any(part.filename == strings for part in flagged):
            _refuse_shared_strings(book, file, book.getinfo(strings), sheets)
        # Each string's size, in one pass: proves most parts hold no over-long string, and
        # bounds the text the cells naming them would hold.
        sizes, sure = string_sizes(book, strings)
        if not sure or max(sizes, default=0) > MAX_CELL_CHARS:  # maybe: a size counts markup too
            _guard_shared_strings(book, file, book.getinfo(strings), sheets)
        if not sure:
            sizes = exact_string_sizes(book, strings)
        budget = text_budget(book)
        repeated = repeated_text_sheet(book, sizes, sheets, budget)
        if repeated is not None:
            sheet, cells, text = repeated
            raise fatal(
                file,
                f"{file} is not read: {cells:,} cells of sheet '{sheet}' repeat its shared strings so "
                f"often that they would hold over {_size(text)} of text (the workbook unpacks to "
                f"{_size(sum(p.file_size for p in book.infolist()))}; at most {_size(budget)} is read): "
                f"it is damaged or was built to exhaust memory. {_RESAVE}",
                sheet=sheet,
            )


_RESAVE = "If you trust it, open it in Excel or LibreOffice, save it again and import the saved copy."


def _out_of_proportion(size: int, packed: int) -> bool:
    return size > SMALL_PART and size > MAX_RATIO * packed


def _size(count: int) -> str:
    return f"{count / 2**20:,.1f} MB" if count >= 2**20 else f"{count / 1024:,.1f} KB"


def _part_error(file: str, part: zipfile.ZipInfo) -> InputError:
    ratio = part.file_size // max(part.compress_size, 1)
    return fatal(
        file,
        f"{file} is not read: its part {part.filename} unpacks to {_size(part.file_size)} from "
        f"{_size(part.compress_size)} ({ratio:,} times), far more than a real workbook packs (at "
        f"most {MAX_RATIO} times): it is damaged or was built to exhaust memory. {_RESAVE}",
    )


def _scan_flagged(book: zipfile.ZipFile, file: str, part: zipfile.ZipInfo, scan: ScanFunction) -> LongCell:
    """The first over-long cell of a part out of proportion, looked for in its first
    :data:`SCAN_BUDGET` bytes; the refusal of the part when there is none."""
    with book.open(part) as stream:
        cell, _ = scan(stream, SCAN_BUDGET)
    if cell is None:
        raise _part_error(file, part)
    return cell


def _refuse_shared_strings(
    book: zipfile.ZipFile, file: str, part: zipfile.ZipInfo, sheets: dict[str, str]
) -> None:
    """Refuse shared strings out of proportion: by the cells of their first long string."""
    _refuse_users(book, file, part, sheets, _scan_flagged(book, file, part, first_long_shared_string))


def _guard_shared_strings(
    book: zipfile.ZipFile, file: str, part: zipfile.ZipInfo, sheets: dict[str, str]
) -> None:
    """Refuse a shared string longer than a cell, naming the cells that use it."""
    with book.open(part) as stream:
        found, _ = first_long_shared_string(stream, None)
    if found is not None:
        _refuse_users(book, file, part, sheets, found)


def _refuse_users(
    book: zipfile.ZipFile, file: str, part: zipfile.ZipInfo, sheets: dict[str, str], cell: LongCell
) -> None:
    users = _cells_using(book, sheets, cell.index)
    if not users:
        raise fatal(file, long_cell_message(f"shared string {cell.index + 1:,} of {part.filename}", None))
    sheet, row, col = users[0]
    raise long_cell_error(file, sheet, row, col, None, others=len(users) - 1)


def _cells_using(book: zipfile.ZipFile, sheets: dict[str, str], index: int) -> list[tuple[str, int, int]]:
    """(sheet, 0-based row, 0-based column) of every cell showing shared string ``index``,
    sheet by sheet in workbook order; the parts were checked for size before."""
    found: list[tuple[str, int, int]] = []
    value = re.compile(rb"<(?:[\w.-]+:)?c\s([^>]*)>\s*<(?:[\w.-]+:)?v>\s*" + str(index).encode() + rb"\s*<")
    for part, sheet in sheets.items():
        if part not in book.namelist():
            continue
        data = book.read(part)
        for match in value.finditer(data):
            attrs = match.group(1)
            kind = re.search(rb'(?:^|\s)t="([a-zA-Z]+)"', attrs)
            ref = re.search(rb'(?:^|\s)r="([A-Z]{1,3})([0-9]{1,7})"', attrs)
            if kind is None or kind.group(1) != b"s" or ref is None:
                continue
            found.append((sheet, int(ref.group(2)) - 1, column_index(ref.group(1))))
    return found


def _package_map(book: zipfile.ZipFile) -> tuple[dict[str, str], str | None]:
    """Sheet part → sheet name in workbook order, and the shared-strings part (wherever the
    workbook's relationships put it); empty when the workbook cannot say."""
    try:
        sheets = {sheet.part: sheet.name for sheet in read_workbook(book)[0]}
        relations = workbook_relations(book).values()
    except (KeyError, ValueError, SyntaxError):  # ET.ParseError is a SyntaxError
        return {}, None
    strings = next((part for kind, part in relations if kind.endswith("/sharedStrings")), None)
    return sheets, strings

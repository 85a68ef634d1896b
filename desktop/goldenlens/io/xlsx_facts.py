"""Number formats, error cells, uncached formulas and the real used range of .xlsx/.xlsm sheets.

Read straight from the workbook's XML with a few byte-level regular expressions, so it costs
one decompression and one C-speed scan of each sheet beside calamine's read, and nothing at
all for the common sheet whose cells all use General. Only ``<c>`` elements with a style whose
number format is not General are looked at closely.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

from goldenlens.io.number_format import BUILTIN_FORMATS, is_general
from goldenlens.io.sheet_facts import SheetFacts, cell_name, column_index, error_issue, uncached_issue

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"

# calamine allocates every cell of the rectangle from A1 to the farthest cell with a value
# (32 bytes each): a stray value at XFD1048576 asks for 512 GiB and aborts the process.
MAX_GRID_CELLS = 20_000_000

_CELL = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"([^>]*?)(/>|>)')
_ATTR_S = re.compile(rb'\ss="([0-9]+)"')
_ATTR_T = re.compile(rb'\st="([a-zA-Z]+)"')
_ERROR_CELL = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"[^>]*?\st="e"[^>]*>(.*?)</c>', re.DOTALL)
_VALUE = re.compile(rb"<v>([^<]*)</v>")
_VALUE_AFTER_FORMULA = re.compile(rb"<f\b[^>]*?(?:/>|>[^<]*</f>)<v>([^<]*)</v>")
_FORMULA_CELL = re.compile(
    rb'<c r="([A-Z]{1,3})([0-9]{1,7})"([^>]*)>\s*<f\b[^>]*?(?:/>|>[^<]*</f>)\s*(<v\s*/>|<v>\s*</v>)?\s*</c>'
)
_DIMENSION = re.compile(rb'<dimension ref="([A-Z]{1,3})?([0-9]{1,7})?(?::([A-Z]{1,3})([0-9]{1,7}))?"')
_ATTR_BEFORE_REF = re.compile(rb"<c\s+(?!r=)[a-zA-Z:]+=")
_CELL_WITHOUT_REF = re.compile(rb"<c(?=[\s>/])(?![^>]*\sr=)")
_VALUED_CELL = re.compile(
    rb'<c r="([A-Z]{1,3})([0-9]{1,7})"([^>]*)>(?:(?!</c>).)*?(?:<v>([^<]*)</v>|<t(?:\s[^>]*)?>([^<]*)</t>)',
    re.DOTALL,
)


@dataclass(frozen=True)
class SheetInfo:
    """A worksheet's name, its part in the package and whether Excel shows it."""

    name: str
    part: str
    hidden: bool


class XlsxFacts:
    """Opened once per workbook; :meth:`facts` reads one sheet's display facts."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._zip = zipfile.ZipFile(path)
        names = set(self._zip.namelist())
        self.sheets = self._sheets(names)
        self._formats = self._cell_formats(names)

    def close(self) -> None:
        """Release the file."""
        self._zip.close()

    def hidden_sheets(self) -> set[str]:
        """Names of the sheets Excel does not show (hidden or very hidden)."""
        return {sheet.name for sheet in self.sheets if sheet.hidden}

    def _sheets(self, names: set[str]) -> list[SheetInfo]:
        book = ET.fromstring(self._zip.read("xl/workbook.xml"))  # noqa: S314
        rels_name = "xl/_rels/workbook.xml.rels"
        targets: dict[str, str] = {}
        if rels_name in names:
            for rel in ET.fromstring(self._zip.read(rels_name)):  # noqa: S314
                target = rel.get("Target", "")
                part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"xl/{target}")
                targets[rel.get("Id", "")] = part
        sheets: list[SheetInfo] = []
        for element in book.iter(f"{_MAIN}sheet"):
            part = targets.get(element.get(f"{_REL}id", ""), "")
            state = element.get("state", "visible")
            sheets.append(SheetInfo(element.get("name", ""), part, state in {"hidden", "veryHidden"}))
        return sheets

    def _cell_formats(self, names: set[str]) -> list[str | None]:
        """Number format code of each cell style (``cellXfs`` index), ``None`` for General."""
        if "xl/styles.xml" not in names:
            return []
        styles = ET.fromstring(self._zip.read("xl/styles.xml"))  # noqa: S314
        custom = {
            int(fmt.get("numFmtId", "0")): fmt.get("formatCode", "General")
            for fmt in styles.iter(f"{_MAIN}numFmt")
        }
        found: list[str | None] = []
        xfs = styles.find(f"{_MAIN}cellXfs")
        for xf in xfs if xfs is not None else []:
            number = int(xf.get("numFmtId", "0"))
            code = custom.get(number, BUILTIN_FORMATS.get(number))
            if code is None:
                # A locale's own built-in (ids 27-36, 50-81): the file does not say how it looks.
                code = f"<built-in format {number}>"
            found.append(None if is_general(code) else code)
        return found

    def facts(self, sheet: str) -> SheetFacts:
        """Display facts of ``sheet``; raises :class:`SheetTooLargeError` for a runaway used range."""
        info = next((s for s in self.sheets if s.name == sheet), None)
        result = SheetFacts()
        if info is None or info.part not in self._zip.namelist():
            return result
        data = self._zip.read(info.part)
        rows, cols = _extent(data)
        if rows * cols > MAX_GRID_CELLS:
            data, corner = _trim(data, self._shared_blank(), sheet)
            result.trimmed = (info.part, data)
            result.note = (
                f"its used range reaches {cell_name(rows - 1, cols - 1)} although its values end at "
                f"{corner}; the blank cells beyond were ignored"
            )
        if _CELL_WITHOUT_REF.search(data):
            result.note = (result.note + "; " if result.note else "") + (
                "its cells carry no cell references, so number formats, error cells and uncached "
                "formulas were not checked"
            )
            return result
        self._collect_formats(data, result)
        if b't="e"' in data:
            _collect_errors(data, result)
        if b"<f" in data:
            _collect_uncached(data, result)
        return result

    def _collect_formats(self, data: bytes, result: SheetFacts) -> None:
        formats = self._formats
        styled = [str(index).encode() for index, code in enumerate(formats) if code is not None]
        if not styled:
            return
        # Excel, LibreOffice, openpyxl and Google Sheets write r first and s second: then one
        # expression finds just the cells with an interesting style. Otherwise look at every cell.
        if _ATTR_BEFORE_REF.search(data) is None:
            cells = re.compile(
                rb'<c r="([A-Z]{1,3})([0-9]{1,7})"( s="(?:' + b"|".join(styled) + rb')"[^>]*?)(/>|>)'
            )
        else:
            cells = _CELL
        for match in cells.finditer(data):
            attrs = match.group(3)
            style = _ATTR_S.search(attrs)
            if style is None:
                continue
            index = int(style.group(1))
            code = formats[index] if index < len(formats) else None
            if code is None:
                continue
            kind = _ATTR_T.search(attrs)
            numeric = kind is None or kind.group(1) == b"n"
            if not numeric and not (
                kind is not None and kind.group(1) in {b"s", b"inlineStr", b"str"} and "@" in code
            ):
                continue  # booleans, ISO dates, errors, and text under a format without a text section
            if match.group(4) == b"/>":
                continue  # no value
            key = (int(match.group(2)) - 1, column_index(match.group(1)))
            result.formats[key] = code
            if numeric:
                # The stored number itself: calamine rounds date-formatted serials to a
                # datetime, which can move 12:29:59.99 to 12:30.
                value = _VALUE.match(data, match.end()) or _VALUE_AFTER_FORMULA.match(data, match.end())
                if value is not None:
                    try:
                        result.numbers[key] = float(value.group(1))
                    except ValueError:
                        continue

    def _shared_blank(self) -> list[bool]:
        """For each shared string, whether it is blank (read only for a runaway used range)."""
        if "xl/sharedStrings.xml" not in self._zip.namelist():
            return []
        blank: list[bool] = []
        for item in ET.fromstring(self._zip.read("xl/sharedStrings.xml")).iter(f"{_MAIN}si"):  # noqa: S314
            text = "".join(t.text or "" for t in item.iter(f"{_MAIN}t"))
            blank.append(not text.strip())
        return blank


def _collect_errors(data: bytes, result: SheetFacts) -> None:
    for match in _ERROR_CELL.finditer(data):
        value = _VALUE.search(match.group(3))
        code = value.group(1).decode("utf-8", "replace") if value else "#VALUE!"
        row, col = int(match.group(2)) - 1, column_index(match.group(1))
        result.issues.append(error_issue(row, col, code))


def _collect_uncached(data: bytes, result: SheetFacts) -> None:
    for match in _FORMULA_CELL.finditer(data):
        attrs = match.group(3)
        kind = _ATTR_T.search(attrs)
        if match.group(4) is not None and kind is not None and kind.group(1) == b"str":
            continue  # a formula whose cached result is the empty string
        row, col = int(match.group(2)) - 1, column_index(match.group(1))
        result.issues.append(uncached_issue(row, col))


class SheetTooLargeError(ValueError):
    """Real values lie so far apart that reading the sheet would exhaust memory."""


def _extent(data: bytes) -> tuple[int, int]:
    """Rows and columns of the rectangle from A1 to the farthest cell element of the sheet.

    The ``<dimension>`` element is not trusted (writers leave it stale); rows are written in
    order, so the last ``<row>`` is the farthest, and one C-speed scan finds the widest column.
    """
    last_row = data.rfind(b'<row r="')
    row_match = _ROW_NUMBER.match(data, last_row) if last_row >= 0 else None
    max_row = int(row_match.group(1)) if row_match else 0
    letters = _COLUMN_LETTERS.findall(data)
    widest = max(letters, key=lambda text: (len(text), text), default=b"")
    return max_row, (column_index(widest) + 1 if widest else 0)


_ROW_NUMBER = re.compile(rb'<row r="([0-9]+)"')
_COLUMN_LETTERS = re.compile(rb'<c r="([A-Z]{1,3})')
_CELL_REF = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"')
_WHOLE_CELL = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"[^>]*?(?:/>|>.*?</c>)', re.DOTALL)


def _trim(data: bytes, blank_shared: list[bool], sheet: str) -> tuple[bytes, str]:
    """``data`` without the blank cells beyond the block of real values; refuse a runaway block."""
    max_row = max_col = 0
    for match in _VALUED_CELL.finditer(data):
        attrs, value, text = match.group(3), match.group(4), match.group(5)
        kind = _ATTR_T.search(attrs)
        if kind is not None and kind.group(1) == b"s" and value is not None:
            index = int(value.strip() or b"0")
            if index < len(blank_shared) and blank_shared[index]:
                continue
        elif (text if text is not None else value or b"").strip() == b"":
            continue
        max_row = max(max_row, int(match.group(2)))
        max_col = max(max_col, column_index(match.group(1)) + 1)
    if max_row * max_col > MAX_GRID_CELLS:
        far = cell_name(max_row - 1, max_col - 1)
        raise SheetTooLargeError(
            f"sheet '{sheet}' has values as far apart as A1 and {far}: reading that range would take "
            f"more than {MAX_GRID_CELLS * 32 // 2**30} GiB of memory. Delete the stray values far from the "
            "table (Ctrl+End in Excel shows the last used cell) and import again."
        )

    def keep(match: re.Match[bytes]) -> bytes:
        inside = int(match.group(2)) <= max_row and column_index(match.group(1)) < max_col
        return match.group(0) if inside else b""

    corner = cell_name(max(max_row - 1, 0), max(max_col - 1, 0))
    trimmed = _WHOLE_CELL.sub(keep, data)
    trimmed = _DIMENSION.sub(f'<dimension ref="A1:{corner}"'.encode(), trimmed, count=1)
    return trimmed, corner

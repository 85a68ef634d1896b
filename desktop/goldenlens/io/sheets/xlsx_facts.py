"""Number formats, error cells, uncached formulas and the real used range of .xlsx/.xlsm sheets.

Read straight from the workbook's XML with a few byte-level regular expressions, so it costs
one decompression and one C-speed scan of each sheet beside calamine's read, and nothing at
all for the common sheet whose cells all use General. Only ``<c>`` elements with a style whose
number format is not General are looked at closely.

The expressions accept what valid writers produce: attributes in any order, a namespace
prefix on every element (``<x:c>``, as the OpenXML SDK writes), the Strict OOXML namespace,
and ISO dates (``t="d"``). Dates of a workbook in the 1904 date system are moved to the 1900
system the renderer counts in.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from xml.etree import ElementTree as ET

from goldenlens.io.sheets.merged_cells import xlsx_merged_ranges
from goldenlens.io.sheets.number_format.codes import (
    BUILTIN_FORMATS,
    LOCALE_BUILTIN,
    is_date_format,
    is_general,
)
from goldenlens.io.sheets.number_format.dates import DAYS_1900_TO_1904, datetime_to_serial
from goldenlens.io.sheets.sheet_facts import SheetFacts, cell_name, column_index, error_issue, uncached_issue

# calamine allocates every cell of the rectangle from A1 to the farthest cell with a value
# (32 bytes each): a stray value at XFD1048576 asks for 512 GiB and aborts the process.
MAX_GRID_CELLS = 20_000_000

_ATTR_R = re.compile(rb'(?:^|\s)r="([A-Z]{1,3})([0-9]{1,7})"')
_ATTR_S = re.compile(rb'(?:^|\s)s="([0-9]+)"')
_ATTR_T = re.compile(rb'(?:^|\s)t="([a-zA-Z]+)"')
_PREFIX = re.compile(rb"<([A-Za-z_][\w.-]*:)?sheetData[\s>/]")
_ROW_NUMBER = re.compile(rb'\sr="([0-9]+)"')


def _local(tag: str) -> str:
    """``{namespace}sheet`` → ``sheet``: transitional and Strict OOXML use other namespaces."""
    return tag.rsplit("}", 1)[-1]


def _attribute(element: ET.Element, name: str) -> str | None:
    """An attribute by local name, whatever namespace it is in (``r:id``)."""
    for key, value in element.attrib.items():
        if _local(key) == name:
            return value
    return None


@dataclass(frozen=True)
class _Patterns:
    """The sheet expressions for one element prefix (``b""`` or ``b"x:"``)."""

    prefix: bytes
    cell: re.Pattern[bytes]
    whole_cell: re.Pattern[bytes]
    cell_body: re.Pattern[bytes]
    value: re.Pattern[bytes]
    value_after_formula: re.Pattern[bytes]
    formula_cell: re.Pattern[bytes]
    valued_cell: re.Pattern[bytes]
    dimension: re.Pattern[bytes]
    cell_without_ref: re.Pattern[bytes]
    column_letters: re.Pattern[bytes]
    last_row: bytes


@lru_cache(maxsize=8)
def _patterns(prefix: bytes) -> _Patterns:
    p = re.escape(prefix)
    cell = rb"<" + p + rb"c\s([^>]*?)(/)?>"
    return _Patterns(
        prefix=prefix,
        cell=re.compile(cell),
        whole_cell=re.compile(rb"<" + p + rb"c\s([^>]*?)(?:/>|>.*?</" + p + rb"c>)", re.DOTALL),
        cell_body=re.compile(cell + rb"(.*?)</" + p + rb"c>", re.DOTALL),
        value=re.compile(rb"\s*<" + p + rb"v>([^<]*)</" + p + rb"v>"),
        value_after_formula=re.compile(
            rb"\s*<" + p + rb"f\b[^>]*?(?:/>|>[^<]*</" + p + rb"f>)\s*<" + p + rb"v>([^<]*)</" + p + rb"v>"
        ),
        formula_cell=re.compile(
            rb"<" + p + rb"c\s([^>]*)>\s*<" + p + rb"f\b[^>]*?(?:/>|>[^<]*</" + p + rb"f>)\s*"
            rb"(<" + p + rb"v\s*/>|<" + p + rb"v>\s*</" + p + rb"v>)?\s*</" + p + rb"c>"
        ),
        valued_cell=re.compile(
            rb"<"
            + p
            + rb"c\s([^>]*)>(?:(?!</"
            + p
            + rb"c>).)*?(?:<"
            + p
            + rb"v>([^<]*)</"
            + p
            + rb"v>|<"
            + p
            + rb"t(?:\s[^>]*)?>([^<]*)</"
            + p
            + rb"t>)",
            re.DOTALL,
        ),
        dimension=re.compile(rb"<" + p + rb'dimension ref="[^"]*"'),
        cell_without_ref=re.compile(rb"<" + p + rb"c(?=[\s>/])(?![^>]*\sr=)"),
        column_letters=re.compile(rb"<" + p + rb'c\s[^>]*?\br="([A-Z]{1,3})'),
        last_row=b"<" + prefix + b"row ",
    )


@dataclass(frozen=True)
class SheetInfo:
    """A worksheet's name, its part in the package and whether Excel shows it."""

    name: str
    part: str
    hidden: bool


WORKBOOK_PART = "xl/workbook.xml"
WORKBOOK_RELATIONS = "xl/_rels/workbook.xml.rels"


def workbook_relations(book: zipfile.ZipFile) -> dict[str, tuple[str, str]]:
    """The workbook's relationships: id → (type, package part), e.g. ``rId3`` →
    (``…/relationships/sharedStrings``, ``xl/sharedStrings.xml``)."""
    relations: dict[str, tuple[str, str]] = {}
    if WORKBOOK_RELATIONS in book.namelist():
        for rel in ET.fromstring(book.read(WORKBOOK_RELATIONS)):  # noqa: S314
            target = rel.get("Target", "")
            part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"xl/{target}")
            relations[rel.get("Id", "")] = (rel.get("Type", ""), part)
    return relations


def read_workbook(book: zipfile.ZipFile) -> tuple[list[SheetInfo], bool]:
    """The sheets of the .xlsx package ``book`` in workbook order, and whether its dates
    count from 1904 (Mac Excel's date system)."""
    workbook = ET.fromstring(book.read(WORKBOOK_PART))  # noqa: S314
    targets = {rel_id: part for rel_id, (_, part) in workbook_relations(book).items()}
    sheets: list[SheetInfo] = []
    date1904 = False
    for element in workbook.iter():
        tag = _local(element.tag)
        if tag == "workbookPr":
            date1904 = (element.get("date1904") or "").lower() in {"1", "true"}
        elif tag == "sheet":
            part = targets.get(_attribute(element, "id") or "", "")
            state = element.get("state", "visible")
            sheets.append(SheetInfo(element.get("name", ""), part, state in {"hidden", "veryHidden"}))
    return sheets, date1904


class XlsxFacts:
    """Opened once per workbook; :meth:`facts` reads one sheet's display facts."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._zip = zipfile.ZipFile(path)
        names = set(self._zip.namelist())
        self.sheets, self.date1904 = read_workbook(self._zip)
        self._formats = self._cell_formats(names)

    def close(self) -> None:
        """Release the file."""
        self._zip.close()

    def hidden_sheets(self) -> set[str]:
        """Names of the sheets Excel does not show (hidden or very hidden)."""
        return {sheet.name for sheet in self.sheets if sheet.hidden}

    def _cell_formats(self, names: set[str]) -> list[str | None]:
        """Number format code of each cell style (``cellXfs`` index), ``None`` for General."""
        if "xl/styles.xml" not in names:
            return []
        styles = ET.fromstring(self._zip.read("xl/styles.xml"))  # noqa: S314
        custom = {
            int(fmt.get("numFmtId", "0")): fmt.get("formatCode", "General")
            for fmt in styles.iter()
            if _local(fmt.tag) == "numFmt"
        }
        found: list[str | None] = []
        xfs = next((element for element in styles if _local(element.tag) == "cellXfs"), None)
        for xf in xfs if xfs is not None else []:
            number = int(xf.get("numFmtId", "0"))
            code = custom.get(number, BUILTIN_FORMATS.get(number))
            if code is None:
                # A locale's own built-in (ids 27-36, 50-81): the file does not say how it looks.
                code = f"{LOCALE_BUILTIN}{number}>"
            found.append(None if is_general(code) else code)
        return found

    def facts(self, sheet: str) -> SheetFacts:
        """Display facts of ``sheet``; raises :class:`SheetTooLargeError` for a runaway used range."""
        info = next((s for s in self.sheets if s.name == sheet), None)
        result = SheetFacts()
        if info is None or info.part not in self._zip.namelist():
            return result
        data = self._zip.read(info.part)
        prefix_match = _PREFIX.search(data)
        patterns = _patterns(prefix_match.group(1) or b"" if prefix_match else b"")
        rows, cols = _extent(data, patterns)
        if rows * cols > MAX_GRID_CELLS:
            data, corner = _trim(data, patterns, self._shared_blank(), sheet)
            result.trimmed = (info.part, data)
            result.note = (
                f"its used range reaches {cell_name(rows - 1, cols - 1)} although its values end at "
                f"{corner}; the blank cells beyond were ignored"
            )
        result.merged = xlsx_merged_ranges(data)
        if patterns.cell_without_ref.search(data):
            result.note = (result.note + "; " if result.note else "") + (
                "its cells carry no cell references, so number formats, error cells and uncached "
                "formulas were not checked"
            )
            return result
        self._collect_formats(data, patterns, result)
        if b't="e"' in data:
            _collect_errors(data, patterns, result)
        if b"f>" in data or b"f/>" in data:
            _collect_uncached(data, patterns, result)
        return result

    def _collect_formats(self, data: bytes, patterns: _Patterns, result: SheetFacts) -> None:
        formats = self._formats
        if not any(formats):
            return
        dates = {index: is_date_format(code) for index, code in enumerate(formats) if code is not None}
        styled = b"|".join(str(index).encode() for index in dates)
        # Only the cells whose style has a format: attributes in any order, r anywhere.
        cells = re.compile(
            rb"<" + re.escape(patterns.prefix) + rb'c\s([^>]*?(?<![\w:])s="(?:' + styled + rb')"[^>]*?)(/)?>'
        )
        for match in cells.finditer(data):
            attrs = match.group(1)
            style = _ATTR_S.search(attrs)
            if style is None:
                continue
            index = int(style.group(1))
            code = formats[index] if index < len(formats) else None
            if code is None or match.group(2):
                continue  # General, or a cell without a value
            kind_match = _ATTR_T.search(attrs)
            kind = kind_match.group(1) if kind_match else b"n"
            if kind not in {b"n", b"d"} and not (kind in {b"s", b"inlineStr", b"str"} and "@" in code):
                continue  # booleans, errors, and text under a format without a text section
            ref = _ATTR_R.search(attrs)
            if ref is None:
                continue
            key = (int(ref.group(2)) - 1, column_index(ref.group(1)))
            result.formats[key] = code
            if kind in {b"n", b"d"}:
                number = _stored_number(data, match.end(), patterns, kind)
                if number is not None:
                    if self.date1904 and dates.get(index):
                        number += DAYS_1900_TO_1904
                    result.numbers[key] = number

    def _shared_blank(self) -> list[bool]:
        """For each shared string, whether it is blank (read only for a runaway used range)."""
        if "xl/sharedStrings.xml" not in self._zip.namelist():
            return []
        blank: list[bool] = []
        root = ET.fromstring(self._zip.read("xl/sharedStrings.xml"))  # noqa: S314
        for item in root:
            if _local(item.tag) == "si":
                text = "".join(t.text or "" for t in item.iter() if _local(t.tag) == "t")
                blank.append(not text.strip())
        return blank


def _stored_number(data: bytes, at: int, patterns: _Patterns, kind: bytes) -> float | None:
    """The number a cell stores right after its start tag (a serial for ``t="d"`` ISO dates).

    calamine rounds date-formatted serials to a datetime, which can move 12:29:59.99 to 12:30,
    so the stored text is taken instead.
    """
    value = patterns.value.match(data, at) or patterns.value_after_formula.match(data, at)
    if value is None:
        return None
    text = value.group(1).decode("ascii", "replace").strip()
    try:
        if kind == b"d":
            return datetime_to_serial(datetime.fromisoformat(text.removesuffix("Z")))
        return float(text)
    except ValueError:
        return None


def _collect_errors(data: bytes, patterns: _Patterns, result: SheetFacts) -> None:
    for match in patterns.cell_body.finditer(data):
        attrs = match.group(1)
        kind = _ATTR_T.search(attrs)
        ref = _ATTR_R.search(attrs)
        if kind is None or kind.group(1) != b"e" or ref is None:
            continue
        value = re.search(rb"<(?:[\w.-]+:)?v>([^<]*)</", match.group(3))
        code = value.group(1).decode("utf-8", "replace") if value else "#VALUE!"
        result.issues.append(error_issue(int(ref.group(2)) - 1, column_index(ref.group(1)), code))


def _collect_uncached(data: bytes, patterns: _Patterns, result: SheetFacts) -> None:
    for match in patterns.formula_cell.finditer(data):
        attrs = match.group(1)
        kind = _ATTR_T.search(attrs)
        ref = _ATTR_R.search(attrs)
        if ref is None:
            continue
        if kind is not None and kind.group(1) == b"e":
            continue  # an error result: reported as such
        if match.group(2) is not None and kind is not None and kind.group(1) == b"str":
            continue  # a formula whose cached result is the empty string
        result.issues.append(uncached_issue(int(ref.group(2)) - 1, column_index(ref.group(1))))


class SheetTooLargeError(ValueError):
    """Real values lie so far apart that reading the sheet would exhaust memory."""


def _extent(data: bytes, patterns: _Patterns) -> tuple[int, int]:
    """Rows and columns of the rectangle from A1 to the farthest cell element of the sheet.

    The ``<dimension>`` element is not trusted (writers leave it stale); rows are written in
    order, so the last ``<row>`` is the farthest, and one C-speed scan finds the widest column.
    """
    last_row = data.rfind(patterns.last_row)
    row_match = _ROW_NUMBER.search(data, last_row, last_row + 200) if last_row >= 0 else None
    max_row = int(row_match.group(1)) if row_match else 0
    letters = patterns.column_letters.findall(data)
    widest = max(letters, key=lambda text: (len(text), text), default=b"")
    return max_row, (column_index(widest) + 1 if widest else 0)


def _trim(data: bytes, patterns: _Patterns, blank_shared: list[bool], sheet: str) -> tuple[bytes, str]:
    """``data`` without the blank cells beyond the block of real values; refuse a runaway block."""
    max_row = max_col = 0
    for match in patterns.valued_cell.finditer(data):
        attrs, value, text = match.group(1), match.group(2), match.group(3)
        ref = _ATTR_R.search(attrs)
        if ref is None:
            continue
        kind = _ATTR_T.search(attrs)
        if kind is not None and kind.group(1) == b"s" and value is not None:
            index = int(value.strip() or b"0")
            if index < len(blank_shared) and blank_shared[index]:
                continue
        elif (text if text is not None else value or b"").strip() == b"":
            continue
        max_row = max(max_row, int(ref.group(2)))
        max_col = max(max_col, column_index(ref.group(1)) + 1)
    if max_row * max_col > MAX_GRID_CELLS:
        far = cell_name(max_row - 1, max_col - 1)
        raise SheetTooLargeError(
            f"sheet '{sheet}' has values as far apart as A1 and {far}: reading that range would take "
            f"about {_memory(max_row * max_col * 32)} of memory. Delete the stray values far from the "
            "table (Ctrl+End in Excel shows the last used cell) and import again."
        )

    def keep(match: re.Match[bytes]) -> bytes:
        ref = _ATTR_R.search(match.group(1))
        if ref is None:
            return match.group(0)
        inside = int(ref.group(2)) <= max_row and column_index(ref.group(1)) < max_col
        return match.group(0) if inside else b""

    corner = cell_name(max(max_row - 1, 0), max(max_col - 1, 0))
    trimmed = patterns.whole_cell.sub(keep, data)
    dimension = b"<" + patterns.prefix + b'dimension ref="A1:' + corner.encode() + b'"'
    trimmed = patterns.dimension.sub(dimension, trimmed, count=1)
    return trimmed, corner


def _memory(size: int) -> str:
    """``512 GiB``, ``1.3 GiB`` or ``640 MB``: a memory size for a message."""
    if size >= 10 * 2**30:
        return f"{size / 2**30:,.0f} GiB"
    if size >= 2**30:
        return f"{size / 2**30:.1f} GiB"
    return f"{size / 2**20:,.0f} MB"

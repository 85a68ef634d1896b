"""Find the first cell longer than Excel's limit in a workbook's XML, reading it as a stream.

calamine unpacks a whole part and copies a shared string into every cell that uses it, so a
string too long for any cell must be found before calamine sees the file, and found without
holding it: every scan here reads the part in pieces from the zip archive and stops at the
first text over :data:`~goldenlens.io.sheets.limits.cell_limit.MAX_CELL_CHARS` characters.

* every .xlsx shared-strings part is first measured at C speed
  (:func:`~goldenlens.io.sheets.limits.repeated_strings.string_sizes`): no ``<si>`` element
  longer than the limit in bytes (a character is at least a byte) clears it;
* the expat scans (:func:`first_long_shared_string`, :func:`first_long_sheet_cell`,
  :func:`first_long_ods_cell`) count characters exactly, for a part the quick check could not
  clear or whose declared size is out of proportion; ``budget`` bounds the bytes they read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import IO
from xml.parsers import expat

from goldenlens.io.sheets.limits.cell_limit import MAX_CELL_CHARS
from goldenlens.io.sheets.sheet_facts import column_index

_CHUNK = 1 << 20


class DeclaredTypeError(ValueError):
    """A part holds a document type declaration, which no spreadsheet writes (and whose
    entities could expand without bound)."""


@dataclass(frozen=True)
class LongCell:
    """Where the scan stopped: a 0-based ``index`` of a shared string, or a cell's ``sheet``
    (ODS only; an .xlsx sheet part is one sheet), 0-based ``row`` and ``col``."""

    index: int = -1
    sheet: str = ""
    row: int = -1
    col: int = -1


class _FoundError(Exception):
    def __init__(self, cell: LongCell) -> None:
        super().__init__()
        self.cell = cell


def _local(name: str) -> str:
    return name.rpartition(":")[2]


def _scan(
    stream: IO[bytes],
    budget: int | None,
    start: Callable[[str, dict[str, str]], None],
    end: Callable[[str], None],
    text: Callable[[str], None],
) -> tuple[LongCell | None, bool]:
    """Feed ``stream`` to expat with the three handlers; (the cell a handler found, whether
    the whole stream was read within ``budget`` bytes)."""
    parser = expat.ParserCreate()
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text

    def refuse_doctype(*_: object) -> None:
        raise DeclaredTypeError("a part declares a document type (DTD), which no spreadsheet writes")

    parser.StartDoctypeDeclHandler = refuse_doctype
    read = 0
    try:
        while chunk := stream.read(_CHUNK):
            read += len(chunk)
            parser.Parse(chunk, False)
            if budget is not None and read >= budget:
                return None, False
        parser.Parse(b"", True)
    except _FoundError as found:
        return found.cell, True
    except expat.ExpatError:
        return None, False  # not well-formed: the reader reports the damage
    return None, True


def first_long_shared_string(stream: IO[bytes], budget: int | None = None) -> tuple[LongCell | None, bool]:
    """The first shared string over the limit (its 0-based ``index``), and whether the part
    was read to its end. Phonetic runs (``<rPh>``), which Excel does not show, do not count."""
    index, count, in_text, phonetic = -1, 0, False, 0

    def start(name: str, _: dict[str, str]) -> None:
        nonlocal index, count, in_text, phonetic
        local = _local(name)
        if local == "si":
            index, count = index + 1, 0
        elif local == "t":
            in_text = True
        elif local == "rPh":
            phonetic += 1

    def end(name: str) -> None:
        nonlocal in_text, phonetic
        local = _local(name)
        if local == "t":
            in_text = False
        elif local == "rPh":
            phonetic -= 1

    def text(data: str) -> None:
        nonlocal count
        if in_text and not phonetic:
            count += len(data)
            if count > MAX_CELL_CHARS:
                raise _FoundError(LongCell(index=index))

    return _scan(stream, budget, start, end, text)


def first_long_sheet_cell(stream: IO[bytes], budget: int | None = None) -> tuple[LongCell | None, bool]:
    """The first cell of an .xlsx sheet part whose own text (an inline string, a formula's
    text result) is over the limit, and whether the part was read to its end."""
    row, col, count, counting = -1, -1, 0, False
    kind = ""

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal row, col, count, counting, kind
        local = _local(name)
        if local == "row":
            number = attrs.get("r", "")
            row, col = (int(number) - 1 if number.isdigit() else row + 1), -1
        elif local == "c":
            ref = attrs.get("r", "")
            letters = ref.rstrip("0123456789")
            col = column_index(letters) if letters.isalpha() and letters.isupper() else col + 1
            count, kind = 0, attrs.get("t", "n")
        elif (local == "t" and kind == "inlineStr") or (local == "v" and kind == "str"):
            counting = True

    def end(name: str) -> None:
        nonlocal counting
        if _local(name) in {"t", "v"}:
            counting = False

    def text(data: str) -> None:
        nonlocal count
        if counting:
            count += len(data)
            if count > MAX_CELL_CHARS:
                raise _FoundError(LongCell(row=row, col=col))

    return _scan(stream, budget, start, end, text)


_TABLE_NS = "table:"
_CELLS = frozenset({f"{_TABLE_NS}table-cell", f"{_TABLE_NS}covered-table-cell"})
_PARAGRAPHS = frozenset({"text:p", "text:h"})


def first_long_ods_cell(stream: IO[bytes], budget: int | None = None) -> tuple[LongCell | None, bool]:
    """The first cell of an .ods ``content.xml`` whose paragraphs hold more than the limit
    (a comment's do not count), and whether the part was read to its end.

    Rows and columns count repeats (``number-rows-repeated``, ``number-columns-repeated``) as
    LibreOffice shows them. ODF writers use the ``table:`` and ``office:`` prefixes."""
    sheet = ""
    row, col, span, count = -1, 0, 1, 0
    rows_repeated = 1
    in_cell, paragraph, annotation = False, 0, 0

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal sheet, row, col, span, count, rows_repeated, in_cell, paragraph, annotation
        if name == f"{_TABLE_NS}table":
            sheet, row, rows_repeated = attrs.get(f"{_TABLE_NS}name", ""), -1, 1
        elif name == f"{_TABLE_NS}table-row":
            row += rows_repeated
            rows_repeated = _count(attrs.get(f"{_TABLE_NS}number-rows-repeated"))
            col, span = 0, 0
        elif name in _CELLS:
            col += span
            span = _count(attrs.get(f"{_TABLE_NS}number-columns-repeated"))
            in_cell, paragraph, count = True, 0, 0
        elif name == "office:annotation":
            annotation += 1
        elif name in _PARAGRAPHS:
            paragraph += 1
        elif in_cell and paragraph and not annotation:
            if name == "text:s":
                add(_count(attrs.get("text:c")))
            elif name in {"text:tab", "text:line-break"}:
                add(1)

    def end(name: str) -> None:
        nonlocal in_cell, paragraph, annotation
        if name in _CELLS:
            in_cell = False
        elif name == "office:annotation":
            annotation -= 1
        elif name in _PARAGRAPHS:
            paragraph -= 1

    def add(length: int) -> None:
        nonlocal count
        count += length
        if count > MAX_CELL_CHARS:
            raise _FoundError(LongCell(sheet=sheet, row=max(row, 0), col=col))

    def text(data: str) -> None:
        if in_cell and paragraph and not annotation:
            add(len(data))

    return _scan(stream, budget, start, end, text)


def _count(value: str | None) -> int:
    """A repeat count attribute (1 when absent or not a number)."""
    return int(value) if value is not None and value.isdigit() and int(value) > 0 else 1

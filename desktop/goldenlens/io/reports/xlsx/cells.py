"""Safe cells for .xlsx exports, and saving without ever leaving a half-written file.

Every text cell a GoldenLens workbook writes goes through :func:`text_cell` or
:func:`rich_text_cell`, so one set of rules covers every sheet:

- A ``str`` is always stored as a string. openpyxl turns a str starting with ``=`` into a
  formula, and Excel would run ``=HYPERLINK(...)`` from a golden answer; ``"0012"``,
  ``"1e5"`` and ``"+1"`` stay text too.
- Characters XML 1.0 cannot hold (C0 controls other than tab, newline and CR; lone
  surrogates; U+FFFE/U+FFFF) are refused with the row and column: openpyxl raises a bare
  ``IllegalCharacterError`` for some and writes a file nobody can open for the others.
- Text longer than Excel's 32,767-character cell limit is refused: openpyxl would truncate
  it silently.
- Text that starts or ends with whitespace is marked ``xml:space="preserve"`` even when it is
  only whitespace (openpyxl marks it only when there is something else): otherwise Excel and
  calamine drop it, and the space between two coloured words in a rich-text cell vanishes.
- CR and literal ``_xHHHH_`` sequences are escaped as OOXML ``ST_Xstring`` requires: an XML
  parser turns a raw CR into LF, and Excel and calamine decode ``_xHHHH_``. openpyxl's reader
  (default mode) does not decode; whoever reads these files with openpyxl applies
  ``openpyxl.utils.escape.unescape``, which inverts :func:`escape_text` exactly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from contextlib import suppress
from copy import deepcopy
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from zipfile import ZIP_DEFLATED, ZipFile

from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import Cell
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.utils import get_column_letter
from openpyxl.workbook import Workbook
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.writer.excel import ExcelWriter
from openpyxl.xml.functions import Element, SubElement

from goldenlens.io.atomic_files import ExportError, write_atomically
from goldenlens.io.reports.xlsx.style import CellStyle

MAX_CELL_CHARS = 32_767

_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_TO_ESCAPE = re.compile(r"\r|_(?=x[0-9A-Fa-f]{4}_)")
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
# id(font) -> (font, its <rPr> element); the font is kept so its id cannot be reused.
_RUN_PROPERTIES: dict[int, tuple[InlineFont, Element]] = {}
_RUN_PROPERTIES_MAX = 256


@dataclass(frozen=True, slots=True)
class RowRef:
    """Where a row lands in the workbook, for error messages: made once per row, cheaply."""

    sheet: str
    row: int
    headers: Sequence[str] = ()
    item_id: str | None = None
    pipeline: str | None = None

    def column_name(self, col: int) -> str:
        """``'answer' (C)`` when the column has a header, else just the letter."""
        letter = get_column_letter(col)
        return f"'{self.headers[col - 1]}' ({letter})" if col <= len(self.headers) else letter

    def describe(self, col: int) -> str:
        """``sheet 'Scores', row 9 (id 'q03', pipeline 'Pipeline2'), column 'response' (L)``."""
        who = []
        if self.item_id is not None:
            who.append(f"id '{self.item_id}'")
        if self.pipeline:
            who.append(f"pipeline '{self.pipeline}'")
        ident = f" ({', '.join(who)})" if who else ""
        return f"sheet '{self.sheet}', row {self.row}{ident}, column {self.column_name(col)}"

    def error(self, col: int, problem: str) -> ExportError:
        """The :class:`ExportError` for ``problem`` in column ``col`` of this row."""
        header = self.headers[col - 1] if col <= len(self.headers) else get_column_letter(col)
        return ExportError(
            f"Cannot export {self.describe(col)}: {problem} Nothing was written.",
            sheet=self.sheet,
            row=self.row,
            column=header,
            item_id=self.item_id,
        )


def excel_length(text: str) -> int:
    """Length as Excel counts it (UTF-16 code units: an emoji counts 2)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def check_text(text: str, where: RowRef, col: int) -> None:
    """Raise :class:`ExportError` if ``text`` cannot be stored exactly in one cell."""
    length = excel_length(text)
    if length > MAX_CELL_CHARS:
        raise where.error(
            col,
            f"the text is {length:,} characters long and an Excel cell holds at most {MAX_CELL_CHARS:,}; "
            "shorten it (the export never truncates).",
        )
    bad = _ILLEGAL.search(text)
    if bad is not None:
        raise where.error(
            col,
            f"character {bad.start() + 1} is U+{ord(bad.group()):04X}, a control character an .xlsx file "
            "cannot store; remove it from the text.",
        )
    if "\r" in text or "_x" in text:
        _check_escaped_length(len(escape_text(text)), where, col)


def _check_escaped_length(escaped_length: int, where: RowRef, col: int) -> None:
    # openpyxl silently cuts a str value at 32,767 code points, and escaping lengthens the
    # stored text (CR becomes "_x000D_"): refuse rather than let that cut happen. Escaping a
    # rich-text cell run by run never escapes more than escaping the joined text, so checking
    # the joined text covers rich text too.
    if escaped_length > MAX_CELL_CHARS:
        raise where.error(
            col,
            f"once its carriage returns and '_x' sequences are escaped for Excel the text takes "
            f"{escaped_length:,} characters, "
            f"more than the {MAX_CELL_CHARS:,} a cell holds; shorten it (the export never truncates).",
        )


def escape_text(text: str) -> str:
    """OOXML-escape CR and literal ``_xHHHH_`` so Excel and calamine read ``text`` back exactly."""
    if "\r" not in text and "_x" not in text:
        return text
    return _TO_ESCAPE.sub(lambda m: "_x000D_" if m.group() == "\r" else "_x005F_", text)


def _text_element(parent: Element, text: str) -> None:
    t = SubElement(parent, "t")
    t.text = text
    if text != text.strip():
        t.set(_XML_SPACE, "preserve")


def _run_properties(font: InlineFont) -> Element:
    # Serialising a font through openpyxl's generic machinery costs more than writing the
    # rest of the run; a report has a handful of fonts and hundreds of thousands of runs.
    cached = _RUN_PROPERTIES.get(id(font))
    if cached is None:
        if len(_RUN_PROPERTIES) >= _RUN_PROPERTIES_MAX:
            _RUN_PROPERTIES.clear()
        cached = _RUN_PROPERTIES[id(font)] = (font, font.to_tree(tagname="rPr"))
    # A copy: with lxml installed an element moves when appended to a second parent.
    return deepcopy(cached[1])


class _InlineString(CellRichText):
    """A cell string that writes its own ``<is>`` element (openpyxl asks rich text for it).

    A single plain string becomes ``<is><t>``; anything else becomes runs. Every ``<t>`` that
    starts or ends with whitespace is marked preserve, which openpyxl's writer skips for
    whitespace-only text.
    """

    def to_tree(self) -> Element:
        container = Element("is")
        if len(self) == 1 and isinstance(self[0], str):
            _text_element(container, self[0])
            return container
        for piece in self:
            run = SubElement(container, "r")
            if isinstance(piece, TextBlock):
                run.append(_run_properties(piece.font))
                _text_element(run, piece.text)
            else:
                _text_element(run, piece)
        return container


def text_cell(
    ws: WriteOnlyWorksheet, text: str, where: RowRef, col: int, style: CellStyle | None = None
) -> Cell:
    """A cell that stores ``text`` as text, whatever it looks like (checked, escaped)."""
    check_text(text, where, col)
    escaped = escape_text(text)
    if escaped and not escaped.strip():
        cell = WriteOnlyCell(ws)
        cell.value = _InlineString([escaped])
    else:
        cell = WriteOnlyCell(ws, escaped)
        # openpyxl typed "=..." as a formula when the value was set; a golden answer never is one.
        cell.data_type = "s"
    if style is not None:
        style.apply(cell)
    return cell


def rich_text_cell(
    ws: WriteOnlyWorksheet,
    runs: Sequence[tuple[str, InlineFont | None]],
    where: RowRef,
    col: int,
    style: CellStyle | None = None,
) -> Cell:
    """A rich-text cell from ``(text, font)`` runs; ``None`` font means the cell's own font.

    The joined text is checked like any text cell; each run is escaped on its own because Excel
    decodes every run's ``<t>`` element separately.
    """
    check_text("".join(text for text, _ in runs), where, col)
    escaped = [(escape_text(text), font) for text, font in runs if text]
    cell = WriteOnlyCell(ws)
    if escaped:
        cell.value = _InlineString(
            [text if font is None else TextBlock(font, text) for text, font in escaped]
        )
    if style is not None:
        style.apply(cell)
    return cell


def number_cell(
    ws: WriteOnlyWorksheet, value: float | None, where: RowRef, col: int, style: CellStyle | None = None
) -> Cell:
    """A numeric cell; ``None`` is a blank. NaN/inf are refused: Excel cannot open them."""
    if value is not None and not math.isfinite(value):
        raise where.error(col, f"the score is {value}, which Excel cannot store.")
    if isinstance(value, float):
        # openpyxl writes floats with "%.16g", which loses the 17th digit (0.45454545454545453
        # comes back as 0.4545454545454545); repr() is the shortest text that reads back to the
        # same double, so a re-read report matches the app's scores bit for bit.
        cell = WriteOnlyCell(ws, repr(value))
        cell.data_type = "n"
    else:
        cell = WriteOnlyCell(ws, value)
    if style is not None:
        style.apply(cell)
    return cell


def save_atomically(workbook: Workbook, path: Path) -> None:
    """Save to a temporary file beside ``path``, then rename it over ``path``.

    A failure at any point (a full disk included) raises :class:`ExportError`, leaves an
    existing ``path`` as it was and no partial file behind (see
    :func:`~goldenlens.io.atomic_files.write_atomically`).
    """
    try:
        write_atomically(Path(path), lambda temporary: _save_workbook(workbook, temporary))
    except BaseException:
        discard_streams(workbook)
        raise


def _save_workbook(workbook: Workbook, path: Path) -> None:
    """``Workbook.save``, except that a failed save closes its zip archive at once.

    openpyxl leaves the archive open when writing fails (a full disk, say); the ZipFile then
    finishes the file when it is garbage-collected, fails again, and Python prints
    "Exception ignored ... No space left on device" with a traceback after our one-line
    message. These are the lines of ``openpyxl.writer.excel.save_workbook`` plus that close.
    """
    if workbook.write_only and not workbook.worksheets:
        workbook.create_sheet()
    archive = ZipFile(path, "w", ZIP_DEFLATED, allowZip64=True)
    try:
        workbook.properties.modified = datetime.now(tz=UTC).replace(tzinfo=None)
        ExcelWriter(workbook, archive).save()
    except BaseException:
        with suppress(OSError, ValueError):
            archive.close()  # sets archive.fp to None even when it fails: nothing is left to finish
        raise


def discard_streams(workbook: Workbook) -> None:
    """Delete the temporary files a write-only workbook streamed its rows to.

    Called when an export stops half way: openpyxl would otherwise keep them until the
    interpreter exits (a long-running app may export many times), and an abandoned row
    stream complains when it is garbage-collected. Safe to call more than once.
    """
    for ws in workbook.worksheets:
        rows = getattr(ws, "_rows", None)
        writer = getattr(ws, "_writer", None)
        try:
            if rows is not None:
                rows.close()
            if writer is not None:
                writer.close()
                writer.cleanup()
        except (OSError, ValueError, RuntimeError):
            # Already closed or removed; openpyxl's own atexit hook removes anything left.
            continue

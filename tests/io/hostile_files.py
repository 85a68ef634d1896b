"""Workbooks built to hurt, written part by part with :mod:`zipfile` (no spreadsheet library
writes them): the 410 KB .xlsx whose one shared string unpacks to 400 MB, its .ods twin, and
ordinary workbooks with one cell just over Excel's 32,767 characters.

A golden set of 30 questions: ``id, question, answer, fact`` in row 1, ``q2`` … ``q31`` in
column A of rows 2-31; the text under test is the question (column B) of the rows chosen.
The huge text is streamed into the archive a mebibyte at a time, so writing a bomb never holds it.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO

HEADER = ("id", "question", "answer", "fact")
ROWS = range(2, 32)  # Excel rows of the 30 questions
ODS_ROWS = range(4, 34)  # and of an .ods file's (below two blank rows)
MIB = 2**20

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    "</Types>"
)
_PACKAGE_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Target="xl/workbook.xml" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/>'
    "</Relationships>"
)
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="{sheet}" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Target="worksheets/sheet1.xml" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/>'
    '<Relationship Id="rId2" Target="sharedStrings.xml" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"/>'
    "</Relationships>"
)
_SST_START = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)
_SHEET_START = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
)


def _inline(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def _stream_text(handle: IO[bytes], length: int, char: bytes = b"A") -> None:
    """Write ``length`` copies of ``char`` a mebibyte at a time."""
    block = char * MIB
    for _ in range(length // MIB):
        handle.write(block)
    handle.write(char * (length % MIB))


def write_xlsx(
    path: Path,
    *,
    shared_length: int = 8,
    shared_rows: Iterable[int] = (),
    inline_length: int = 0,
    inline_row: int = 0,
    sheet: str = "Sheet1",
) -> Path:
    """A golden-set workbook whose question cells in ``shared_rows`` show one shared string of
    ``shared_length`` characters and whose question in ``inline_row`` is an inline string of
    ``inline_length`` characters; every other question is ``Question N?``."""
    shared = set(shared_rows)
    rows = [
        '<row r="1">' + "".join(f'<c r="{c}1" t="s"><v>{i}</v></c>' for i, c in enumerate("ABCD")) + "</row>"
    ]
    for r in ROWS:
        if r in shared:
            question = f'<c r="B{r}" t="s"><v>4</v></c>'
        elif r == inline_row:
            question = _inline(f"B{r}", "Q" * inline_length)
        else:
            question = _inline(f"B{r}", f"Question {r}?")
        cells = _inline(f"A{r}", f"q{r}") + question + _inline(f"C{r}", "yes") + _inline(f"D{r}", "yes")
        rows.append(f'<row r="{r}">{cells}</row>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as book:
        book.writestr("[Content_Types].xml", _CONTENT_TYPES)
        book.writestr("_rels/.rels", _PACKAGE_RELS)
        book.writestr("xl/workbook.xml", _WORKBOOK.format(sheet=sheet))
        book.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        book.writestr("xl/worksheets/sheet1.xml", _SHEET_START + "".join(rows) + "</sheetData></worksheet>")
        with book.open("xl/sharedStrings.xml", "w", force_zip64=True) as handle:
            handle.write((_SST_START + "".join(f"<si><t>{name}</t></si>" for name in HEADER)).encode())
            handle.write(b"<si><t>")
            _stream_text(handle, shared_length)
            handle.write(b"</t></si></sst>")
    return path


def write_xlsx_bomb(path: Path, size: int = 400 * MIB) -> Path:
    """The issue's 410 KB workbook: one shared string of ``size`` characters in 30 cells."""
    return write_xlsx(path, shared_length=size, shared_rows=ROWS)


def write_xlsx_repeated(
    path: Path, *, cells: int, length: int, cell: str = '<c r="B{r}" t="s"><v>{i}</v></c>', empties: int = 0
) -> Path:
    """A workbook whose question column names one shared string of ``length`` characters (within
    a cell's limit) in ``cells`` rows: small on disk and in every part, yet ``cells x length``
    characters of cell text once a reader copies the string into each cell. ``cell`` is the
    markup of each such cell (``{r}`` its row, ``{i}`` the string's index); ``empties`` empty
    ``<si/>`` strings stand before the long one."""
    header = "".join(f'<c r="{c}1" t="s"><v>{i}</v></c>' for i, c in enumerate("ABCD"))
    rows = [f'<row r="1">{header}</row>']
    index = len(HEADER) + empties
    rows += [f'<row r="{r}">' + cell.format(r=r, i=index) + "</row>" for r in range(2, cells + 2)]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as book:
        book.writestr("[Content_Types].xml", _CONTENT_TYPES)
        book.writestr("_rels/.rels", _PACKAGE_RELS)
        book.writestr("xl/workbook.xml", _WORKBOOK.format(sheet="Sheet1"))
        book.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        book.writestr("xl/worksheets/sheet1.xml", _SHEET_START + "".join(rows) + "</sheetData></worksheet>")
        strings = "".join(f"<si><t>{name}</t></si>" for name in HEADER) + "<si/>" * empties
        strings += f"<si><t>{'R' * length}</t></si>"
        book.writestr("xl/sharedStrings.xml", _SST_START + strings + "</sst>")
    return path


_ODS_MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"
_ODS_MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
    'manifest:version="1.2">'
    f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{_ODS_MIMETYPE}"/>'
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    "</manifest:manifest>"
)
_ODS_START = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
    '<office:body><office:spreadsheet><table:table table:name="{sheet}">'
)


def _ods_cell(text: str) -> str:
    return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'


def write_ods(path: Path, *, long_row: int, length: int, sheet: str = "Golden") -> Path:
    """A golden-set .ods whose question in row ``long_row`` has ``length`` characters.

    Rows 2-3 are one blank row repeated (so the row count must follow repeats); the questions
    ``q4`` … ``q33`` fill rows 4-33 (:data:`ODS_ROWS`)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as book:
        book.writestr(zipfile.ZipInfo("mimetype"), _ODS_MIMETYPE, compress_type=zipfile.ZIP_STORED)
        book.writestr("META-INF/manifest.xml", _ODS_MANIFEST)
        with book.open("content.xml", "w", force_zip64=True) as handle:
            handle.write(_ODS_START.format(sheet=sheet).encode())
            handle.write(
                ("<table:table-row>" + "".join(map(_ods_cell, HEADER)) + "</table:table-row>").encode()
            )
            handle.write(
                b'<table:table-row table:number-rows-repeated="2"><table:table-cell/></table:table-row>'
            )
            for r in ODS_ROWS:
                handle.write(f"<table:table-row>{_ods_cell(f'q{r}')}".encode())
                if r == long_row:
                    handle.write(b'<table:table-cell office:value-type="string"><text:p>')
                    _stream_text(handle, length)
                    handle.write(b"</text:p></table:table-cell>")
                else:
                    handle.write(_ods_cell(f"Question {r}?").encode())
                handle.write((_ods_cell("yes") * 2 + "</table:table-row>").encode())
            handle.write(b"</table:table></office:spreadsheet></office:body></office:document-content>")
    return path


def write_responses_csv(path: Path, rows: Iterable[int] = ROWS) -> Path:
    """Pipeline ``A`` answers ``yes`` to questions ``q<row>``."""
    lines = ["question_id,pipeline,response", *(f"q{r},A,yes" for r in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path

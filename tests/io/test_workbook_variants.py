"""Valid workbooks written differently from openpyxl's defaults still read as displayed.

The 1904 date system, ISO-date cells, attributes in another order, namespace-prefixed
SpreadsheetML (as the OpenXML SDK writes it), locale built-in formats the file does not
define, comments in .ods cells, legacy .xls built-in dates, and dates past the year 9999.
Each workbook is written by the test; expected displays are those LibreOffice Calc shows for
the same cells (checked by hand with ``soffice --convert-to csv``) or Excel's documented ones.
"""

from __future__ import annotations

import re
import zipfile
from datetime import datetime
from pathlib import Path

import pytest
from openpyxl import Workbook
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from goldenlens.core.problems import Severity
from goldenlens.io.sheets.spreadsheet_reader import read_table

SHEET = "xl/worksheets/sheet1.xml"


def _dated(path: Path, **book_options: object) -> Path:
    wb = Workbook(**book_options)  # type: ignore[arg-type]
    ws = wb.active
    assert ws is not None
    ws.append(["question", "answer", "share"])
    ws.append(["When?", datetime(2023, 2, 22, 18, 30), 0.5])
    ws["B2"].number_format = "mmmm d, yyyy h:mm AM/PM"
    ws["C2"].number_format = "0%"
    return path


def test_a_1904_date_system_workbook_shows_its_real_dates(tmp_path: Path) -> None:
    wb = Workbook()
    wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    assert ws is not None
    ws.append(["question", "answer"])
    ws.append(["When?", datetime(2023, 2, 22)])
    ws["B2"].number_format = "mmmm d, yyyy"
    path = tmp_path / "mac.xlsx"
    wb.save(path)
    assert b'date1904="1"' in zipfile.ZipFile(path).read("xl/workbook.xml")
    assert read_table(path).rows == (("When?", "February 22, 2023"),)


def test_iso_date_cells_follow_their_format(tmp_path: Path) -> None:
    path = tmp_path / "iso.xlsx"
    wb = Workbook(iso_dates=True)
    ws = wb.active
    assert ws is not None
    ws.append(["question", "answer"])
    ws.append(["When?", datetime(2023, 2, 22, 18, 30)])
    ws["B2"].number_format = "m/d/yyyy h:mm AM/PM"
    wb.save(path)
    assert b't="d"' in zipfile.ZipFile(path).read(SHEET)
    assert read_table(path).rows == (("When?", "2/22/2023 6:30 PM"),)


def _rewrite(source: Path, target: Path, edit: object) -> Path:
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == SHEET:
                data = edit(data)  # type: ignore[operator]
            out.writestr(item.filename, data)
    return target


def _formatted_book(path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["question", "share", "note"])
    ws.append(["How much?", 0.5, "=1/0"])
    ws["B2"].number_format = "0%"
    wb.save(path)
    # A computed error value, as Excel saves it: <c t="e"> with its cached text.
    return _rewrite(
        path,
        path.with_name("base.xlsx"),
        lambda d: d.replace(b"<f>1/0</f><v />", b"<f>1/0</f><v>#DIV/0!</v>").replace(
            b'r="C2"', b'r="C2" t="e"'
        ),
    )


def _prefixed(data: bytes) -> bytes:
    data = re.sub(rb"<(/?)([A-Za-z]+)([\s>/])", rb"<\1x:\2\3", data)
    return data.replace(
        b'<x:worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"',
        b'<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"',
    )


@pytest.mark.parametrize(
    ("name", "edit"),
    [
        ("style before reference", lambda d: re.sub(rb'<c r="(\w+)" s="(\d+)"', rb'<c s="\2" r="\1"', d)),
        (
            "type between reference and style",
            lambda d: d.replace(b'<c r="B2" s="1" t="n">', b'<c r="B2" t="n" s="1">'),
        ),
        ("namespace prefix", _prefixed),
    ],
)
def test_cells_written_differently_are_read_the_same(tmp_path: Path, name: str, edit: object) -> None:
    base = _formatted_book(tmp_path / "book.xlsx")
    variant = _rewrite(base, tmp_path / "variant.xlsx", edit)
    assert zipfile.ZipFile(variant).read(SHEET) != zipfile.ZipFile(base).read(SHEET)
    for path in (base, variant):
        table = read_table(path)
        assert table.rows == (("How much?", "50%", ""),), name
        (error,) = [p for p in table.problems if p.severity is Severity.ERROR]
        assert (error.row, error.column) == (2, "note")
        assert "shows the error #DIV/0!" in error.message


def test_a_locale_builtin_format_is_reported_not_garbled(tmp_path: Path) -> None:
    base = _formatted_book(tmp_path / "book.xlsx")
    variant = tmp_path / "locale.xlsx"
    with zipfile.ZipFile(base) as src, zipfile.ZipFile(variant, "w") as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/styles.xml":
                data = data.replace(b'numFmtId="9"', b'numFmtId="31"')  # a CJK built-in date
            out.writestr(item.filename, data)
    table = read_table(variant)
    assert table.rows[0][1] == "0.5"  # General, not "<built-in for2at 31>"
    (warning,) = [p for p in table.problems if p.severity is Severity.WARNING]
    assert (warning.row, warning.column) == (2, "share")
    assert "locale's own format" in warning.message


def test_a_date_past_9999_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["question", "answer"])
    ws.append(["Big?", 3_000_000])
    ws["B2"].number_format = "m/d/yyyy"
    path = tmp_path / "big.xlsx"
    wb.save(path)
    table = read_table(path)
    assert table.rows == (("Big?", "3000000"),)
    assert any("after the year 9999" in p.message for p in table.problems)


def test_a_comment_is_not_part_of_an_ods_cell(tmp_path: Path) -> None:
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        '<office:body><office:spreadsheet><table:table table:name="S">'
        '<table:table-row><table:table-cell office:value-type="string"><text:p>question</text:p>'
        '</table:table-cell><table:table-cell office:value-type="string"><text:p>share</text:p>'
        "</table:table-cell></table:table-row>"
        '<table:table-row><table:table-cell office:value-type="string"><text:p>How much?</text:p>'
        "</table:table-cell>"
        '<table:table-cell office:value-type="percentage" office:value="0.5">'
        "<office:annotation><text:p>check this value</text:p></office:annotation><text:p>50%</text:p>"
        "</table:table-cell></table:table-row></table:table></office:spreadsheet></office:body>"
        "</office:document-content>"
    )
    path = tmp_path / "comment.ods"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr(
            "META-INF/manifest.xml",
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
            '<manifest:file-entry manifest:full-path="/" '
            'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>",
        )
        archive.writestr("content.xml", content)
    assert read_table(path).rows == (("How much?", "50%"),)


def test_legacy_xls_builtin_short_date_is_shown_as_excel_does(tmp_path: Path) -> None:
    xlwt = pytest.importorskip("xlwt")
    book = xlwt.Workbook()
    sheet = book.add_sheet("S")
    sheet.write(0, 0, "question")
    sheet.write(0, 1, "answer")
    sheet.write(1, 0, "When?")
    sheet.write(1, 1, datetime(2023, 2, 22), xlwt.easyxf(num_format_str="M/D/YY"))  # built-in id 14
    path = tmp_path / "old.xls"
    book.save(str(path))
    # Built-in 14 is the system's short date: m/d/yyyy in en-US Excel (and in LibreOffice).
    assert read_table(path).rows == (("When?", "2/22/2023"),)

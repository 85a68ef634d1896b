"""Files built to hurt are refused before they cost memory, naming the file, sheet and cell;
ordinary workbooks with cells up to Excel's 32,767 characters still read exactly.

The workbooks are written part by part (tests/io/hostile_files.py): the issue's 410 KB .xlsx
whose one shared string unpacks to 400 MB, its .ods twin, parts out of proportion, and cells
just over the limit in every format the readers take.
"""

from __future__ import annotations

import csv
import io
import struct
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook
from tests.io.hostile_files import MIB, ROWS, write_ods, write_xlsx, write_xlsx_bomb, write_xlsx_repeated

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.sheets.limits.cell_limit import MAX_CELL_CHARS
from goldenlens.io.sheets.limits.long_cell_scan import first_long_shared_string
from goldenlens.io.sheets.limits.package_guard import MAX_RATIO
from goldenlens.io.sheets.limits.repeated_strings import string_sizes
from goldenlens.io.sheets.spreadsheet_reader import read_table


def _refusal(path: Path) -> InputError:
    with pytest.raises(InputError) as caught:
        read_table(path)
    problem = caught.value.problem
    assert problem.severity is Severity.FATAL
    assert problem.file == path.name
    assert "32,767" in problem.message or "unpack" in problem.message or "DTD" in problem.message
    return caught.value


@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_xlsx_bomb(tmp_path_factory.mktemp("bomb") / "golden.xlsx")


def test_the_shared_string_bomb_is_refused_naming_its_cells(bomb: Path) -> None:
    assert bomb.stat().st_size < 450_000  # the 410 KB file
    with zipfile.ZipFile(bomb) as book:
        assert book.getinfo("xl/sharedStrings.xml").file_size > 400 * MIB
    problem = _refusal(bomb).problem
    assert (problem.sheet, problem.row) == ("Sheet1", 2)
    assert "cell Sheet1!B2 (and 29 other cells with the same text)" in problem.message
    assert "more than the 32,767 characters a spreadsheet cell can hold" in problem.message


@pytest.mark.parametrize("length", [40_000, 33_000 * 4])
def test_an_ordinary_workbook_with_a_long_shared_string(tmp_path: Path, length: int) -> None:
    path = write_xlsx(tmp_path / "golden.xlsx", shared_length=length, shared_rows=[7])
    problem = _refusal(path).problem
    assert (problem.sheet, problem.row) == ("Sheet1", 7)
    assert problem.message.startswith("cell Sheet1!B7 holds more than the 32,767 characters")


def test_a_long_inline_string_names_a_quoted_sheet(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "golden.xlsx", inline_length=40_000, inline_row=7, sheet="Q3 data")
    problem = _refusal(path).problem
    assert (problem.sheet, problem.row) == ("Q3 data", 7)
    assert problem.message.startswith("cell 'Q3 data'!B7 holds 40,000 characters, more than the 32,767")


def test_cells_of_exactly_the_limit_read(tmp_path: Path) -> None:
    shared = write_xlsx(tmp_path / "shared.xlsx", shared_length=MAX_CELL_CHARS, shared_rows=[7, 9])
    inline = write_xlsx(tmp_path / "inline.xlsx", inline_length=MAX_CELL_CHARS, inline_row=7)
    ods = write_ods(tmp_path / "golden.ods", long_row=9, length=MAX_CELL_CHARS)
    for path, row, char in ((shared, 7, "A"), (shared, 9, "A"), (inline, 7, "Q"), (ods, 9, "A")):
        table = read_table(path)
        assert table.rows[table.row_numbers.index(row)][1] == char * MAX_CELL_CHARS


def test_long_cells_an_analyst_writes_read_exactly(tmp_path: Path) -> None:
    """Texts of 16-32 KB (more than the quick scan clears) and 20,000 euro signs (60,000
    bytes, 20,000 characters) are counted exactly and read."""
    texts = ["word " * 4_000, "x" * 30_000, "€" * 20_000, "y" * 17_000]
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["id", "question", "answer"])
    for n, text in enumerate(texts):
        sheet.append([f"q{n}", text, text])
    path = tmp_path / "long.xlsx"
    book.save(path)
    assert read_table(path).values("question") == texts


def test_the_ods_bomb_is_refused_naming_its_cell(tmp_path: Path) -> None:
    path = write_ods(tmp_path / "golden.ods", long_row=9, length=400 * MIB)
    assert path.stat().st_size < 450_000
    problem = _refusal(path).problem
    assert (problem.sheet, problem.row) == ("Golden", 9)
    assert problem.message.startswith("cell Golden!B9 holds more than the 32,767 characters")


def test_a_long_ods_cell_is_refused_once_read(tmp_path: Path) -> None:
    problem = _refusal(write_ods(tmp_path / "golden.ods", long_row=12, length=40_000)).problem
    assert (problem.sheet, problem.row) == ("Golden", 12)
    assert problem.message.startswith("cell Golden!B12 holds 40,000 characters")


def test_a_long_xls_cell_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # xlwt refuses to write more than 32,767 characters; BIFF8 itself stores up to 65,535.
    import xlwt.BIFFRecords

    monkeypatch.setattr(
        xlwt.BIFFRecords,
        "upack2",
        lambda text, _encoding="ascii": struct.pack("<HB", len(text), 0) + text.encode("latin1"),
    )
    book = xlwt.Workbook()
    sheet = book.add_sheet("Golden")
    for row, values in enumerate([("id", "question"), ("q1", "Short?"), ("q2", "z" * 40_000)]):
        for col, value in enumerate(values):
            sheet.write(row, col, value)
    path = tmp_path / "golden.xls"
    book.save(str(path))
    problem = _refusal(path).problem
    assert (problem.sheet, problem.row) == ("Golden", 3)
    assert problem.message.startswith("cell Golden!B3 holds 40,000 characters")


def _csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


def test_a_long_csv_field_is_refused_naming_row_and_column(tmp_path: Path) -> None:
    fine = _csv(tmp_path / "fine.csv", [["id", "question"], ["q1", "a" * MAX_CELL_CHARS]])
    assert read_table(fine).rows[0][1] == "a" * MAX_CELL_CHARS
    long = _csv(
        tmp_path / "golden.csv",
        [["id", "question", "answer"], ["q1", "Short?", "yes"], ["q2", "Two lines,\n" * 3_000, "yes"]],
    )
    problem = _refusal(long).problem
    assert (problem.row, problem.sheet) == (3, None)
    assert problem.message.startswith("the field in row 3, column B, holds 33,000 characters, more than")


def _repack(source: Path, target: Path, parts: dict[str, bytes]) -> Path:
    """``source`` with ``parts`` replaced or added."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for name in old.namelist():
            if name not in parts:
                new.writestr(name, old.read(name))
        for name, data in parts.items():
            new.writestr(name, data)
    return target


@pytest.fixture
def ordinary(tmp_path: Path) -> Path:
    return write_xlsx(tmp_path / "ordinary.xlsx")


def test_a_part_out_of_proportion_is_refused_by_name(tmp_path: Path, ordinary: Path) -> None:
    styles = b"<?xml version='1.0'?><styleSheet>" + b" " * (40 * MIB) + b"</styleSheet>"
    path = _repack(ordinary, tmp_path / "golden.xlsx", {"xl/styles.xml": styles})
    message = _refusal(path).problem.message
    assert message.startswith("golden.xlsx is not read: its part xl/styles.xml unpacks to 40.0 MB from ")
    assert f"far more than a real workbook packs (at most {MAX_RATIO} times)" in message


def test_a_sheet_out_of_proportion_without_a_long_cell_is_refused_by_name(
    tmp_path: Path, ordinary: Path
) -> None:
    padding = b"<row/>" * (4 * MIB) + b" " * (20 * MIB)  # more than the first 4 MiB scanned
    sheet = b'<worksheet xmlns="x"><sheetData><row r="1"><c r="A1"><v>1</v></c></row>' + padding
    data = sheet + b"</sheetData></worksheet>"
    path = _repack(ordinary, tmp_path / "golden.xlsx", {"xl/worksheets/sheet1.xml": data})
    assert "its part xl/worksheets/sheet1.xml unpacks to" in _refusal(path).problem.message


def test_an_archive_out_of_proportion_is_refused(tmp_path: Path, ordinary: Path) -> None:
    junk = {f"xl/media/image{n}.bin": bytes(12 * MIB) for n in range(3)}  # each under the part limit
    message = _refusal(_repack(ordinary, tmp_path / "golden.xlsx", junk)).problem.message
    assert message.startswith("golden.xlsx is not read: its parts unpack to 36.")


def test_a_document_type_declaration_is_refused(tmp_path: Path) -> None:
    source = write_xlsx(tmp_path / "source.xlsx", shared_length=40_000, shared_rows=[3])
    with zipfile.ZipFile(source) as book:
        strings = book.read("xl/sharedStrings.xml")
    entities = b'<!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;">]><sst'
    path = _repack(
        source, tmp_path / "golden.xlsx", {"xl/sharedStrings.xml": strings.replace(b"<sst", entities, 1)}
    )
    assert "declares a document type (DTD)" in _refusal(path).problem.message


def _may_hold(data: bytes) -> bool:
    """What the quick pass over the shared strings says of ``data``: a string may be over the
    limit (its size in bytes, markup included, is; or markup that can hide an end tag is there)."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("xl/sharedStrings.xml", data)
    with zipfile.ZipFile(archive) as book:
        sizes, sure = string_sizes(book, "xl/sharedStrings.xml")
    return not sure or max(sizes, default=0) > MAX_CELL_CHARS


def _strings(*items: bytes) -> bytes:
    return b'<?xml version="1.0"?><sst xmlns="s">' + b"".join(items) + b"</sst>"


def test_the_quick_scan_clears_short_strings_and_catches_long_ones_anywhere() -> None:
    short = b"<si><t>" + b"a" * 100 + b"</t></si>"
    many = short * (3 * MIB // len(short))  # pieces of 1 MiB cut strings anywhere
    assert not _may_hold(_strings(many, short))
    for at in (0, MIB - 20_000, len(many) // 2, len(many)):
        long = b"<si><t>" + b"b" * 32_768 + b"</t></si>"
        data = _strings(many[: at - at % len(short)], long, many[at - at % len(short) :])
        assert _may_hold(data), at
        cell, complete = first_long_shared_string(io.BytesIO(data))
        assert complete
        assert cell is not None
        assert cell.index == (at - at % len(short)) // len(short)


def test_rich_text_runs_count_together_and_phonetic_runs_not_at_all() -> None:
    runs = b"<si>" + b"".join(b"<r><t>" + b"c" * 1_000 + b"</t></r>" for _ in range(33)) + b"</si>"
    cell, _ = first_long_shared_string(io.BytesIO(_strings(b"<si><t>x</t></si>", runs)))
    assert cell is not None
    assert cell.index == 1
    phonetic = b"<si><t>" + b"d" * 30_000 + b"</t><rPh><t>" + b"e" * 30_000 + b"</t></rPh></si>"
    cell, complete = first_long_shared_string(io.BytesIO(_strings(phonetic)))
    assert cell is None
    assert complete


def test_ordinary_rows_at_scale_still_read(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "golden.xlsx", shared_length=MAX_CELL_CHARS, shared_rows=ROWS)
    table = read_table(path)
    assert len(table.rows) == 30
    assert {row[1] for row in table.rows} == {"A" * MAX_CELL_CHARS}


def test_a_long_shared_string_no_cell_uses_is_refused_by_its_number(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "golden.xlsx", shared_length=40_000)  # no question uses it
    message = _refusal(path).problem.message
    assert message.startswith("shared string 5 of xl/sharedStrings.xml holds more than the 32,767 characters")


def test_text_that_looks_like_markup_cannot_hide_a_long_string() -> None:
    """``si>`` is plain text (``>`` needs no escape) and ``</si>`` can sit in a CDATA section:
    neither passes for the end of a string."""
    fake_ends = b"<si><t>" + (b"x" * 10_000 + b"si>") * 4 + b"</t></si>"
    in_cdata = b"<si><t><![CDATA[" + b"</si>".join([b"y" * 10_000] * 4) + b"]]></t></si>"
    prefixed = b'<x:sst xmlns:x="s"><x:si><x:t>' + b"z" * 40_000 + b"</x:t></x:si></x:sst>"
    for data in (
        _strings(b"<si><t>a</t></si>", fake_ends),
        _strings(b"<si><t>a</t></si>", in_cdata),
        prefixed,
    ):
        assert _may_hold(data)
        cell, _ = first_long_shared_string(io.BytesIO(data))
        assert cell is not None
        assert cell.index == (0 if data is prefixed else 1)


@pytest.mark.parametrize(
    ("cell", "empties"),
    [
        ('<c r="B{r}" t="s"><v>{i}</v></c>', 0),
        ("<c r='B{r}' t = 's'><v>{i}</v></c>", 0),  # the other quote, spaces around "="
        ('<c r="B{r}" t="s"><f>A1</f><v xml:space="preserve">{i}</v></c>', 0),  # a formula first
        ('<c t="s" r="B{r}"><v>{i}</v></c>', 5_000),  # empty <si/> strings shift the index
        ('<c r="B{r}" a=">" t="s"><v>{i}</v></c>', 0),  # ">" inside a quoted value
    ],
)
def test_a_long_string_repeated_in_many_cells_is_refused_before_it_is_copied(
    tmp_path: Path, cell: str, empties: int
) -> None:
    """40,000 cells naming one string of 32,000 characters: every part is small and no cell is
    over the limit, yet a reader copying the string into each cell would make 1.28 GB of text
    from a file of 200 KB — over the budget (16 times what the parts unpack to, at least 1 GiB),
    however the cells are written."""
    path = write_xlsx_repeated(
        tmp_path / "golden.xlsx", cells=40_000, length=32_000, cell=cell, empties=empties
    )
    assert path.stat().st_size < 400_000
    with zipfile.ZipFile(path) as book:
        assert max(part.file_size for part in book.infolist()) < 4 * MIB  # no part out of proportion
    with pytest.raises(InputError) as caught:
        read_table(path)
    problem = caught.value.problem
    assert problem.severity is Severity.FATAL
    assert (problem.file, problem.sheet) == ("golden.xlsx", "Sheet1")
    assert "cells of sheet 'Sheet1' repeat its shared strings so often" in problem.message
    assert "at most 1,024.0 MB is read" in problem.message


def test_an_end_of_string_cut_between_two_pieces_is_still_counted(tmp_path: Path) -> None:
    """A first string sized so that its ``</si>`` straddles the 1 MiB boundary the sizes are
    read in: the strings after it keep their places (the long one is still index 1)."""
    from goldenlens.io.sheets.limits.repeated_strings import string_sizes

    head = b'<?xml version="1.0"?><sst xmlns="s"><si><t>'
    first = b"a" * (MIB - len(head) - 5)  # "</t></si>" then crosses the boundary
    data = head + first + b"</t></si><si><t>" + b"b" * 30_000 + b"</t></si></sst>"
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("xl/sharedStrings.xml", data)
    with zipfile.ZipFile(archive) as book:
        sizes, sure = string_sizes(book, "xl/sharedStrings.xml")
    assert sure
    assert len(sizes) == 2
    assert sizes[1] >= 30_000
    assert sum(sizes) <= len(data)


def test_a_long_string_in_a_few_thousand_cells_is_read(tmp_path: Path) -> None:
    """The same string in 3,000 cells (96 MB of text, far under the budget) reads as it is."""
    path = write_xlsx_repeated(tmp_path / "golden.xlsx", cells=3_000, length=32_000)
    table = read_table(path)
    assert len(table.rows) == 3_000
    assert {len(row[1]) for row in table.rows} == {32_000}


def _repeated_with_strings(tmp_path: Path, strings: bytes, index: int) -> Path:
    """The repeated-string workbook (40,000 cells) with ``strings`` as its shared strings part,
    the cells naming string ``index``."""
    source = write_xlsx_repeated(tmp_path / "source.xlsx", cells=40_000, length=10)
    with zipfile.ZipFile(source) as book:
        sheet = book.read("xl/worksheets/sheet1.xml").replace(b"<v>4</v>", f"<v>{index}</v>".encode())
    return _repack(
        source, tmp_path / "golden.xlsx", {"xl/sharedStrings.xml": strings, "xl/worksheets/sheet1.xml": sheet}
    )


def test_a_comment_holding_an_end_tag_does_not_shift_the_strings(tmp_path: Path) -> None:
    """``<!-- </si> -->`` inside a string would count one string too many and give the long
    string's cells the size of the one before it: such a part is counted exactly instead."""
    long = b"<si><t>" + b"L" * 32_000 + b"</t></si>"
    strings = _strings(
        *(b"<si><t>%d</t></si>" % n for n in range(4)), b"<si><t>x</t><!-- </si> --></si>", long
    )
    path = _repeated_with_strings(tmp_path, strings, 5)
    problem = _refusal_of_repeats(path)
    assert problem.sheet == "Sheet1"


def test_an_end_tag_padded_across_a_piece_boundary_is_followed(tmp_path: Path) -> None:
    """Short strings up to just before the 1 MiB cut, then one whose ``</si`` + 600 spaces +
    ``>`` straddles it: the strings after it keep their places (the long one's index)."""
    head = b'<?xml version="1.0"?><sst xmlns="s">'
    short = b"<si><t>" + b"a" * 100 + b"</t></si>"
    count = (MIB - len(head) - 400) // len(short)
    padded = b"<si><t>b</t></si" + b" " * 600 + b">"
    assert (
        len(head) + count * len(short) + len(b"<si><t>b</t></si")
        < MIB
        < len(head) + count * len(short) + len(padded)
    )
    long = b"<si><t>" + b"L" * 32_000 + b"</t></si></sst>"
    path = _repeated_with_strings(tmp_path, head + short * count + padded + long, count + 1)
    assert _refusal_of_repeats(path).sheet == "Sheet1"


def test_a_sheet_of_unclosed_cell_tags_is_read_in_linear_time(tmp_path: Path) -> None:
    """A sheet of ``<c <c <c …`` with no ``>`` used to make the cell search quadratic (a 3 KB
    file hung the import): the search stops at the next ``<``."""
    import time

    from goldenlens.io.sheets.limits.repeated_strings import string_cells

    data = _SHEET_OPEN + b"<c " * 400_000
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("xl/worksheets/sheet1.xml", data)
    start = time.perf_counter()
    with zipfile.ZipFile(archive) as book:
        assert list(string_cells(book, "xl/worksheets/sheet1.xml")) == []
    assert time.perf_counter() - start < 5.0  # 1.2 MB: about a tenth of a second


_SHEET_OPEN = b'<?xml version="1.0"?><worksheet xmlns="s"><sheetData><row r="2">'


def _refusal_of_repeats(path: Path) -> Problem:
    with pytest.raises(InputError) as caught:
        read_table(path)
    problem = caught.value.problem
    assert "repeat its shared strings so often" in problem.message
    return problem

"""Turn the bytes of a CSV/TSV/TXT file into records: encoding, delimiter, then parsing.

Excel on Windows writes CSV as UTF-8 with a BOM ("CSV UTF-8"), as plain Windows-1252 ("CSV")
or as UTF-16 with tabs ("Unicode Text"); pipelines written in Python write plain UTF-8. We try
them in that order and never guess anything looser: a file that is none of these is reported,
not silently read as mojibake.

Records are numbered as Excel numbers rows when it opens the file: one row per record (a
quoted cell may span several lines), blank lines included.

A first line ``sep=;`` (any one character after ``sep=``: ``,`` ``;`` TAB ``|`` ...) is
Excel's way of naming the delimiter: Excel takes the delimiter from it and hides the line,
so the row after it is row 1. We do the same: the delimiter is not sniffed, the line is not
a row, and row numbers in messages are the ones Excel shows.

A NUL character (a zero byte) never belongs in text: wherever it is, the file is refused,
naming the row and column of the first one (a file full of them is binary data or UTF-16
without a byte-order mark, and is refused as such before decoding).
"""

from __future__ import annotations

import codecs
import csv
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import column_letter
from goldenlens.io.sheets.limits.cell_limit import MAX_CELL_CHARS, long_field_problem

DELIMITERS: tuple[str, ...] = (",", ";", "\t")

# Bytes at the start of files that are certainly not text, with what they are.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"PK\x03\x04", "a zip archive (an Excel .xlsx or .ods workbook?)"),
    (b"\xd0\xcf\x11\xe0", "an old-style Office file (an Excel .xls workbook?)"),
    (b"%PDF", "a PDF document"),
)
_SNIFF_CHARS = 64 * 1024
_SNIFF_RECORDS = 200
# Excel's delimiter line: "sep=" and one character, alone on the first line.
_SEP_LINE = re.compile(r"sep=([^\r\n\"])(?:\r\n|\n|\r|\Z)", re.IGNORECASE)
# A sample this much NUL is not text with a stray zero byte but binary data (or UTF-16).
_BINARY_NUL_SHARE = 8
# The csv module reads any field; a field longer than a spreadsheet cell (32,767 characters)
# is then refused by name (cell_limit), which the module's own limit could not do.
_FIELD_LIMIT = 2**31 - 1


@dataclass(frozen=True)
class DecodedText:
    """A file's text with the encoding that decoded it and any notes about that choice."""

    text: str
    encoding: str
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class CsvRecords:
    """Parsed records (1-based Excel row = index + 1) and how the file was read. ``ascii``:
    the decoded text is all ASCII (so is every cell; a string knows it without a scan)."""

    records: list[list[str]]
    encoding: str
    delimiter: str
    problems: tuple[Problem, ...] = ()
    ascii: bool = False


def decode_text(data: bytes, file: str) -> DecodedText:
    """Decode ``data``: BOM-marked UTF-8/UTF-16, then UTF-8, then Windows-1252.

    Raises :class:`InputError` for binary content or bytes no candidate can decode.
    """
    if data.startswith(codecs.BOM_UTF8):
        return DecodedText(_decode_or_fail(data, "utf-8-sig", file), "utf-8-sig")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return DecodedText(_decode_or_fail(data, "utf-16", file), "utf-16")
    for magic, what in _MAGIC:
        if data.startswith(magic):
            raise InputError(
                Problem(
                    file,
                    f"{file} is not CSV text: it is {what}. Check the file or its extension.",
                    Severity.FATAL,
                )
            )
    has_nul = b"\x00" in data  # memchr: cheap even for a large file
    if has_nul:
        sample = data[:_SNIFF_CHARS]
        if sample.count(b"\x00") * _BINARY_NUL_SHARE >= len(sample):
            raise InputError(
                _binary(
                    file,
                    "; if it is UTF-16 text without a byte-order mark, save it from Excel as 'CSV UTF-8'",
                )
            )
    try:
        return DecodedText(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError as utf8_error:
        bad_utf8 = utf8_error.start
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError as error:
        raise InputError(_binary(file) if has_nul else _undecodable(data, error.start, file)) from None
    note = Problem(
        file,
        f"{file} is not UTF-8 (byte 0x{data[bad_utf8]:02X} at line {_line_of(data, bad_utf8)}); "
        "it was read as Windows-1252, the encoding Excel's plain 'CSV' format uses.",
        Severity.INFO,
    )
    return DecodedText(text, "cp1252", (note,))


def _binary(file: str, detail: str = "") -> Problem:
    return Problem(
        file,
        f"{file} is not CSV text: it contains binary data (NUL bytes){detail}.",
        Severity.FATAL,
    )


def _decode_or_fail(data: bytes, encoding: str, file: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise InputError(_undecodable(data, error.start, file)) from None


def _undecodable(data: bytes, position: int, file: str) -> Problem:
    return Problem(
        file,
        f"{file} is not readable text: byte 0x{data[position]:02X} at line {_line_of(data, position)} "
        "is neither UTF-8 nor Windows-1252. Save the file from Excel as 'CSV UTF-8'.",
        Severity.FATAL,
    )


def _line_of(data: bytes, position: int) -> int:
    return data.count(b"\n", 0, position) + 1


def sniff_delimiter(text: str, preferred: str = ",") -> str:
    """The delimiter among ``, ; TAB`` that splits the first rows most consistently.

    The header decides most files: header names rarely contain a delimiter, so the right one
    gives several columns and the data rows then agree with that count. A decimal comma
    (``12,5`` in a semicolon file) shows up only in data rows and loses on consistency.
    """
    sample = text[:_SNIFF_CHARS]
    truncated = len(text) > len(sample)
    best = preferred
    best_score: tuple[float, int, int] = (-1.0, 0, 0)
    for delimiter in DELIMITERS:
        rows = [row for row in _parse_lenient(sample, delimiter, _SNIFF_RECORDS) if any(row)]
        if truncated and len(rows) > 1:
            rows = rows[:-1]  # the sample may end in the middle of a record
        if not rows or len(rows[0]) < 2:
            continue
        width = len(rows[0])
        agreeing = sum(1 for row in rows[1:] if len(row) == width)
        consistency = agreeing / (len(rows) - 1) if len(rows) > 1 else 1.0
        score = (consistency, width, int(delimiter == preferred))
        if score > best_score:
            best, best_score = delimiter, score
    return best


def _parse_lenient(text: str, delimiter: str, limit: int | None = None) -> Iterable[list[str]]:
    reader = csv.reader(_lines(text), delimiter=delimiter)
    for count, row in enumerate(reader):
        if limit is not None and count >= limit:
            return
        yield row


def parse_records(data: bytes, file: str, *, preferred_delimiter: str = ",") -> CsvRecords:
    """Decode, sniff and parse a CSV file into records.

    Parsing is lenient like Excel (a stray quote inside a cell is kept), but a malformed
    record, most often a quote that is never closed and swallows the rest of the file, is
    reported as a warning naming its row.
    """
    csv.field_size_limit(_FIELD_LIMIT)
    decoded = decode_text(data, file)
    del data  # the bytes are not needed once decoded: a file's size less at the peak
    problems = list(decoded.problems)
    text, encoding = decoded.text, decoded.encoding
    del decoded
    declared = _SEP_LINE.match(text)
    if declared is not None:
        delimiter = declared.group(1)
        text = text[declared.end() :]
        problems.append(_sep_line_note(file, declared.group().rstrip("\r\n")))
    else:
        delimiter = sniff_delimiter(text, preferred_delimiter)
    records, failure = _parse_strict(text, delimiter)
    if failure is not None:
        row, error = failure
        records = list(_parse_lenient(text, delimiter))
        problems.append(
            Problem(
                file,
                f"this row is not well-formed CSV ({error}); it was read leniently, so check it "
                "and the rows after it (an unclosed quote makes the rest of the file one cell).",
                Severity.WARNING,
                row=row,
            )
        )
    if "\x00" in text:
        raise InputError(_nul_in_cell(file, records), tuple(problems))
    too_long = long_field_problem(file, records) if len(text) > MAX_CELL_CHARS else None
    if too_long is not None:
        raise InputError(too_long, tuple(problems))
    return CsvRecords(records, encoding, delimiter, tuple(problems), ascii=text.isascii())


def _sep_line_note(file: str, line: str) -> Problem:
    shown = line.replace("\t", "<TAB>")
    return Problem(
        file,
        f"the first line '{shown}' names the delimiter, as Excel reads it; like Excel we do not "
        "count it as a row, so the line after it is row 1.",
        Severity.INFO,
    )


def _nul_in_cell(file: str, records: list[list[str]]) -> Problem:
    """The fatal problem for the first NUL character, located by Excel row and column."""
    for index, record in enumerate(records):
        for position, cell in enumerate(record):
            if "\x00" in cell:
                return Problem(
                    file,
                    f"{file} is not CSV text: it contains binary data (a NUL byte in row {index + 1}, "
                    f"column {column_letter(position)}). Text never holds one: the file is "
                    "damaged or was written by a faulty export; remove it or export the file again.",
                    Severity.FATAL,
                    row=index + 1,
                )
    # Unreachable for text the csv module parsed (it keeps NULs in cells); kept for safety.
    return _binary(file)


#: A line as ``io.StringIO(text, newline="")`` yields it: up to and including ``\r\n``, ``\r``
#: or ``\n``, or the rest of the text.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


#: Characters ``str.splitlines`` breaks at besides ``\r`` and ``\n``.
_OTHER_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"
#: Characters split into lines at a time: the csv module reads the lines while they are still
#: in the processor's cache (5% faster than splitting a 17 MB text at once), and the lines of
#: the whole text never exist together.
_CHUNK = 1 << 17


def _lines(text: str) -> Iterable[str]:
    """The lines of ``text`` for the csv module, exactly as ``io.StringIO(text, newline="")``
    splits them, without its copy of the whole text as 4-byte characters (a 57 MB file made a
    228 MB buffer: most of an import's peak memory).

    ``str.splitlines`` is that split, ten times faster than a regular expression, when the text
    holds no other character it breaks at (a vertical tab, a form feed, U+2028…). Looking for
    each with ``in`` takes 8 ms on a 17 MB text, where one character-class search took 80.
    Pieces of the text that end with ``\n`` split into the lines of the whole (no break
    starts with ``\n``, and ``\r\n`` stays in one piece)."""
    if any(char in text for char in _OTHER_BREAKS):
        return (match.group() for match in _LINE.finditer(text))
    if len(text) <= _CHUNK:
        return text.splitlines(keepends=True)
    return chain.from_iterable(piece.splitlines(keepends=True) for piece in _pieces(text))


def _pieces(text: str) -> Iterator[str]:
    """``text`` in pieces of about :data:`_CHUNK` characters, each ending with ``\n`` (but
    the last)."""
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start + _CHUNK)
        end = size if end < 0 else end + 1
        yield text[start:end]
        start = end


def _parse_strict(text: str, delimiter: str) -> tuple[list[list[str]], tuple[int, csv.Error] | None]:
    """Parse strictly; on a malformed record return the records before it and its row number."""
    records: list[list[str]] = []
    append = records.append
    reader = csv.reader(_lines(text), delimiter=delimiter, strict=True)
    try:
        for record in reader:  # one try around the loop: a try per record cost 40 ms per 60k rows
            append(record)
    except csv.Error as error:
        return records, (len(records) + 1, error)
    return records, None

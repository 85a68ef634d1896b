"""Refuse an .xlsx whose cells would hold far more text than the file does: a shared string
repeated in very many cells (issue #22).

A shared string is stored once and shown by every cell that names its index, and calamine
copies it into each of them. A 16 MB sheet of 800,000 tiny cells ``<c t="s"><v>0</v></c>``
naming one string of 32,767 characters passes every size check (no part is out of proportion,
no cell over the limit) yet unpacks to 26 GB of cell text. So, before calamine reads it, the
text the cells would hold is added up — each shared string's size in the part (its markup
included: a bound from above) times the cells naming it — and the file is refused when that
passes :func:`text_budget`: a fixed multiple of what the workbook unpacks to, and never less
than 1 GiB, so that no real workbook is refused.

Both passes stream (the shared strings split at ``</si>``, each sheet searched in 1 MiB
pieces), and the second is skipped when even every cell of the sheets naming the longest
string would stay within the budget; on a real 60,000-row workbook both passes take a fraction
of a second.
"""

from __future__ import annotations

import re
import zipfile
from array import array
from collections.abc import Iterator, Mapping
from typing import Final
from xml.parsers import expat

#: The cell text a workbook may make, as a multiple of what its parts unpack to.
TEXT_RATIO: Final = 16
#: ... and never less than this (bytes), whatever the workbook.
MIN_TEXT_BUDGET: Final = 1 << 30
#: The fewest bytes a cell naming a shared string takes in a sheet: ``<c t="s"><v>0</v></c>``.
MIN_STRING_CELL_BYTES: Final = 20
_CHUNK: Final = 1 << 20
#: The end of a shared string: ``</si>`` (any prefix, any space) or an empty ``<si/>``.
_END_OF_STRING: Final = re.compile(rb"</(?:[\w.-]+:)?si\s*>|<(?:[\w.-]+:)?si(?:\s[^>]*)?/>")
#: A cell of type ``s`` (either quote, space around ``=``, attributes in any order, ``>``
#: inside a quoted value) and the index in its value, a formula or other markup (up to 512
#: bytes) allowed before the value. An attribute cannot hold ``<``, so the look for ``t`` stops
#: at the next ``<``: every byte is looked at from one tag start at most (no slow backtracking
#: however the sheet is written).
_STRING_CELL: Final = re.compile(
    rb"<(?:[\w.-]+:)?c\s(?=(?:[^>\"'<]|\"[^\"<]*\"|'[^'<]*')*?\bt\s*=\s*[\"']s[\"'])"
    rb"(?:[^>\"'<]|\"[^\"<]*\"|'[^'<]*')*+>"
    rb"(?:(?!</(?:[\w.-]+:)?c\s*>|<(?:[\w.-]+:)?v[\s>])[\s\S]){0,512}?"
    rb"<(?:[\w.-]+:)?v(?:\s[^>]*)?>\s*([0-9]{1,10})\s*<"
)
#: A tag left open at the end of a piece is kept for the next up to this many bytes; longer
#: (a tag padded to hide an end of string) makes the sizes unsure, and they are counted exactly.
_OPEN_TAG_LIMIT: Final = 1 << 20
#: The longest cell markup a piece boundary may cut: carried over into the next piece.
_CARRY: Final = 4096


def text_budget(book: zipfile.ZipFile) -> int:
    """The cell text a workbook may unpack to: :data:`TEXT_RATIO` times its parts' declared
    sizes, at least :data:`MIN_TEXT_BUDGET`."""
    return max(MIN_TEXT_BUDGET, TEXT_RATIO * sum(part.file_size for part in book.infolist()))


def string_sizes(book: zipfile.ZipFile, part: str) -> tuple[array[int], bool]:
    """Each shared string's size in bytes in ``part``, its markup included (a bound from above
    on its text), streamed in pieces (a tag cut between two is read whole in the second). And
    whether the sizes are sure: text cannot hold ``</si>`` but a CDATA section, a comment or a
    processing instruction can (``<!``, a second ``<?``), and a tag longer than
    :data:`_OPEN_TAG_LIMIT` is not followed; then :func:`exact_string_sizes` counts."""
    sizes: array[int] = array("q")
    pending = 0  # bytes of the current string before ``tail``
    tail = b""
    unsure = False
    instructions = 0
    with book.open(part) as stream:
        while chunk := stream.read(_CHUNK):
            seam = tail[-1:] + chunk  # a "<!" or "<?" across two pieces
            unsure = unsure or b"<!" in seam
            instructions += seam.count(b"<?")
            data = tail + chunk
            start = 0
            for end in _END_OF_STRING.finditer(data):
                sizes.append(pending + end.end() - start)
                pending, start = 0, end.end()
            opened = data.rfind(b"<", start)  # a tag the piece may have cut
            keep = len(data) - opened if opened >= 0 and b">" not in data[opened:] else 0
            if keep > _OPEN_TAG_LIMIT:
                unsure, keep = True, 0
            pending += len(data) - start - keep
            tail = data[len(data) - keep :]
    return sizes, not unsure and instructions <= 1  # the XML declaration is the one allowed


def exact_string_sizes(book: zipfile.ZipFile, part: str) -> array[int]:
    """Each shared string's text in characters (phonetic runs included: a bound from above),
    read by expat as a stream: for a part whose quick sizes are unsure."""
    sizes: array[int] = array("q")
    current = [0]

    def start(name: str, _attrs: object) -> None:
        if name.rpartition(":")[2] == "si":
            current[0] = 0

    def end(name: str) -> None:
        if name.rpartition(":")[2] == "si":
            sizes.append(current[0])

    def text(data: str) -> None:
        current[0] += len(data)

    parser = expat.ParserCreate()
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        with book.open(part) as stream:
            while chunk := stream.read(_CHUNK):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except expat.ExpatError:
        pass  # not XML: calamine refuses the part in its own words, having copied nothing
    return sizes


def string_cells(book: zipfile.ZipFile, part: str) -> Iterator[int]:
    """The shared-string index of every string cell of sheet ``part``, streamed in pieces."""
    tail = b""
    with book.open(part) as stream:
        while chunk := stream.read(_CHUNK):
            data = tail + chunk
            # A match must end before the carried-over tail, which the next piece searches again.
            cut = max(0, len(data) - _CARRY) if len(chunk) == _CHUNK else len(data)
            for match in _STRING_CELL.finditer(data):
                if match.start() >= cut:
                    break
                yield int(match.group(1))
            tail = data[cut:]


def repeated_text_sheet(
    book: zipfile.ZipFile, sizes: array[int], sheets: Mapping[str, str], budget: int
) -> tuple[str, int, int] | None:
    """``(sheet, cells, bytes)`` where the text of the shared strings (``sizes``:
    :func:`string_sizes`) in the cells passes ``budget`` (the sheet reached when it does, how
    many string cells so far and their text), or ``None``."""
    if not sizes:
        return None
    sheet_bytes = sum(book.getinfo(p).file_size for p in sheets if p in book.namelist())
    if max(sizes) * (sheet_bytes // MIN_STRING_CELL_BYTES) <= budget:
        return None  # even every possible cell naming the longest string stays within it
    total = cells = 0
    for part, sheet in sheets.items():
        if part not in book.namelist():
            continue
        for index in string_cells(book, part):
            cells += 1
            total += sizes[index] if 0 <= index < len(sizes) else 0
            if total > budget:
                return sheet, cells, total
    return None

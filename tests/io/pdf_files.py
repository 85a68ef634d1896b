"""Write small real PDF files for the tests: text pages in Helvetica, built byte by byte.

No PDF library is needed to write them (reportlab is not installed): a PDF is a handful of
numbered objects, a cross-reference table of their byte offsets and a trailer. Each page
holds its lines top-down; an empty string leaves a blank line (a paragraph break).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def _escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _content(lines: Sequence[str]) -> bytes:
    ops = ["BT", "/F1 11 Tf", "14 TL", "72 760 Td"]
    ops.extend(f"({_escape(line)}) Tj T*" if line else "T*" for line in lines)
    ops.append("ET")
    return "\n".join(ops).encode("latin-1")


def pdf_bytes(pages: Sequence[Sequence[str]]) -> bytes:
    """A PDF with one page per entry of ``pages``, each a list of text lines."""
    count = len(pages)
    page_ids = [4 + 2 * i for i in range(count)]
    objects: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: (
            "<< /Type /Pages /Kids [" + " ".join(f"{p} 0 R" for p in page_ids) + f"] /Count {count} >>"
        ).encode(),
        3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    }
    for index, lines in enumerate(pages):
        page, stream = page_ids[index], page_ids[index] + 1
        objects[page] = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
            f" /Contents {stream} 0 R >>"
        ).encode()
        data = _content(lines)
        objects[stream] = f"<< /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: dict[int, int] = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += f"{number} 0 obj\n".encode() + objects[number] + b"\nendobj\n"
    xref = len(out)
    size = max(objects) + 1
    out += f"xref\n0 {size}\n0000000000 65535 f \n".encode()
    for number in range(1, size):
        out += f"{offsets[number]:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {size} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_pdf(path: Path, pages: Sequence[Sequence[str]]) -> Path:
    """Write :func:`pdf_bytes` to ``path``; returns ``path``."""
    path.write_bytes(pdf_bytes(pages))
    return path

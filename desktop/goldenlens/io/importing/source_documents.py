"""Source documents for drafting golden items: PDF, plain text or Markdown, or a CSV of chunks.

:func:`read_source` returns a document's chunks (:class:`~goldenlens.core.golden.source_chunks.
SourceChunk`, each with its page or chunk id) and the problems met on the way. A file that
cannot be read at all raises :class:`~goldenlens.core.problems.InputError` naming the file (and
the page, row or column); a page without text or a CSV row without text is a problem in
the list and gives no chunk, so a reviewer knows what was left out.

- **PDF** through pypdf (pure Python), imported only when a PDF is read. Text is what the
  PDF's text layer holds, in its reading order; a scanned page has none and is reported (no
  OCR here). pypdf's plain extraction keeps line breaks but not the vertical gaps between
  paragraphs, so a PDF page is usually cut at sentence ends within the size limit rather than
  at paragraphs; a chunk never crosses a page. (Its "layout" mode shows the gaps but puts
  the lines of two columns side by side, which would mix their sentences.)
- **TXT / Markdown**: decoded like the CSV inputs (UTF-8, UTF-8 with BOM, UTF-16 with BOM,
  Windows-1252; :func:`~goldenlens.io.sheets.csv_decoder.decode_text`), never guessed beyond that.
  Markdown is kept as written: its markup is part of the text a pipeline would retrieve.
- **CSV/TSV of chunks**: a header with an id column (``chunk_id`` or ``id``) and a text
  column (``text``, ``chunk``, ``content`` or ``passage``); an optional ``page`` column.
  Each row is one chunk as it is (the pipeline's own chunking, not cut again); ids must be
  unique, as they are the provenance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from goldenlens.core.golden.source_chunks import DEFAULT_CHUNK_WORDS, SourceChunk, chunk_pages
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import column_letter
from goldenlens.io.sheets.csv_decoder import decode_text, parse_records

__all__ = ["SOURCE_SUFFIXES", "SourceDocument", "read_source", "read_sources"]

SOURCE_SUFFIXES = (".pdf", ".txt", ".md", ".markdown", ".csv", ".tsv")
_ID_COLUMNS = ("chunk_id", "id")
_TEXT_COLUMNS = ("text", "chunk", "content", "passage")


@dataclass(frozen=True)
class SourceDocument:
    """The chunks read from one file, and what was wrong in it."""

    path: Path
    chunks: tuple[SourceChunk, ...]
    problems: tuple[Problem, ...] = ()


def _fatal(file: str, message: str, *, row: int | None = None, column: str | None = None) -> InputError:
    return InputError.fatal(file, message, row=row, column=column)


def read_source(path: Path, *, max_words: int = DEFAULT_CHUNK_WORDS) -> SourceDocument:
    """The chunks of one source file, chosen by its suffix (see the module docstring)."""
    name = path.name
    suffix = path.suffix.lower()
    if suffix not in SOURCE_SUFFIXES:
        raise _fatal(
            name,
            f"cannot read {suffix or 'a file without a suffix'} as a source document; use "
            + ", ".join(SOURCE_SUFFIXES),
        )
    if not path.is_file():
        raise _fatal(name, f"the file does not exist: {path}" if not path.exists() else "it is not a file")
    if suffix == ".pdf":
        return _read_pdf(path, max_words)
    if suffix in (".csv", ".tsv"):
        return _read_chunk_table(path, "\t" if suffix == ".tsv" else ",")
    return _read_text(path, max_words)


def read_sources(paths: Sequence[Path], *, max_words: int = DEFAULT_CHUNK_WORDS) -> list[SourceDocument]:
    """Every file's chunks, in the order given. Two files of the same name are refused: the
    file name is the document in a draft's provenance, so it must tell them apart."""
    seen: dict[str, Path] = {}
    for path in paths:
        other = seen.setdefault(path.name, path)
        if other != path:
            raise _fatal(path.name, f"two source files are named {path.name}: {other} and {path}; rename one")
    return [read_source(path, max_words=max_words) for path in paths]


def _read_text(path: Path, max_words: int) -> SourceDocument:
    name = path.name
    decoded = decode_text(path.read_bytes(), name)
    if "\x00" in decoded.text:
        line = decoded.text.count("\n", 0, decoded.text.index("\x00")) + 1
        raise _fatal(name, "the text holds a NUL character: it is not a text file", row=line)
    chunks = chunk_pages(name, [decoded.text], paged=False, max_words=max_words)
    problems = list(decoded.problems)
    if not chunks:
        problems.append(Problem(name, "the file holds no text: no chunk to draft from", Severity.WARNING))
    return SourceDocument(path, tuple(chunks), tuple(problems))


def _read_pdf(path: Path, max_words: int) -> SourceDocument:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, PyPdfError

    name = path.name
    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise _fatal(name, "the PDF is encrypted with a password; save an unprotected copy")
        count = len(reader.pages)
    except DependencyError as error:  # AES encryption needs the cryptography package
        raise _fatal(name, f"the PDF cannot be opened: {error}") from error
    except (PyPdfError, ValueError, KeyError, TypeError) as error:
        raise _fatal(name, f"not a readable PDF: {error}") from error
    texts: list[str] = []
    problems: list[Problem] = []
    for number in range(1, count + 1):
        try:
            text = reader.pages[number - 1].extract_text() or ""
        except Exception as error:  # pypdf raises many kinds on a damaged page
            problems.append(
                Problem(
                    name,
                    f"page {number}: its text could not be read ({error}); it is left out",
                    Severity.ERROR,
                )
            )
            text = ""
        else:
            if not text.strip():
                problems.append(
                    Problem(
                        name,
                        f"page {number} has no text layer (a scanned image?); it is left out",
                        Severity.WARNING,
                    )
                )
        texts.append(text)
    chunks = chunk_pages(name, texts, paged=True, max_words=max_words)
    if count == 0:
        problems.append(Problem(name, "the PDF has no pages", Severity.WARNING))
    return SourceDocument(path, tuple(chunks), tuple(problems))


def _find_column(header: list[str], names: Sequence[str]) -> int | None:
    lowered = [cell.strip().lower() for cell in header]
    for wanted in names:
        if wanted in lowered:
            return lowered.index(wanted)
    return None


def _cell(record: list[str], column: int) -> str:
    return record[column] if column < len(record) else ""


def _read_chunk_table(path: Path, delimiter: str) -> SourceDocument:
    name = path.name
    parsed = parse_records(path.read_bytes(), name, preferred_delimiter=delimiter)
    records = parsed.records
    problems = list(parsed.problems)
    if not records:
        raise _fatal(name, "the chunk file is empty: it needs a header with chunk_id and text")
    header = records[0]
    id_column = _find_column(header, _ID_COLUMNS)
    text_column = _find_column(header, _TEXT_COLUMNS)
    page_column = _find_column(header, ("page",))
    if id_column is None or text_column is None:
        missing = " and no ".join(
            what
            for what, found in (
                (f"id column ({' or '.join(_ID_COLUMNS)})", id_column),
                (f"text column ({', '.join(_TEXT_COLUMNS)})", text_column),
            )
            if found is None
        )
        raise _fatal(name, f"the header has no {missing}; it has {', '.join(repr(h) for h in header)}", row=1)
    chunks: list[SourceChunk] = []
    first_row: dict[str, int] = {}
    for index, record in enumerate(records[1:], start=2):
        if not any(cell.strip() for cell in record):
            continue  # a blank line between rows
        chunk_id, text = _cell(record, id_column).strip(), _cell(record, text_column).strip()
        id_letter, text_letter = column_letter(id_column), column_letter(text_column)
        if not chunk_id:
            raise _fatal(name, "this chunk has no id (ids are its provenance)", row=index, column=id_letter)
        if chunk_id in first_row:
            raise _fatal(
                name,
                f"chunk id {chunk_id!r} is used again (first in row {first_row[chunk_id]}): "
                "ids must be unique",
                row=index,
                column=id_letter,
            )
        first_row[chunk_id] = index
        page = None
        if page_column is not None and _cell(record, page_column).strip():
            raw = _cell(record, page_column).strip()
            if not raw.isdigit() or int(raw) < 1:
                raise _fatal(
                    name,
                    f"the page must be a number from 1, not {raw!r}",
                    row=index,
                    column=column_letter(page_column),
                )
            page = int(raw)
        if not text:
            problems.append(
                Problem(
                    name,
                    f"chunk {chunk_id!r} has no text; it is left out",
                    Severity.ERROR,
                    row=index,
                    column=text_letter,
                )
            )
            continue
        chunks.append(SourceChunk(name, chunk_id, text, page=page, row=index))
    return SourceDocument(path, tuple(chunks), tuple(problems))

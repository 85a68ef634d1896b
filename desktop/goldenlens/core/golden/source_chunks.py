"""Source documents cut into chunks for drafting golden items: pages, then paragraphs.

Pure: the readers in :mod:`goldenlens.io.importing.source_documents` hand over the text of each page
(or the whole text of a page-less document); :func:`chunk_pages` cuts it. A chunk never
crosses a page, so its page number is exact provenance. Within a page, paragraphs (blank-line
separated) are packed in order up to ``max_words``; a paragraph longer than that is cut at
sentence ends, and a sentence longer than that at word boundaries (rare: tables flattened to
one line). The words themselves are never changed, only the whitespace between them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from goldenlens.core.golden.draft_values import DEFAULT_CHUNK_WORDS
from goldenlens.core.golden.sentences import split_sentences

__all__ = ["DEFAULT_CHUNK_WORDS", "SourceChunk", "chunk_pages", "chunk_text", "provenance"]

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\f\v]*\n")


@dataclass(frozen=True)
class SourceChunk:
    """One passage of a source document, with where it came from.

    ``document`` is the file name; ``page`` the 1-based page of a PDF (``None`` for text and
    CSV sources); ``chunk_id`` names the chunk within the document (a CSV's own id, or
    ``p3-2``: page 3, second chunk; ``c4``: fourth chunk of a text file); ``row`` the CSV row it
    was read from (1-based as a spreadsheet shows it, the header is row 1), else ``None``.
    """

    document: str
    chunk_id: str
    text: str
    page: int | None = None
    row: int | None = None

    def provenance(self) -> str:
        """``report.pdf, page 3, chunk p3-2`` — what a golden item's notes say it came from."""
        return provenance(self.document, self.page, self.chunk_id)


def provenance(document: str, page: int | None, chunk_id: str) -> str:
    """``report.pdf, page 3, chunk p3-2`` (no page for a page-less source)."""
    parts = [document]
    if page is not None:
        parts.append(f"page {page}")
    parts.append(f"chunk {chunk_id}")
    return ", ".join(parts)


def _words(text: str) -> int:
    return len(text.split())


def _tidy(paragraph: str) -> str:
    """One paragraph on one line: line breaks inside a paragraph are layout, not content."""
    return " ".join(paragraph.split())


def _pieces(paragraph: str, max_words: int) -> Iterator[str]:
    """A paragraph, or its sentences, or runs of its words, each within ``max_words``."""
    if _words(paragraph) <= max_words:
        yield paragraph
        return
    for sentence in split_sentences(paragraph):
        words = sentence.split()
        for start in range(0, len(words), max_words):
            yield " ".join(words[start : start + max_words])


def chunk_text(text: str, max_words: int = DEFAULT_CHUNK_WORDS) -> list[str]:
    """The chunks of one page: paragraphs packed in order, each chunk within ``max_words``.

    Paragraphs are joined by a blank line; sentences of a cut paragraph that share a chunk by
    a space. Empty text gives no chunks.
    """
    if max_words < 1:
        raise ValueError(f"a chunk holds at least one word, got max_words={max_words}")
    chunks: list[str] = []
    current = ""
    size = 0
    for paragraph in (_tidy(p) for p in _PARAGRAPH_BREAK.split(text.replace("\r\n", "\n"))):
        if not paragraph:
            continue
        for index, piece in enumerate(_pieces(paragraph, max_words)):
            words = _words(piece)
            if current and size + words > max_words:
                chunks.append(current)
                current, size = "", 0
            if current:
                # The next sentence of a cut paragraph continues its line; a new paragraph
                # keeps its blank line.
                current += (" " if index > 0 else "\n\n") + piece
            else:
                current = piece
            size += words
    if current:
        chunks.append(current)
    return chunks


def chunk_pages(
    document: str, pages: Sequence[str], *, paged: bool, max_words: int = DEFAULT_CHUNK_WORDS
) -> list[SourceChunk]:
    """The chunks of a document given as the text of each page.

    With ``paged`` (a PDF) each chunk carries its 1-based page and is named ``p<page>-<n>``;
    otherwise ``pages`` holds one text and the chunks are named ``c<n>``. A page without text
    gives no chunk (the reader reports it).
    """
    chunks: list[SourceChunk] = []
    for number, page in enumerate(pages, start=1):
        for index, text in enumerate(chunk_text(page, max_words), start=1):
            if paged:
                chunks.append(SourceChunk(document, f"p{number}-{index}", text, page=number))
            else:
                chunks.append(SourceChunk(document, f"c{len(chunks) + 1}", text))
    return chunks

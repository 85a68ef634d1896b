"""Cutting source text into chunks: paragraphs packed within the size limit, long paragraphs
cut at sentence ends, chunks never crossing a page, words never changed."""

from __future__ import annotations

import pytest

from goldenlens.core.golden.source_chunks import SourceChunk, chunk_pages, chunk_text


@pytest.mark.parametrize(
    ("text", "max_words", "expected"),
    [
        ("", 5, []),
        ("  \n\n \n", 5, []),
        # Short paragraphs are packed together, each keeping its blank line.
        ("one two\n\nthree four", 5, ["one two\n\nthree four"]),
        # A paragraph that does not fit starts the next chunk.
        ("one two three\n\nfour five six", 5, ["one two three", "four five six"]),
        # Line breaks inside a paragraph are layout: one line per paragraph.
        ("net sales\nwere up\n\nQ2", 10, ["net sales were up\n\nQ2"]),
        # A paragraph over the limit is cut at sentence ends; the pieces continue one line.
        ("A b c. D e f. G h.", 5, ["A b c.", "D e f. G h."]),
        # A sentence over the limit is cut at word boundaries.
        ("a b c d e f g", 3, ["a b c", "d e f", "g"]),
        # Windows line ends are paragraph breaks too.
        ("first\r\n\r\nsecond", 1, ["first", "second"]),
        # Numbers with decimal points are no sentence end ("$134.4 billion").
        ("Sales were $134.4 billion. Up 11%.", 4, ["Sales were $134.4 billion.", "Up 11%."]),
    ],
)
def test_chunk_text(text: str, max_words: int, expected: list[str]) -> None:
    assert chunk_text(text, max_words) == expected


def test_every_word_is_kept_in_order() -> None:
    text = "Alpha beta. Gamma delta epsilon.\n\nZeta eta theta iota. Kappa.\n\n\nLambda mu nu xi omicron pi."
    chunks = chunk_text(text, 4)
    assert " ".join(" ".join(chunks).split()) == " ".join(text.split())
    assert all(len(chunk.split()) <= 4 for chunk in chunks)


def test_a_chunk_holds_at_least_one_word() -> None:
    with pytest.raises(ValueError, match="at least one word"):
        chunk_text("a", 0)


def test_pages_keep_their_numbers_and_chunks_do_not_cross_them() -> None:
    chunks = chunk_pages("r.pdf", ["a b", "", "c d e f"], paged=True, max_words=3)
    assert chunks == [
        SourceChunk("r.pdf", "p1-1", "a b", page=1),
        SourceChunk("r.pdf", "p3-1", "c d e", page=3),
        SourceChunk("r.pdf", "p3-2", "f", page=3),
    ]
    assert chunks[1].provenance() == "r.pdf, page 3, chunk p3-1"


def test_a_text_file_has_numbered_chunks_without_pages() -> None:
    chunks = chunk_pages("notes.md", ["# Title\n\nbody one two\n\nthree four five"], paged=False, max_words=5)
    assert [(c.chunk_id, c.text, c.page) for c in chunks] == [
        ("c1", "# Title\n\nbody one two", None),
        ("c2", "three four five", None),
    ]
    assert chunks[0].provenance() == "notes.md, chunk c1"

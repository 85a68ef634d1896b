"""The batch path scores every row exactly as the row-by-row path, and so as FMEval.

:func:`batch_values` joins a batch's responses and normalises them at once; it must give the
values :meth:`LexicalScorer.values` gives one row at a time (``==`` on floats, ``None`` in the
same places), whatever the texts hold: ASCII only (the joined path) or not (row by row), line
breaks and tabs inside pieces (``"the\\ncat"`` keeps its article), empty responses, a response
holding the separator character itself, repeated questions, multiset counting.
"""

from __future__ import annotations

import string

import pytest
from core_paths import PATHS, scoring_path
from core_strategies import answers, single_operator_facts, texts
from hypothesis import given, settings
from hypothesis import strategies as st

import fmeval_reference as ref
from goldenlens.core.lexical.batch import batch_values, piece_words
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES, LexicalScorer

_ASCII_PIECES = st.sampled_from(
    ["the", "The", "a", "an", "cat", "Cat.", "134.4", "billion", "10,317,750,796", " ", "  ", "\n", "\t",
     "\nthe ", " the\t", "\x0b", "\x1c", "(an)", ", ", "\x01", "\x00", ""]
)  # fmt: skip
_ASCII_TEXTS = st.one_of(
    st.lists(_ASCII_PIECES, max_size=16).map("".join),
    st.text(string.printable + "\x01", max_size=30),
)
_ROWS = st.lists(
    st.tuples(
        st.one_of(_ASCII_TEXTS, texts),
        st.one_of(_ASCII_TEXTS, answers),
        st.one_of(
            st.sampled_from(["cat", "134.4 billion<OR>the cat", "a<AND>cat", ""]), single_operator_facts
        ),
    ),
    max_size=12,
)


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=400, deadline=None)
@given(rows=_ROWS, multiset=st.booleans())
def test_a_batch_scores_as_row_by_row(path: str, rows: list[tuple[str, str, str]], multiset: bool) -> None:
    expected = [LexicalScorer(multiset=multiset).values(*row) for row in rows]
    with scoring_path(path):
        got = batch_values(LexicalScorer(multiset=multiset), rows)
    assert got == expected
    for values, wanted in zip(got, expected, strict=True):
        assert [type(v) for v in values] == [type(v) for v in wanted]


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.tuples(_ASCII_TEXTS, _ASCII_TEXTS), min_size=1, max_size=8))
def test_an_ascii_batch_equals_the_fmeval_reference(path: str, rows: list[tuple[str, str]]) -> None:
    """ASCII rows take the C path or the joined path (unless one holds the separator): their
    QA scores are FMEval's own, computed here by the per-row transcription of its algorithm."""
    with scoring_path(path):
        got = batch_values(LexicalScorer(), [(response, answer, "cat") for response, answer in rows])
    for (response, answer), values in zip(rows, got, strict=True):
        expected = ref.all_scores(response, answer, "cat")
        for name, value in zip(LEXICAL_SCORE_NAMES, values, strict=True):
            assert value == expected[name], name


@given(st.lists(_ASCII_PIECES, max_size=20).map("".join))
def test_piece_words_are_the_split_of_the_joined_pieces(text: str) -> None:
    pieces = [piece for piece in text.split(" ") if piece and piece not in {"a", "an", "the"}]
    assert piece_words(pieces) == set(" ".join(pieces).split())


@pytest.mark.parametrize("path", PATHS)
def test_the_joined_path_is_taken_for_plain_ascii_rows(path: str) -> None:
    """A batch of ASCII rows is not scored row by row (else the speed-up would be lost)."""

    class Counting(LexicalScorer):
        calls = 0

        def values(self, response: str, answer: str, fact: str) -> tuple[float | None, ...]:
            Counting.calls += 1
            return super().values(response, answer, fact)

    rows = [("The cat sat.", "the cat", "cat"), ("", "the cat", "cat"), ("a\ndog\tran", "dog", "dog")]
    with scoring_path(path):
        scored = batch_values(Counting(), rows)
        assert Counting.calls == 0
        assert scored == [LexicalScorer().values(*row) for row in rows]
        batch_values(Counting(), [*rows, ("caf\u00e9", "cat", "cat")])
    # Not ASCII: the joined path goes row by row; the C path sends that response to Python.
    assert Counting.calls == (4 if path == "python" else 0)

"""Refusals: the fast paths (one text, a batch) answer exactly as the case-insensitive pattern."""

from __future__ import annotations

import pytest
from core_paths import PATHS, scoring_path
from hypothesis import given
from hypothesis import strategies as st

from goldenlens.core.lexical.refusal import (
    FIRST_LETTERS,
    NEGATION_WORDS,
    REFUSAL,
    REFUSAL_WORDS,
    is_refusal,
    refusals,
)

# --- the refusal fast path -------------------------------------------------------------------

_REFUSAL_PIECES = [
    "I", "i", "do not", "DON'T", "don\u2019t", "dont", "cannot", "CAN'T", "know", "answer", "find",
    "The context", "documents", "passages", "does", "do", "not", "include", "contain", "MENTION",
    "provide", "specify", "say", "any", "information", "details", "data", "no", "Not enough",
    "insufficient", "have", "enough", "sufficient", "unable", "not able", "to", "determine",
    "be", "answered", "determined", "available", "mentioned", "in", "Sorry", "sorryful",
    "\u017forry", "\u0130", "\u212aNOW", "caf\u00e9", "revenue", "134.4", ",", ".", "\n", "  ",
]  # fmt: skip


#: Whole phrases the pattern's alternatives match, so that many examples are refusals.
_REFUSAL_PHRASES = [
    "I don't know", "i DO NOT answer", "I can\u2019t find", "i cannot say", "The context does not include",
    "the passages provided do not mention", "does not contain any information", "not enough data",
    "I don't have sufficient context", "unable to determine", "not able to provide",
    "cannot be answered", "not available in", "not mentioned in", "Sorry",
]  # fmt: skip


@given(
    st.lists(st.sampled_from(_REFUSAL_PIECES + _REFUSAL_PHRASES), max_size=12),
    st.sampled_from([" ", "\n", "  ", "", ", "]),
)
def test_the_refusal_fast_path_agrees_with_the_pattern(pieces: list[str], glue: str) -> None:
    """``is_refusal`` answers exactly as the case-insensitive pattern. The fast path (a
    substring prefilter on lower-cased ASCII text) is what this checks; non-ASCII text (long s,
    the Kelvin sign, dotted I) goes through the pattern itself."""
    text = glue.join(pieces)
    assert is_refusal(text) == (REFUSAL.search(text) is not None)


def test_the_refusal_examples_reach_both_answers() -> None:
    """The property test's phrases are refusals and its filler is not: it tests both ways."""
    assert all(is_refusal(f"Well, {phrase} that.") for phrase in _REFUSAL_PHRASES)
    assert not is_refusal("Amazon reported net sales of 134.4 billion in the quarter.")


@pytest.mark.parametrize("path", PATHS)
@given(
    texts=st.lists(
        st.lists(st.sampled_from(_REFUSAL_PIECES + _REFUSAL_PHRASES), max_size=8).map(" ".join), max_size=12
    )
)
def test_a_batch_is_judged_as_each_text_alone(path: str, texts: list[str]) -> None:
    """:func:`refusals` answers for each text as the pattern: with the C substring test of each
    ASCII text, or without it, finding the prefilter's words in the batch's texts joined (a word
    found in one text marks that text only, whatever its neighbours hold)."""
    with scoring_path(path):
        assert refusals(texts) == [REFUSAL.search(text) is not None for text in texts]


@pytest.mark.parametrize("path", PATHS)
def test_a_batch_with_empty_texts_and_no_texts(path: str) -> None:
    with scoring_path(path):
        assert refusals([]) == []
        assert refusals(["", "Sorry", "", "I don't know", "134.4 billion", "\u212aNOW"]) == [
            False,
            True,
            False,
            True,
            False,
            False,
        ]


def test_every_phrase_starts_with_a_first_letter() -> None:
    """The search looks ahead for :data:`FIRST_LETTERS`; each alternative's phrase begins with
    one (the property tests above hold the two searches equal on mixed text)."""
    for phrase in _REFUSAL_PHRASES:
        found = REFUSAL.search(phrase)
        assert found is not None, phrase
        assert found.group()[0].lower() in FIRST_LETTERS, phrase


def test_every_match_holds_a_refusal_word_and_a_negation() -> None:
    """The two substring tests rule an ASCII text out only if no match could hold it: each
    phrase (and its spellings without an apostrophe) as the pattern matches it, lower-cased.
    Text that is not ASCII (a typographic apostrophe) is always searched with the pattern."""
    spellings = [*_REFUSAL_PHRASES, "I dont know", "i cant say", "I can't find", "we dont have any data"]
    for phrase in filter(str.isascii, spellings):
        found = REFUSAL.search(phrase)
        assert found is not None, phrase
        matched = found.group().lower()
        assert any(word in matched for word in REFUSAL_WORDS), phrase
        assert any(word in matched for word in NEGATION_WORDS), phrase

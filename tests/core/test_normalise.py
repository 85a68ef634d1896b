"""FMEval "QuAC protocol" normalisation: expected values, then properties against the reference."""

from __future__ import annotations

import string

import pytest
from core_strategies import texts
from hypothesis import given, settings

import fmeval_reference as ref
from goldenlens.core.lexical.normalise import (
    Token,
    lowered_offsets,
    normalise,
    normalise_with_offsets,
    word_set,
    words_with_spans,
)

# (text, normalise(text), normalise(text.strip()).split())
CASES = {
    "empty": ("", "", []),
    "only spaces": ("   ", "", []),
    "lower and punctuation": ("Hello, World!", "hello world", ["hello", "world"]),
    "articles dropped": (
        "A cat and an owl saw the THE mouse",
        "cat and owl saw mouse",
        ["cat", "and", "owl", "saw", "mouse"],
    ),
    "article only": ("The", "", []),
    "article made by punctuation removal": ("A.N. the.", "", []),
    "hyphenated articles join": ("the-the", "thethe", ["thethe"]),
    "the newline cat keeps the": ("the\ncat", "the\ncat", ["the", "cat"]),
    "tab glues a piece": ("The cat\tthe dog", "cat\tthe dog", ["cat", "the", "dog"]),
    "leading tab: strip first": ("\tthe cat", "\tthe cat", ["cat"]),
    "crlf inside": ("Line one\r\nthe end", "line one\r\nthe end", ["line", "one", "the", "end"]),
    "vertical tab and form feed": ("a\x0bb\x0cc", "a\x0bb\x0cc", ["a", "b", "c"]),
    "nbsp is not a space": ("\xa0the\xa0cat\xa0", "\xa0the\xa0cat\xa0", ["the", "cat"]),
    "nbsp around an article": ("x \xa0the y", "x \xa0the y", ["x", "the", "y"]),
    "line separator": ("the\u2028cat", "the\u2028cat", ["the", "cat"]),
    "many spaces collapse": ("  padded   text  ", "padded text", ["padded", "text"]),
    "number with commas": ("10,317,750,796", "10317750796", ["10317750796"]),
    "dollars and decimals": ("$134.4 billion.", "1344 billion", ["1344", "billion"]),
    "ascii apostrophe removed": ("Amazon's", "amazons", ["amazons"]),
    "curly apostrophe stays": ("Amazon\u2019s", "amazon\u2019s", ["amazon\u2019s"]),
    "curly quotes and ellipsis stay": ("“Quoted”…", "“quoted”…", ["“quoted”…"]),
    "en dash stays, hyphen goes": ("2023\u201324 e-mail", "2023\u201324 email", ["2023\u201324", "email"]),
    "underscore and backslash are punctuation": ("snake_case\\path", "snakecasepath", ["snakecasepath"]),
    "dotted capital I": ("İstanbul", "i\u0307stanbul", ["i\u0307stanbul"]),
    "final sigma in context": ("ΟΔΟΣ ΑΣ.", "οδος ας", ["οδος", "ας"]),
    "sigma before a letter": ("ΣΑ", "\u03c3\u03b1", ["\u03c3\u03b1"]),
    "sharp s is lowered, not case-folded": ("STRASSE Straße", "strasse straße", ["strasse", "straße"]),
    "emoji": ("I ❤️ 🍕!", "i ❤️ 🍕", ["i", "❤️", "🍕"]),
    "cjk punctuation stays": ("東京は日本の首都です。", "東京は日本の首都です。", ["東京は日本の首都です。"]),
    "ideographic space is not a space": ("東京\u3000the 首都", "東京\u3000the 首都", ["東京", "the", "首都"]),
}


@pytest.mark.parametrize(("text", "expected", "words"), CASES.values(), ids=CASES.keys())
def test_expected_values(text: str, expected: str, words: list[str]) -> None:
    assert normalise(text) == expected
    assert normalise(text) == ref.normalize_text_quac_protocol(text)
    assert normalise(text.strip()).split() == words
    assert word_set(text) == frozenset(words)
    assert [t.word for t in words_with_spans(text)] == words


def test_word_set_is_a_set() -> None:
    assert word_set("cat Cat CAT. the cat") == frozenset({"cat"})


def test_lowered_offsets_maps_expanded_characters_back() -> None:
    lowered, offsets = lowered_offsets("Aİb")
    assert lowered == "Aİb".lower() == "ai\u0307b"
    assert offsets == [0, 1, 1, 2]


def test_lowered_offsets_uses_whole_string_lowering() -> None:
    # Per-character lowering would give the medial sigma: the final one only exists in context.
    assert lowered_offsets("ΟΔΟΣ")[0] == "οδος"


def test_normalise_with_offsets_points_into_the_unstripped_text() -> None:
    text = "  The cat, sat."
    normalised, offsets = normalise_with_offsets(text)
    assert normalised == "cat sat"
    assert offsets == [6, 7, 8, -1, 11, 12, 13]
    assert "".join(text[i] for i in offsets if i >= 0) == "catsat"


def test_normalise_with_offsets_without_strip() -> None:
    normalised, offsets = normalise_with_offsets("\tthe cat", strip=False)
    assert normalised == normalise("\tthe cat") == "\tthe cat"
    assert offsets == [0, 1, 2, 3, -1, 5, 6, 7]


def test_words_with_spans_cover_the_counted_characters() -> None:
    text = "There were $10,317,750,796. shares"
    assert words_with_spans(text) == [
        Token("there", 0, 5),
        Token("were", 6, 10),
        Token("10317750796", 12, 26),
        Token("shares", 28, 34),
    ]
    assert text[12:26] == "10,317,750,796"


def test_words_with_spans_of_blank_text() -> None:
    assert words_with_spans("") == []
    assert words_with_spans(" \n\t ") == []
    assert normalise_with_offsets(" \n ") == ("", [])


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=500, deadline=None)
@given(texts)
def test_normalise_equals_fmeval(text: str) -> None:
    assert normalise(text) == ref.normalize_text_quac_protocol(text)
    assert normalise(text.strip()) == ref.normalize_text_quac_protocol(text.strip())


@settings(max_examples=300, deadline=None)
@given(texts)
def test_word_set_equals_fmeval_split(text: str) -> None:
    assert word_set(text) == ref._split(
        ref._normalize_and_strip_text(text, normalize_text=True, strip_text=True)
    )


@settings(max_examples=500, deadline=None)
@given(texts)
def test_words_with_spans_agree_with_normalise(text: str) -> None:
    assert [t.word for t in words_with_spans(text)] == normalise(text.strip()).split()


@settings(max_examples=300, deadline=None)
@given(texts)
def test_normalise_with_offsets_agrees_with_normalise(text: str) -> None:
    normalised, offsets = normalise_with_offsets(text)
    assert normalised == normalise(text.strip())
    assert len(offsets) == len(normalised)
    for char, index in zip(normalised, offsets, strict=True):
        if index < 0:
            assert char == " "
        else:
            # Σ lowers to ς at the end of a word, which per-character lowering cannot show.
            assert char in text[index].lower() or (char, text[index]) == ("ς", "Σ")


def _cleaned(segment: str) -> str:
    return "".join(c for c in segment.lower() if c not in string.punctuation)


@settings(max_examples=500, deadline=None)
@given(texts)
def test_spans_point_at_the_right_characters(text: str) -> None:
    tokens = words_with_spans(text)
    previous_end = 0
    for token in tokens:
        assert 0 <= previous_end <= token.start < token.end <= len(text)
        cleaned = _cleaned(text[token.start : token.end])
        assert cleaned.startswith(token.word[0])
        assert cleaned.endswith(token.word[-1])
        # Between the first and last counted character there is only the word and punctuation.
        assert cleaned == token.word
        previous_end = token.end

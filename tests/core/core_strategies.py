"""Hypothesis strategies shared by the core tests: text that exercises every normalisation rule.

Texts are glued from pieces: whole words (articles in every case, numbers with commas, words that
overlap between response and answer), every kind of whitespace that ``str.split()`` knows but
``split(" ")`` does not, ASCII punctuation, and unicode whose lower case is tricky.
"""

from __future__ import annotations

import string

from hypothesis import strategies as st

WHITESPACE = " \n\t\r\x0b\x0c\xa0\u2028\x1c\x85\u3000"
UNICODE = "İıΣ\u03c3ςßéÉ\u2019“”…\u2013😀❤️中文東京ǅﬁ\u0301\u00ad"
ALPHABET = string.ascii_letters + string.digits + string.punctuation + WHITESPACE + UNICODE

WORDS = (
    "a", "an", "the", "A", "An", "The", "THE", "tHe", "a.", "(the)", "an,",
    "cat", "Cat", "CAT.", "cats", "dog", "art", "Mozart", "Paris", "paris,", "France",
    "10,317,750,796", "10317750796", "$134.4", "134.4", "billion", "million", "12,455",
    "Amazon's", "Amazon\u2019s", "ΟΔΟΣ", "İstanbul", "straße", "東京", "🙂",
    " ", " ", " ", "  ", "\n", "\t", "\r\n", "\xa0", " the ", "\nthe ", ", ", ". ",
)  # fmt: skip

pieces = st.one_of(st.sampled_from(WORDS), st.text(ALPHABET, max_size=6))
texts = st.lists(pieces, max_size=24).map("".join)
"""Arbitrary text built from words, whitespace, punctuation and unicode."""

FACT_PARTS = ("cat", "Paris", "10,317,750,796", "134.4 billion", "the cat", "art", " dog ", "", "\n", "İ")
fact_parts = st.one_of(st.sampled_from(FACT_PARTS), st.lists(pieces, max_size=4).map("".join))


def joined(delimiter: str) -> st.SearchStrategy[str]:
    """1-4 parts joined with ``delimiter`` (a single part has no delimiter at all)."""
    return st.lists(fact_parts, min_size=1, max_size=4).map(delimiter.join)


single_operator_facts = st.one_of(joined("<OR>"), joined("<AND>")).filter(
    lambda fact: not ("<OR>" in fact and "<AND>" in fact)
)
"""Facts FMEval can score: only ``<OR>`` or only ``<AND>``."""

answers = st.one_of(texts, st.lists(texts, min_size=1, max_size=3).map("<OR>".join))
"""Golden answers, some with ``<OR>`` targets."""

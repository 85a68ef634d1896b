"""When two responses to the same question are the same answer, so that one reviewer verdict
holds for both (issue 21: "identical answers get one verdict").

The key is deliberately mild: Unicode compatibility forms folded (NFKC), case folded, runs of
whitespace made one space, and sentence punctuation, quotes, brackets and dashes trimmed at the
two ends only ("Paris." is "paris", "The Beatles" is "the beatles"; a sign or a decimal point
before a digit stays). Punctuation inside the text is kept:
FMEval's normalisation would make "3.5" and "35", or "-5" and "5", the same answer, and a
reviewer's verdict on one says nothing about the other. Articles are kept for the same reason
("a Beatle" and "the Beatles" are not one answer).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.intp]


#: Sentence punctuation trimmed at the ends ("Paris." is "paris"); quotes and dashes (Unicode
#: categories Pi, Pf, Pd) are trimmed too, and brackets around the whole text. "%" and the like
#: are not: "5%" is not "5".
_SENTENCE_MARKS = frozenset(".,;:!?\u2026\"'`\u00b7")
_TRIMMED_CATEGORIES = frozenset({"Pi", "Pf", "Pd"})
_BRACKETS = {"(": ")", "[": "]", "{": "}"}


def _is_edge(character: str) -> bool:
    return (
        character.isspace()
        or character in _SENTENCE_MARKS
        or unicodedata.category(character) in _TRIMMED_CATEGORIES
    )


def answer_key(text: str) -> str:
    """The text two responses to one question must share to be the same answer."""
    folded = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    while True:
        trimmed = _trim(folded)
        if len(trimmed) >= 2 and _BRACKETS.get(trimmed[0]) == trimmed[-1]:
            trimmed = trimmed[1:-1]
        if trimmed == folded:
            return folded
        folded = trimmed


def _trim(text: str) -> str:
    start, end = 0, len(text)
    while start < end and _is_edge(text[start]):
        # A sign or decimal point before a digit is part of a number: "-5" and ".5" are not "5".
        if text[start] in "-.,\u2212" and start + 1 < end and text[start + 1].isdigit():
            break
        start += 1
    while end > start and _is_edge(text[end - 1]):
        end -= 1
    return text[start:end]


def answer_groups(question_ids: Sequence[str], keys: Iterable[str]) -> IntArray:
    """One group number per response (in order of first appearance): responses to the same
    question with the same :func:`answer_key` share it."""
    seen: dict[tuple[str, str], int] = {}
    groups = [
        seen.setdefault((question, key), len(seen)) for question, key in zip(question_ids, keys, strict=True)
    ]
    return np.asarray(groups, dtype=np.intp)

"""Refusals: responses that decline to answer ("I don't know", "the context does not say").

A refusal repeats the question's words, so its recall can be high; the flags call it a refusal
instead of a hallucination (:mod:`goldenlens.core.lexical.flags`). :data:`REFUSAL` is the definition;
everything else here is a faster way to get exactly its answer, because the test runs for every
scored response:

* :func:`is_refusal` tests one text. For ASCII text (where ``str.lower`` and
  ``re.IGNORECASE`` agree exactly) a substring test of the words every match contains (one of
  :data:`REFUSAL_WORDS` and one of :data:`NEGATION_WORDS`) rules most texts out, and the rest
  are matched lower-cased.
* :func:`refusals` tests a batch. Where GoldenLens's C extension was built, both substring
  tests of every ASCII text of the batch are one call of it, a single pass over each text
  (:data:`~goldenlens.core.lexical.normalise.ascii_lower_contains_each`), and only a text that passes
  them is lower-cased in Python for the pattern. Otherwise the
  substring test runs once over the batch's lower-cased texts joined, so its cost no longer
  grows with the number of words times the number of texts, only with the number of times a
  word occurs.

Both search with :data:`REFUSAL` behind a look-ahead for the letters a match can start with
(the regular-expression engine then skips other positions at once, about twice as fast); it
finds the same matches, since every alternative begins with one of them. Non-ASCII text is
always searched with the case-insensitive pattern itself.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Final

from goldenlens.core.lexical import normalise

# Apostrophes may be typographic (U+2019): model output often is, and normalisation keeps it.
REFUSAL: Final = re.compile(
    r"\b(i\s+(do\s+not|don['\u2019]?t|cannot|can['\u2019]?t)\s+(know|answer|find|say|provide)|"
    # "does not include" alone is too common in real answers ("…, which does not include AWS"):
    # require the retrieved material as the subject, or "information" as the object.
    r"(context|documents?|passages?|sources?|excerpts?|text)\s+(provided\s+)?(does|do)\s+not\s+"
    r"(include|contain|mention|provide|specify|say)|"
    r"(does|do)\s+not\s+(include|contain|mention|provide|specify)\s+(any\s+)?(information|details|data)|"
    r"(no|not\s+enough|insufficient|(do\s+not|don['\u2019]?t)\s+have\s+(enough|sufficient|any))\s+"
    r"(information|context|data)|"
    r"(unable|not\s+able)\s+to\s+(answer|find|determine|provide)|"
    r"cannot\s+be\s+(answered|determined)|not\s+(available|mentioned)\s+in|sorry)\b",
    re.IGNORECASE,
)

#: The first letter of each alternative of :data:`REFUSAL` (i do not, context, documents,
#: passages, sources, excerpts, text, does, no, insufficient, unable, cannot, sorry).
FIRST_LETTERS: Final = "cdeinpstu"

_SEARCH: Final = re.compile(f"(?=[{FIRST_LETTERS}]){REFUSAL.pattern}", re.IGNORECASE)
#: The same, matched case-sensitively, for text already lower-cased.
_SEARCH_LOWER: Final = re.compile(_SEARCH.pattern)

#: Every match of :data:`REFUSAL` contains one of these words (each alternative ends in one of
#: them, or is "sorry"): a text without any of them cannot be a refusal.
REFUSAL_WORDS: Final = (
    "know",
    "answer",
    "find",
    "say",
    "provide",
    "include",
    "contain",
    "mention",
    "specify",
    "information",
    "details",
    "data",
    "context",
    "determine",
    "available",
    "sorry",
)

#: Every match of :data:`REFUSAL` in lower-cased ASCII text also contains one of these: its
#: negation ("not" and "cannot" contain "no"; "don't" and "can't" contain "n't", and without
#: the apostrophe they are "dont" and "cant"), or "insufficient", "unable" or "sorry". A text
#: with a word of :data:`REFUSAL_WORDS` but none of these cannot be a refusal either.
NEGATION_WORDS: Final = ("no", "n't", "dont", "cant", "insufficient", "unable", "sorry")


def is_refusal(response: str) -> bool:
    """True when ``response`` declines to answer (:data:`REFUSAL` matches)."""
    if not response.isascii():
        return _SEARCH.search(response) is not None
    lower = response.lower()
    if not any(map(lower.__contains__, REFUSAL_WORDS)) or not any(map(lower.__contains__, NEGATION_WORDS)):
        return False
    return _SEARCH_LOWER.search(lower) is not None


def refusals(texts: Sequence[str]) -> list[bool]:
    """:func:`is_refusal` of each text, worked out for the batch at once."""
    lower_contains_each = normalise.ascii_lower_contains_each
    if lower_contains_each is not None:
        lower_search = _SEARCH_LOWER.search
        search = _SEARCH.search
        # None: not ASCII, so searched with the case-insensitive pattern itself.
        candidates = lower_contains_each(list(texts), REFUSAL_WORDS, NEGATION_WORDS)
        return [
            (search(text) is not None)
            if candidate is None
            else (candidate and lower_search(text.lower()) is not None)
            for text, candidate in zip(texts, candidates, strict=True)
        ]
    lowered = [text.lower() for text in texts]
    # A line break is in no word, so no word found in the joined text spans two texts.
    joined = "\n".join(lowered)
    starts: list[int] = []
    position = 0
    for lower in lowered:
        starts.append(position)
        position += len(lower) + 1
    starts.append(position)  # past the end: where a search after the last text starts
    candidate = [False] * len(texts)
    find = joined.find
    for word in REFUSAL_WORDS:
        found = find(word)
        while found >= 0:
            index = bisect_right(starts, found) - 1
            candidate[index] = True
            found = find(word, starts[index + 1])  # one occurrence per text is enough
    out: list[bool] = []
    for text, lower, maybe in zip(texts, lowered, candidate, strict=True):
        if not text.isascii():
            out.append(_SEARCH.search(text) is not None)
        else:
            negated = maybe and any(map(lower.__contains__, NEGATION_WORDS))
            out.append(negated and _SEARCH_LOWER.search(lower) is not None)
    return out

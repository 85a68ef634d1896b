"""FMEval's "QuAC protocol" text normalisation, and the same tokenisation with character spans.

The rules (shared/METRICS.md) are reproduced exactly, including their quirks:

1. lowercase; 2. delete every ASCII ``string.punctuation`` character; 3. split on the single
space ``" "`` only, drop empty pieces and the articles ``a``/``an``/``the``; 4. join with one
space. Overlap metrics then use ``normalised.split()`` (any whitespace) as sets.

So ``"the\\ncat"`` keeps ``the`` (no space separated it at step 3), and
``"10,317,750,796"`` becomes ``"10317750796"``.

:func:`normalise` is the fast path used for scoring; :func:`words_with_spans` walks the
original text and yields the same words with the character span each came from, so the UI
can highlight exactly what was counted. A property test checks the two always agree.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from itertools import filterfalse
from typing import Final

_ascii_normalised_words: Callable[[str], tuple[str, frozenset[str]]] | None
_ascii_normalised: Callable[[str], str] | None
#: For each text of a list, ``None`` when it is not ASCII, else whether it holds, lower-cased, a
#: word of each of two tuples, in C (``None`` where the extension was not built).
ascii_lower_contains_each: Callable[[list[str], tuple[str, ...], tuple[str, ...]], list[bool | None]] | None
#: ``" ".join(dict.fromkeys(text.split()))`` of an ASCII text, in C (``None`` where the extension
#: was not built).
ascii_distinct_words: Callable[[str], str] | None
try:  # the same steps in C for ASCII text (optional: built where a C compiler is at hand)
    from goldenlens.core.lexical import _quac_ascii
except ImportError:
    _ascii_normalised_words = _ascii_normalised = ascii_lower_contains_each = ascii_distinct_words = None
else:
    _ascii_normalised_words = _quac_ascii.normalised_words
    _ascii_normalised = _quac_ascii.normalised
    ascii_lower_contains_each = _quac_ascii.lower_contains_each
    ascii_distinct_words = _quac_ascii.distinct_words

#: Whether ASCII text is normalised by the C extension (``goldenlens.core.lexical._quac_ascii``).
ASCII_IN_C: Final = _ascii_normalised_words is not None

ARTICLES: frozenset[str] = frozenset({"a", "an", "the"})
_DELETE_PUNCTUATION = str.maketrans("", "", string.punctuation)
_PUNCTUATION_BYTES = string.punctuation.encode("ascii")
PUNCTUATION = frozenset(string.punctuation)
#: The pieces step 3 drops: empty ones (between two spaces) and the articles.
_DROPPED = frozenset({"", *ARTICLES})
_is_dropped = _DROPPED.__contains__


def normalise(text: str) -> str:
    """Normalise ``text`` exactly as FMEval 1.2.3 ``normalize_text_quac_protocol`` does (ASCII
    text in C where it was built, as :func:`normalised_words`)."""
    if _ascii_normalised is not None and text.isascii():
        return _ascii_normalised(text)
    return " ".join(filterfalse(_is_dropped, _without_punctuation(text.lower()).split(" ")))


def normalised_words(text: str) -> tuple[str, frozenset[str]]:
    """``normalise(text)`` and the set of its words (``normalise(text).split()``) in one pass:
    what scoring needs of every response. ASCII text goes through the C version where it was
    built (:data:`ASCII_IN_C`), the rest through :func:`python_normalised_words`."""
    if _ascii_normalised_words is not None and text.isascii():
        return _ascii_normalised_words(text)
    return python_normalised_words(text)


def python_normalised_words(text: str) -> tuple[str, frozenset[str]]:
    """:func:`normalised_words` in Python: the reference the C version is tested against.

    When the text holds no whitespace but the space, and nothing else ``str.isprintable``
    refuses (every other character ``str.split`` breaks at is one it refuses), the words are
    the kept pieces of step 3 themselves, so they are not split out a second time.
    """
    kept = _without_punctuation(text.lower())
    pieces = kept.split(" ")
    normalised = " ".join(filterfalse(_is_dropped, pieces))
    if kept.isprintable():
        return normalised, frozenset(pieces) - _DROPPED
    return normalised, frozenset(normalised.split())


def _without_punctuation(lowered: str) -> str:
    """Step 2: ``lowered`` without ASCII punctuation (the same text ``str.translate`` gives;
    for ASCII text through ``bytes.translate``, which is several times faster)."""
    if lowered.isascii():
        return lowered.encode("ascii").translate(None, _PUNCTUATION_BYTES).decode("ascii")
    return lowered.translate(_DELETE_PUNCTUATION)


def word_set(text: str) -> frozenset[str]:
    """The set of words FMEval compares: strip, normalise, split on any whitespace."""
    return normalised_words(text.strip())[1]


@dataclass(frozen=True, slots=True)
class Token:
    """A counted word: its normalised form and the span ``[start, end)`` in the original text.

    The span runs from the first to the last character that survived normalisation, so
    ``"$10,317,750,796."`` gives the word ``10317750796`` with the span of ``10,317,750,796``.
    """

    word: str
    start: int
    end: int


def lowered_offsets(text: str) -> tuple[str, list[int]]:
    """``text.lower()`` and, for each of its characters, the index in ``text`` it came from.

    Lower-casing the whole string matters (Greek final sigma depends on context), but a few
    characters lower to two (``İ`` → ``i̇``), so when the length changes the offsets come from
    per-character lengths; otherwise they are the identity (the common, fast case).
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered, list(range(len(text)))
    offsets: list[int] = []
    for index, char in enumerate(text):
        offsets.extend([index] * len(char.lower()))
    return lowered, offsets


def normalise_with_offsets(text: str, *, strip: bool = True) -> tuple[str, list[int]]:
    """``normalise(text.strip())`` plus, for each of its characters, the index in ``text``.

    The single spaces that step 4 inserts between pieces map to ``-1``. ``strip`` mirrors
    FMEval's ``strip_text``; offsets always point into the original, unstripped ``text``.
    Works piece by piece with string methods (not character by character) because it runs
    for every scored response.
    """
    base = 0
    if strip:
        stripped = text.strip()
        base = len(text) - len(text.lstrip()) if stripped else 0
        text = stripped
    lowered, lower_offsets = lowered_offsets(text)
    kept = lowered.translate(_DELETE_PUNCTUATION)
    if len(kept) == len(lowered):
        kept_offsets = lower_offsets
    else:
        kept_offsets = [o for c, o in zip(lowered, lower_offsets, strict=True) if c not in PUNCTUATION]
    pieces: list[str] = []
    offsets: list[int] = []
    position = 0
    for piece in kept.split(" "):
        if piece and piece not in ARTICLES:
            if pieces:
                offsets.append(-1)
            pieces.append(piece)
            chunk = kept_offsets[position : position + len(piece)]
            offsets.extend([base + o for o in chunk] if base else chunk)
        position += len(piece) + 1
    return " ".join(pieces), offsets


_WORD = re.compile(r"\S+")


def words_with_spans(text: str, *, strip: bool = True) -> list[Token]:
    """Every word of ``normalise(text.strip()).split()`` in order, with its source span."""
    normalised, offsets = normalise_with_offsets(text, strip=strip)
    return [
        Token(m.group(), offsets[m.start()], offsets[m.end() - 1] + 1) for m in _WORD.finditer(normalised)
    ]

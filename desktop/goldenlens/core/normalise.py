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
from dataclasses import dataclass

ARTICLES: frozenset[str] = frozenset({"a", "an", "the"})
_DELETEPUNCTUATION = str.maketrans("", "", string.punctuation)
PUNCTUATION = frozenset(string.punctuation)


def normalise(text: str) -> str:
    """Normalise ``text`` exactly as FMEval 1.2.3 ``normalize_text_quac_protocol`` does."""
    text = text.lower().translate(_DELETEPUNCTUATION)
    return " ".join([word for word in text.split(" ") if word and word not in ARTICLES])


def word_set(text: str) -> frozenset[str]:
    """The set of words FMEval compares: strip, normalise, split on any whitespace."""
    return frozenset(normalise(text.strip()).split())


@dataclass(frozen=True)
class Token:
    """A counted word: its normalised form and the span ``[start, end)`` in the original text.

    The span runs from the first to the last character that survived normalisation, so
    ``"$10,317,750,796."`` gives the word ``10317750796`` with the span of ``10,317,750,796``.
    """

    word: str
    start: int
    end: int


def lowered_with_offsets(text: str) -> list[tuple[str, int]]:
    """``text.lower()`` as (char, index into ``text``) pairs.

    Lower-casing the whole string matters (Greek final sigma depends on context), but a few
    characters lower to two (``İ`` → ``i̇``), so offsets come from per-character lengths.
    """
    lowered = text.lower()
    pairs: list[tuple[str, int]] = []
    pos = 0
    for index, char in enumerate(text):
        width = len(char.lower())
        pairs.extend((lowered[pos + k], index) for k in range(width))
        pos += width
    return pairs


def normalise_with_offsets(text: str, *, strip: bool = True) -> tuple[str, list[int]]:
    """``normalise(text.strip())`` plus, for each of its characters, the index in ``text``.

    The single spaces that step 4 inserts between pieces map to ``-1``. ``strip`` mirrors
    FMEval's ``strip_text``; offsets always point into the original, unstripped ``text``.
    """
    base = 0
    if strip:
        stripped = text.strip()
        base = len(text) - len(text.lstrip()) if stripped else 0
        text = stripped
    out_chars: list[str] = []
    offsets: list[int] = []
    piece: list[tuple[str, int]] = []
    kept = [(c, i) for c, i in lowered_with_offsets(text) if c not in PUNCTUATION]
    for item in [*kept, (" ", -1)]:
        if item[0] != " ":
            piece.append(item)
            continue
        if piece and "".join(c for c, _ in piece) not in ARTICLES:
            if out_chars:
                out_chars.append(" ")
                offsets.append(-1)
            out_chars.extend(c for c, _ in piece)
            offsets.extend(base + i for _, i in piece)
        piece = []
    return "".join(out_chars), offsets


_WORD = re.compile(r"\S+")


def words_with_spans(text: str, *, strip: bool = True) -> list[Token]:
    """Every word of ``normalise(text.strip()).split()`` in order, with its source span."""
    normalised, offsets = normalise_with_offsets(text, strip=strip)
    return [
        Token(m.group(), offsets[m.start()], offsets[m.end() - 1] + 1) for m in _WORD.finditer(normalised)
    ]

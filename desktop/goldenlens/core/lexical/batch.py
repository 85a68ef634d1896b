"""The lexical scores of a batch of responses at once: what
:meth:`~goldenlens.core.lexical.scorer.LexicalScorer.values` gives row by row, with the text work done
once per batch.

FMEval's normalisation is a few string operations (lower-case, delete punctuation, split on
spaces, drop articles, join). Run on one response they cost more in Python call overhead than
in work. Here a batch's stripped responses are joined, with a separator that stays a piece of
its own, and the joined text is lower-cased, cleared of punctuation and split in one call
each, so the loops run in C over one long string. Each response's normalised text and word
set are then a slice of the kept pieces, and the scores come from
:meth:`~goldenlens.core.lexical.scorer.LexicalScorer.values_normalised`, the same code the row-by-row
path runs.

This is used only where it is exact: ASCII text (lower-casing and punctuation are then
per-character) in set counting. Anything else, including a batch where a response holds the
separator itself, is scored row by row. A property test holds the two paths equal.

Where the C extension was built (:data:`~goldenlens.core.lexical.normalise.ASCII_IN_C`) one call of
it scores the usual row instead (an ASCII response against an ASCII answer, each of its ``<OR>``
targets, and a fact with both scores scored): normalisation, word sets, precision, recall, F1,
the matches and the fact's inclusion, with no Python object made but the seven values. That is
several times faster still; the joined path is what an install without a C compiler runs.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from itertools import filterfalse
from typing import Final

from goldenlens.core.lexical.normalise import ARTICLES, ASCII_IN_C, normalised_words
from goldenlens.core.lexical.scorer import LexicalScorer

#: Joins two responses: a piece of its own once split on spaces, and neither whitespace,
#: punctuation nor an article, so normalisation keeps it as it is.
_MARK: Final = "\x01"
_JOIN: Final = f" {_MARK} "
_PUNCTUATION: Final = string.punctuation.encode("ascii")
_is_dropped = frozenset({"", *ARTICLES}).__contains__

#: ``(response, answer, fact)``
BatchRow = tuple[str, str, str]


def batch_values(scorer: LexicalScorer, rows: Sequence[BatchRow]) -> list[tuple[float | None, ...]]:
    """:meth:`LexicalScorer.values` of each row, in order."""
    if not rows:
        return []
    if ASCII_IN_C and not scorer.multiset:
        return _c_values(scorer, rows)
    stripped_texts = [response.strip() for response, _answer, _fact in rows]
    joined = _JOIN.join(stripped_texts)
    if scorer.multiset or not joined.isascii() or joined.count(_MARK) != len(rows) - 1:
        return [scorer.values(response, answer, fact) for response, answer, fact in rows]
    kept = joined.lower().encode("ascii").translate(None, _PUNCTUATION).decode("ascii")
    values_of = scorer.values_normalised
    out = []
    own_texts = kept.split(_JOIN)
    for (response, answer, fact), own_stripped, own_kept in zip(rows, stripped_texts, own_texts, strict=True):
        pieces = list(filterfalse(_is_dropped, own_kept.split(" ")))
        normalised = " ".join(pieces)
        out.append(
            values_of(response, own_stripped, normalised, piece_words(pieces), answer=answer, fact=fact)
        )
    return out


def _c_values(scorer: LexicalScorer, rows: Sequence[BatchRow]) -> list[tuple[float | None, ...]]:
    """:func:`batch_values` where the C extension was built: one call of its ``row_values``
    scores an ASCII response (:meth:`~goldenlens.core.lexical.scorer.LexicalScorer.ascii_arguments`
    says when its answer and fact allow it); any other row has its text
    normalised by one C call (ASCII) or in Python, and is scored by
    :meth:`~goldenlens.core.lexical.scorer.LexicalScorer.values_normalised`."""
    from goldenlens.core.lexical import _quac_ascii

    row_values = _quac_ascii.row_values
    values_of = scorer.values_normalised
    out: list[tuple[float | None, ...]] = []
    answer_of = fact_of = None
    arguments = None
    for response, answer, fact in rows:
        if answer is not answer_of or fact is not fact_of:  # a question's rows share their texts
            answer_of, fact_of = answer, fact
            arguments = scorer.ascii_arguments(answer, fact)
        if arguments is not None and response.isascii():
            out.append(row_values(response, *arguments))
        else:
            stripped = response.strip()
            out.append(values_of(response, stripped, *normalised_words(stripped), answer=answer, fact=fact))
    return out


def piece_words(pieces: list[str]) -> set[str]:
    """``set(" ".join(pieces).split())`` without splitting the joined text again: a piece is a
    word as it is unless it holds other whitespace (a line break or a tab: FMEval splits at
    spaces only, so ``"the\\ncat"`` is one piece and its article stays), and only those few
    pieces are split. ``str.isprintable`` refuses every whitespace character but the space,
    which no piece holds."""
    words = set(pieces)
    for piece in filterfalse(str.isprintable, pieces):
        words.discard(piece)
        words.update(piece.split())
    return words

"""What the fact-variant generators hand back: one rewritten fact part and why it is the same.

Each generator (:mod:`~goldenlens.core.variants.numbers`, :mod:`~goldenlens.core.variants.dates`,
:mod:`~goldenlens.core.variants.words`) rewrites one span of a fact part into another spelling
of the same thing and returns the whole part rewritten, so :mod:`goldenlens.core.variants.generator`
only combines, filters and assesses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class VariantKind(StrEnum):
    """Which kind of respelling a variant is (shown in the variant table)."""

    SCALE = "scale"  # 134.4 billion -> 134,400 million, 134.4 bn, 134.4B
    GROUPING = "grouping"  # 10,317,750,796 -> 10317750796; 22.140 -> 22.14 (same digits)
    DATE = "date"  # February 22, 2023 -> 2023-02-22
    PERCENT = "percent"  # 5% -> 5 percent
    NUMBER_WORD = "number word"  # five -> 5, 1st -> first
    ABBREVIATION = "abbreviation"  # Avenue -> Ave.


@dataclass(frozen=True)
class Rewrite:
    """A fact part with one span respelled.

    ``text`` is the whole rewritten part; ``note`` says what changed (``"134.4 billion =
    134,400 million"``); ``risk`` is a reason the new spelling could match something that is
    not the fact, when the generator knows one (an ambiguous numeric date).
    """

    text: str
    kind: VariantKind
    note: str
    risk: str = ""


Span = tuple[int, int]


def splice(text: str, span: Span, replacement: str) -> str:
    """``text`` with ``text[span[0]:span[1]]`` replaced."""
    return text[: span[0]] + replacement + text[span[1] :]


def overlaps(span: Span, taken: list[Span]) -> bool:
    """Whether ``span`` overlaps any span in ``taken`` (a date's digits are not a number)."""
    return any(span[0] < end and start < span[1] for start, end in taken)

"""English words for small numbers, as golden facts and responses spell them: the false-match
rule counts the small ones as common words, and fact variants respell numbers with them."""

from __future__ import annotations

from typing import Final

#: ``UNITS[n]`` spells ``n``, from zero to nineteen.
UNITS: Final = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
#: ``TENS[k]`` spells ``10 * (k + 2)``, from twenty to ninety.
TENS: Final = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")

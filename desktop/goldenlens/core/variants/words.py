"""Words in a fact, respelled: small numbers and ordinals as words or digits, abbreviations.

``five`` ↔ ``5``, ``second quarter`` ↔ ``2nd quarter``, ``Avenue`` ↔ ``Ave.``/``Ave``,
``North`` ↔ ``N.``, ``Corporation`` ↔ ``Corp.``, ``Chief Executive Officer`` ↔ ``CEO``.

An abbreviation is always offered for the full word; the full word is offered for an
abbreviation only when the abbreviation is not ambiguous: ``St.`` may be Saint, ``Dr.`` may be
Doctor, a lone ``E.`` may be an initial (``John E. Smith``), so single-letter compass points
are expanded only in a part that also names a street type (``Terry Ave. N.``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import product

from goldenlens.core.lexical.number_words import TENS, UNITS
from goldenlens.core.variants.kinds import Rewrite, Span, VariantKind, overlaps, splice


def _number_words() -> dict[int, str]:
    words = dict(enumerate(UNITS))
    for index, tens in enumerate(TENS, start=2):
        words[index * 10] = tens
        for unit in range(1, 10):
            words[index * 10 + unit] = f"{tens}-{UNITS[unit]}"
    return words


#: 0 to 99 as words (compounds hyphenated, as style guides write them).
NUMBER_WORDS: dict[int, str] = _number_words()
_WORD_NUMBERS = {word: number for number, word in NUMBER_WORDS.items()}

_ORDINAL_UNITS = (
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
)
_ORDINAL_TENS = {20: "twentieth", 30: "thirtieth"}


def _ordinal_words() -> dict[int, str]:
    words = {n: w for n, w in enumerate(_ORDINAL_UNITS) if n}
    for tens, word in _ORDINAL_TENS.items():
        words[tens] = word
        for unit in range(1, 10):
            if tens + unit <= 31:
                words[tens + unit] = f"{NUMBER_WORDS[tens]}-{_ORDINAL_UNITS[unit]}"
    return words


#: 1st to 31st as words (enough for every day of a month).
ORDINAL_WORDS: dict[int, str] = _ordinal_words()
_WORD_ORDINALS = {word: number for number, word in ORDINAL_WORDS.items()}


def ordinal_suffix(number: int) -> str:
    """``1`` → ``1st``, ``22`` → ``22nd``, ``11`` → ``11th``."""
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def number_from_word(word: str) -> int | None:
    """``five`` → 5, ``twenty-one`` → 21 (any case); ``None`` for anything else."""
    return _WORD_NUMBERS.get(word.lower())


def ordinal_from_text(text: str) -> int | None:
    """``22nd``, ``twenty-second`` → 22 (any case; the suffix must be the right one)."""
    lowered = text.lower()
    if lowered in _WORD_ORDINALS:
        return _WORD_ORDINALS[lowered]
    match = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)", lowered)
    if match and ordinal_suffix(int(match[1])) == lowered:
        return int(match[1])
    return None


_COUNT_WORD = re.compile(
    r"(?<![\w-])(" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True)) + r")(?![\w-])", re.IGNORECASE
)
_ORDINAL = re.compile(
    r"(?<![\w-])("
    + "|".join(sorted(_WORD_ORDINALS, key=len, reverse=True))
    + r"|\d{1,2}(?:st|nd|rd|th))(?![\w-])",
    re.IGNORECASE,
)


def number_word_rewrites(part: str, taken: list[Span]) -> list[Rewrite]:
    """Number words as digits (``five`` → ``5``) and ordinals both ways (``second`` ↔ ``2nd``)."""
    rewrites: list[Rewrite] = []
    for match in _COUNT_WORD.finditer(part):
        if not overlaps(match.span(), taken):
            digits = str(_WORD_NUMBERS[match[1].lower()])
            rewrites.append(
                Rewrite(splice(part, match.span(), digits), VariantKind.NUMBER_WORD, f"{match[1]} = {digits}")
            )
    for match in _ORDINAL.finditer(part):
        number = ordinal_from_text(match[1])
        if number is None or overlaps(match.span(), taken):
            continue
        if match[1][0].isdigit() and number not in ORDINAL_WORDS:
            continue  # "45th": no word form is kept for it (the words stop at thirty-first)
        other = ORDINAL_WORDS[number] if match[1][0].isdigit() else ordinal_suffix(number)
        rewrites.append(
            Rewrite(splice(part, match.span(), other), VariantKind.NUMBER_WORD, f"{match[1]} = {other}")
        )
    return rewrites


@dataclass(frozen=True)
class Abbreviation:
    """A full form and its abbreviations; ``expand``: whether an abbreviation found in a fact
    may be read back as the full form (not when it is ambiguous)."""

    full: str
    short: tuple[str, ...]
    expand: bool = True
    needs_street: bool = False  # expanded only in a part that names a street type
    street: bool = False  # a street type (Avenue, Street, ...): makes "N." read as North


ABBREVIATIONS: tuple[Abbreviation, ...] = (
    Abbreviation("Avenue", ("Ave.", "Ave"), street=True),
    Abbreviation("Street", ("St.", "St"), expand=False, street=True),  # St. Louis: Saint
    Abbreviation("Road", ("Rd.", "Rd"), street=True),
    Abbreviation("Boulevard", ("Blvd.", "Blvd"), street=True),
    Abbreviation("Drive", ("Dr.",), expand=False, street=True),  # Dr. Smith: Doctor
    Abbreviation("Lane", ("Ln.",), street=True),
    Abbreviation("Place", ("Pl.",), street=True),
    Abbreviation("Court", ("Ct.",), street=True),
    Abbreviation("Parkway", ("Pkwy.",), street=True),
    Abbreviation("Highway", ("Hwy.",), street=True),
    Abbreviation("Suite", ("Ste.",)),
    Abbreviation("North", ("N.", "N"), needs_street=True),
    Abbreviation("South", ("S.", "S"), needs_street=True),
    Abbreviation("East", ("E.", "E"), needs_street=True),
    Abbreviation("West", ("W.", "W"), needs_street=True),
    Abbreviation("Corporation", ("Corp.", "Corp")),
    Abbreviation("Incorporated", ("Inc.", "Inc")),
    Abbreviation("Company", ("Co.",)),
    Abbreviation("Limited", ("Ltd.", "Ltd")),
    Abbreviation("Department", ("Dept.",)),
    Abbreviation("Mount", ("Mt.",)),
    Abbreviation("Chief Executive Officer", ("CEO",)),
    Abbreviation("Chief Financial Officer", ("CFO",)),
    Abbreviation("Chief Operating Officer", ("COO",)),
    Abbreviation("Chief Technology Officer", ("CTO",)),
    Abbreviation("Senior Vice President", ("SVP",)),
    Abbreviation("Vice President", ("VP",)),
    Abbreviation("United States", ("U.S.", "US")),
    Abbreviation("and", ("&",)),
)
_STREET_TYPES = tuple(a for a in ABBREVIATIONS if a.street)
#: At most this many abbreviable words of one part are combined (3 words: 26 spellings).
MAX_COMBINED = 3


@cache  # the texts are the table's: a bounded set, each compiled once
def _pattern(text: str) -> re.Pattern[str]:
    body = r"\s+".join(re.escape(word) for word in text.split())
    tail = r"(?!\w)" if text[-1] in ".&" else r"(?![\w.])"
    head = r"(?<![\w.])" if text[0].isalnum() else r"(?<!\S)"
    return re.compile(head + body + tail, re.IGNORECASE)


def _styled(replacement: str, written: str) -> str:
    """The replacement in the written word's case style (``AVENUE`` → ``AVE.``)."""
    if written.isupper() and len(written) > 1 and not replacement.isupper():
        return replacement.upper()
    if written.islower() and not replacement.isupper():
        return replacement.lower()
    return replacement


def _names_street(part: str) -> bool:
    return any(_pattern(form).search(part) for a in _STREET_TYPES for form in (a.full, *a.short))


def _occurrences(part: str, taken: list[Span]) -> list[tuple[Span, str, list[str]]]:
    """Each abbreviable span of ``part`` with what it may also be written as."""
    found: list[tuple[Span, str, list[str]]] = []
    street = _names_street(part)
    for entry in ABBREVIATIONS:
        found.extend((m.span(), m.group(), list(entry.short)) for m in _pattern(entry.full).finditer(part))
        if not entry.expand or (entry.needs_street and not street):
            continue
        for short in entry.short:
            for match in _pattern(short).finditer(part):
                bare_short = short.isalpha() and len(short) <= 2
                if bare_short and not match.group().isupper():
                    continue  # "us" is a word, "US" the country
                others = [entry.full, *(s for s in entry.short if s != short)]
                found.append((match.span(), match.group(), others))
    found.sort(key=lambda item: item[0])
    kept: list[tuple[Span, str, list[str]]] = []
    for item in found:
        if not overlaps(item[0], taken + [k[0] for k in kept]):
            kept.append(item)
    return kept[:MAX_COMBINED]


def abbreviation_rewrites(part: str, taken: list[Span]) -> list[Rewrite]:
    """Every combination of the abbreviable words of ``part`` written the other way."""
    occurrences = _occurrences(part, taken)
    rewrites: list[Rewrite] = []
    choices = [[written, *(_styled(o, written) for o in others)] for _span, written, others in occurrences]
    for combination in product(*choices):
        changed = [(occ, new) for occ, new in zip(occurrences, combination, strict=True) if new != occ[1]]
        if not changed:
            continue
        text = part
        for (span, _written, _others), new in sorted(changed, key=lambda c: c[0][0], reverse=True):
            text = splice(text, span, new)
        note = "; ".join(f"{written} = {new}" for (_span, written, _others), new in changed)
        rewrites.append(Rewrite(text, VariantKind.ABBREVIATION, note))
    return rewrites

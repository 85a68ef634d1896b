"""Dates in a fact, respelled in the common English formats (same day, month and year).

Read: ISO ``2023-02-22``; numeric ``02/22/2023`` or ``22/02/2023`` when the order is certain
(one of the first two numbers is above 12, or both are equal); month names and
abbreviations with a day as a number, a numeric ordinal or a spelled ordinal, in either order
(``February 22, 2023``, ``Feb. 22nd 2023``, ``22 February 2023``, ``the twenty-second of
February 2023``). ``03/04/2023`` is left alone: it is 3 April in the UK and March 4 in the US,
and a guessed date would be a changed value.

Written: the same formats. A numeric day/month proposal whose day is 12 or less carries a
risk, because a reader of the other convention sees another date in it.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from goldenlens.core.variants.kinds import Rewrite, Span, VariantKind
from goldenlens.core.variants.words import ORDINAL_WORDS, ordinal_from_text, ordinal_suffix

MONTHS = tuple(calendar.month_name[1:])
#: Abbreviations as style guides write them (``Sept.`` is common in US usage; ``May`` has none).
MONTH_ABBREVIATIONS: dict[int, tuple[str, ...]] = {
    n: ((name[:3], "Sept") if n == 9 else () if n == 5 else (name[:3],)) for n, name in enumerate(MONTHS, 1)
}
_MONTH_NUMBERS = {name.lower(): n for n, name in enumerate(MONTHS, 1)} | {
    short.lower(): n for n, shorts in MONTH_ABBREVIATIONS.items() for short in shorts
}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTH_NUMBERS, key=len, reverse=True)) + r")\.?"
_DAY = (
    r"(?P<day>\d{1,2}(?:st|nd|rd|th)?|"
    + "|".join(sorted(ORDINAL_WORDS.values(), key=len, reverse=True))
    + ")"
)
_YEAR = r"(?P<year>\d{4})"

_PATTERNS = (
    re.compile(r"(?<![\w/.-])(?P<year>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?![\w/-]|\.\d)"),
    re.compile(r"(?<![\w/.-])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<year>\d{4})(?![\w/-]|\.\d)"),
    re.compile(rf"(?<![\w-]){_MONTH}\s+(?:the\s+)?{_DAY},?\s+{_YEAR}(?![\w-])", re.IGNORECASE),
    re.compile(rf"(?<![\w-])(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}(?![\w-])", re.IGNORECASE),
)


def date_forms(day: date) -> list[tuple[str, str]]:
    """Every spelling of ``day`` this module writes, each with its risk (``""``: none)."""
    d, m, y = day.day, day.month, day.year
    month = MONTHS[m - 1]
    shorts = MONTH_ABBREVIATIONS[m]
    forms = [f"{y:04d}-{m:02d}-{d:02d}"]
    numeric = [f"{m:02d}/{d:02d}/{y}", f"{m}/{d}/{y}", f"{d:02d}/{m:02d}/{y}", f"{d}/{m}/{y}"]
    forms += [f"{month} {d}, {y}", f"{month} {d} {y}"]
    for short in shorts:
        forms += [f"{short} {d}, {y}", f"{short}. {d}, {y}", f"{short} {d} {y}"]
    forms += [f"{d} {month} {y}", *(f"{d} {short} {y}" for short in shorts)]
    nth, spelled = ordinal_suffix(d), ORDINAL_WORDS[d]
    forms += [f"{month} {nth}, {y}", f"{month} {nth} {y}", f"{nth} {month} {y}", f"{nth} of {month} {y}"]
    forms += [f"{month} {spelled}, {y}", f"{spelled} of {month} {y}"]
    risky = d <= 12 and d != m
    risk = (
        f"numeric date with the day and month both 12 or less: read the other way it is "
        f"{date(y, d, m):%d %B %Y}"
        if risky
        else ""
    )
    with_risk = [(f, "") for f in forms]
    with_risk[1:1] = [(f, risk) for f in dict.fromkeys(numeric)]
    return with_risk


def _read(match: re.Match[str]) -> tuple[date | None, str]:
    """The date a match spells, or ``None`` and why it was left alone."""
    groups = match.groupdict()
    year = int(groups["year"])
    if "m" in groups and groups["m"] is not None:
        month, day_number = int(groups["m"]), int(groups["d"])
    elif "a" in groups and groups["a"] is not None:
        a, b = int(groups["a"]), int(groups["b"])
        if a > 12 >= b:
            day_number, month = a, b
        elif b > 12 >= a or a == b:
            month, day_number = a, b
        else:
            return None, f"{match.group()!r} is day/month in the UK and month/day in the US; left alone"
    else:
        month = _MONTH_NUMBERS[groups["month"].lower()]
        day_text = groups["day"]
        parsed = int(day_text) if day_text.isdigit() else ordinal_from_text(day_text)
        if parsed is None:
            return None, f"{match.group()!r}: {day_text!r} is not a day; left alone"
        day_number = parsed
    try:
        return date(year, month, day_number), ""
    except ValueError:
        return None, f"{match.group()!r} is not a calendar date; left alone"


def find_dates(part: str) -> list[tuple[Span, date | None, str]]:
    """The dates in ``part``: span, the date (``None`` when unreadable) and a note."""
    found: list[tuple[Span, date | None, str]] = []
    for pattern in _PATTERNS:
        for match in pattern.finditer(part):
            span = match.span()
            if any(span[0] < end and start < span[1] for (start, end), _d, _n in found):
                continue
            day, note = _read(match)
            found.append((span, day, note))
    return sorted(found, key=lambda item: item[0])


def date_rewrites(part: str) -> tuple[list[Rewrite], list[str], list[Span]]:
    """Every respelling of each date in ``part``, notes on dates left alone, and the spans of
    all dates found (the number generators must not touch their digits)."""
    rewrites: list[Rewrite] = []
    notes: list[str] = []
    spans: list[Span] = []
    for span, day, note in find_dates(part):
        spans.append(span)
        if day is None:
            notes.append(note)
            continue
        written = part[span[0] : span[1]]
        for text, risk in date_forms(day):
            if text.lower() != written.lower():
                new = part[: span[0]] + text + part[span[1] :]
                rewrites.append(Rewrite(new, VariantKind.DATE, f"{written} = {text} ({day:%d %B %Y})", risk))
    return rewrites, notes, spans

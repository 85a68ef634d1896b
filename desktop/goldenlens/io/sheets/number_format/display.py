"""A cell's value under its number format code as the cell shows it: the section for the
value (by sign or condition), then the number or the date rendered, or a text cell's text
section."""

from __future__ import annotations

import math
from functools import lru_cache

from goldenlens.io.sheets.number_format.codes import (
    LOCALE_BUILTIN,
    Section,
    UnsupportedFormatError,
    is_general,
    parse_format,
)
from goldenlens.io.sheets.number_format.dates import render_date
from goldenlens.io.sheets.number_format.numbers import general_text, render_number


@lru_cache(maxsize=65_536)
def format_number(value: float, code: str) -> str:
    """``value`` as a cell with number format ``code`` shows it (dates take their serial).

    Memoised: real sheets repeat their dates, percentages and counts.
    """
    if code.startswith(LOCALE_BUILTIN):
        raise UnsupportedFormatError(f"{code[1:-1]} is a locale's own format, which the file does not define")
    if math.isnan(value) or math.isinf(value):
        raise UnsupportedFormatError(f"{value} cannot be shown by a spreadsheet")
    if is_general(code):
        return general_text(value)
    sections = parse_format(code)
    section, magnitude, sign = _choose(sections, value)
    if section.is_date:
        if sign == "-":
            raise UnsupportedFormatError(f"a negative date or time ({value}) shows as ##### in Excel")
        return render_date(section, magnitude)
    return sign + render_number(section, magnitude)


def format_text(text: str, code: str) -> str:
    """A text cell under ``code``: its text section (with ``@``) if it has one, else the text."""
    if is_general(code) or code.startswith(LOCALE_BUILTIN):
        return text
    sections = parse_format(code)
    chosen: Section | None = None
    if len(sections) == 4:
        chosen = sections[3]
    elif len(sections) == 1 and sections[0].has_text:
        chosen = sections[0]
    else:
        chosen = next((s for s in sections if s.has_text), None)
    if chosen is None:
        return text
    return "".join(text if t.kind == "text" else t.text for t in chosen.tokens if t.kind in {"text", "lit"})


def _choose(sections: tuple[Section, ...], value: float) -> tuple[Section, float, str]:
    """The section for ``value``, the magnitude it formats, and the sign it must prefix."""
    numeric = [s for s in sections if not (s.has_text and not _has_digits(s) and not s.is_date)]
    numeric = numeric or list(sections)
    if any(s.condition is not None for s in numeric):
        return _choose_conditional(numeric, value)
    if len(numeric) == 1 or (value > 0) or (value == 0 and len(numeric) < 3):
        section = numeric[0]
        if value < 0:
            return section, -value, "-"
        return section, value, ""
    if value < 0:
        return numeric[1], -value, ""
    return numeric[2], 0.0, ""


def _choose_conditional(sections: list[Section], value: float) -> tuple[Section, float, str]:
    """The first section whose condition holds, else the first without a condition.

    Only the first section keeps a negative number's minus sign; any later one shows the
    magnitude (its own literals say what it means), as LibreOffice Calc shows them:
    ``[>=100]0;0`` shows -5 as ``5``, ``[<100]0`` shows it as ``-5``.
    """
    for index, section in enumerate(sections):
        if section.condition is None:
            return section, abs(value), "-" if value < 0 and index == 0 else ""
        op, bound = section.condition
        if _holds(op, value, bound):
            return section, abs(value), "-" if value < 0 and index == 0 else ""
    raise UnsupportedFormatError("no section of the conditional format applies to this value")


def _holds(op: str, value: float, bound: float) -> bool:
    return {
        "<": value < bound,
        "<=": value <= bound,
        ">": value > bound,
        ">=": value >= bound,
        "=": value == bound,
        "<>": value != bound,
    }[op]


def _has_digits(section: Section) -> bool:
    return any(t.kind in {"digit", "general"} for t in section.tokens)

"""Render a number as a spreadsheet cell with a number format shows it (en-US display).

A workbook stores ``0.5`` and a format ``0%``; the analyst sees ``50%``, and a golden fact
written as ``50%`` must match what the pipeline read. This module turns (value, format code)
into that text, following Excel's rules as ECMA-376 Part 1 §18.8.31 describes them and as Excel
and LibreOffice display them:

- up to four sections ``positive;negative;zero;text``, or conditions such as ``[>=100]``;
- digit placeholders ``0 # ?``, the decimal point, ``,`` for thousands (between placeholders)
  or for scaling by 1,000 (after the last one), ``%``, ``E+00`` scientific, ``# ?/?``
  fractions, ``"literal"``, ``\\c``, ``_x`` (a space as wide as ``x``), ``*x`` (fill);
- dates and times: ``y m d h s`` tokens, ``AM/PM``, elapsed ``[h] [m] [s]``, fractional
  seconds, with Excel's 1900 date system (including its fictitious 29 February 1900);
- colours ``[Red]`` and locale tags ``[$-409]`` are dropped; currency tags ``[$€-407]`` keep
  their symbol.

Rounding is Excel's: the value is first rounded to 15 significant digits, then half away from
zero at the shown precision (``1.005`` at two decimals is ``1.01``, not binary ``1.00``).
Separators are en-US (``,`` thousands, ``.`` decimal) whatever the format's locale, because
the format code itself is locale-neutral and golden facts are written with en-US separators.

A format this module cannot render faithfully raises :class:`UnsupportedFormatError`; the reader
then reports the cell instead of guessing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache

__all__ = [
    "BUILTIN_FORMATS",
    "DAYS_1900_TO_1904",
    "UnsupportedFormatError",
    "format_number",
    "format_text",
    "general_text",
    "is_date_format",
    "is_general",
]

# ECMA-376 §18.8.30 built-in formats, as Excel shows them in en-US (ids 14 and 22 follow the
# system's short date, which is m/d/yyyy there; 5-8 are the en-US currency formats).
BUILTIN_FORMATS: dict[int, str] = {
    0: "General",
    1: "0",
    2: "0.00",
    3: "#,##0",
    4: "#,##0.00",
    5: '"$"#,##0_);("$"#,##0)',
    6: '"$"#,##0_);[Red]("$"#,##0)',
    7: '"$"#,##0.00_);("$"#,##0.00)',
    8: '"$"#,##0.00_);[Red]("$"#,##0.00)',
    9: "0%",
    10: "0.00%",
    11: "0.00E+00",
    12: "# ?/?",
    13: "# ??/??",
    14: "m/d/yyyy",
    15: "d-mmm-yy",
    16: "d-mmm",
    17: "mmm-yy",
    18: "h:mm AM/PM",
    19: "h:mm:ss AM/PM",
    20: "h:mm",
    21: "h:mm:ss",
    22: "m/d/yyyy h:mm",
    37: "#,##0 ;(#,##0)",
    38: "#,##0 ;[Red](#,##0)",
    39: "#,##0.00;(#,##0.00)",
    40: "#,##0.00;[Red](#,##0.00)",
    41: '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)',
    42: '_("$"* #,##0_);_("$"* (#,##0);_("$"* "-"_);_(@_)',
    43: '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)',
    44: '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)',
    45: "mm:ss",
    46: "[h]:mm:ss",
    47: "mm:ss.0",
    48: "##0.0E+0",
    49: "@",
}

_EXCEL_DIGITS = 15
#: Days between day 0 of the 1900 and of the 1904 date system (Mac Excel's, ``date1904``).
DAYS_1900_TO_1904 = 1462
#: How a format id the file does not define (a locale's built-in, ids 27-36 and 50-81) is named.
LOCALE_BUILTIN = "<built-in format "
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
# Serial 0 is 1900-01-00 and serial 60 the 29 February 1900 that Lotus 1-2-3 invented; from
# serial 61 on, day n is 1899-12-30 + n.
_EPOCH = datetime(1899, 12, 30)
_COLOURS = frozenset({"black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"})
_CONDITION = re.compile(r"\[(<=|>=|<>|<|>|=)\s*(-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)\]")


class UnsupportedFormatError(ValueError):
    """The format code (or this value under it) cannot be rendered faithfully."""


# ---------------------------------------------------------------------------------------------
# Tokens


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # lit, digit, point, comma, percent, exp, slash, text, general, date, ampm, elapsed, fill
    text: str


@dataclass(frozen=True, slots=True)
class _Section:
    tokens: tuple[_Tok, ...]
    condition: tuple[str, float] | None
    is_date: bool
    has_text: bool
    shape: str  # general, literal, fraction, scientific, fixed (see _shape)
    layout: _Layout | None  # for fixed sections, taken apart once


_DATE_LETTERS = frozenset("ymdhsYMDHSeE")
# One-character tokens and their kinds.
_SINGLE = {
    "0": "digit",
    "#": "digit",
    "?": "digit",
    ".": "point",
    ",": "comma",
    "%": "percent",
    "/": "slash",
    "@": "text",
}


def _tokenise(code: str) -> list[_Tok]:  # noqa: PLR0912, PLR0915 - one pass over a small grammar
    tokens: list[_Tok] = []
    i = 0
    n = len(code)
    while i < n:
        c = code[i]
        if c == '"':
            end = code.find('"', i + 1)
            if end < 0:
                raise UnsupportedFormatError(f"unclosed quote in number format {code!r}")
            tokens.append(_Tok("lit", code[i + 1 : end]))
            i = end + 1
        elif c == "\\":
            if i + 1 < n:
                tokens.append(_Tok("lit", code[i + 1]))
            i += 2
        elif c == "_":
            # A space as wide as the next character: Excel and LibreOffice show one space.
            tokens.append(_Tok("lit", " "))
            i += 2
        elif c == "*":
            # Repeat the next character to fill the column: its count depends on the column
            # width, so the text of the cell has none of it (as LibreOffice exports it).
            tokens.append(_Tok("fill", code[i + 1 : i + 2]))
            i += 2
        elif c == "[":
            end = code.find("]", i)
            if end < 0:
                raise UnsupportedFormatError(f"unclosed bracket in number format {code!r}")
            tokens.extend(_bracket(code[i + 1 : end], code))
            i = end + 1
        elif c in _SINGLE:
            tokens.append(_Tok(_SINGLE[c], c))
            i += 1
        elif c in "Ee" and i + 1 < n and code[i + 1] in "+-":
            tokens.append(_Tok("exp", code[i : i + 2]))
            i += 2
        elif code[i : i + 7].lower() == "general":
            tokens.append(_Tok("general", "General"))
            i += 7
        elif code[i : i + 5].upper() == "AM/PM":
            tokens.append(_Tok("ampm", code[i : i + 5]))
            i += 5
        elif code[i : i + 3].upper() == "A/P":
            tokens.append(_Tok("ampm", code[i : i + 3]))
            i += 3
        elif c in _DATE_LETTERS:
            j = i
            while j < n and code[j].lower() == c.lower():
                j += 1
            tokens.append(_Tok("date", code[i:j].lower()))
            i = j
        else:
            tokens.append(_Tok("lit", c))
            i += 1
    return tokens


def _bracket(inner: str, code: str) -> list[_Tok]:
    lowered = inner.lower()
    if lowered in _COLOURS or re.fullmatch(r"color\s*\d+", lowered):
        return []
    if re.fullmatch(r"h+|m+|s+", lowered):
        return [_Tok("elapsed", lowered)]
    if inner.startswith("$"):
        symbol = inner[1:].split("-", 1)[0]
        return [_Tok("lit", symbol)] if symbol else []
    if _CONDITION.fullmatch(f"[{inner}]"):
        return [_Tok("cond", inner)]
    if lowered.startswith(("dbnum", "natnum")):
        raise UnsupportedFormatError(f"number format {code!r} uses native digits [{inner}]")
    # An unknown bracket (a calendar, a font tag): dropping it could change the digits shown.
    raise UnsupportedFormatError(f"number format {code!r} has an unknown tag [{inner}]")


def _split_sections(code: str) -> list[str]:
    sections: list[str] = []
    start = 0
    i = 0
    quoted = False
    while i < len(code):
        c = code[i]
        if c == '"':
            quoted = not quoted
        elif not quoted and c == "\\":
            i += 1
        elif not quoted and c == "[":
            end = code.find("]", i)
            i = end if end >= 0 else len(code)
        elif not quoted and c == ";":
            sections.append(code[start:i])
            start = i + 1
        i += 1
    sections.append(code[start:])
    return sections


@lru_cache(maxsize=512)
def _parse(code: str) -> tuple[_Section, ...]:
    parsed: list[_Section] = []
    for raw in _split_sections(code):
        tokens = _tokenise(raw)
        condition = None
        kept: list[_Tok] = []
        for tok in tokens:
            if tok.kind == "cond":
                match = _CONDITION.fullmatch(f"[{tok.text}]")
                assert match is not None
                condition = (match.group(1), float(match.group(2)))
            else:
                kept.append(tok)
        tokens = _resolve_minutes(kept)
        is_date = any(t.kind in {"date", "elapsed", "ampm"} for t in tokens)
        has_text = any(t.kind == "text" for t in tokens)
        frozen = tuple(tokens)
        shape = _shape(frozen)
        layout = _number_layout(frozen) if shape == "fixed" and not is_date else None
        parsed.append(_Section(frozen, condition, is_date, has_text, shape, layout))
    if len(parsed) > 4:
        raise UnsupportedFormatError(f"number format {code!r} has more than four sections")
    return tuple(parsed)


def _resolve_minutes(tokens: list[_Tok]) -> list[_Tok]:
    """``m``/``mm`` right after an hour or right before a second is minutes, not a month."""
    out = list(tokens)
    timeish = [i for i, t in enumerate(out) if t.kind in {"date", "elapsed"}]
    for position, i in enumerate(timeish):
        tok = out[i]
        if tok.kind != "date" or tok.text not in {"m", "mm"}:
            continue
        before = out[timeish[position - 1]] if position > 0 else None
        after = out[timeish[position + 1]] if position + 1 < len(timeish) else None
        after_hour = before is not None and before.text[0] == "h"
        before_second = after is not None and after.text[0] == "s"
        if after_hour or before_second:
            out[i] = _Tok("date", "n" * len(tok.text))  # n = minutes
    return out


# ---------------------------------------------------------------------------------------------
# Public entry points


def is_date_format(code: str) -> bool:
    """True when ``code`` shows numbers as dates or times (any section)."""
    if is_general(code) or code.startswith(LOCALE_BUILTIN):
        return False
    try:
        return any(section.is_date for section in _parse(code))
    except UnsupportedFormatError:
        return False


def is_general(code: str | None) -> bool:
    """True when ``code`` shows a number as General does (no format, or ``General``)."""
    return code is None or code.strip().lower() in {"", "general"}


def general_text(value: float) -> str:
    """A number as General shows it in a wide column: 15 significant digits, no binary noise,
    scientific from 10^15 and below 10^-9 (``158``, ``0.3``, ``10317750796``, ``1E+20``)."""
    if math.isnan(value):
        return ""
    if math.isinf(value):
        raise UnsupportedFormatError("an infinite number cannot be stored in a spreadsheet cell")
    if value == 0:
        return "0"
    digits = Decimal(f"{value:.{_EXCEL_DIGITS}g}")
    exponent = digits.adjusted()
    if exponent >= _EXCEL_DIGITS or exponent < -9:
        # Excel's scientific General: 1E+20, 1.23456789012346E+17, 1E-10.
        mantissa = digits.scaleb(-exponent).normalize()
        sign = "-" if exponent < 0 else "+"
        return f"{mantissa:f}E{sign}{abs(exponent):02d}"
    return f"{digits.normalize():f}"


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
    sections = _parse(code)
    section, magnitude, sign = _choose(sections, value)
    if section.is_date:
        if sign == "-":
            raise UnsupportedFormatError(f"a negative date or time ({value}) shows as ##### in Excel")
        return _render_date(section, magnitude)
    return sign + _render_number(section, magnitude)


def format_text(text: str, code: str) -> str:
    """A text cell under ``code``: its text section (with ``@``) if it has one, else the text."""
    if is_general(code) or code.startswith(LOCALE_BUILTIN):
        return text
    sections = _parse(code)
    chosen: _Section | None = None
    if len(sections) == 4:
        chosen = sections[3]
    elif len(sections) == 1 and sections[0].has_text:
        chosen = sections[0]
    else:
        chosen = next((s for s in sections if s.has_text), None)
    if chosen is None:
        return text
    return "".join(text if t.kind == "text" else t.text for t in chosen.tokens if t.kind in {"text", "lit"})


def _choose(sections: tuple[_Section, ...], value: float) -> tuple[_Section, float, str]:
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


def _choose_conditional(sections: list[_Section], value: float) -> tuple[_Section, float, str]:
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


def _has_minus(section: _Section) -> bool:
    return any(t.kind == "lit" and "-" in t.text for t in section.tokens)


def _has_digits(section: _Section) -> bool:
    return any(t.kind in {"digit", "general"} for t in section.tokens)


# ---------------------------------------------------------------------------------------------
# Numbers


def _excel_decimal(value: float) -> Decimal:
    """The value as Excel holds it for display: 15 significant digits."""
    return Decimal(f"{value:.{_EXCEL_DIGITS}g}")


def _round(value: Decimal, places: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _render_number(section: _Section, magnitude: float) -> str:
    shape = section.shape
    tokens = list(section.tokens)
    if shape == "general":
        return "".join(general_text(magnitude) if t.kind == "general" else _literal(t) for t in tokens)
    if shape == "literal":
        if section.has_text:
            return general_text(magnitude)  # "@" shows a number as General does
        # No placeholders: only literals (a zero section such as "-").
        return "".join(_literal(t) for t in tokens)
    if shape == "fraction":
        return _render_fraction(tokens, magnitude)
    if shape == "scientific":
        return _render_scientific(tokens, magnitude)
    assert section.layout is not None
    return _render_fixed(section.layout, magnitude)


def _shape(tokens: tuple[_Tok, ...]) -> str:
    """How a number section renders: general, literal, fraction, scientific or fixed."""
    kinds = {t.kind for t in tokens}
    if "general" in kinds:
        return "general"
    if "digit" not in kinds:
        return "literal"
    if "slash" in kinds:
        return "fraction"
    return "scientific" if "exp" in kinds else "fixed"


def _literal(tok: _Tok) -> str:
    if tok.kind in {"lit", "percent", "point", "comma", "slash", "exp"}:
        return tok.text
    return ""


@dataclass(frozen=True, slots=True)
class _Layout:
    """A fixed-point section taken apart once: its parts, grouping, scaling and percent."""

    integer_tokens: list[_Tok]
    fraction_tokens: list[_Tok]
    grouping: bool
    scale: int
    percent: int
    places: int
    has_point: bool
    hash_fraction: bool  # every decimal placeholder is "#"


def _number_layout(tokens: tuple[_Tok, ...]) -> _Layout:
    """Split into integer and fraction tokens; find grouping, scaling and percent counts."""
    digits = [i for i, t in enumerate(tokens) if t.kind == "digit"]
    first, last = digits[0], digits[-1]
    point = next((i for i, t in enumerate(tokens) if t.kind == "point"), None)
    integer_end = point if point is not None else last + 1
    grouping = any(
        t.kind == "comma" and first < i < integer_end and any(j > i for j in digits if j < integer_end)
        for i, t in enumerate(tokens)
    )
    # Commas right after the last integer placeholder (or the last placeholder) scale by 1,000.
    scale = 0
    anchor = (max((j for j in digits if j < integer_end), default=first)) if point is not None else last
    k = anchor + 1
    while k < len(tokens) and tokens[k].kind == "comma":
        scale += 1
        k += 1
    if point is not None and scale == 0:
        k = last + 1
        while k < len(tokens) and tokens[k].kind == "comma":
            scale += 1
            k += 1
    percent = sum(1 for t in tokens if t.kind == "percent")
    # Without a decimal point every token (trailing literals too) belongs to the integer part.
    integer_tokens = list(tokens[:point] if point is not None else tokens)
    fraction_tokens = list(tokens[point + 1 :]) if point is not None else []
    fraction_digits = [t.text for t in fraction_tokens if t.kind == "digit"]
    return _Layout(
        integer_tokens,
        fraction_tokens,
        grouping,
        scale,
        percent,
        len(fraction_digits),
        point is not None,
        all(text == "#" for text in fraction_digits),
    )


def _render_fixed(layout: _Layout, magnitude: float) -> str:
    value = _excel_decimal(magnitude).scaleb(2 * layout.percent - 3 * layout.scale)
    places = layout.places
    rounded = _round(value, places)
    whole, _, frac = f"{rounded:f}".partition(".")
    frac = frac.ljust(places, "0")
    integer_text = _fill_integer(layout.integer_tokens, whole, layout.grouping)
    if not layout.has_point:
        return integer_text
    fraction_text = _fill_fraction(layout.fraction_tokens, frac)
    if layout.hash_fraction and not fraction_text[:1].isdigit():
        # "0.##" shows 3 as "3" (LibreOffice; Excel keeps a dangling "3."): no digit, no point.
        return integer_text + fraction_text
    return integer_text + "." + fraction_text


def _fill_integer(tokens: list[_Tok], whole: str, grouping: bool) -> str:
    """Digits of the integer part into its placeholders, right to left, literals in place."""
    placeholders = [t for t in tokens if t.kind == "digit"]
    if whole == "0":
        whole = ""
    # Leading placeholders with no digit left: 0 shows 0, ? a space, # nothing.
    digits = list(whole)
    out: list[str] = []
    remaining = len(placeholders)
    for tok in reversed(tokens):
        if tok.kind == "digit":
            remaining -= 1
            if remaining == 0 and digits:
                out.append("".join(digits))
                digits = []
            elif digits:
                out.append(digits.pop())
            else:
                out.append({"0": "0", "?": " ", "#": ""}[tok.text])
        elif tok.kind in {"comma", "percent", "fill"}:
            if tok.kind == "percent":
                out.append("%")
            continue
        else:
            out.append(_literal(tok))
    text = "".join(reversed(out))
    if grouping:
        text = _group(text)
    return text


def _group(text: str) -> str:
    """Insert thousands separators into the run of digits of ``text``."""
    match = re.search(r"\d+", text)
    if match is None:
        return text
    run = match.group()
    grouped = (
        f"{int(run):,}".rjust(len(run), "0") if not run.startswith("0") or run == "0" else _group_zeros(run)
    )
    return text[: match.start()] + grouped + text[match.end() :]


def _group_zeros(run: str) -> str:
    # "00012" with grouping: Excel groups the zero-padded digits too ("00,012").
    head = len(run) % 3 or 3
    parts = [run[:head]] + [run[i : i + 3] for i in range(head, len(run), 3)]
    return ",".join(parts)


def _fill_fraction(tokens: list[_Tok], frac: str) -> str:
    """Decimal digits left to right; trailing zeros under # vanish and under ? become spaces."""
    placeholders = [t.text for t in tokens if t.kind == "digit"]
    shown = list(frac[: len(placeholders)])
    for index in range(len(shown) - 1, -1, -1):
        if shown[index] != "0" or placeholders[index] == "0":
            break
        shown[index] = "" if placeholders[index] == "#" else " "
    out: list[str] = []
    position = 0
    for tok in tokens:
        if tok.kind == "digit":
            out.append(shown[position])
            position += 1
        elif tok.kind == "percent":
            out.append("%")
        elif tok.kind not in {"comma", "fill"}:
            out.append(_literal(tok))
    return "".join(out)


def _render_scientific(tokens: list[_Tok], magnitude: float) -> str:
    at = next(i for i, t in enumerate(tokens) if t.kind == "exp")
    mantissa_tokens, exponent_tokens = tokens[:at], tokens[at + 1 :]
    sign_mode = tokens[at].text[1]
    point = next((i for i, t in enumerate(mantissa_tokens) if t.kind == "point"), None)
    integer_tokens = mantissa_tokens[:point] if point is not None else mantissa_tokens
    fraction_tokens = mantissa_tokens[point + 1 :] if point is not None else []
    int_places = sum(1 for t in integer_tokens if t.kind == "digit") or 1
    places = sum(1 for t in fraction_tokens if t.kind == "digit")
    value = _excel_decimal(magnitude)
    if value == 0:
        exponent = 0
    else:
        exponent = value.adjusted()
        if any(t.text == "#" for t in integer_tokens if t.kind == "digit") and int_places > 1:
            exponent -= exponent % int_places
    mantissa = _round(value.scaleb(-exponent), places)
    limit = Decimal(10) ** (int_places if int_places > 1 and exponent % int_places == 0 else 1)
    if value != 0 and mantissa >= limit:
        exponent += 1 if limit == 10 else int_places
        mantissa = _round(value.scaleb(-exponent), places)
    whole, _, frac = f"{mantissa:f}".partition(".")
    text = _fill_integer(integer_tokens, whole if whole != "0" or value != 0 else "0", False)
    if point is not None:
        text += "." + _fill_fraction(fraction_tokens, frac.ljust(places, "0"))
    exp_digits = sum(1 for t in exponent_tokens if t.kind == "digit")
    exp_sign = "-" if exponent < 0 else ("+" if sign_mode == "+" else "")
    tail = "".join(_literal(t) for t in exponent_tokens if t.kind != "digit")
    return f"{text}E{exp_sign}{abs(exponent):0{max(exp_digits, 1)}d}{tail}"


def _render_fraction(tokens: list[_Tok], magnitude: float) -> str:
    slash = next(i for i, t in enumerate(tokens) if t.kind == "slash")
    before, after = tokens[:slash], tokens[slash + 1 :]
    # "# ?/?": the integer placeholders, a literal gap, then the numerator placeholders.
    gap = next((i for i in range(len(before) - 1, -1, -1) if before[i].kind != "digit"), None)
    numerator_tokens = before[gap + 1 :] if gap is not None else before
    integer_tokens = before[: gap + 1] if gap is not None else []
    has_integer = any(t.kind == "digit" for t in integer_tokens)
    denominator_digits = "".join(
        t.text for t in after if t.kind in {"digit", "lit"} and (t.kind == "digit" or t.text.isdigit())
    )
    fixed = int(denominator_digits) if denominator_digits.isdigit() else None
    width = sum(1 for t in after if t.kind == "digit")
    value = Fraction(str(_excel_decimal(magnitude)))
    whole = int(value) if has_integer else 0
    rest = value - whole
    if fixed is not None:
        numerator = int(_round(Decimal(rest.numerator * fixed) / Decimal(rest.denominator), 0))
        denominator = fixed
    else:
        approx = rest.limit_denominator(10**width - 1)
        numerator, denominator = approx.numerator, approx.denominator
    if has_integer and numerator == denominator:
        whole, numerator = whole + 1, 0
    num_places = sum(1 for t in numerator_tokens if t.kind == "digit")
    den_places = max(width, 1)
    if numerator == 0 and has_integer:
        integer_text = _fill_integer(integer_tokens, str(whole) if whole else "0", False)
        blank = " " * (num_places + 1 + den_places)
        return integer_text.rstrip() + (" " + blank if whole else blank) if whole else "0" + " " + blank
    integer_text = _fill_integer(integer_tokens, str(whole), False) if has_integer else ""
    if has_integer and whole == 0:
        integer_text = (
            integer_text.replace("0", "", 1)
            if integer_tokens and integer_tokens[-1].kind != "digit"
            else integer_text
        )
    numerator_text = str(numerator).rjust(num_places)
    denominator_text = str(denominator) if fixed is not None else str(denominator).ljust(den_places)
    tail = "".join(_literal(t) for t in after if t.kind == "lit" and not t.text.isdigit())
    return f"{integer_text}{numerator_text}/{denominator_text}{tail}"


# ---------------------------------------------------------------------------------------------
# Dates and times


def serial_to_datetime(serial: float) -> datetime:
    """The date and time of an Excel 1900-system serial (serial 60, 1900-02-29, is refused)."""
    if serial < 0:
        raise UnsupportedFormatError(f"the date serial {serial} is before 1900")
    day = math.floor(serial)
    if day == 60:
        raise UnsupportedFormatError("29 February 1900 does not exist (Excel's serial 60)")
    offset = 1 if day < 60 else 0
    try:
        return _EPOCH + timedelta(days=serial + offset)
    except OverflowError:
        # Beyond 9999-12-31: Excel shows #####.
        raise UnsupportedFormatError(f"the date serial {serial:g} is after the year 9999") from None


def datetime_to_serial(moment: datetime) -> float:
    """The Excel 1900-system serial of ``moment`` (the inverse of :func:`serial_to_datetime`)."""
    delta = moment - _EPOCH
    serial = delta.days + delta.seconds / 86400 + delta.microseconds / 86_400_000_000
    return serial - 1 if serial < 61 else serial


@dataclass(frozen=True, slots=True)
class _Clock:
    """A serial split into the fields a date format shows."""

    day: int
    hour: int
    minute: int
    second: int
    seconds_total: int
    fraction: str  # the shown fraction of a second, as digits


def _clock(serial: float, sub_second: int, elapsed_unit: int = 0) -> _Clock:
    # Units that are not shown are cut off, not rounded (12:29:59.9 under h:mm is 12:29), after
    # the product is taken to 15 digits so that binary noise (12:30 stored as 12:29:59.99999)
    # does not cut a whole unit. Shown fractions of a second round, unless rounding would
    # carry into the next second. An elapsed-time format ([h]:mm, [ss]) rounds to its smallest
    # unit instead (``elapsed_unit`` seconds). That is how LibreOffice shows times.
    exact = Decimal(f"{serial * 86400:.15g}")
    if elapsed_unit and not sub_second:
        exact = (exact / elapsed_unit).quantize(Decimal(1), rounding=ROUND_HALF_UP) * elapsed_unit
    seconds_total = int(exact.to_integral_value(rounding="ROUND_FLOOR"))
    fraction_text = ""
    if sub_second:
        fraction = exact - seconds_total
        rounded = _round(fraction, sub_second)
        if rounded >= 1:
            rounded = fraction.quantize(Decimal(1).scaleb(-sub_second), rounding="ROUND_DOWN")
        fraction_text = f"{rounded:f}".partition(".")[2].ljust(sub_second, "0")[:sub_second]
    day, day_seconds = divmod(seconds_total, 86400)
    hour, rest = divmod(day_seconds, 3600)
    minute, second = divmod(rest, 60)
    return _Clock(day, hour, minute, second, seconds_total, fraction_text)


def _sub_second_digits(tokens: tuple[_Tok, ...]) -> int:
    """How many digits of a second the format shows (``ss.00`` → 2)."""
    for index, tok in enumerate(tokens):
        if tok.kind == "point" and index > 0 and tokens[index - 1].kind in {"date", "elapsed"}:
            return sum(1 for t in tokens[index + 1 :] if t.kind == "digit" and t.text == "0")
    return 0


def _elapsed_unit(tokens: tuple[_Tok, ...]) -> int:
    """For a format with an elapsed field, the seconds in its smallest shown unit; else 0."""
    if not any(t.kind == "elapsed" for t in tokens):
        return 0
    letters = {t.text[0] for t in tokens if t.kind in {"date", "elapsed"}}
    if "s" in letters:
        return 1
    return 60 if letters & {"m", "n"} else 3600


def _render_date(section: _Section, serial: float) -> str:
    tokens = section.tokens
    ampm = any(t.kind == "ampm" for t in tokens)
    sub_second = _sub_second_digits(tokens)
    clock = _clock(serial, sub_second, _elapsed_unit(tokens))
    out: list[str] = []
    skip_fraction = False
    for index, tok in enumerate(tokens):
        if skip_fraction and tok.kind == "digit":
            continue
        skip_fraction = False
        kind, text = tok.kind, tok.text
        if kind == "date":
            out.append(_date_field(text, clock, ampm))
        elif kind == "elapsed":
            seconds = clock.seconds_total
            total = {"h": seconds // 3600, "m": seconds // 60, "s": seconds}[text[0]]
            out.append(str(total).rjust(len(text), "0"))
        elif kind == "ampm":
            out.append(_ampm(text, clock.hour))
        elif kind == "point" and sub_second and tokens[index - 1].kind in {"date", "elapsed"}:
            out.append("." + clock.fraction)
            skip_fraction = True
        elif kind == "digit":
            raise UnsupportedFormatError("digit placeholders in a date format")
        else:
            out.append(_literal(tok))
    return "".join(out)


def _date_field(text: str, clock: _Clock, ampm: bool) -> str:
    letter = text[0]
    width = min(len(text), 2)
    if letter == "h":
        shown = clock.hour % 12 or 12 if ampm else clock.hour
        return str(shown).rjust(width, "0")
    if letter == "n":
        return str(clock.minute).rjust(width, "0")
    if letter == "s":
        return str(clock.second).rjust(width, "0")
    if clock.day == 0:
        # Serial 0 is Excel's "1900-01-00", a Saturday; no real date has it.
        return _day_zero_field(text)
    return _calendar_field(text, serial_to_datetime(clock.day))


def _calendar_field(text: str, moment: datetime) -> str:
    letter, size = text[0], len(text)
    if letter in "ye":
        return f"{moment.year % 100:02d}" if size <= 2 and letter == "y" else f"{moment.year:04d}"
    if letter == "m":
        name = _MONTHS[moment.month - 1]
        return {1: str(moment.month), 2: f"{moment.month:02d}", 3: name[:3], 5: name[:1]}.get(size, name)
    if letter == "d":
        weekday = _DAYS[moment.weekday()]
        return {1: str(moment.day), 2: f"{moment.day:02d}", 3: weekday[:3]}.get(size, weekday)
    raise UnsupportedFormatError(f"unknown date field {text!r}")


def _day_zero_field(text: str) -> str:
    letter = text[0]
    if letter in "ye":
        return "00" if len(text) <= 2 and letter == "y" else "1900"
    if letter == "m":
        return {1: "1", 2: "01", 3: "Jan", 5: "J"}.get(len(text), "January")
    if letter == "d":
        return {1: "0", 2: "00", 3: "Sat"}.get(len(text), "Saturday")
    raise UnsupportedFormatError(f"unknown date field {text!r}")


def _ampm(text: str, hour: int) -> str:
    morning = hour < 12
    if len(text) == 5:
        return ("AM" if morning else "PM") if text[0].isupper() else ("am" if morning else "pm")
    return text[0] if morning else text[2]

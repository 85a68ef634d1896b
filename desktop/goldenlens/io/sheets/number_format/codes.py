"""Number format codes taken apart: a code's sections (``positive;negative;zero;text`` or
conditions), each a list of tokens (digit placeholders, literals, date fields, ...), its shape,
and for a fixed-point section its layout; the built-in formats by id."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

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

#: How a format id the file does not define (a locale's built-in, ids 27-36 and 50-81) is named.
LOCALE_BUILTIN = "<built-in format "
_COLOURS = frozenset({"black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"})
_CONDITION = re.compile(r"\[(<=|>=|<>|<|>|=)\s*(-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)\]")


class UnsupportedFormatError(ValueError):
    """The format code (or this value under it) cannot be rendered faithfully."""


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # lit, digit, point, comma, percent, exp, slash, text, general, date, ampm, elapsed, fill
    text: str


@dataclass(frozen=True, slots=True)
class Section:
    tokens: tuple[Token, ...]
    condition: tuple[str, float] | None
    is_date: bool
    has_text: bool
    shape: str  # general, literal, fraction, scientific, fixed (see _shape)
    layout: Layout | None  # for fixed sections, taken apart once


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


def _tokenise(code: str) -> list[Token]:  # noqa: PLR0912, PLR0915 - one pass over a small grammar
    tokens: list[Token] = []
    i = 0
    n = len(code)
    while i < n:
        c = code[i]
        if c == '"':
            end = code.find('"', i + 1)
            if end < 0:
                raise UnsupportedFormatError(f"unclosed quote in number format {code!r}")
            tokens.append(Token("lit", code[i + 1 : end]))
            i = end + 1
        elif c == "\\":
            if i + 1 < n:
                tokens.append(Token("lit", code[i + 1]))
            i += 2
        elif c == "_":
            # A space as wide as the next character: Excel and LibreOffice show one space.
            tokens.append(Token("lit", " "))
            i += 2
        elif c == "*":
            # Repeat the next character to fill the column: its count depends on the column
            # width, so the text of the cell has none of it (as LibreOffice exports it).
            tokens.append(Token("fill", code[i + 1 : i + 2]))
            i += 2
        elif c == "[":
            end = code.find("]", i)
            if end < 0:
                raise UnsupportedFormatError(f"unclosed bracket in number format {code!r}")
            tokens.extend(_bracket(code[i + 1 : end], code))
            i = end + 1
        elif c in _SINGLE:
            tokens.append(Token(_SINGLE[c], c))
            i += 1
        elif c in "Ee" and i + 1 < n and code[i + 1] in "+-":
            tokens.append(Token("exp", code[i : i + 2]))
            i += 2
        elif code[i : i + 7].lower() == "general":
            tokens.append(Token("general", "General"))
            i += 7
        elif code[i : i + 5].upper() == "AM/PM":
            tokens.append(Token("ampm", code[i : i + 5]))
            i += 5
        elif code[i : i + 3].upper() == "A/P":
            tokens.append(Token("ampm", code[i : i + 3]))
            i += 3
        elif c in _DATE_LETTERS:
            j = i
            while j < n and code[j].lower() == c.lower():
                j += 1
            tokens.append(Token("date", code[i:j].lower()))
            i = j
        else:
            tokens.append(Token("lit", c))
            i += 1
    return tokens


def _bracket(inner: str, code: str) -> list[Token]:
    lowered = inner.lower()
    if lowered in _COLOURS or re.fullmatch(r"color\s*\d+", lowered):
        return []
    if re.fullmatch(r"h+|m+|s+", lowered):
        return [Token("elapsed", lowered)]
    if inner.startswith("$"):
        symbol = inner[1:].split("-", 1)[0]
        return [Token("lit", symbol)] if symbol else []
    if _CONDITION.fullmatch(f"[{inner}]"):
        return [Token("cond", inner)]
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
def parse_format(code: str) -> tuple[Section, ...]:
    """The sections of ``code``, each tokenised, its condition, shape and layout found once."""
    parsed: list[Section] = []
    for raw in _split_sections(code):
        tokens = _tokenise(raw)
        condition = None
        kept: list[Token] = []
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
        parsed.append(Section(frozen, condition, is_date, has_text, shape, layout))
    if len(parsed) > 4:
        raise UnsupportedFormatError(f"number format {code!r} has more than four sections")
    return tuple(parsed)


def _resolve_minutes(tokens: list[Token]) -> list[Token]:
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
            out[i] = Token("date", "n" * len(tok.text))  # n = minutes
    return out


def is_date_format(code: str) -> bool:
    """True when ``code`` shows numbers as dates or times (any section)."""
    if is_general(code) or code.startswith(LOCALE_BUILTIN):
        return False
    try:
        return any(section.is_date for section in parse_format(code))
    except UnsupportedFormatError:
        return False


def is_general(code: str | None) -> bool:
    """True when ``code`` shows a number as General does (no format, or ``General``)."""
    return code is None or code.strip().lower() in {"", "general"}


def _shape(tokens: tuple[Token, ...]) -> str:
    """How a number section renders: general, literal, fraction, scientific or fixed."""
    kinds = {t.kind for t in tokens}
    if "general" in kinds:
        return "general"
    if "digit" not in kinds:
        return "literal"
    if "slash" in kinds:
        return "fraction"
    return "scientific" if "exp" in kinds else "fixed"


def literal_text(tok: Token) -> str:
    """The text a literal-like token shows (none for placeholders and fields)."""
    if tok.kind in {"lit", "percent", "point", "comma", "slash", "exp"}:
        return tok.text
    return ""


@dataclass(frozen=True, slots=True)
class Layout:
    """A fixed-point section taken apart once: its parts, grouping, scaling and percent."""

    integer_tokens: list[Token]
    fraction_tokens: list[Token]
    grouping: bool
    scale: int
    percent: int
    places: int
    has_point: bool
    hash_fraction: bool  # every decimal placeholder is "#"


def _number_layout(tokens: tuple[Token, ...]) -> Layout:
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
    return Layout(
        integer_tokens,
        fraction_tokens,
        grouping,
        scale,
        percent,
        len(fraction_digits),
        point is not None,
        all(text == "#" for text in fraction_digits),
    )

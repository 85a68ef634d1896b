"""A number under a number section as Excel shows it: General, fixed point (grouping,
scaling, percent), scientific and fractions, with Excel's rounding (15 significant digits,
then half away from zero at the shown precision)."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from goldenlens.io.sheets.number_format.codes import (
    Layout,
    Section,
    Token,
    UnsupportedFormatError,
    literal_text,
)

#: Significant digits Excel keeps of a number: what it shows and rounds from.
EXCEL_DIGITS = 15


def general_text(value: float) -> str:
    """A number as General shows it in a wide column: 15 significant digits, no binary noise,
    scientific from 10^15 and below 10^-9 (``158``, ``0.3``, ``10317750796``, ``1E+20``)."""
    if math.isnan(value):
        return ""
    if math.isinf(value):
        raise UnsupportedFormatError("an infinite number cannot be stored in a spreadsheet cell")
    if value == 0:
        return "0"
    digits = Decimal(f"{value:.{EXCEL_DIGITS}g}")
    exponent = digits.adjusted()
    if exponent >= EXCEL_DIGITS or exponent < -9:
        # Excel's scientific General: 1E+20, 1.23456789012346E+17, 1E-10.
        mantissa = digits.scaleb(-exponent).normalize()
        sign = "-" if exponent < 0 else "+"
        return f"{mantissa:f}E{sign}{abs(exponent):02d}"
    return f"{digits.normalize():f}"


def excel_decimal(value: float) -> Decimal:
    """The value as Excel holds it for display: 15 significant digits."""
    return Decimal(f"{value:.{EXCEL_DIGITS}g}")


def round_half_up(value: Decimal, places: int) -> Decimal:
    """``value`` rounded half away from zero to ``places`` decimals."""
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def render_number(section: Section, magnitude: float) -> str:
    """``magnitude`` (the sign is the caller's) under a number ``section``."""
    shape = section.shape
    tokens = list(section.tokens)
    if shape == "general":
        return "".join(general_text(magnitude) if t.kind == "general" else literal_text(t) for t in tokens)
    if shape == "literal":
        if section.has_text:
            return general_text(magnitude)  # "@" shows a number as General does
        # No placeholders: only literals (a zero section such as "-").
        return "".join(literal_text(t) for t in tokens)
    if shape == "fraction":
        return _render_fraction(tokens, magnitude)
    if shape == "scientific":
        return _render_scientific(tokens, magnitude)
    assert section.layout is not None
    return _render_fixed(section.layout, magnitude)


def _render_fixed(layout: Layout, magnitude: float) -> str:
    value = excel_decimal(magnitude).scaleb(2 * layout.percent - 3 * layout.scale)
    places = layout.places
    rounded = round_half_up(value, places)
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


def _fill_integer(tokens: list[Token], whole: str, grouping: bool) -> str:
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
            out.append(literal_text(tok))
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


def _fill_fraction(tokens: list[Token], frac: str) -> str:
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
            out.append(literal_text(tok))
    return "".join(out)


def _render_scientific(tokens: list[Token], magnitude: float) -> str:
    at = next(i for i, t in enumerate(tokens) if t.kind == "exp")
    mantissa_tokens, exponent_tokens = tokens[:at], tokens[at + 1 :]
    sign_mode = tokens[at].text[1]
    point = next((i for i, t in enumerate(mantissa_tokens) if t.kind == "point"), None)
    integer_tokens = mantissa_tokens[:point] if point is not None else mantissa_tokens
    fraction_tokens = mantissa_tokens[point + 1 :] if point is not None else []
    int_places = sum(1 for t in integer_tokens if t.kind == "digit") or 1
    places = sum(1 for t in fraction_tokens if t.kind == "digit")
    value = excel_decimal(magnitude)
    if value == 0:
        exponent = 0
    else:
        exponent = value.adjusted()
        if any(t.text == "#" for t in integer_tokens if t.kind == "digit") and int_places > 1:
            exponent -= exponent % int_places
    mantissa = round_half_up(value.scaleb(-exponent), places)
    limit = Decimal(10) ** (int_places if int_places > 1 and exponent % int_places == 0 else 1)
    if value != 0 and mantissa >= limit:
        exponent += 1 if limit == 10 else int_places
        mantissa = round_half_up(value.scaleb(-exponent), places)
    whole, _, frac = f"{mantissa:f}".partition(".")
    text = _fill_integer(integer_tokens, whole if whole != "0" or value != 0 else "0", False)
    if point is not None:
        text += "." + _fill_fraction(fraction_tokens, frac.ljust(places, "0"))
    exp_digits = sum(1 for t in exponent_tokens if t.kind == "digit")
    exp_sign = "-" if exponent < 0 else ("+" if sign_mode == "+" else "")
    tail = "".join(literal_text(t) for t in exponent_tokens if t.kind != "digit")
    return f"{text}E{exp_sign}{abs(exponent):0{max(exp_digits, 1)}d}{tail}"


def _render_fraction(tokens: list[Token], magnitude: float) -> str:
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
    value = Fraction(str(excel_decimal(magnitude)))
    whole = int(value) if has_integer else 0
    rest = value - whole
    if fixed is not None:
        numerator = int(round_half_up(Decimal(rest.numerator * fixed) / Decimal(rest.denominator), 0))
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
    tail = "".join(literal_text(t) for t in after if t.kind == "lit" and not t.text.isdigit())
    return f"{integer_text}{numerator_text}/{denominator_text}{tail}"

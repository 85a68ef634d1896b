"""Numbers in a fact, respelled at the same value: scales, digit grouping, percent, words.

``134.4 billion`` is also ``134,400 million``, ``134400 million``, ``134.4 bn``, ``134.4B`` and
``134,400,000,000``; ``5%`` is ``5 percent``; ``5 stores`` is ``five stores``. Values are
exact :class:`~decimal.Decimal` arithmetic, and every form is parsed back and compared before
it is proposed, so a rounded or changed value (``134 billion``) can never come out.

What is left alone, because it cannot be read faithfully or is probably not a quantity:
a number glued to other text (``98109-5210``, ``v1.5``, ``2nd``), a bare letter after a
number without a currency (``5m`` may be metres), a bare four-digit number (a year), and
bare integers of up to five digits inside longer text (street numbers, zip codes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Context, Decimal, localcontext

from goldenlens.core.variants.kinds import Rewrite, Span, VariantKind, overlaps, splice
from goldenlens.core.variants.words import NUMBER_WORDS, number_from_word

#: Scale words a fact may use, to the power of ten they stand for.
SCALE_EXPONENTS: dict[str, int] = {
    "thousand": 3,
    "k": 3,
    "million": 6,
    "mn": 6,
    "mln": 6,
    "m": 6,
    "billion": 9,
    "bn": 9,
    "b": 9,
    "trillion": 12,
    "tn": 12,
    "t": 12,
}
#: How each scale is written in the proposals: the word first (the form used with other
#: mantissas), then the abbreviations a financial text uses.
SCALE_SPELLINGS: dict[int, tuple[str, ...]] = {
    0: ("",),
    3: (" thousand", "K"),
    6: (" million", " mn", "M"),
    9: (" billion", " bn", "bn", "B"),
    12: (" trillion", " tn", "T"),
}
PERCENT_SPELLINGS = ("%", " percent", " per cent")

NUMBER_PATTERN = re.compile(
    r"(?<![\w.,/\-])"  # not the tail of a longer token (an id, a version, a range)
    r"(?P<currency>[$€£¥])?"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:(?P<space>\s?)(?P<scale>thousand|million|billion|trillion|mln|mn|bn|tn)\b|(?P<letter>[kmbt])\b)?"
    r"(?:(?P<pspace>\s?)(?P<percent>%|percent\b|per\s+cent\b))?"
    r"(?!\w|[/\-]\w|[.,]\d)",  # not the head of a longer token
    re.IGNORECASE,
)
_YEAR = re.compile(r"[12]\d{3}")
#: Mantissa decimals a respelling may need before it stops being a form anyone writes
#: (``10,317,750,796`` is not proposed as ``10.317750796 billion``).
MAX_NEW_DECIMALS = 3
_EXACT = Context(prec=60)


@dataclass(frozen=True)
class Amount:
    """A number as a fact writes it: ``$134.4 billion`` → value 134400000000, currency ``$``,
    exponent 9, mantissa ``134.4``; ``5%`` → value 5 with ``percent``."""

    value: Decimal
    currency: str
    percent: bool
    exponent: int
    mantissa: str
    spelling: str  # the scale as written, e.g. " billion", "B", "" (none)
    percent_spelling: str  # "%", " percent", ... or ""


def amount_from_match(match: re.Match[str]) -> Amount:
    """The :class:`Amount` a match of :data:`NUMBER_PATTERN` spells."""
    scale = match["scale"] or match["letter"] or ""
    exponent = SCALE_EXPONENTS[scale.lower()] if scale else 0
    with localcontext(_EXACT):
        value = Decimal(match["digits"].replace(",", "")).scaleb(exponent)
    return Amount(
        value=value,
        currency=match["currency"] or "",
        percent=bool(match["percent"]),
        exponent=exponent,
        mantissa=match["digits"],
        spelling=(match["space"] or "") + scale if match["scale"] else scale,
        percent_spelling=(match["pspace"] or "") + match["percent"] if match["percent"] else "",
    )


def parse_amount(text: str) -> Amount | None:
    """The amount ``text`` spells when it is one number and nothing else, else ``None``.

    A number word (``five``, ``twenty-one``) counts too, with an optional scale or percent.
    """
    stripped = text.strip()
    match = NUMBER_PATTERN.fullmatch(stripped)
    if match is not None:
        return amount_from_match(match)
    word, _, rest = stripped.partition(" ")
    number = number_from_word(word)
    if number is None:
        return None
    digits = NUMBER_PATTERN.fullmatch(f"{number} {rest}" if rest else str(number))
    return None if digits is None or digits["currency"] or digits["letter"] else amount_from_match(digits)


def plain_number(number: Decimal, *, grouped: bool) -> str:
    """``number`` in positional notation without trailing zeros, optionally with commas."""
    text = format(number.normalize(_EXACT), "f")
    whole, _, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    if grouped:
        whole = f"{int(whole):,}"
    return whole + ("." + fraction if fraction else "")


def amount_value(amount: Amount) -> str:
    """The value an amount stands for, written out: ``$134,400,000,000``, ``5%``."""
    return amount.currency + plain_number(amount.value, grouped=True) + ("%" if amount.percent else "")


def _decimals(number: Decimal) -> int:
    exponent = number.normalize(_EXACT).as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def _mantissas(number: Decimal) -> list[str]:
    """Grouped first, then ungrouped when that differs."""
    return list(dict.fromkeys([plain_number(number, grouped=True), plain_number(number, grouped=False)]))


def amount_forms(amount: Amount) -> list[tuple[str, VariantKind]]:
    """Other spellings of ``amount`` at exactly its value, each with its kind (source excluded)."""
    source = amount.currency + amount.mantissa + amount.spelling + amount.percent_spelling
    forms: list[tuple[str, VariantKind]] = []
    if amount.percent:
        number = amount.currency + amount.mantissa + amount.spelling
        forms.extend((number + p, VariantKind.PERCENT) for p in PERCENT_SPELLINGS)
    else:
        forms.extend(_scale_forms(amount))
    word = _number_word(amount)
    if word:
        forms.append((word, VariantKind.NUMBER_WORD))
    seen = {source.lower()}
    unique: list[tuple[str, VariantKind]] = []
    for text, kind in forms:
        if text.lower() not in seen and _same_amount(amount, text):
            seen.add(text.lower())
            unique.append((text, kind))
    return unique


def _scale_forms(amount: Amount) -> list[tuple[str, VariantKind]]:
    forms: list[tuple[str, VariantKind]] = []
    allowed_decimals = max(MAX_NEW_DECIMALS, _decimals(Decimal(amount.mantissa.replace(",", ""))))
    with localcontext(_EXACT):
        for exponent, spellings in SCALE_SPELLINGS.items():
            mantissa = amount.value.scaleb(-exponent)
            if exponent == amount.exponent:
                forms.extend(
                    (amount.currency + text + amount.spelling, VariantKind.GROUPING)
                    for text in _mantissas(mantissa)
                )
                forms.extend(
                    (amount.currency + amount.mantissa + s, VariantKind.SCALE)
                    for s in spellings
                    if s.lower() != amount.spelling.lower()
                )
                continue
            if exponent == 0:
                if mantissa != mantissa.to_integral_value():
                    continue
            elif exponent == 3 or not 1 <= mantissa < 10**6 or _decimals(mantissa) > allowed_decimals:
                # Thousands are only kept when the fact used them ("158,000 thousand" is nobody's
                # spelling of 158 million); a mantissa below one or with many decimals neither.
                continue
            grouped, *ungrouped = _mantissas(mantissa)
            word, *abbreviations = spellings
            forms.extend((amount.currency + text + word, VariantKind.SCALE) for text in [grouped, *ungrouped])
            forms.extend((amount.currency + grouped + s, VariantKind.SCALE) for s in abbreviations)
    return forms


def _number_word(amount: Amount) -> str:
    """``five million`` for ``5 million`` (no currency: ``$five`` is nobody's spelling)."""
    if amount.currency:
        return ""
    mantissa = Decimal(amount.mantissa.replace(",", ""))
    if mantissa != mantissa.to_integral_value() or int(mantissa) not in NUMBER_WORDS:
        return ""
    spelling = amount.spelling
    if spelling and not spelling.startswith(" "):
        spelling = SCALE_SPELLINGS[amount.exponent][0]  # "five million", not "fiveM"
    percent = " percent" if amount.percent_spelling == "%" else amount.percent_spelling
    return NUMBER_WORDS[int(mantissa)] + spelling + percent


def _same_amount(source: Amount, text: str) -> bool:
    """The guard: ``text`` parses back to exactly the source's value, percent and currency."""
    parsed = parse_amount(text)
    return (
        parsed is not None
        and parsed.value == source.value
        and parsed.percent == source.percent
        and parsed.currency == source.currency
    )


def number_rewrites(part: str, taken: list[Span]) -> tuple[list[Rewrite], list[str]]:
    """Every respelling of each number in ``part`` (outside the ``taken`` spans, which are
    dates), and notes on the numbers left alone."""
    rewrites: list[Rewrite] = []
    notes: list[str] = []
    whole = part.strip()
    for match in NUMBER_PATTERN.finditer(part):
        if overlaps(match.span(), taken):
            continue
        written = match.group()
        amount = amount_from_match(match)
        if match["letter"] and not amount.currency:
            notes.append(
                f"{written!r}: a letter after a bare number may be a unit (metres, months); left alone"
            )
            continue
        bare = not (amount.currency or amount.spelling or amount.percent)
        if bare and "," not in amount.mantissa and _YEAR.fullmatch(amount.mantissa):
            notes.append(f"{written!r} looks like a year; left alone")
            continue
        alone = written == whole
        forms: list[tuple[str, VariantKind]]
        if bare and not alone and "." not in amount.mantissa and len(amount.mantissa.replace(",", "")) <= 5:
            # A short bare integer inside text is a street number, a zip code or a count: only
            # the spelled-out word is offered (for counts below a hundred).
            forms = [(f, k) for f, k in amount_forms(amount) if k is VariantKind.NUMBER_WORD]
        elif bare and "." in amount.mantissa and not alone:
            continue  # a bare decimal inside text (a ratio, a version): nothing to respell
        else:
            forms = amount_forms(amount)
        for text, kind in forms:
            rewrites.append(Rewrite(splice(part, match.span(), text), kind, f"{written} = {text}"))
    return rewrites, notes

"""Property tests of the fact-variant generator, checked by parsers written here.

The oracles below (``_oracle_amount``, ``_oracle_dates``) are this test's own readers of
numbers and dates — a regex and scale table for amounts, ``datetime.strptime`` for dates —
so a variant is checked by something other than the generator that made it:

- every number variant stands for exactly the value of the fact (Decimal equality: no
  rounding, no dropped digit, no changed scale);
- every date variant reads back as the same day; a numeric one that reads as another day in
  the other (US/UK) convention carries a risk;
- every suggestion is new to the fact, and adding it never lowers a score.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from goldenlens.core.lexical.factual_knowledge import fact_with_variant
from goldenlens.core.variants.flip_preview import ScoredResponse, preview_variant
from goldenlens.core.variants.generator import VariantKind, suggest_variants

NUMBER_KINDS = {VariantKind.SCALE, VariantKind.GROUPING, VariantKind.PERCENT, VariantKind.NUMBER_WORD}

_SCALES = {
    "": 0,
    "thousand": 3,
    "k": 3,
    "million": 6,
    "mn": 6,
    "m": 6,
    "billion": 9,
    "bn": 9,
    "b": 9,
    "trillion": 12,
    "tn": 12,
    "t": 12,
}
_UNITS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
]  # fmt: skip
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORDS = {w: n for n, w in enumerate(_UNITS)} | {
    (_TENS[n // 10] + ("-" + _UNITS[n % 10] if n % 10 else "")): n for n in range(20, 100)
}
_AMOUNT = re.compile(
    r"(?P<cur>[$€£¥]?)(?P<num>[\d,]+(?:\.\d+)?|[a-z-]+)"
    r"(?: ?(?P<scale>[a-z]+))??(?: ?(?P<pct>%|percent|per cent))?"
)


def _oracle_amount(text: str) -> tuple[str, Decimal, bool] | None:
    """(currency, value, percent) of ``$134,400 million``, ``five percent``, ``134.4B``."""
    match = _AMOUNT.fullmatch(text.strip().lower())
    if match is None or (match["scale"] or "") not in _SCALES:
        return None
    number = match["num"]
    if number in _WORDS:
        value = Decimal(_WORDS[number])
    elif "," in number and not re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", number):
        return None  # misplaced commas are not a grouping
    elif re.fullmatch(r"[\d,]+(\.\d+)?", number):
        value = Decimal(number.replace(",", ""))
    else:
        return None
    return match["cur"], value * (Decimal(10) ** _SCALES[match["scale"] or ""]), bool(match["pct"])


_SPELLED_ORDINALS = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
    "eighteenth", "nineteenth", "twentieth", "twenty-first", "twenty-second", "twenty-third",
    "twenty-fourth", "twenty-fifth", "twenty-sixth", "twenty-seventh", "twenty-eighth", "twenty-ninth",
    "thirtieth", "thirty-first",
]  # fmt: skip
_FORMATS = [
    "%Y-%m-%d", "%m/%d/%Y", "%d/%m/%Y", "%B %d, %Y", "%B %d %Y", "%b %d, %Y", "%b. %d, %Y", "%b %d %Y",
    "%d %B %Y", "%d %b %Y", "%d of %B %Y", "%B %d of %Y",
]  # fmt: skip


def _oracle_dates(text: str) -> set[date]:
    """Every date ``text`` can be read as (two for an ambiguous numeric date)."""
    plain = re.sub(r"\bSept\b", "Sep", text)
    # Longest first: "twenty-second" before "second".
    for n, word in sorted(enumerate(_SPELLED_ORDINALS, start=1), key=lambda item: -len(item[1])):
        plain = re.sub(rf"\b{word}\b", str(n), plain)
    plain = re.sub(r"\b(\d{1,2})(st|nd|rd|th)\b", r"\1", plain)
    found = set()
    for fmt in _FORMATS:
        try:
            found.add(datetime.strptime(plain, fmt).date())
        except ValueError:
            continue
    return found


scales = st.sampled_from(["", " thousand", " million", " billion", " trillion", " bn", " mn"])
currencies = st.sampled_from(["", "$"])


@st.composite
def amounts(draw: st.DrawFn) -> tuple[str, Decimal, str, bool]:
    """A fact that is one amount, written as a person would, with its value."""
    whole = draw(st.integers(min_value=0, max_value=10**12))
    places = draw(st.integers(min_value=0, max_value=4))
    mantissa = Decimal(whole).scaleb(-places)
    written = format(mantissa, "f")
    head, _, tail = written.partition(".")
    if draw(st.booleans()):
        head = f"{int(head):,}"
    text = head + ("." + tail if tail else "")
    percent = draw(st.booleans())
    currency = "" if percent else draw(currencies)
    scale = "" if percent else draw(scales)
    letter = ""
    if currency and scale and draw(st.booleans()):
        letter = {" billion": "B", " million": "M", " trillion": "T", " thousand": "K"}.get(scale, "")
    suffix = "%" if percent else (letter or scale)
    value = mantissa * Decimal(10) ** _SCALES[(letter or scale).strip().lower()]
    return currency + text + suffix, value, currency, percent


@settings(max_examples=300, deadline=None)
@given(amounts())
def test_every_number_variant_is_the_same_value(case: tuple[str, Decimal, str, bool]) -> None:
    fact, value, currency, percent = case
    assert _oracle_amount(fact) == (currency, value, percent)  # the oracle reads the fact itself
    for variant in suggest_variants(fact).variants:
        assert variant.kind in NUMBER_KINDS, variant
        read = _oracle_amount(variant.part)
        assert read is not None, f"{variant.part!r} (from {fact!r}) is no amount"
        assert read == (currency, value, percent), f"{variant.part!r} is not {fact!r}"


@settings(max_examples=200, deadline=None)
@given(amounts(), st.sampled_from([("Revenue was ", " in Q2."), ("about ", ""), ("", " shares")]))
def test_a_number_inside_text_keeps_the_text_and_the_value(
    case: tuple[str, Decimal, str, bool], frame: tuple[str, str]
) -> None:
    fact, value, currency, percent = case
    prefix, suffix = frame
    for variant in suggest_variants(prefix + fact + suffix).variants:
        if variant.kind not in NUMBER_KINDS:
            continue
        assert variant.part.startswith(prefix), variant
        assert variant.part.endswith(suffix), variant
        middle = variant.part[len(prefix) : len(variant.part) - len(suffix)]
        assert _oracle_amount(middle) == (currency, value, percent), variant


date_formats = st.sampled_from(
    [
        "%Y-%m-%d",
        "%B %d, %Y",
        "%b %d %Y",
        "%d %B %Y",
        "%B {nth}, %Y",
        "{nth} of %B %Y",
        "%d/%m/%Y",
        "%m/%d/%Y",
    ]
)


def _nth(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


@settings(max_examples=150, deadline=None)
@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31)), date_formats)
def test_every_date_variant_is_the_same_day(day: date, fmt: str) -> None:
    fact = day.strftime(fmt.replace("{nth}", _nth(day.day)))
    suggestions = suggest_variants(fact)
    numeric = "/" in fact
    if numeric and day.day <= 12 and day.day != day.month:
        assert suggestions.variants == ()  # 03/04/2023: which day? left alone, with a note
        assert suggestions.notes
        return
    dates = [v for v in suggestions.variants if v.kind is VariantKind.DATE]
    assert len(dates) >= 8  # ISO, numeric, month names, ordinals (May has no abbreviation)
    for variant in dates:
        readings = _oracle_dates(variant.part)
        assert day in readings, f"{variant.part!r} (from {fact!r}) reads as {readings}"
        if len(readings) > 1:
            assert variant.risks, f"{variant.part!r} also reads as {readings - {day}}"


facts = st.sampled_from(
    [
        "134.4 billion",
        "10317750796",
        "Feb 22 2023",
        "410 Terry Avenue North",
        "5%",
        "five stores",
        "Amazon<AND>12.5 billion",
    ]
)
snippets = st.lists(
    st.sampled_from(
        ["134,400 million", "$134.4B", "134 billion", "10,317,750,796", "2023-02-22", "Feb. 22, 2023",
         "410 Terry Ave. N.", "5 percent", "5 stores", "Amazon", "$12,500 million", " and ", "the", "."]
    ),
    max_size=6,
).map("".join)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(facts, st.lists(snippets, min_size=1, max_size=4))
def test_adding_a_suggestion_is_new_and_never_lowers_a_score(fact: str, texts: list[str]) -> None:
    responses = [ScoredResponse("q1", f"P{n}", text) for n, text in enumerate(texts)]
    for variant in suggest_variants(fact).variants:
        assert fact_with_variant(fact, variant.text, and_group=variant.and_group) is not None
        preview = preview_variant(variant, "q1", fact, responses)
        assert preview.flips_down == 0
        for row in preview.flips:
            assert row.after is not None
            assert all(
                a is not None and b is not None and a >= b for a, b in zip(row.after, row.before, strict=True)
            )

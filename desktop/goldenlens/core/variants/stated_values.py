"""The numbers, amounts and dates a text states, as values that can be compared with a fact's:
"grew about 10%" states the percentage 10, "$134,383 million" the amount 134,383,000,000,
"Feb 21, 2023" the date 2023-02-21.

The advisor reads a response that states a value where the fact has one, and none of the
fact's ("10%" where the fact says "7%", "$170.0 billion" where it says "134.4 billion"), as a
likely wrong answer, not a rephrasing. A value that rounds one of the fact's ("about $22
billion" for "22.1 billion") is not another value; numbers the question itself holds ("the
second quarter of 2023") and bare years, unless the fact is a date or a year, are context.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from goldenlens.core.lexical.factual_knowledge import fact_groups
from goldenlens.core.variants.dates import find_dates
from goldenlens.core.variants.numbers import (
    NUMBER_PATTERN,
    Amount,
    amount_from_match,
    parse_amount,
    plain_number,
)

_YEARS = range(1000, 3000)


@dataclass(frozen=True, slots=True)
class StatedValue:
    """One value: its ``kind`` (``percent``, ``amount`` or ``date``), the value written out
    (``7%``, ``134,400,000,000``, ``2023-02-22``), the text that stated it, and for a number
    its value and significant digits as written (``22`` billion: 2)."""

    kind: str
    value: str
    text: str
    number: Decimal | None = None
    significant: int = 0

    @property
    def bare_year(self) -> bool:
        return (
            self.kind == "amount"
            and self.number is not None
            and self.text.strip().isdigit()
            and int(self.number) in _YEARS
        )

    def agrees_with(self, fact: StatedValue) -> bool:
        """The same value as ``fact``'s, ``fact``'s rounded to the digits written here, or the
        year of ``fact``'s date."""
        if self.bare_year and fact.kind == "date":
            return fact.value[:4] == self.text.strip()
        if self.kind != fact.kind:
            return False
        if self.value == fact.value:
            return True
        if self.number is None or fact.number is None or self.significant < 1 or self.number == 0:
            return False
        step = Decimal(1).scaleb(self.number.adjusted() - self.significant + 1)
        return fact.number.quantize(step, rounding=ROUND_HALF_UP) == self.number.quantize(step)


def _significant(mantissa: str) -> int:
    digits = mantissa.replace(",", "").replace(".", "").lstrip("0")
    return len(digits)


def _of_amount(amount: Amount, text: str) -> StatedValue:
    # A currency sign does not make another kind of value: "$170.0 billion" and "134.4 billion"
    # are two amounts, and "$134.4 billion" and "134.4 billion" one.
    kind, suffix = ("percent", "%") if amount.percent else ("amount", "")
    written = plain_number(amount.value, grouped=True) + suffix
    return StatedValue(kind, written, text, amount.value, _significant(amount.mantissa))


def stated_values(text: str) -> list[StatedValue]:
    """Every number, amount and date ``text`` states (a number inside a date counts as the date
    only)."""
    found: list[StatedValue] = []
    taken: list[tuple[int, int]] = []
    for (start, end), day, _form in find_dates(text):
        if day is not None:
            found.append(StatedValue("date", day.isoformat(), text[start:end]))
            taken.append((start, end))
    found.extend(
        _of_amount(amount_from_match(match), match.group(0))
        for match in NUMBER_PATTERN.finditer(text)
        if not any(start <= match.start() < end for start, end in taken)
    )
    return found


def fact_values(fact: str) -> list[StatedValue]:
    """The values of the fact's parts that are one amount or one date."""
    found: list[StatedValue] = []
    for group in fact_groups(fact):
        for raw in group:
            part = raw.strip()
            amount = parse_amount(part)
            if amount is not None:
                found.append(_of_amount(amount, part))
                continue
            dates = [d for d in find_dates(part) if d[1] is not None]
            if len(dates) == 1 and dates[0][0] == (0, len(part)) and dates[0][1] is not None:
                found.append(StatedValue("date", dates[0][1].isoformat(), part))
    return found


def other_value(fact: str, text: str, *, question: str = "") -> tuple[StatedValue, StatedValue] | None:
    """``(stated, expected)`` when ``text`` states values where the fact has one and none of them
    agrees with a value of the fact (the first stated and the fact's first); ``None`` when the fact
    has no value, the text states none (beyond the question's own numbers), or one agrees."""
    expected = fact_values(fact)
    if not expected:
        return None
    context = {v.value for v in stated_values(question)}
    dated = any(v.kind == "date" or v.bare_year for v in expected)
    said = [v for v in stated_values(text) if v.value not in context and (dated or not v.bare_year)]
    if not said or any(v.agrees_with(f) for v in said for f in expected):
        return None
    return said[0], expected[0]

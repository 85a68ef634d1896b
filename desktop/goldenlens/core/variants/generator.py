"""The fact-variant generator: other spellings of a fact that a correct response may use.

Pure and deterministic (no model): numbers (:mod:`~goldenlens.core.variants.numbers`), dates
(:mod:`~goldenlens.core.variants.dates`) and words (:mod:`~goldenlens.core.variants.words`)
are respelled at exactly the same value, never rounded. Each suggestion is one ``<OR>``
alternative to add to the fact:

- for an alternative of one part, the respelled part;
- for an ``<AND>`` alternative, the whole group with that one part respelled, so a response
  must still contain the other parts (add it with ``fact_with_variant(..., and_group=True)``).

A suggestion is dropped when it cannot change either Factual Knowledge score: when every
response containing it would already contain an existing alternative — for the exact score
(``part.lower() in response.lower()``) and for the quasi-exact score (the same test after
FMEval normalisation). So ``10,317,750,796`` stays a suggestion for the fact ``10317750796``
(it changes the exact score; quasi-exact already matches, which ``changes`` says), while
``$134.4 billion`` is dropped for ``134.4 billion`` (any response holding it holds the fact).

Each suggestion carries its false-match risks: short (the golden-row flag's rule, shared via
:func:`~goldenlens.core.lexical.flags.prone_to_false_match`), a bare year, a bare digit string that
could be an id, an ambiguous numeric date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from goldenlens.core.lexical.factual_knowledge import AND, OR, fact_groups
from goldenlens.core.lexical.flags import FlagThresholds, prone_to_false_match
from goldenlens.core.lexical.normalise import normalise
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT
from goldenlens.core.variants.dates import date_rewrites, find_dates
from goldenlens.core.variants.kinds import Rewrite, VariantKind
from goldenlens.core.variants.numbers import amount_value, number_rewrites, parse_amount
from goldenlens.core.variants.words import abbreviation_rewrites, number_word_rewrites

RISK_SHORT = "short: a bare number of few digits or a single short or common word matches by accident"
RISK_YEAR = "a bare year: matches any response that mentions the year"
RISK_DIGITS = "a bare digit string: an id, a zip code or an account number looks the same"

_BARE_DIGITS = re.compile(r"\d{5,}")
_BARE_YEAR = re.compile(r"[12]\d{3}")


@dataclass(frozen=True)
class FactVariant:
    """One suggested ``<OR>`` alternative.

    ``text`` is what to add (for an ``<AND>`` alternative, the whole group: ``and_group``);
    ``part`` the respelled part a response must contain; ``source`` the part it respells;
    ``changes`` which Factual Knowledge scores it can change (``factual_knowledge`` and/or
    ``factual_knowledge_quasi_exact``); ``risks`` why it may match text that is not the fact.
    """

    text: str
    part: str
    source: str
    kind: VariantKind
    note: str
    changes: tuple[str, ...]
    risks: tuple[str, ...] = ()

    @property
    def and_group(self) -> bool:
        """Whether ``text`` is an ``<AND>`` group (keeps the other parts of its alternative)."""
        return AND in self.text

    @property
    def risky(self) -> bool:
        return bool(self.risks)

    def as_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "part": self.part,
            "source": self.source,
            "kind": self.kind.value,
            "note": self.note,
            "changes": list(self.changes),
            "risks": list(self.risks),
            "and_group": self.and_group,
        }


@dataclass(frozen=True)
class VariantSuggestions:
    """Every suggestion for a fact, in fact order, and notes on what was left alone (a value
    that cannot be read faithfully is reported, never guessed)."""

    fact: str
    variants: tuple[FactVariant, ...]
    notes: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {
            "fact": self.fact,
            "variants": [v.as_dict() for v in self.variants],
            "notes": list(self.notes),
        }


def part_rewrites(part: str) -> tuple[list[Rewrite], list[str]]:
    """Every respelling of one fact part, dates first, and notes on what was left alone."""
    dates, notes, date_spans = date_rewrites(part)
    numbers, number_notes = number_rewrites(part, date_spans)
    words = number_word_rewrites(part, date_spans) + abbreviation_rewrites(part, date_spans)
    return dates + numbers + words, notes + number_notes


def _scored_groups(fact: str) -> list[tuple[str, ...]]:
    # A group with an empty part matches every response (FMEval) and is not scored here:
    # it cannot make a suggestion redundant.
    return [g for g in fact_groups(fact) if all(p.strip() for p in g)]


def _changes(candidate: tuple[str, ...], existing: list[tuple[str, ...]]) -> tuple[str, ...]:
    """Which scores a new alternative can change: none when some existing alternative's parts
    are each inside one of the candidate's parts (a response holding the candidate holds it)."""

    def covered(inside: list[str], parts_of: list[list[str]]) -> bool:
        return any(all(any(p in c for c in inside) for p in group) for group in parts_of)

    lower = [p.lower() for p in candidate]
    normal = [normalise(p.strip()) for p in candidate]
    changes = []
    if not covered(lower, [[p.lower() for p in g] for g in existing]):
        changes.append(FACTUAL_KNOWLEDGE)
    if all(normal) and not covered(normal, [[normalise(p.strip()) for p in g] for g in existing]):
        changes.append(FACTUAL_KNOWLEDGE_QUASI_EXACT)
    return tuple(changes)


def variant_risks(
    part: str, rewrite_risk: str = "", thresholds: FlagThresholds | None = None
) -> tuple[str, ...]:
    """Why ``part`` could match text that is not the fact (empty: no known risk)."""
    text = part.strip()
    risks = []
    if prone_to_false_match(text, thresholds):
        risks.append(RISK_SHORT)
    if _BARE_YEAR.fullmatch(text):
        risks.append(RISK_YEAR)
    elif _BARE_DIGITS.fullmatch(text):
        risks.append(RISK_DIGITS)
    if rewrite_risk:
        risks.append(rewrite_risk)
    return tuple(risks)


def part_value(part: str) -> str | None:
    """What a part that is one amount or one date stands for (``134,400,000,000``,
    ``2023-02-22``), else ``None``."""
    amount = parse_amount(part)
    if amount is not None:
        return amount_value(amount)
    text = part.strip()
    dates = find_dates(text)
    if len(dates) == 1 and dates[0][0] == (0, len(text)) and dates[0][1] is not None:
        return dates[0][1].isoformat()
    return None


def value_disagreement(fact: str) -> str:
    """A note when the fact's one-part alternatives stand for different amounts or dates
    (a rounding the analyst accepted, or a typo), else ``""``. Variants are made of each
    value as it is; none of them is equivalent to another value."""
    values: dict[str, list[str]] = {}
    for group in fact_groups(fact):
        value = part_value(group[0]) if len(group) == 1 else None
        if value is not None:
            values.setdefault(value, []).append(group[0].strip())
    if len(values) < 2:
        return ""
    listed = "; ".join(f"{value} ({', '.join(parts)})" for value, parts in values.items())
    return (
        f"the alternatives stand for {len(values)} different values: {listed}. Check each is meant "
        "(a rounding or a typo?); variants keep each value as it is"
    )


def suggest_variants(
    fact: str, *, against: str | None = None, thresholds: FlagThresholds | None = None
) -> VariantSuggestions:
    """Alternative spellings of ``fact`` that a correct response may use.

    ``against`` is the fact the suggestions would be added to (default ``fact`` itself): a
    suggestion that changes no score against it, or is already one of its alternatives, is
    dropped. ``thresholds`` set what counts as short (the golden-row flag's settings).
    """
    existing = _scored_groups(fact) + (_scored_groups(against) if against is not None else [])
    variants: list[FactVariant] = []
    notes: list[str] = []
    seen: set[str] = set()
    for group in fact_groups(fact):
        if not all(p.strip() for p in group):
            notes.append(
                f"the alternative {AND.join(group)!r} has an empty part; it is not scored until fixed"
            )
            continue
        for index, part in enumerate(group):
            rewrites, part_notes = part_rewrites(part)
            notes.extend(n for n in part_notes if n not in notes)
            for rewrite in rewrites:
                if OR in rewrite.text or AND in rewrite.text:
                    continue  # cannot happen with the generators' tables; never emit an operator
                parts = (*group[:index], rewrite.text, *group[index + 1 :])
                text = AND.join(parts).strip() if len(parts) > 1 else rewrite.text.strip()
                key = text.lower()
                if key in seen:
                    continue
                seen.add(key)
                changes = _changes(parts, existing)
                if not changes:
                    continue
                risks = variant_risks(rewrite.text, rewrite.risk, thresholds)
                variants.append(
                    FactVariant(
                        text, rewrite.text.strip(), part.strip(), rewrite.kind, rewrite.note, changes, risks
                    )
                )
    disagreement = value_disagreement(fact)
    if disagreement:
        notes.insert(0, disagreement)
    return VariantSuggestions(fact, tuple(variants), tuple(notes))

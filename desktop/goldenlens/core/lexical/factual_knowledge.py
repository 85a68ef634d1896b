"""FMEval Factual Knowledge: exact and quasi-exact inclusion of a fact, with the match span.

A fact is ``<OR>``-separated alternatives, each an ``<AND>``-separated list of parts
(``<OR>`` binds looser: ``A<AND>B<OR>C`` is ``(A and B) or C``). With a single operator this
is FMEval's ``max``/``min`` over ``target_output.split(delimiter)``; we read the operator per
row from the fact itself instead of once per run.

Exact: ``part.lower() in response.lower()`` — plain substring, parts not stripped.
Quasi-exact: ``normalise(part.strip()) in normalise(response.strip())``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

from goldenlens.core.lexical.normalise import lowered_offsets, normalise, normalise_with_offsets

OR = "<OR>"
AND = "<AND>"


@lru_cache(maxsize=1 << 14)
def fact_groups(fact: str) -> tuple[tuple[str, ...], ...]:
    """Split a fact into ``<OR>`` alternatives of ``<AND>`` parts, verbatim (not stripped).
    Kept for the last facts split: scoring and the golden flags ask for each several times."""
    return tuple(tuple(group.split(AND)) for group in fact.split(OR))


def fact_operator(fact: str) -> str:
    """``OR``, ``AND``, ``AND+OR`` or ``single`` — for display and the score signature."""
    has_or, has_and = OR in fact, AND in fact
    if has_or and has_and:
        return "AND+OR"
    if has_or:
        return "OR"
    return "AND" if has_and else "single"


@dataclass(frozen=True, slots=True)
class FactPartMatch:
    """One fact part found in the response, with its span in the original response text."""

    part: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class FactResult:
    """Both Factual Knowledge scores and where the fact matched.

    ``matches`` are the parts of the first satisfied alternative: by exact inclusion when
    ``exact`` is 1, otherwise by quasi-exact inclusion when ``quasi_exact`` is 1, else empty.
    """

    exact: float
    quasi_exact: float
    matches: tuple[FactPartMatch, ...] = ()
    matched_by: str = ""  # "exact", "quasi_exact" or ""

    @property
    def matched_part(self) -> str:
        return "<AND>".join(m.part for m in self.matches)


def _exact_span(part: str, response_lower: str, offsets: list[int], length: int) -> tuple[int, int] | None:
    index = response_lower.find(part.lower())
    if index < 0:
        return None
    if not part:
        return (0, 0)
    end_index = index + len(part.lower()) - 1
    return (offsets[index], offsets[end_index] + 1) if end_index < len(offsets) else (offsets[index], length)


def _quasi_span(part: str, normalised: str, offsets: list[int]) -> tuple[int, int] | None:
    target = normalise(part.strip())
    index = normalised.find(target)
    if index < 0:
        return None
    if not target:
        return (0, 0)
    span = [o for o in offsets[index : index + len(target)] if o >= 0]
    return (span[0], span[-1] + 1) if span else (0, 0)


class FactMatcher:
    """Scores responses against one fact; the fact's split is done once and reused."""

    def __init__(self, fact: str) -> None:
        self.fact = fact
        self.groups = fact_groups(fact)
        #: Each group's parts lower-cased, and normalised: what exact and quasi-exact inclusion
        #: look for in the response lower-cased, and in its normalised text.
        groups = self.groups
        self.lower_groups = tuple([tuple([p.lower() for p in g]) for g in groups])
        self.normalised_groups = tuple([tuple([normalise(p.strip()) for p in g]) for g in groups])
        # The usual fact has no <AND>: then each alternative is one part, tested in one C loop.
        self._single = all(len(g) == 1 for g in groups)
        self._lower_parts = tuple([g[0] for g in self.lower_groups]) if self._single else ()
        self._norm_parts = tuple([g[0] for g in self.normalised_groups]) if self._single else ()
        #: :func:`fact_not_scored_reason` and :func:`quasi_not_scored_reason` of the fact, worked
        #: out in full only when a part is empty (or normalises to nothing).
        self.not_scored_reason = ""
        self.quasi_not_scored_reason = ""
        if not all(map(str.strip, chain.from_iterable(groups))):
            self.not_scored_reason = self.quasi_not_scored_reason = fact_not_scored_reason(fact)
        elif not all(map(all, self.normalised_groups)):
            self.quasi_not_scored_reason = quasi_not_scored_reason(fact)

    def scores(self, response: str, *, normalised: str | None = None) -> tuple[float, float]:
        """(exact, quasi_exact) without spans — the fast path for batch scoring.

        ``normalised`` is ``normalise(response.strip())`` when the caller already has it
        (:meth:`LexicalScorer.score` does), so the response is not normalised twice.
        """
        lower = response.lower()
        norm = normalise(response.strip()) if normalised is None else normalised
        if self._single:
            exact = any(map(lower.__contains__, self._lower_parts))
            quasi = any(map(norm.__contains__, self._norm_parts))
        else:
            exact = any(all(p in lower for p in g) for g in self.lower_groups)
            quasi = any(all(p in norm for p in g) for g in self.normalised_groups)
        return float(exact), float(quasi)

    def match(self, response: str) -> FactResult:
        """Scores plus the spans of the matching parts (for highlighting)."""
        exact, quasi = self.scores(response)
        if exact:
            lower, offsets = lowered_offsets(response)
            for group in self.groups:
                spans = [_exact_span(p, lower, offsets, len(response)) for p in group]
                if all(s is not None for s in spans):
                    found = tuple(
                        FactPartMatch(p, s[0], s[1]) for p, s in zip(group, spans, strict=True) if s
                    )
                    return FactResult(exact, quasi, found, "exact")
        if quasi:
            normalised, offsets = normalise_with_offsets(response)
            for group in self.groups:
                qspans = [_quasi_span(p, normalised, offsets) for p in group]
                if all(s is not None for s in qspans):
                    found = tuple(
                        FactPartMatch(p, s[0], s[1]) for p, s in zip(group, qspans, strict=True) if s
                    )
                    return FactResult(exact, quasi, found, "quasi_exact")
        return FactResult(exact, quasi)


def factual_knowledge(response: str, fact: str) -> FactResult:
    """FMEval ``factual_knowledge`` and ``factual_knowledge_quasi_exact`` with match spans."""
    return FactMatcher(fact).match(response)


def empty_parts(fact: str) -> list[str]:
    """Parts that are empty or only whitespace: an empty part matches every response."""
    return [p for g in fact_groups(fact) for p in g if not p.strip()]


# -- where GoldenLens deliberately departs from FMEval -----------------------------------------
# FMEval counts the empty string as found in every response, so an empty fact or an empty part
# (a trailing <OR>, "a<AND>") scores 1.0 whatever the pipeline said. GoldenLens does not score
# such a fact at all: a number that cannot fail is not a measurement.


def fact_not_scored_reason(fact: str) -> str:
    """Why Factual Knowledge (exact and quasi-exact) is not scored against ``fact``, or ``""``.

    Not scored: a fact that is empty or only whitespace, and a fact with an empty (or
    whitespace-only) ``<OR>``/``<AND>`` part. FMEval would count either as found in every
    response (exact inclusion of ``""``), so the score would be 1.0 whatever was answered.
    """
    if not fact.strip():
        return "the fact is empty (FMEval would count an empty fact as found in every response)"
    if empty_parts(fact):
        return (
            f"the fact {fact!r} has an empty {OR}/{AND} part (FMEval would count the empty part as "
            "found in every response)"
        )
    return ""


def quasi_not_scored_reason(fact: str) -> str:
    """Why quasi-exact Factual Knowledge is not scored against ``fact``, or ``""``.

    Beyond :func:`fact_not_scored_reason`: a part that quasi-exact normalisation empties
    (only articles, punctuation and spaces, such as ``"."`` or ``"the"``) is found in every
    normalised response, as FMEval's ``"" in text`` is always true. Exact inclusion of such a
    part is still a real test, so the exact score stays.
    """
    reason = fact_not_scored_reason(fact)
    if reason:
        return reason
    hollow = [p.strip() for g in fact_groups(fact) for p in g if not normalise(p.strip())]
    if hollow:
        return (
            f"fact part {hollow[0]!r} is empty after quasi-exact normalisation (only articles, "
            "punctuation or spaces), so it would be found in every response"
        )
    return ""


# -- adding an alternative -----------------------------------------------------------------


def fact_with_variant(fact: str, variant: str, *, and_group: bool = False) -> str | None:
    """``fact`` with ``<OR>variant`` appended, or ``None`` when an identical alternative exists.

    The variant is stripped of surrounding whitespace; an empty variant or one holding an
    operator is refused. With ``and_group`` the variant may be one whole ``<AND>`` group (the
    fact-variant generator's variant of an ``<AND>`` fact keeps the other parts, so a response
    must still contain all of them); ``<OR>`` is always refused and no part may be empty.
    Alternatives are compared as Factual Knowledge compares text (ignoring case and surrounding
    spaces). An empty fact simply becomes the variant, since ``<OR>`` after nothing would add
    an empty part that matches every response.
    """
    text = variant.strip()
    if not text:
        raise ValueError("a fact variant cannot be empty")
    parts = text.split(AND) if and_group else [text]
    if OR.lower() in text.lower() or any(AND.lower() in p.lower() for p in parts):
        allowed = f"{OR} or a lower-case {AND}" if and_group else f"{OR} or {AND}"
        raise ValueError(f"a fact variant cannot contain {allowed}: add one alternative at a time")
    if any(not p.strip() for p in parts):
        raise ValueError(f"a fact variant cannot have an empty {AND} part")
    if not fact.strip():
        return text
    alternatives = {AND.join(p.strip() for p in group).lower() for group in fact_groups(fact)}
    if AND.join(p.strip() for p in parts).lower() in alternatives:
        return None
    return f"{fact}{OR}{text}"

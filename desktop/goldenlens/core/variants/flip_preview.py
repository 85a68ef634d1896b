"""Flip preview: what adding a fact variant would do to the project's Factual Knowledge scores.

Pure over plain data — the suggestion, the question's current fact and every response of the
project with its stored scores. Scores come from the real scorer
(:class:`~goldenlens.core.lexical.scorer.LexicalScorer`, so not-scored facts stay not scored), before
and after the variant is added with :func:`~goldenlens.core.lexical.factual_knowledge.fact_with_variant`:

- **flips**: responses to the question whose exact or quasi-exact score changes. Adding an
  ``<OR>`` alternative can only raise a score, so every flip is 0 → 1; the preview still
  compares both ways and would show a 1 → 0 (it would be a bug, and a test checks there is
  none, for ``<AND>`` groups too).
- **elsewhere**: responses to *other* questions that contain the variant — it would match
  there if it were their fact, which is how a variant that is too generic shows itself (a
  year, a short number). Counted, with a few examples.

:class:`PreviewRow` is one table row (question, pipeline, before → after, snippet, risk),
shaped for the variant dialog and the CLI alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from goldenlens.core.lexical.fact_index import ResponseIndex
from goldenlens.core.lexical.factual_knowledge import (
    FactMatcher,
    FactResult,
    fact_with_variant,
    quasi_not_scored_reason,
)
from goldenlens.core.lexical.scorer import (
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    LexicalResult,
    LexicalScorer,
)
from goldenlens.core.variants.flip_preview_sizes import ELSEWHERE_EXAMPLES, SNIPPET_CONTEXT
from goldenlens.core.variants.generator import FactVariant, VariantSuggestions


@dataclass(frozen=True)
class ScoredResponse:
    """A response of the project with its stored Factual Knowledge scores (``None``: not
    scored, or the project has no finished lexical run)."""

    question_id: str
    pipeline: str
    response: str
    exact: float | None = None
    quasi_exact: float | None = None


class RowKind(StrEnum):
    FLIP = "flip"  # a response to this question whose score the variant changes
    ELSEWHERE = "elsewhere"  # a response to another question that contains the variant


@dataclass(frozen=True)
class PreviewRow:
    """One row of the preview table.

    For a flip, ``before``/``after`` are the scores of this question's fact without and with
    the variant; ``stored`` is the run's stored exact score when it differs from ``before``
    (the run is out of date), else ``None``. For an elsewhere row ``before`` is that
    question's stored scores and ``after`` is empty.
    """

    kind: RowKind
    question_id: str
    pipeline: str
    before: tuple[float | None, float | None]
    after: tuple[float | None, float | None] | None
    snippet: str
    risk: str = ""
    stored: tuple[float | None, float | None] | None = None

    def change(self) -> str:
        """``exact 0 → 1, quasi 0 → 1`` (only the scores that change), or ``—``."""
        if self.after is None:
            return "—"
        names = ("exact", "quasi")
        shown = [
            f"{name} {_number(b)} → {_number(a)}"
            for name, b, a in zip(names, self.before, self.after, strict=True)
            if a != b
        ]
        return ", ".join(shown) or "no change"

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "question_id": self.question_id,
            "pipeline": self.pipeline,
            FACTUAL_KNOWLEDGE: _pair(self.before[0], None if self.after is None else self.after[0]),
            FACTUAL_KNOWLEDGE_QUASI_EXACT: _pair(
                self.before[1], None if self.after is None else self.after[1]
            ),
            "change": self.change(),
            "snippet": self.snippet,
            "risk": self.risk,
            "stored": None if self.stored is None else list(self.stored),
        }


def _pair(before: float | None, after: float | None) -> dict[str, float | None]:
    return {"before": before, "after": after}


def _number(value: float | None) -> str:
    return "not scored" if value is None else f"{value:g}"


@dataclass(frozen=True)
class VariantPreview:
    """What one suggestion would do. ``fact_after`` is ``None`` when the fact already has
    the alternative (nothing to add); ``elsewhere_count`` counts every response of another
    question containing the variant (``rows`` holds a few of them)."""

    variant: FactVariant
    question_id: str
    fact_before: str
    fact_after: str | None
    rows: tuple[PreviewRow, ...]
    elsewhere_count: int
    note: str = ""

    @property
    def flips(self) -> tuple[PreviewRow, ...]:
        return tuple(r for r in self.rows if r.kind is RowKind.FLIP)

    @property
    def flips_up(self) -> int:
        """Responses whose exact or quasi-exact score rises (0 → 1)."""
        return sum(1 for r in self.flips if r.after and _rises(r.before, r.after))

    @property
    def flips_down(self) -> int:
        """Responses whose exact or quasi-exact score falls; always 0 when adding an ``<OR>``."""
        return sum(1 for r in self.flips if r.after and _rises(r.after, r.before))

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant.as_dict(),
            "question_id": self.question_id,
            "fact_before": self.fact_before,
            "fact_after": self.fact_after,
            "flips_up": self.flips_up,
            "flips_down": self.flips_down,
            "elsewhere_count": self.elsewhere_count,
            "note": self.note,
            "rows": [r.as_dict() for r in self.rows],
        }


def _rises(low: tuple[float | None, float | None], high: tuple[float | None, float | None]) -> bool:
    return any(a is not None and b is not None and b > a for a, b in zip(low, high, strict=True))


@dataclass(frozen=True)
class QuestionPreview:
    """The suggestions for one question's fact and the preview of each."""

    question_id: str
    fact: str
    suggestions: VariantSuggestions
    previews: tuple[VariantPreview, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "question_id": self.question_id,
            "fact": self.fact,
            "notes": list(self.suggestions.notes),
            "previews": [p.as_dict() for p in self.previews],
        }


def snippet(response: str, start: int, end: int, context: int = SNIPPET_CONTEXT) -> str:
    """``…text around [start, end)…`` on one line, the match marked with ``[[ ]]``."""
    left = max(0, start - context)
    right = min(len(response), end + context)
    text = (
        ("…" if left else "")
        + response[left:start]
        + "[["
        + response[start:end]
        + "]]"
        + response[end:right]
        + ("…" if right < len(response) else "")
    )
    return " ".join(text.split())


def _match_snippet(result: FactResult, response: str) -> str:
    if result.matches:
        return snippet(response, result.matches[0].start, result.matches[-1].end)
    return snippet(response, 0, 0, 2 * SNIPPET_CONTEXT).replace("[[]]", "", 1)


def _fk(result: LexicalResult) -> tuple[float | None, float | None]:
    return (result.scores[FACTUAL_KNOWLEDGE], result.scores[FACTUAL_KNOWLEDGE_QUASI_EXACT])


def preview_variant(
    variant: FactVariant,
    question_id: str,
    fact: str,
    responses: Sequence[ScoredResponse],
    *,
    examples: int = ELSEWHERE_EXAMPLES,
    scorer: LexicalScorer | None = None,
    index: ResponseIndex | None = None,
) -> VariantPreview:
    """The flips and the elsewhere matches of adding ``variant`` to ``question_id``'s ``fact``.

    ``index`` is a :class:`ResponseIndex` of ``responses`` (same order) when the caller
    previews several variants, so the responses are prepared once (:func:`preview_question`).
    """
    scorer = scorer or LexicalScorer()
    fact_after = fact_with_variant(fact, variant.text, and_group=variant.and_group)
    if variant.and_group:
        note = "an <AND> alternative: a response must contain every part of it"
    else:
        note = "adding an <OR> alternative can only raise a score: no response goes from 1 to 0"
    rows: list[PreviewRow] = []
    if fact_after is None:
        note = "the fact already has this alternative: nothing would change"
    else:
        for r in responses:
            if r.question_id != question_id:
                continue
            before = _fk(scorer.score(r.response, "", fact, with_alignment=False))
            result = scorer.score(r.response, "", fact_after, with_alignment=True)
            after = _fk(result)
            if after == before:
                continue
            stored = (r.exact, r.quasi_exact)
            differs = r.exact is not None and stored != before
            risk = "; ".join(variant.risks)
            rows.append(
                PreviewRow(
                    RowKind.FLIP,
                    r.question_id,
                    r.pipeline,
                    before,
                    after,
                    _match_snippet(result.fact, r.response),
                    risk,
                    stored if differs else None,
                )
            )
    matcher = FactMatcher(variant.text)
    exact_hits, quasi_hits = (index or ResponseIndex([r.response for r in responses])).matching(variant.text)
    # A part that normalisation empties is "in" every normalised response: not a match.
    if quasi_not_scored_reason(variant.text):
        quasi_hits = set()
    others = [i for i in sorted(exact_hits | quasi_hits) if responses[i].question_id != question_id]
    elsewhere = len(others)
    for i in others[: max(0, examples)]:
        r = responses[i]
        how = "exact" if i in exact_hits else "quasi-exact"
        rows.append(
            PreviewRow(
                RowKind.ELSEWHERE,
                r.question_id,
                r.pipeline,
                (r.exact, r.quasi_exact),
                None,
                _match_snippet(matcher.match(r.response), r.response),
                f"contains the variant ({how}) but answers {r.question_id}",
            )
        )
    return VariantPreview(variant, question_id, fact, fact_after, tuple(rows), elsewhere, note)


def preview_question(
    question_id: str,
    fact: str,
    responses: Sequence[ScoredResponse],
    suggestions: VariantSuggestions,
    *,
    examples: int = ELSEWHERE_EXAMPLES,
    each: Callable[[int, int], None] | None = None,
) -> QuestionPreview:
    """:func:`preview_variant` for every suggestion (one scorer: each fact is prepared once).

    ``each(done, total)`` is called before each suggestion and once at the end (a job reports
    progress there, and may raise to stop: a large project takes seconds)."""
    scorer = LexicalScorer()
    index = ResponseIndex([r.response for r in responses] if suggestions.variants else [])
    total = len(suggestions.variants)
    previews: list[VariantPreview] = []
    for done, v in enumerate(suggestions.variants):
        if each is not None:
            each(done, total)
        previews.append(
            preview_variant(v, question_id, fact, responses, examples=examples, scorer=scorer, index=index)
        )
    if each is not None:
        each(total, total)
    return QuestionPreview(question_id, fact, suggestions, tuple(previews))

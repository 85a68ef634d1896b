"""Scored rows and their aggregation: the Qt-free content of every table, chart and export."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from goldenlens.core.flags import Flag, FlagThresholds, golden_flags, response_flags
from goldenlens.core.lexical import (
    FACTUAL_KNOWLEDGE,
    LEXICAL_SCORE_NAMES,
    LexicalResult,
    LexicalScorer,
    derive_spans,
)
from goldenlens.core.model import GoldenItem, PipelineResponse, Problem
from goldenlens.core.review import AppliedOverride, QuestionReview
from goldenlens.core.signature import Signature, lexical_signature


@dataclass(frozen=True)
class ScoredRow:
    """One (golden question, pipeline) pair with its lexical result, flags and the reviewer's
    overrides in force (by metric; lexical and judge metrics alike).

    ``scores`` are the effective lexical scores — what every table, mean and export shows —
    and ``result.scores`` the scores as computed. Flags stay those of the computed scores:
    they explain what the automatic scoring saw.
    """

    item: GoldenItem
    response: PipelineResponse
    result: LexicalResult
    flags: tuple[Flag, ...] = ()
    overrides: Mapping[str, AppliedOverride] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return (self.item.id, self.response.pipeline)

    @cached_property
    def scores(self) -> dict[str, float | None]:
        """The effective lexical scores: the reviewer's overrides applied, ``None`` where not
        scored and not overridden (``result.reasons`` says why)."""
        lexical = {m: o.value for m, o in self.overrides.items() if m in LEXICAL_SCORE_NAMES}
        return {**self.result.scores, **lexical} if lexical else self.result.scores

    @cached_property
    def explained(self) -> LexicalResult:
        """``result`` with the token alignment and fact spans, worked out on first use from the
        texts and the run's counting mode (:func:`goldenlens.core.lexical.derive_spans`)."""
        return derive_spans(self.result, self.response.response, self.item.answer, self.item.fact)

    def is_overridden(self, metric: str) -> bool:
        return metric in self.overrides


@dataclass(frozen=True)
class Report:
    """Everything a report shows: golden items, pipelines, scored rows, flags and problems."""

    golden: tuple[GoldenItem, ...]
    pipelines: tuple[str, ...]
    rows: tuple[ScoredRow, ...]
    golden_flags: Mapping[str, tuple[Flag, ...]] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
    signatures: Mapping[str, Signature] = field(default_factory=dict)
    thresholds: FlagThresholds = field(default_factory=FlagThresholds)
    reviews: Mapping[str, QuestionReview] = field(default_factory=dict)

    def review(self, question_id: str) -> QuestionReview:
        """The review state of a question (``unreviewed`` when nobody reviewed it)."""
        return self.reviews.get(question_id) or QuestionReview()

    def override_counts(self) -> dict[str, dict[str, int]]:
        """How many values a reviewer overrode, per pipeline (report order) and metric."""
        return override_counts(self.rows, self.pipelines)

    def row(self, question_id: str, pipeline: str) -> ScoredRow | None:
        for r in self.rows:
            if r.key == (question_id, pipeline):
                return r
        return None

    def summary(self, score_names: Sequence[str] = LEXICAL_SCORE_NAMES) -> dict[str, dict[str, float | None]]:
        """Mean of each effective score (reviewer overrides applied) per pipeline over its scored
        rows, in report order; without overrides or unscored values exactly FMEval's aggregate."""
        return summarise(self.rows, self.pipelines, score_names)

    def fact_matrix(self) -> dict[str, dict[str, float | None]]:
        """The Factual Knowledge Report: question id → pipeline → exact FK (``None`` if no
        response, or not scored: :meth:`row` tells the two apart, ``None`` for no response)."""
        matrix: dict[str, dict[str, float | None]] = {
            item.id: dict.fromkeys(self.pipelines) for item in self.golden
        }
        for r in self.rows:
            matrix[r.item.id][r.response.pipeline] = r.scores[FACTUAL_KNOWLEDGE]
        return matrix


def summarise(
    rows: Iterable[ScoredRow], pipelines: Sequence[str], score_names: Sequence[str] = LEXICAL_SCORE_NAMES
) -> dict[str, dict[str, float | None]]:
    """Mean of each score per pipeline, as FMEval aggregates (plain mean over rows).

    Not-scored values (``None``) are left out of their metric's mean; a metric with no scored
    row has mean ``None``. With every row scored this is exactly FMEval's mean; a pipeline with
    no rows keeps 0.0 as before.
    """
    sums: dict[str, dict[str, float]] = {p: dict.fromkeys(score_names, 0.0) for p in pipelines}
    counts: dict[str, dict[str, int]] = {p: dict.fromkeys(score_names, 0) for p in pipelines}
    rows_of: dict[str, int] = dict.fromkeys(pipelines, 0)
    for r in rows:
        p = r.response.pipeline
        rows_of[p] = rows_of.get(p, 0) + 1
        target = sums.setdefault(p, dict.fromkeys(score_names, 0.0))
        counted = counts.setdefault(p, dict.fromkeys(score_names, 0))
        for name in score_names:
            value = r.scores[name]
            if value is not None:
                target[name] += value
                counted[name] += 1
    return {p: {n: _mean(v, counts[p][n], rows_of[p]) for n, v in s.items()} for p, s in sums.items()}


def _mean(total: float, scored: int, rows: int) -> float | None:
    if scored:
        return total / scored
    return None if rows else 0.0


def override_counts(rows: Iterable[ScoredRow], pipelines: Sequence[str]) -> dict[str, dict[str, int]]:
    """Overridden values per pipeline and metric; every pipeline appears, metrics only when
    overridden at least once."""
    counts: dict[str, dict[str, int]] = {p: {} for p in pipelines}
    for r in rows:
        target = counts.setdefault(r.response.pipeline, {})
        for metric in r.overrides:
            target[metric] = target.get(metric, 0) + 1
    return counts


def score_all(
    golden: Sequence[GoldenItem],
    responses: Sequence[PipelineResponse],
    pipelines: Sequence[str],
    *,
    multiset: bool = False,
    thresholds: FlagThresholds | None = None,
    with_alignment: bool = True,
    problems: Sequence[Problem] = (),
) -> Report:
    """Score every response in memory and build the :class:`Report` (no store involved)."""
    t = thresholds or FlagThresholds()
    scorer = LexicalScorer(multiset=multiset)
    by_id = {item.id: item for item in golden}
    rows: list[ScoredRow] = []
    for resp in responses:
        item = by_id[resp.question_id]
        result = scorer.score(resp.response, item.answer, item.fact, with_alignment=with_alignment)
        rows.append(ScoredRow(item, resp, result, tuple(response_flags(resp.response, result.scores, t))))
    return Report(
        golden=tuple(golden),
        pipelines=tuple(pipelines),
        rows=tuple(rows),
        golden_flags=golden_flags_for(golden, rows, t),
        problems=tuple(problems),
        signatures={n: lexical_signature(n, scorer.params()) for n in LEXICAL_SCORE_NAMES},
        thresholds=t,
    )


def golden_flags_for(
    golden: Sequence[GoldenItem], rows: Iterable[ScoredRow], thresholds: FlagThresholds
) -> dict[str, tuple[Flag, ...]]:
    """Per golden row flags, from the exact FK score of each of its responses."""
    found: dict[str, list[float]] = {item.id: [] for item in golden}
    for r in rows:
        value = r.scores[FACTUAL_KNOWLEDGE]
        if value is not None:  # a not-scored fact says nothing about the question
            found.setdefault(r.item.id, []).append(value)
    return {
        item.id: tuple(golden_flags(item.answer, item.fact, found[item.id], thresholds)) for item in golden
    }

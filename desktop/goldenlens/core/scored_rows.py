"""Scored rows and their aggregation: the Qt-free content of every table, chart and export."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.factual_knowledge import FactResult
from goldenlens.core.lexical.flags import Flag, FlagThresholds, golden_flags, response_flags
from goldenlens.core.lexical.scorer import (
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    LEXICAL_SCORE_NAMES,
    LexicalResult,
    LexicalScorer,
    derive_spans,
)
from goldenlens.core.lexical.signature import Signature, lexical_signature
from goldenlens.core.problems import Problem
from goldenlens.core.reviewer_decisions import AppliedOverride, QuestionReview

if TYPE_CHECKING:
    from goldenlens.core.calibration.human_calibrated import HumanCalibrated
    from goldenlens.core.calibration.labels import LabelRecord
    from goldenlens.core.stats.decision import Decision


@dataclass(frozen=True)
class ScoredRow:
    """One (golden question, pipeline) pair with its lexical result, flags and the reviewer's
    overrides in force (by metric; lexical and judge metrics alike).

    ``scores`` are the effective lexical scores — what every table, mean and export shows —
    and ``result.scores`` the scores as computed. ``flags`` are those in force: a report read
    from a project derives a response's flags again when a reviewer overrode a score they read
    (:func:`~goldenlens.core.lexical.flags.response_flags_in_force`), as the grid and the question's
    detail show them. The advisor reads ``result.scores``: it diagnoses what the automatic
    scoring saw, which is what a golden-set fix changes.
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
        return effective_scores(self.result.scores, self.overrides)

    @cached_property
    def explained(self) -> LexicalResult:
        """``result`` with the token alignment and fact spans, worked out on first use from the
        texts and the run's counting mode (:func:`goldenlens.core.lexical.scorer.derive_spans`)."""
        return derive_spans(self.result, self.response.response, self.item.answer, self.item.fact)

    def is_overridden(self, metric: str) -> bool:
        return metric in self.overrides


def effective_scores(
    scores: dict[str, float | None], overrides: Mapping[str, AppliedOverride]
) -> dict[str, float | None]:
    """``scores`` with the reviewer's lexical overrides in force applied (``scores`` itself when
    there are none)."""
    lexical = {m: o.value for m, o in overrides.items() if m in LEXICAL_SCORE_NAMES}
    return {**scores, **lexical} if lexical else scores


def row_from_scores(
    item: GoldenItem,
    response: PipelineResponse,
    scores: dict[str, float | None],
    *,
    reasons: Mapping[str, str],
    params: dict[str, object],
    flags: tuple[Flag, ...] = (),
    overrides: Mapping[str, AppliedOverride] | None = None,
) -> ScoredRow:
    """A row from its seven stored values (``None``: not scored, with ``reasons[metric]``
    saying why), as a run keeps them: no alignment (derived when shown), and the fact result
    rebuilt from the two Factual Knowledge values."""
    why = {name: reasons.get(name, "") for name in LEXICAL_SCORE_NAMES if scores[name] is None}
    fact = FactResult(scores[FACTUAL_KNOWLEDGE] or 0.0, scores[FACTUAL_KNOWLEDGE_QUASI_EXACT] or 0.0)
    return ScoredRow(item, response, LexicalResult(scores, fact, None, params, why), flags, overrides or {})


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
    #: The golden-set version the run scored (``v3 "curated"``); empty when not known.
    golden_version: str = ""
    #: What reviewers would judge (a project's report; ``None`` when scored without one).
    human_calibrated: HumanCalibrated | None = None
    #: The pipeline every other is compared with beyond a handful of pipelines (``--baseline``).
    baseline: str | None = None
    #: The reviewer's verdict in force per ``(question_id, pipeline)`` (``correct``,
    #: ``incorrect`` or ``unsure``; responses without one are left out).
    labels: Mapping[tuple[str, str], str] = field(default_factory=dict)
    #: The label record behind each verdict in ``labels`` (who gave it, their note, when).
    label_records: Mapping[tuple[str, str], LabelRecord] = field(default_factory=dict)

    def review(self, question_id: str) -> QuestionReview:
        """The review state of a question (``unreviewed`` when nobody reviewed it)."""
        return self.reviews.get(question_id) or QuestionReview()

    def override_counts(self) -> dict[str, dict[str, int]]:
        """How many values a reviewer overrode, per pipeline (report order) and metric."""
        return override_counts(self.rows, self.pipelines)

    def response_counts(self) -> dict[str, int]:
        """How many responses each pipeline gave, in report order (0 where it gave none)."""
        counts = dict.fromkeys(self.pipelines, 0)
        for row in self.rows:
            counts[row.response.pipeline] = counts.get(row.response.pipeline, 0) + 1
        return counts

    def row(self, question_id: str, pipeline: str) -> ScoredRow | None:
        for r in self.rows:
            if r.key == (question_id, pipeline):
                return r
        return None

    def summary(self, score_names: Sequence[str] = LEXICAL_SCORE_NAMES) -> dict[str, dict[str, float | None]]:
        """Mean of each effective score (reviewer overrides applied) per pipeline over its scored
        rows, in report order; without overrides or unscored values exactly FMEval's aggregate."""
        return summarise(self.rows, self.pipelines, score_names)

    def decision(self) -> Decision:
        """Means and pass rates with bootstrap intervals and every pair's paired comparison of
        the effective lexical scores (:func:`goldenlens.core.stats.decide.decide`, default settings),
        worked out on first use and kept: what the JSON ``comparisons``, the workbook and the
        Summary tab show."""
        return self._decision

    @cached_property
    def _decision(self) -> Decision:
        from goldenlens.core.stats.decide import decide  # numpy: only for reports that show it

        return decide(decision_rows(self.rows), self.pipelines, baseline=self.baseline)

    def fact_matrix(self) -> dict[str, dict[str, float | None]]:
        """The Factual Knowledge Report: question id → pipeline → exact FK (``None`` if no
        response, or not scored: :meth:`row` tells the two apart, ``None`` for no response)."""
        matrix: dict[str, dict[str, float | None]] = {
            item.id: dict.fromkeys(self.pipelines) for item in self.golden
        }
        for r in self.rows:
            matrix[r.item.id][r.response.pipeline] = r.scores[FACTUAL_KNOWLEDGE]
        return matrix


def decision_rows(rows: Iterable[ScoredRow]) -> Iterator[tuple[str, str, list[float | None]]]:
    """``(question_id, pipeline, effective lexical scores)`` of each row, the input of
    :func:`goldenlens.core.stats.decide.decide`."""
    for r in rows:
        scores = r.scores
        yield r.item.id, r.response.pipeline, [scores[name] for name in LEXICAL_SCORE_NAMES]


def summarise(
    rows: Iterable[ScoredRow], pipelines: Sequence[str], score_names: Sequence[str] = LEXICAL_SCORE_NAMES
) -> dict[str, dict[str, float | None]]:
    """Mean of each effective score per pipeline (:func:`summarise_values` of the rows)."""
    pairs = ((r.response.pipeline, [r.scores[name] for name in score_names]) for r in rows)
    return summarise_values(pairs, pipelines, score_names)


def summarise_values(
    rows: Iterable[tuple[str, Sequence[float | None]]],
    pipelines: Sequence[str],
    score_names: Sequence[str] = LEXICAL_SCORE_NAMES,
) -> dict[str, dict[str, float | None]]:
    """Mean of each score per pipeline, as FMEval aggregates (plain mean over rows), from
    ``(pipeline, values in score_names order)`` in report order (:func:`summarise_columns` of
    :func:`score_columns`).

    Not-scored values (``None``) are left out of their metric's mean; a metric with no scored
    row has mean ``None``. With every row scored this is exactly FMEval's mean; a pipeline with
    no rows keeps 0.0 as before.
    """
    return summarise_columns(score_columns(rows, pipelines, len(score_names)), score_names)


#: Per pipeline: its number of rows, and each score's scored values (the not-scored ones left
#: out) in report order.
ScoreColumns = dict[str, tuple[int, list[list[float]]]]


def score_columns(
    rows: Iterable[tuple[str, Sequence[float | None]]], pipelines: Sequence[str], width: int
) -> ScoreColumns:
    """The :data:`ScoreColumns` of ``(pipeline, values)`` rows; every pipeline of ``pipelines``
    appears, in that order, then any other in first-seen order."""
    by_pipeline: dict[str, list[Sequence[float | None]]] = {p: [] for p in pipelines}
    for pipeline, values in rows:
        by_pipeline.setdefault(pipeline, []).append(values)
    columns: ScoreColumns = {}
    for pipeline, rows_of in by_pipeline.items():
        transposed = list(zip(*rows_of, strict=True)) if rows_of else [() for _ in range(width)]
        columns[pipeline] = (
            len(rows_of),
            [
                list(column) if None not in column else [v for v in column if v is not None]
                for column in transposed
            ],
        )
    return columns


def extend_columns(into: ScoreColumns, more: ScoreColumns) -> None:
    """Append ``more`` (the next rows in report order) to ``into``."""
    for pipeline, (count, lists) in more.items():
        found = into.get(pipeline)
        if found is None:
            into[pipeline] = (count, [list(values) for values in lists])
            continue
        into[pipeline] = (found[0] + count, found[1])
        for target, values in zip(found[1], lists, strict=True):
            target.extend(values)


def summarise_columns(
    columns: ScoreColumns, score_names: Sequence[str] = LEXICAL_SCORE_NAMES
) -> dict[str, dict[str, float | None]]:
    """Mean of each score per pipeline. Each sum adds its values in report order (``sum``), so
    the means are the same to the last bit however the rows were scored and collected."""
    return {
        pipeline: {
            name: _mean(sum(values), len(values), count)
            for name, values in zip(score_names, lists, strict=True)
        }
        for pipeline, (count, lists) in columns.items()
    }


def _mean(total: float, scored: int, rows: int) -> float | None:
    if scored:
        return total / scored
    return None if rows else 0.0


def override_counts(rows: Iterable[ScoredRow], pipelines: Sequence[str]) -> dict[str, dict[str, int]]:
    """Overridden values per pipeline and metric; every pipeline appears, metrics only when
    overridden at least once."""
    return count_overrides(((r.response.pipeline, r.overrides) for r in rows), pipelines)


def count_overrides(
    rows: Iterable[tuple[str, Mapping[str, AppliedOverride]]], pipelines: Sequence[str]
) -> dict[str, dict[str, int]]:
    """:func:`override_counts` of ``(pipeline, overrides in force)`` per row."""
    counts: dict[str, dict[str, int]] = {p: {} for p in pipelines}
    for pipeline, overrides in rows:
        target = counts.setdefault(pipeline, {})
        for metric in overrides:
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

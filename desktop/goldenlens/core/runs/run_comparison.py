"""Two scoring runs side by side: which scores went up, which went down, by how much.

Pure: the jobs layer reads both runs' scores from the store and hands them here as
``{(question_id, pipeline, metric): value}`` (``None``: not scored). Every metric GoldenLens
scores reads "higher is better" (the lexical ones and the judge's), so a higher value in the
head run is *improved* and a lower one *regressed*.

What is compared, and what is not:

* A cell (question, pipeline, metric) is compared only when the run pair both hold it. A
  cell one run did not score (``None``) is ``not_scored``, never counted as a change: a
  number the runs do not both have cannot have moved.
* Questions, pipelines and metrics that only one run has are listed as such and left out of
  every count and mean, so a mean change is always over the same questions in both runs.
* Two scores within :data:`TOLERANCE` are ``unchanged``: the stored values are floats, and
  the same text scored twice must not read as a change.

The mean change of a pipeline and metric is the mean of the paired differences (head minus
base) over the questions scored in both runs; it therefore equals ``mean_after -
mean_before`` over those questions, which may differ from a run's own mean over all of its
questions. ``mean_change_interval`` is the paired bootstrap interval of that mean
(:mod:`goldenlens.core.stats.bootstrap`), filled in by
:func:`goldenlens.jobs.reporting.run_history.change_intervals`
for every comparison a project makes; ``None`` where no question was scored in both runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from math import fsum
from typing import Any, Final

from goldenlens.core.record_dicts import record_dict

IMPROVED: Final = "improved"
REGRESSED: Final = "regressed"
UNCHANGED: Final = "unchanged"
NOT_SCORED: Final = "not_scored"
#: Every change a cell can show, in the order counts are listed.
CHANGES: Final = (IMPROVED, REGRESSED, UNCHANGED, NOT_SCORED)

#: Scores closer than this are the same score (floats stored and read back).
TOLERANCE: Final = 1e-9

#: ``(question_id, pipeline, metric)``
ScoreKey = tuple[str, str, str]
Scores = Mapping[ScoreKey, float | None]


def classify(before: float | None, after: float | None, tolerance: float = TOLERANCE) -> str:
    """The change from ``before`` to ``after``: improved, regressed, unchanged or not_scored."""
    if before is None or after is None:
        return NOT_SCORED
    if after - before > tolerance:
        return IMPROVED
    if before - after > tolerance:
        return REGRESSED
    return UNCHANGED


@dataclass(frozen=True, slots=True)
class CellChange:
    """One (question, pipeline, metric) in both runs: the score before (base) and after (head)."""

    question_id: str
    pipeline: str
    metric: str
    before: float | None
    after: float | None
    change: str

    @property
    def delta(self) -> float | None:
        """``after - before``; ``None`` when either run did not score the cell."""
        return None if self.before is None or self.after is None else self.after - self.before

    def as_dict(self) -> dict[str, Any]:
        return record_dict(self, delta=self.delta)


def _mean_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


@dataclass(frozen=True, slots=True)
class MetricChange:
    """Counts and means of one pipeline and metric over the questions both runs hold.

    ``paired`` is the number of questions scored in both runs; ``mean_before``,
    ``mean_after`` and ``mean_change`` are over those (``None`` when there are none).
    ``mean_change_interval`` is the paired bootstrap CI of ``mean_change`` when a caller
    filled it in (``(low, high, level)``), else ``None``.
    """

    pipeline: str
    metric: str
    improved: int
    regressed: int
    unchanged: int
    not_scored: int
    paired: int
    mean_before: float | None
    mean_after: float | None
    mean_change: float | None
    mean_change_interval: tuple[float, float, float] | None = None

    def means_text(self) -> str:
        """``0.500 → 0.750 (+0.250)``: the mean over the paired questions before and after."""
        change = "" if self.mean_change is None else f" ({self.mean_change:+.3f})"
        return f"{_mean_text(self.mean_before)} → {_mean_text(self.mean_after)}{change}"

    def count(self, change: str) -> int:
        """The number of cells with ``change`` (one of :data:`CHANGES`)."""
        return {
            IMPROVED: self.improved,
            REGRESSED: self.regressed,
            UNCHANGED: self.unchanged,
            NOT_SCORED: self.not_scored,
        }[change]

    def as_dict(self) -> dict[str, Any]:
        interval = self.mean_change_interval
        return {
            "pipeline": self.pipeline,
            "metric": self.metric,
            "improved": self.improved,
            "regressed": self.regressed,
            "unchanged": self.unchanged,
            "not_scored": self.not_scored,
            "paired_questions": self.paired,
            "mean_before": self.mean_before,
            "mean_after": self.mean_after,
            "mean_change": self.mean_change,
            "mean_change_interval": None
            if interval is None
            else {"low": interval[0], "high": interval[1], "level": interval[2]},
        }


@dataclass(frozen=True, slots=True)
class OnlyInOne:
    """What one run holds and the other does not: question ids, pipelines and metrics."""

    questions: tuple[str, ...] = ()
    pipelines: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "questions": list(self.questions),
            "pipelines": list(self.pipelines),
            "metrics": list(self.metrics),
        }


@dataclass(frozen=True)
class RunComparison:
    """Run ``head`` against run ``base``: every shared cell, and per pipeline and metric the
    counts and means. Questions and pipelines are in the order given (the golden set's and
    the project's), metrics sorted by the order given too."""

    base_run: int
    head_run: int
    questions: tuple[str, ...]
    pipelines: tuple[str, ...]
    metrics: tuple[str, ...]
    cells: tuple[CellChange, ...]
    summary: tuple[MetricChange, ...]
    only_in_base: OnlyInOne = field(default_factory=OnlyInOne)
    only_in_head: OnlyInOne = field(default_factory=OnlyInOne)

    def cell(self, question_id: str, pipeline: str, metric: str) -> CellChange | None:
        """The shared cell, or ``None`` when the runs do not both hold it."""
        return self._by_key().get((question_id, pipeline, metric))

    def _by_key(self) -> dict[ScoreKey, CellChange]:
        cached: dict[ScoreKey, CellChange] | None = self.__dict__.get("_index")
        if cached is None:
            cached = {(c.question_id, c.pipeline, c.metric): c for c in self.cells}
            object.__setattr__(self, "_index", cached)  # a cache; the value stays frozen
        return cached

    def metric_change(self, pipeline: str, metric: str) -> MetricChange | None:
        return next((m for m in self.summary if m.pipeline == pipeline and m.metric == metric), None)

    def paired_deltas(self, pipeline: str, metric: str) -> list[float]:
        """``after - before`` of each question both runs scored, in question order: the sample a
        paired bootstrap of the mean change resamples (see ``mean_change_interval``)."""
        return [
            c.after - c.before
            for c in self.cells
            if c.pipeline == pipeline and c.metric == metric and c.before is not None and c.after is not None
        ]

    def counts(self, metric: str | None = None) -> dict[str, int]:
        """Cells per change over every pipeline (of one metric, or all metrics)."""
        totals = dict.fromkeys(CHANGES, 0)
        for item in self.summary:
            if metric is None or item.metric == metric:
                for change in CHANGES:
                    totals[change] += item.count(change)
        return totals

    def with_intervals(
        self, intervals: Mapping[tuple[str, str], tuple[float, float, float]]
    ) -> RunComparison:
        """The same comparison with ``mean_change_interval`` filled in from
        ``{(pipeline, metric): (low, high, level)}`` (the bootstrap's hook)."""
        summary = tuple(
            replace(m, mean_change_interval=intervals.get((m.pipeline, m.metric), m.mean_change_interval))
            for m in self.summary
        )
        return replace(self, summary=summary)

    def as_dict(self) -> dict[str, Any]:
        return {
            "base_run": self.base_run,
            "head_run": self.head_run,
            "questions": list(self.questions),
            "pipelines": list(self.pipelines),
            "metrics": list(self.metrics),
            "counts": self.counts(),
            "summary": [m.as_dict() for m in self.summary],
            "only_in_base": self.only_in_base.as_dict(),
            "only_in_head": self.only_in_head.as_dict(),
            "cells": [c.as_dict() for c in self.cells],
        }


def _ordered(found: Iterable[str], order: Sequence[str]) -> tuple[str, ...]:
    """``found`` in ``order``; names ``order`` lacks follow, sorted."""
    present = set(found)
    known = [name for name in order if name in present]
    return (*known, *sorted(present - set(known)))


def _mean(values: Sequence[float]) -> float | None:
    # fsum: the mean of ten 0.1s is 0.1, not 0.09999999999999999
    return fsum(values) / len(values) if values else None


def compare_runs(
    base_run: int,
    base: Scores,
    head_run: int,
    head: Scores,
    *,
    question_order: Sequence[str] = (),
    pipeline_order: Sequence[str] = (),
    metric_order: Sequence[str] = (),
    tolerance: float = TOLERANCE,
) -> RunComparison:
    """Compare run ``head_run``'s scores ``head`` with run ``base_run``'s ``base``.

    The orders say how to list questions, pipelines and metrics; anything not in them follows,
    sorted. See the module docstring for what is compared and how.
    """

    def parts(scores: Scores) -> tuple[set[str], set[str], set[str]]:
        return {k[0] for k in scores}, {k[1] for k in scores}, {k[2] for k in scores}

    base_q, base_p, base_m = parts(base)
    head_q, head_p, head_m = parts(head)
    questions = _ordered(base_q & head_q, question_order)
    pipelines = _ordered(base_p & head_p, pipeline_order)
    metrics = _ordered(base_m & head_m, metric_order)
    cells: list[CellChange] = []
    summary: list[MetricChange] = []
    for pipeline in pipelines:
        for metric in metrics:
            counts = dict.fromkeys(CHANGES, 0)
            befores: list[float] = []
            afters: list[float] = []
            deltas: list[float] = []
            for question in questions:
                key = (question, pipeline, metric)
                if key not in base or key not in head:
                    continue  # a response one run did not have: not a shared cell
                before, after = base[key], head[key]
                change = classify(before, after, tolerance)
                counts[change] += 1
                cells.append(CellChange(question, pipeline, metric, before, after, change))
                if before is not None and after is not None:
                    befores.append(before)
                    afters.append(after)
                    deltas.append(after - before)
            summary.append(
                MetricChange(
                    pipeline,
                    metric,
                    counts[IMPROVED],
                    counts[REGRESSED],
                    counts[UNCHANGED],
                    counts[NOT_SCORED],
                    len(deltas),
                    _mean(befores),
                    _mean(afters),
                    _mean(deltas),
                )
            )
    # Cells listed question by question (the table's order), pipelines and metrics within.
    position = {q: i for i, q in enumerate(questions)}
    cells.sort(key=lambda c: position[c.question_id])
    return RunComparison(
        base_run,
        head_run,
        questions,
        pipelines,
        metrics,
        tuple(cells),
        tuple(summary),
        OnlyInOne(
            _ordered(base_q - head_q, question_order),
            _ordered(base_p - head_p, pipeline_order),
            _ordered(base_m - head_m, metric_order),
        ),
        OnlyInOne(
            _ordered(head_q - base_q, question_order),
            _ordered(head_p - base_p, pipeline_order),
            _ordered(head_m - base_m, metric_order),
        ),
    )

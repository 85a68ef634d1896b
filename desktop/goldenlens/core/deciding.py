"""Build a :class:`~goldenlens.core.decision.Decision` from per-question scores: every
pipeline's mean and pass rates with bootstrap intervals, every pair's paired difference with its
interval, McNemar's test on binary metrics, the verdict and its caveat.

Not-scored values (``None``) are left out, exactly as the means leave them out; a pair is
compared on the questions both pipelines have a scored value for (a pipeline missing a
question is not paired on it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt

from goldenlens.core.bootstrap import (
    NORMAL_FROM,
    Settings,
    Statistic,
    approximated,
    percentile_interval,
    resampled_means,
)
from goldenlens.core.decision import Decision, MetricEstimate, PairComparison, PassRate
from goldenlens.core.lexical import (
    EXACT_MATCH,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    LEXICAL_SCORE_NAMES,
    QUASI_EXACT_MATCH,
)
from goldenlens.core.mcnemar import mcnemar_exact
from goldenlens.core.pass_rates import pass_thresholds
from goldenlens.core.verdicts import caveat, verdict

#: Metrics whose values are 0 or 1 by definition: McNemar's test applies to them (when every
#: paired value is indeed 0 or 1, a reviewer's override may not be).
BINARY_METRICS: Final = frozenset(
    {FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT, EXACT_MATCH, QUASI_EXACT_MATCH}
)

#: ``(question_id, pipeline, values in metric order)``; ``None``: not scored.
ScoreRow = tuple[str, str, Sequence[float | None]]

_Interval = tuple[float, float]


@dataclass
class _QuestionSet:
    """Statistics over one set of questions, bootstrapped together (shared resamples)."""

    questions: npt.NDArray[np.intp]
    columns: list[npt.NDArray[np.float64]] = field(default_factory=list)
    column_of: dict[tuple[str, ...], int] = field(default_factory=dict)
    statistics: list[Statistic] = field(default_factory=list)

    def column(self, name: tuple[str, ...], values: npt.NDArray[np.float64]) -> int:
        if name not in self.column_of:
            self.column_of[name] = len(self.columns)
            self.columns.append(values[self.questions])
        return self.column_of[name]


class _Intervals:
    """Collects the statistics to bootstrap, grouped by question set, then computes them all."""

    def __init__(self, question_ids: Sequence[str], settings: Settings) -> None:
        self._ids = question_ids
        self._settings = settings
        self._sets: dict[bytes, _QuestionSet] = {}
        self._found: dict[str, _Interval] = {}
        #: Keys of the statistics given the normal form (:func:`approximated`).
        self.normal: list[str] = []

    def add(
        self,
        key: str,
        questions: npt.NDArray[np.intp],
        columns: Sequence[tuple[tuple[str, ...], npt.NDArray[np.float64]]],
        weights: tuple[int, ...] = (1,),
    ) -> None:
        found = self._sets.setdefault(questions.tobytes(), _QuestionSet(questions))
        index = tuple(found.column(name, values) for name, values in columns)
        found.statistics.append(Statistic(key, index, weights))

    def compute(self) -> None:
        for group in self._sets.values():
            ids = "\x1f".join(self._ids[q] for q in group.questions)
            set_key = hashlib.sha256(ids.encode("utf-8")).hexdigest()
            matrix = np.column_stack(group.columns)
            means = resampled_means(set_key, matrix, group.statistics, self._settings)
            for statistic, resampled in zip(group.statistics, means, strict=True):
                self._found[statistic.key] = percentile_interval(resampled, self._settings.level)
                if approximated(matrix, statistic):
                    self.normal.append(statistic.key)

    def get(self, key: str) -> _Interval:
        return self._found[key]


def decide(
    rows: Iterable[ScoreRow],
    pipelines: Sequence[str],
    metrics: Sequence[str] = LEXICAL_SCORE_NAMES,
    *,
    thresholds: Mapping[str, float] | None = None,
    settings: Settings | None = None,
) -> Decision:
    """The :class:`Decision` of ``rows`` (one per question and pipeline; a repeated key keeps
    its first row). Pipelines come in ``pipelines`` order, then any other in first-seen order;
    pairs ``(a, b)`` with ``a`` listed first. ``thresholds`` (default
    :data:`~goldenlens.core.pass_rates.DEFAULT_PASS_THRESHOLDS`) pick the pass rates."""
    chosen = settings or Settings()
    cuts = pass_thresholds(metrics, thresholds)
    position: dict[str, int] = {}
    answered: dict[str, dict[int, Sequence[float | None]]] = {p: {} for p in pipelines}
    for question_id, pipeline, values in rows:
        if len(values) != len(metrics):
            raise ValueError(f"{question_id}/{pipeline}: {len(values)} values for {len(metrics)} metrics")
        at = position.setdefault(question_id, len(position))
        answered.setdefault(pipeline, {}).setdefault(at, values)
    names = list(answered)
    question_ids = list(position)
    matrix = {p: _matrix(answered[p], len(question_ids), len(metrics)) for p in names}
    intervals = _Intervals(question_ids, chosen)
    for m, metric in enumerate(metrics):
        scored = {p: ~np.isnan(matrix[p][:, m]) for p in names}
        for p in names:
            column, where = matrix[p][:, m], np.flatnonzero(scored[p])
            if len(where):
                intervals.add(f"mean|{p}|{metric}", where, [((p, metric), column)])
                if metric in cuts:
                    passing = (column >= cuts[metric]).astype(np.float64)
                    intervals.add(f"pass|{p}|{metric}", where, [((p, metric, "pass"), passing)])
        for a, b in _pairs(names):
            where = np.flatnonzero(scored[a] & scored[b])
            if len(where):
                columns = [((a, metric), matrix[a][:, m]), ((b, metric), matrix[b][:, m])]
                intervals.add(f"diff|{a}|{b}|{metric}", where, columns, (1, -1))
    intervals.compute()
    return Decision(
        estimates=tuple(_estimates(names, metrics, answered, intervals)),
        pass_rates=tuple(_pass_rates(names, metrics, cuts, matrix, intervals)),
        comparisons=tuple(_comparisons(names, metrics, matrix, intervals, chosen.level)),
        level=chosen.level,
        resamples=chosen.resamples,
        seed=chosen.seed,
        thresholds=cuts,
        normal_approximation=tuple(intervals.normal),
        normal_from=NORMAL_FROM,
    )


def _pairs(names: Sequence[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


def _matrix(
    answered: Mapping[int, Sequence[float | None]], questions: int, width: int
) -> npt.NDArray[np.float64]:
    """Questions x metrics, NaN where the pipeline has no response or the value is not scored."""
    out = np.full((questions, width), np.nan)
    if answered:
        out[list(answered)] = np.array(list(answered.values()), dtype=np.float64)  # None -> NaN
    return out


def _mean(values: Sequence[float]) -> float:
    # ``sum`` over the values in report order: the summary's mean to the last bit.
    return sum(values) / len(values)


def _estimates(
    names: Sequence[str],
    metrics: Sequence[str],
    answered: Mapping[str, Mapping[int, Sequence[float | None]]],
    intervals: _Intervals,
) -> Iterable[MetricEstimate]:
    for p in names:
        in_order = list(answered[p].values())  # the order the rows came in, as the summary sums
        for m, metric in enumerate(metrics):
            values = [v for row in in_order if (v := row[m]) is not None]
            if not values:
                yield MetricEstimate(p, metric, None, None, None, 0)
                continue
            low, high = intervals.get(f"mean|{p}|{metric}")
            yield MetricEstimate(p, metric, _mean(values), low, high, len(values))


def _pass_rates(
    names: Sequence[str],
    metrics: Sequence[str],
    cuts: Mapping[str, float],
    matrix: Mapping[str, npt.NDArray[np.float64]],
    intervals: _Intervals,
) -> Iterable[PassRate]:
    for p in names:
        for metric, threshold in cuts.items():
            column = matrix[p][:, list(metrics).index(metric)]
            scored = column[~np.isnan(column)]
            if not len(scored):
                yield PassRate(p, metric, threshold, None, None, None, 0, 0)
                continue
            passed = int(np.count_nonzero(scored >= threshold))
            low, high = intervals.get(f"pass|{p}|{metric}")
            yield PassRate(p, metric, threshold, passed / len(scored), low, high, passed, len(scored))


def _comparisons(
    names: Sequence[str],
    metrics: Sequence[str],
    matrix: Mapping[str, npt.NDArray[np.float64]],
    intervals: _Intervals,
    level: float,
) -> Iterable[PairComparison]:
    for a, b in _pairs(names):
        for m, metric in enumerate(metrics):
            first, second = matrix[a][:, m], matrix[b][:, m]
            both = ~np.isnan(first) & ~np.isnan(second)
            n = int(np.count_nonzero(both))
            difference = low = high = p_value = None
            a_only = b_only = None
            if n:
                x, y = first[both], second[both]
                difference = _mean(x.tolist()) - _mean(y.tolist())
                low, high = intervals.get(f"diff|{a}|{b}|{metric}")
                if metric in BINARY_METRICS and np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all():
                    a_only = int(np.count_nonzero((x == 1.0) & (y == 0.0)))
                    b_only = int(np.count_nonzero((x == 0.0) & (y == 1.0)))
                    p_value = mcnemar_exact(a_only, b_only)
            better, text = verdict(
                metric, a, b, difference=difference, low=low, high=high, n=n, p_value=p_value, level=level
            )
            why = caveat(n=n, low=low, high=high, p_value=p_value, a_only=a_only, b_only=b_only)
            yield PairComparison(
                metric, a, b, difference, low, high, n, p_value, a_only, b_only, better, text, why
            )

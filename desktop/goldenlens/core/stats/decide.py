"""Build a :class:`~goldenlens.core.stats.decision.Decision` from per-question scores: every
pipeline's mean and pass rates with bootstrap intervals, every pair's paired difference with its
interval, McNemar's test on binary metrics, the verdict and its caveat.

Not-scored values (``None``) are left out, exactly as the means leave them out; a pair is
compared on the questions both pipelines have a scored value for (a pipeline missing a
question is not paired on it).
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Final, TypeVar

import numpy as np
import numpy.typing as npt

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.stats.bootstrap import NORMAL_FROM, Settings, Statistic, bootstrap_intervals
from goldenlens.core.stats.decision import (
    ALL_PAIRS_UP_TO,
    LEADER_AND_BASELINE,
    Decision,
    MetricEstimate,
    PairComparison,
    PassRate,
    RankInterval,
    check_baseline,
)
from goldenlens.core.stats.mcnemar import mcnemar_exact
from goldenlens.core.stats.pass_rates import pass_thresholds
from goldenlens.core.stats.score_table import ScoreRow, ScoreTable, score_table, tabulate
from goldenlens.core.stats.simultaneous import MetricField, metric_field, rank_intervals
from goldenlens.core.stats.verdicts import caveat, verdict
from goldenlens.core.view.metric_names import BINARY_METRICS

_Interval = tuple[float, float]
#: From this many questions on, the statistics are drawn on threads (numpy's generators draw
#: without the GIL): on two cores the draws take about a third less time, while a small decision
#: would only pay for starting them. The numbers do not depend on it. The pairs' McNemar tests
#: (integer arithmetic, which holds the GIL) run after the draws: beside them they would hold
#: up the drawing threads, which need the GIL between draws.
_THREADS_FROM: Final = 1_000
_THREADS: Final = 4
_T = TypeVar("_T")


FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass
class _QuestionSet:
    """Statistics over one set of questions, bootstrapped together (shared resamples)."""

    questions: npt.NDArray[np.intp]
    #: Every question of the decision: a column is taken whole, not copied by index.
    everyone: bool
    columns: list[FloatArray] = field(default_factory=list)
    column_of: dict[tuple[str, ...], int] = field(default_factory=dict)
    statistics: list[Statistic] = field(default_factory=list)

    def column(self, name: tuple[str, ...], values: FloatArray) -> int:
        if name not in self.column_of:
            self.column_of[name] = len(self.columns)
            self.columns.append(values if self.everyone else values[self.questions])
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
        scored: BoolArray,
        columns: Sequence[tuple[tuple[str, ...], FloatArray]],
        weights: tuple[int, ...] = (1,),
    ) -> None:
        """Add the statistic ``key`` over the questions ``scored`` marks (at least one)."""
        mask = scored.tobytes()
        found = self._sets.get(mask)
        if found is None:
            questions = np.flatnonzero(scored)
            found = self._sets[mask] = _QuestionSet(questions, len(questions) == len(scored))
        index = tuple(found.column(name, values) for name, values in columns)
        found.statistics.append(Statistic(key, index, weights))

    def compute(self, pool: Executor | None, *, exact_two_levels: bool = False) -> None:
        """Compute every interval; ``pool``: threads to draw them on (the same numbers);
        ``exact_two_levels``: see :func:`~goldenlens.core.stats.bootstrap.bootstrap_intervals`."""
        for group in self._sets.values():

            def set_key(group: _QuestionSet = group) -> str:
                ids = "\x1f".join([self._ids[q] for q in group.questions.tolist()])
                return hashlib.sha256(ids.encode("utf-8")).hexdigest()

            # Questions x columns in column-major order: each statistic reads whole columns.
            matrix = np.array(group.columns).T
            found = bootstrap_intervals(
                set_key,
                matrix,
                group.statistics,
                self._settings,
                pool=pool,
                exact_two_levels=exact_two_levels,
            )
            for statistic, interval in zip(group.statistics, found, strict=True):
                self._found[statistic.key] = (interval.low, interval.high)
                if interval.normal:
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
    baseline: str | None = None,
) -> Decision:
    """The :class:`Decision` of ``rows`` (one per question and pipeline; a repeated key keeps
    its first row). Pipelines come in ``pipelines`` order, then any other in first-seen order;
    pairs ``(a, b)`` with ``a`` listed first. ``thresholds`` (default
    :data:`~goldenlens.core.stats.pass_rates.DEFAULT_PASS_THRESHOLDS`) pick the pass rates.
    Beyond :data:`~goldenlens.core.stats.decision.ALL_PAIRS_UP_TO` pipelines each is compared
    with the leader and with ``baseline`` (when given) instead of every other."""
    table = tabulate(rows, pipelines, len(metrics))
    return _decision(table, metrics, thresholds, settings, baseline)


def decide_matrix(
    question_of: Sequence[str],
    pipeline_of: Sequence[str],
    values: FloatArray,
    pipelines: Sequence[str],
    metrics: Sequence[str] = LEXICAL_SCORE_NAMES,
    *,
    thresholds: Mapping[str, float] | None = None,
    settings: Settings | None = None,
    baseline: str | None = None,
) -> Decision:
    """:func:`decide` of rows given as columns: row ``n`` is question ``question_of[n]``,
    pipeline ``pipeline_of[n]`` and the values ``values[n]`` (rows x metrics, NaN where not
    scored: a value that is NaN itself cannot be told apart from one not scored, so this is
    for values that are never NaN, as lexical ones). What a run scored without a project hands
    over, with no tuple or float object made per row."""
    if values.shape != (len(question_of), len(metrics)) or len(pipeline_of) != len(question_of):
        raise ValueError(
            f"{values.shape} values for {len(question_of)} questions, {len(pipeline_of)} pipelines "
            f"and {len(metrics)} metrics"
        )
    table = score_table(
        question_of, pipeline_of, values, pipelines, lambda by_metric, _order: ~np.isnan(by_metric)
    )
    return _decision(table, metrics, thresholds, settings, baseline)


def _decision(
    table: ScoreTable,
    metrics: Sequence[str],
    thresholds: Mapping[str, float] | None,
    settings: Settings | None,
    baseline: str | None,
) -> Decision:
    chosen = settings or Settings()
    cuts = pass_thresholds(metrics, thresholds)
    names, values, scored = table.names, table.values, table.scored
    check_baseline(baseline, names)
    every_pair = len(names) <= ALL_PAIRS_UP_TO
    intervals = _Intervals(table.question_ids, chosen)
    for m, metric in enumerate(metrics):
        for i, p in enumerate(names):
            column, where = values[i, m], scored[i, m]
            if where.any():
                intervals.add(f"mean|{p}|{metric}", where, [((p, metric), column)])
                if metric in cuts:
                    passing = (column >= cuts[metric]).astype(np.float64)
                    intervals.add(f"pass|{p}|{metric}", where, [((p, metric, "pass"), passing)])
        if not every_pair:
            continue
        for (i, a), (j, b) in _pairs(list(enumerate(names))):
            both = scored[i, m] & scored[j, m]
            if both.any():
                columns = [((a, metric), values[i, m]), ((b, metric), values[j, m])]
                intervals.add(f"diff|{a}|{b}|{metric}", both, columns, (1, -1))
    with _threads(len(table.question_ids), len(names)) as pool:
        intervals.compute(pool, exact_two_levels=not every_pair)
    estimates = tuple(_estimates(table, metrics, intervals))
    field_: _Field | None = None
    if every_pair:
        triples = [(i, j, m) for i, j in _pairs(list(range(len(names)))) for m in range(len(metrics))]
        comparisons = _comparisons(_paired(table, metrics, triples), _bootstrapped(intervals), chosen.level)
    else:
        field_ = _Field(table, metrics, chosen)
        triples = [triple for m in range(len(metrics)) for triple in field_.pairs(m, baseline)]
        comparisons = _comparisons(
            _paired(field_.table, metrics, triples), field_.interval, chosen.level, "simultaneous CI"
        )
    return Decision(
        estimates=estimates,
        pass_rates=tuple(_pass_rates(table, metrics, cuts, intervals)),
        comparisons=tuple(comparisons),
        level=chosen.level,
        resamples=chosen.resamples,
        seed=chosen.seed,
        thresholds=cuts,
        normal_approximation=tuple(intervals.normal),
        normal_from=NORMAL_FROM,
        **({} if field_ is None else field_.decision_fields(baseline)),
    )


class _Field:
    """The many-pipeline side of a decision: per metric the leader, the simultaneous margin and
    the ranks it allows (:mod:`goldenlens.core.stats.simultaneous`), all linear in pipelines.
    Each metric's comparisons rest on the questions every pipeline has a score for, as its
    margin does (:attr:`table`: the scores restricted to them)."""

    def __init__(self, table: ScoreTable, metrics: Sequence[str], settings: Settings) -> None:
        self._names = table.names
        self.margins: dict[str, float] = {}
        self.ranks: list[RankInterval] = []
        self._fields: list[MetricField | None] = []
        self._metric = {metric: m for m, metric in enumerate(metrics)}
        #: Per metric, each present pipeline's position in its field.
        self._position: list[dict[str, int]] = []
        common = np.zeros_like(table.scored)
        for m, metric in enumerate(metrics):
            found = metric_field(table.values[:, m], table.scored[:, m], settings, metric)
            self._fields.append(found)
            self._position.append(
                {} if found is None else {table.names[i]: k for k, i in enumerate(found.present)}
            )
            if found is None:
                continue
            common[list(found.present), m] = found.questions
            self.margins[metric] = found.margin * found.unit
            self.ranks.extend(rank_intervals(table.names, found, metric))
        #: The scores the comparisons pair: each metric's on its field's common questions.
        self.table = replace(table, scored=common)

    def decision_fields(self, baseline: str | None) -> dict[str, Any]:
        """What :class:`Decision` records of the field."""
        return {
            "mode": LEADER_AND_BASELINE,
            "baseline": baseline,
            "margins": self.margins,
            "ranks": tuple(self.ranks),
        }

    def pairs(self, m: int, baseline: str | None) -> Iterable[tuple[int, int, int]]:
        """Metric ``m``'s comparisons ``(a, b, m)``: the leader (the highest sum; the first
        listed of a tie) against every other pipeline, then every other against the baseline."""
        found = self._fields[m]
        if found is None:
            return
        present = found.present
        leader = present[int(np.argmax(found.sums))]
        yield from ((leader, i, m) for i in present if i != leader)
        if baseline is None:
            return
        base = self._names.index(baseline)
        if base in present and base != leader:
            yield from ((i, base, m) for i in present if i not in (base, leader))

    def interval(self, pair: _Paired) -> _Interval:
        """The pair's difference ± margin, from the exact sums: it holds with every other
        pair's at once, and its sign agrees with the ranks'."""
        m = self._metric[pair.metric]
        found, where = self._fields[m], self._position[m]
        assert found is not None  # only fields with questions list pairs
        difference = float(found.sums[where[pair.a]] - found.sums[where[pair.b]])  # exact integers
        return (difference - found.margin) * found.unit, (difference + found.margin) * found.unit


def _bootstrapped(intervals: _Intervals) -> Callable[[_Paired], _Interval]:
    def interval(pair: _Paired) -> _Interval:
        return intervals.get(f"diff|{pair.a}|{pair.b}|{pair.metric}")

    return interval


@contextmanager
def _threads(questions: int, pipelines: int) -> Iterator[Executor | None]:
    """Threads for a decision over ``questions`` and ``pipelines`` (``None``: too small to gain
    from them: fewer questions than :data:`_THREADS_FROM` and no more statistics than a handful
    of pipelines has)."""
    threads = min(_THREADS, os.cpu_count() or 1)
    if threads < 2 or questions * max(pipelines, ALL_PAIRS_UP_TO) < _THREADS_FROM * ALL_PAIRS_UP_TO:
        yield None
        return
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bootstrap") as pool:
        yield pool


def _pairs(names: Sequence[_T]) -> list[tuple[_T, _T]]:
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


if sys.version_info >= (3, 12):

    def _sum(values: FloatArray) -> float:
        # sum() adds floats with compensation from Python 3.12 on: the summary sums with it.
        return float(sum(values.tolist()))

else:

    def _sum(values: FloatArray) -> float:
        # sum() adds floats left to right, as add.accumulate does; it starts from the integer 0,
        # which only shows when every value is -0.0 (0 + -0.0 is 0.0).
        return float(np.add.accumulate(values)[-1]) + 0.0


def _mean(values: FloatArray) -> float:
    # ``sum`` over the values in report order: the summary's mean to the last bit.
    return _sum(values) / len(values)


def _binary(values: FloatArray) -> bool:
    return bool(np.all((values == 0.0) | (values == 1.0)))


def _estimates(table: ScoreTable, metrics: Sequence[str], intervals: _Intervals) -> Iterable[MetricEstimate]:
    for p, in_order, given in zip(table.names, table.in_order, table.given, strict=True):
        for m, metric in enumerate(metrics):
            values = in_order[m][given[m]]  # the order the rows came in, as the summary sums
            if not len(values):
                yield MetricEstimate(p, metric, None, None, None, 0)
                continue
            low, high = intervals.get(f"mean|{p}|{metric}")
            yield MetricEstimate(p, metric, _mean(values), low, high, len(values))


def _pass_rates(
    table: ScoreTable, metrics: Sequence[str], cuts: Mapping[str, float], intervals: _Intervals
) -> Iterable[PassRate]:
    values, scored = table.values, table.scored
    for i, p in enumerate(table.names):
        for metric, threshold in cuts.items():
            m = list(metrics).index(metric)
            n = int(np.count_nonzero(scored[i, m]))
            if not n:
                yield PassRate(p, metric, threshold, None, None, None, 0, 0)
                continue
            passed = int(np.count_nonzero(values[i, m] >= threshold))  # NaN never passes
            low, high = intervals.get(f"pass|{p}|{metric}")
            yield PassRate(p, metric, threshold, passed / n, low, high, passed, n)


@dataclass(frozen=True)
class _Paired:
    """A pair's numbers on one metric that do not need the interval."""

    metric: str
    a: str
    b: str
    n: int
    difference: float | None
    p_value: float | None
    a_only: int | None
    b_only: int | None


def _paired(
    table: ScoreTable, metrics: Sequence[str], triples: Iterable[tuple[int, int, int]]
) -> Iterable[_Paired]:
    """The pairs ``(a, b, metric)`` given as pipeline and metric indices, in their order."""
    names, values, scored = table.names, table.values, table.scored
    counts = np.count_nonzero(scored, axis=2)  # pipelines x metrics
    # A pipeline's mean and 0/1 check over all its scored questions, shared by its pairs with
    # every pipeline scored on the same questions (the usual case).
    whole: dict[tuple[int, int], tuple[float, bool]] = {}

    def mean_and_binary(i: int, m: int, column: FloatArray, is_whole: bool) -> tuple[float, bool]:
        found = whole.get((i, m)) if is_whole else None
        if found is None:
            found = (_mean(column), metrics[m] in BINARY_METRICS and _binary(column))
            if is_whole:
                whole[(i, m)] = found
        return found

    for i, j, m in triples:
        a, b, metric = names[i], names[j], metrics[m]
        both = scored[i, m] & scored[j, m]
        n = int(np.count_nonzero(both))
        if not n:
            yield _Paired(metric, a, b, 0, None, None, None, None)
            continue
        x, y = values[i, m], values[j, m]
        if n < len(both):
            x, y = x[both], y[both]
        mean_x, binary_x = mean_and_binary(i, m, x, n == counts[i, m])
        mean_y, binary_y = mean_and_binary(j, m, y, n == counts[j, m])
        if not (binary_x and binary_y):
            yield _Paired(metric, a, b, n, mean_x - mean_y, None, None, None)
            continue
        a_only = int(np.count_nonzero((x == 1.0) & (y == 0.0)))
        b_only = int(np.count_nonzero((x == 0.0) & (y == 1.0)))
        yield _Paired(metric, a, b, n, mean_x - mean_y, mcnemar_exact(a_only, b_only), a_only, b_only)


def _comparisons(
    paired: Iterable[_Paired], interval: Callable[[_Paired], _Interval], level: float, name: str = "CI"
) -> Iterable[PairComparison]:
    for pair in paired:
        metric, a, b, n, p_value = pair.metric, pair.a, pair.b, pair.n, pair.p_value
        low = high = None
        if n:
            low, high = interval(pair)
        better, text = verdict(
            metric,
            a,
            b,
            difference=pair.difference,
            low=low,
            high=high,
            n=n,
            p_value=p_value,
            level=level,
            interval=name,
        )
        why = caveat(n=n, low=low, high=high, p_value=p_value, a_only=pair.a_only, b_only=pair.b_only)
        yield PairComparison(
            metric, a, b, pair.difference, low, high, n, p_value, pair.a_only, pair.b_only, better, text, why
        )

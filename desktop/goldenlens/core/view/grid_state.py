"""The score grid's view state, threshold expressions, filters and row order (no Qt, no SQL).

Everything works on column arrays (:class:`GridArrays`): a filter is a boolean mask over the
golden rows and the visible order is an index array, so 100,000 questions filter and sort in
milliseconds and the Qt model only indexes into the result.

Threshold expressions (:func:`parse_threshold`) compare a metric with a number::

    recall < 0.5            any pipeline's recall is below 0.5
    Pipeline2.f1 >= 0.8     Pipeline2's F1 is at least 0.8
    fk == 0 and f1 > 0.5    both hold (``and`` binds tighter than ``or``)

A bare metric means *any* pipeline satisfies the comparison (each condition on its own:
``fk == 0 and f1 > 0.5`` may be met by two different pipelines); prefix a pipeline name (quoted
when it holds spaces or dots: ``"RAG v1.2".recall < 0.5``) to test one. A missing score
(not scored, or no response) satisfies no comparison. Metric aliases: ``fk``, ``fk_quasi``,
``f1``, ``precision``, ``recall``, ``em``, ``qem``; full metric names work too, and so do the
judge metrics the grid holds, by name (``faithfulness < 0.5``,
``Pipeline2.context_relevance >= 0.8``).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from goldenlens.core.lexical.flags import Flag
from goldenlens.core.lexical.scorer import (
    EXACT_MATCH,
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    PRECISION,
    QUASI_EXACT_MATCH,
    RECALL,
)
from goldenlens.core.view.metric_names import metric_short

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
ObjectArray = npt.NDArray[np.object_]

DEFAULT_METRICS: tuple[str, ...] = (FACTUAL_KNOWLEDGE, F1_SCORE, RECALL)
METRIC_ALIASES: dict[str, str] = {
    "fk": FACTUAL_KNOWLEDGE,
    "fk_quasi": FACTUAL_KNOWLEDGE_QUASI_EXACT,
    "f1": F1_SCORE,
    "precision": PRECISION,
    "recall": RECALL,
    "em": EXACT_MATCH,
    "qem": QUASI_EXACT_MATCH,
}
#: The metric "pipelines disagree" is judged on.
DISAGREEMENT_METRIC = FACTUAL_KNOWLEDGE

ID_COLUMN, QUESTION_COLUMN, REVIEW_COLUMN, FLAGS_COLUMN = "id", "question", "review", "flags"
FIXED_COLUMNS: tuple[str, ...] = (ID_COLUMN, QUESTION_COLUMN, REVIEW_COLUMN, FLAGS_COLUMN)
#: ``GridState.flag`` value that keeps rows with any flag at all.
ANY_FLAG = "*"
#: Bit of each flag in the flag masks (response and golden-row flags share one numbering).
FLAG_BITS: dict[str, int] = {flag.value: 1 << bit for bit, flag in enumerate(Flag)}


def score_column(metric: str, pipeline: str) -> str:
    """Column key of one metric of one pipeline (``f1_score:Pipeline2``)."""
    return f"{metric}:{pipeline}"


def split_score_column(key: str) -> tuple[str, str] | None:
    """``(metric, pipeline)`` of a score column key; ``None`` for a fixed column."""
    metric, sep, pipeline = key.partition(":")
    return (metric, pipeline) if sep else None


@dataclass(frozen=True)
class GridState:
    """What the analyst chose to see: columns, order and filters. Qt-free; compare with ``==``.

    ``sort_column`` is a column key (:data:`FIXED_COLUMNS` or :func:`score_column`), ``None``
    for golden-set order. ``flag`` is a flag name, :data:`ANY_FLAG` or ``None``.
    ``question_ids`` keeps only those questions (the review queue's filter by diagnosis);
    ``None`` keeps all.
    """

    metrics: tuple[str, ...] = DEFAULT_METRICS
    fk_report_mode: bool = False
    #: The metric the pass/fail report shows (``fk_report_mode``): Factual Knowledge, or a
    #: judge metric whose values are only 0 and 1 (:func:`pass_fail_metrics`).
    report_metric: str = FACTUAL_KNOWLEDGE
    sort_column: str | None = None
    sort_descending: bool = False
    text: str = ""
    regex: bool = False
    flag: str | None = None
    threshold: str = ""
    disagree_only: bool = False
    question_ids: frozenset[str] | None = None

    def shown_metrics(self) -> tuple[str, ...]:
        """Metrics with columns: only the report metric (Factual Knowledge unless another was
        chosen) in the pass/fail report mode."""
        return (self.report_metric,) if self.fk_report_mode else self.metrics

    def metrics_in_use(self) -> tuple[str, ...] | None:
        """Metrics the grid needs to show this state as it is: those with columns, the one
        sorted on, Factual Knowledge for the disagreement filter. ``None`` (every metric)
        while a threshold is set, which may name any of them."""
        if self.threshold.strip():
            return None
        sorted_on = split_score_column(self.sort_column) if self.sort_column else None
        sort = (sorted_on[0],) if sorted_on else ()
        disagreement = (DISAGREEMENT_METRIC,) if self.disagree_only else ()
        return tuple(dict.fromkeys((*self.metrics, *self.shown_metrics(), *sort, *disagreement)))


@dataclass(frozen=True)
class GridColumn:
    """One column: fixed ones have no metric; score columns name metric and pipeline."""

    key: str
    metric: str | None = None
    pipeline: str | None = None
    pipeline_index: int = -1


def grid_columns(state: GridState, pipelines: Sequence[str]) -> tuple[GridColumn, ...]:
    """Fixed columns, then per shown metric one column per pipeline (pipelines side by side)."""
    scores = (
        GridColumn(score_column(metric, name), metric, name, index)
        for metric in state.shown_metrics()
        for index, name in enumerate(pipelines)
    )
    return (*(GridColumn(key) for key in FIXED_COLUMNS), *scores)


class GridArrays(Protocol):
    """The column arrays the filters read (``goldenlens.queries.grid_data.GridData`` has them).

    Row ``i`` of every array is the ``i``-th golden question in golden-set order; ``values``
    and ``flags`` have one column per pipeline; a missing score is NaN.
    """

    @property
    def question_ids(self) -> ObjectArray: ...
    @property
    def questions(self) -> ObjectArray: ...
    @property
    def pipelines(self) -> tuple[str, ...]: ...
    @property
    def values(self) -> Mapping[str, FloatArray]: ...
    @property
    def flags(self) -> IntArray: ...
    @property
    def golden_flags(self) -> IntArray: ...
    @property
    def review(self) -> ObjectArray: ...
    def search_texts(self) -> Sequence[str]:
        """Per row, every searchable text joined by newlines, lower-cased."""

    def id_ranks(self) -> IntArray:
        """Per row, the rank of its id in natural order (``q2`` before ``q10``)."""


# -- threshold expressions ------------------------------------------------------------

_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "=": operator.eq,
    "!=": operator.ne,
    "<>": operator.ne,
}
_TOKEN = re.compile(
    r"""\s*(?:(?P<quoted>"[^"]*"|'[^']*')|(?P<op><=|>=|==|!=|<>|<|>|=)
    |(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?![\w.])
    |(?P<name>[^\s."'<>=!;,()]+)|(?P<dot>\.)|(?P<other>\S))""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Condition:
    """``[pipeline.]metric op value``; ``pipeline=None`` means any pipeline."""

    metric: str
    op: str
    value: float
    pipeline: str | None = None

    def mask(self, data: GridArrays) -> BoolArray:
        """Rows where the comparison holds (missing scores never hold)."""
        n = len(data.question_ids)
        matrix = data.values.get(self.metric)
        if matrix is None or not data.pipelines:
            return np.zeros(n, dtype=bool)
        if self.pipeline is not None:
            matrix = matrix[:, [data.pipelines.index(self.pipeline)]]
        hit = _OPERATORS[self.op](matrix, self.value) & ~np.isnan(matrix)
        return np.asarray(hit.any(axis=1), dtype=bool)

    def holds(self, value: Callable[[str, str], float | None], pipelines: Sequence[str]) -> bool:
        """:meth:`mask` for one question whose scores ``value(metric, pipeline)`` gives."""
        targets = pipelines if self.pipeline is None else (self.pipeline,)
        for pipeline in targets:
            found = value(self.metric, pipeline)
            if found is not None and not math.isnan(found) and _OPERATORS[self.op](found, self.value):
                return True
        return False

    def cells(self, data: GridArrays) -> BoolArray:
        """``(questions, pipelines)``: the score cells where the comparison holds — the cells
        that make a row pass (only the named pipeline's, when one is named)."""
        n = len(data.question_ids)
        matrix = data.values.get(self.metric)
        if matrix is None or not data.pipelines:
            return np.zeros((n, len(data.pipelines)), dtype=bool)
        hit = np.asarray(_OPERATORS[self.op](matrix, self.value) & ~np.isnan(matrix), dtype=bool)
        if self.pipeline is not None:
            only = np.zeros(len(data.pipelines), dtype=bool)
            only[data.pipelines.index(self.pipeline)] = True
            hit &= only[np.newaxis, :]
        return hit

    def describe(self) -> str:
        """In words, saying whose score is compared: ``any pipeline's recall < 0.5``."""
        who = "any pipeline's" if self.pipeline is None else f"{self.pipeline}'s"
        value = f"{self.value:g}"
        return f"{who} {metric_short(self.metric)} {self.op} {value}"


@dataclass(frozen=True)
class ThresholdFilter:
    """Parsed threshold expression: any of ``alternatives`` holds, each an all-of conditions."""

    alternatives: tuple[tuple[Condition, ...], ...] = ()

    @property
    def is_empty(self) -> bool:
        return not self.alternatives

    def keeps(self, value: Callable[[str, str], float | None], pipelines: Sequence[str]) -> bool:
        """Whether the expression keeps one question (``value(metric, pipeline)``: its scores)."""
        if self.is_empty:
            return True
        return any(all(c.holds(value, pipelines) for c in conditions) for conditions in self.alternatives)

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metrics the expression reads, each once."""
        return tuple(dict.fromkeys(c.metric for conditions in self.alternatives for c in conditions))

    def mask(self, data: GridArrays) -> BoolArray:
        """Rows the expression keeps (every row when empty)."""
        n = len(data.question_ids)
        if self.is_empty:
            return np.ones(n, dtype=bool)
        keep = np.zeros(n, dtype=bool)
        for conditions in self.alternatives:
            both = np.ones(n, dtype=bool)
            for condition in conditions:
                both &= condition.mask(data)
            keep |= both
        return keep

    def describe(self) -> str:
        """The expression in words (``""`` when empty), e.g. ``rows where any pipeline's
        recall < 0.5``: a bare metric means *any* pipeline, which the input does not show."""
        if self.is_empty:
            return ""
        parts = [" and ".join(c.describe() for c in conditions) for conditions in self.alternatives]
        return "rows where " + " or ".join(parts)

    def matching_cells(self, data: GridArrays) -> dict[str, BoolArray]:
        """Per metric, the ``(questions, pipelines)`` cells that satisfy one of the conditions
        on that metric: what the grid marks so the analyst sees why a row passed."""
        marked: dict[str, BoolArray] = {}
        for conditions in self.alternatives:
            for condition in conditions:
                cells = condition.cells(data)
                previous = marked.get(condition.metric)
                marked[condition.metric] = cells if previous is None else previous | cells
        return marked


def _tokens(expr: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    for match in _TOKEN.finditer(expr):
        kind = match.lastgroup
        if kind == "other":
            raise ValueError(f"unexpected {match.group(kind)!r} in the threshold expression")
        if kind is not None:  # None: trailing blanks
            tokens.append((kind, match.group(kind)))
    return tokens


def _resolve_metric(name: str, metrics: Sequence[str]) -> str:
    metric = METRIC_ALIASES.get(name.lower(), name.lower())
    if metric in metrics:
        return metric
    folded = [m for m in metrics if m.casefold() == name.casefold()]  # a custom aspect's capitals
    if len(folded) == 1:
        return folded[0]
    aliased = set(METRIC_ALIASES.values())
    aliases = [alias for alias, full in METRIC_ALIASES.items() if full in metrics]
    others = [m for m in metrics if m not in aliased]  # judge metrics go by their own names
    known = ", ".join([*aliases, *others]) or "none"
    if metric in METRIC_ALIASES.values():
        raise ValueError(f"metric {name!r} is not in the grid (available: {known})")
    raise ValueError(f"unknown metric {name!r} (available: {known})")


def _resolve_pipeline(name: str, pipelines: Sequence[str]) -> str:
    if name in pipelines:
        return name
    folded = [p for p in pipelines if p.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise ValueError(f"unknown pipeline {name!r} (pipelines: {', '.join(pipelines) or 'none'})")


def _parse_clause(
    tokens: list[tuple[str, str]], at: int, metrics: Sequence[str], pipelines: Sequence[str]
) -> tuple[Condition, int]:
    def take(*kinds: str, what: str) -> str:
        nonlocal at
        if at >= len(tokens) or tokens[at][0] not in kinds:
            after = f" after {tokens[at - 1][1]!r}" if at else ""
            raise ValueError(f"expected {what}{after}")
        at += 1
        return tokens[at - 1][1]

    first = take("name", "quoted", what="a metric such as 'recall < 0.5'")
    pipeline = None
    if at < len(tokens) and tokens[at][0] == "dot":
        at += 1
        pipeline = _resolve_pipeline(first.strip("'\""), pipelines)
        first = take("name", what="a metric after the pipeline name")
    metric = _resolve_metric(first.strip("'\""), metrics)
    op = take("op", what="a comparison (<, <=, >, >=, ==, !=)")
    text = take("number", "name", what="a number")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return Condition(metric, op, value, pipeline), at


def parse_threshold(expr: str, metrics: Sequence[str], pipelines: Sequence[str]) -> ThresholdFilter:
    """Parse ``expr`` against the grid's metrics and pipelines; ``""`` keeps every row.

    Raises ``ValueError`` with a message fit to show under the input field.
    """
    tokens = _tokens(expr)
    alternatives: list[tuple[Condition, ...]] = []
    current: list[Condition] = []
    at = 0
    while at < len(tokens):
        condition, at = _parse_clause(tokens, at, metrics, pipelines)
        current.append(condition)
        if at < len(tokens):
            word = tokens[at][1]
            if word.lower() not in ("and", "or"):
                raise ValueError(f"expected 'and' or 'or' before {word!r}")
            at += 1
            if at == len(tokens):
                raise ValueError(f"expected a condition after {word!r}")
            if word.lower() == "or":
                alternatives.append(tuple(current))
                current = []
    if current:
        alternatives.append(tuple(current))
    return ThresholdFilter(tuple(alternatives))


# -- filters and order ----------------------------------------------------------------


def text_matcher(text: str, regex: bool) -> Callable[[str], bool] | None:
    """Case-insensitive test for one row's :meth:`GridArrays.search_texts` entry; ``None`` when
    ``text`` is blank. A bad regular expression raises ``ValueError`` naming the problem."""
    if not text.strip():
        return None
    if not regex:
        needle = text.strip().lower()
        return lambda haystack: needle in haystack
    try:
        pattern = re.compile(text, re.IGNORECASE)
    except re.error as exc:
        raise ValueError(f"invalid regular expression: {exc}") from None
    return lambda haystack: pattern.search(haystack) is not None


def flag_filter_mask(data: GridArrays, flag: str) -> BoolArray:
    """Rows with ``flag`` on the golden row or on any response (:data:`ANY_FLAG`: any flag)."""
    if flag != ANY_FLAG and flag not in FLAG_BITS:
        raise ValueError(f"unknown flag {flag!r}")
    bits = -1 if flag == ANY_FLAG else FLAG_BITS[flag]
    hit = (data.golden_flags & bits) != 0
    if data.flags.size:
        hit |= ((data.flags & bits) != 0).any(axis=1)
    return np.asarray(hit, dtype=bool)


#: From this Factual Knowledge value on, the FK report shows ✓ (found) and counts it found.
FK_FOUND_AT = 0.5


def flag_row_counts(data: GridArrays) -> dict[str, int]:
    """How many rows :func:`flag_filter_mask` keeps for each flag (by value) and for
    :data:`ANY_FLAG`: the numbers the flag filter shows beside its choices."""
    counts = {ANY_FLAG: int(flag_filter_mask(data, ANY_FLAG).sum())}
    for flag in FLAG_BITS:
        counts[flag] = int(flag_filter_mask(data, flag).sum())
    return counts


@dataclass(frozen=True)
class FkTotal:
    """One pipeline's Factual Knowledge over some rows: found (1), not found (0), not scored."""

    pipeline: str
    found: int
    not_found: int
    not_scored: int

    @property
    def scored(self) -> int:
        return self.found + self.not_found


def fk_totals(data: GridArrays, rows: IntArray, metric: str = FACTUAL_KNOWLEDGE) -> list[FkTotal]:
    """The totals row of the pass/fail report over ``rows`` (the visible ones), per pipeline,
    from the values in force; a value counts as found (passed) from :data:`FK_FOUND_AT`, as
    the report's ✓. ``metric``: Factual Knowledge, or the binary judge metric shown."""
    matrix = data.values.get(metric)
    totals: list[FkTotal] = []
    for p, pipeline in enumerate(data.pipelines):
        column = matrix[rows, p] if matrix is not None else np.full(len(rows), np.nan)
        missing = np.isnan(column)
        found = int(((column >= FK_FOUND_AT) & ~missing).sum())
        totals.append(FkTotal(pipeline, found, int((~missing).sum()) - found, int(missing.sum())))
    return totals


def is_binary_valued(matrix: FloatArray) -> bool:
    """Whether ``matrix`` holds at least one value and every value is exactly 0 or 1 (NaN:
    missing, ignored): then a pass/fail view (✓ from :data:`FK_FOUND_AT`) loses nothing."""
    present = matrix[~np.isnan(matrix)]
    return bool(present.size) and bool(np.isin(present, (0.0, 1.0)).all())


def pass_fail_metrics(data: GridArrays, judge_metrics: Sequence[str]) -> tuple[str, ...]:
    """The metrics the pass/fail report can show: Factual Knowledge, then each of
    ``judge_metrics`` the grid holds whose values are only 0 and 1 (aspect critiques,
    relevancy, a thresholded similarity — decided from the values, so a metric that gave one
    0.7 is never drawn as ✓/✗)."""
    binary = [m for m in judge_metrics if m in data.values and is_binary_valued(data.values[m])]
    return (FACTUAL_KNOWLEDGE, *binary)


def disagreement_mask(data: GridArrays, metric: str = DISAGREEMENT_METRIC) -> BoolArray:
    """Rows where the scored pipelines do not all agree on ``metric`` (missing ones ignored)."""
    matrix = data.values.get(metric)
    if matrix is None or matrix.shape[1] < 2:
        return np.zeros(len(data.question_ids), dtype=bool)
    with np.errstate(invalid="ignore"):
        low = np.fmin.reduce(matrix, axis=1)
        high = np.fmax.reduce(matrix, axis=1)
    return np.asarray(high > low, dtype=bool)


def flag_counts(data: GridArrays) -> IntArray:
    """Per row, how many flags are raised (golden-row flags plus every response's)."""
    counts = np.zeros(len(data.question_ids), dtype=np.int64)
    for bit in FLAG_BITS.values():
        counts += (data.golden_flags & bit) != 0
        if data.flags.size:
            counts += ((data.flags & bit) != 0).sum(axis=1)
    return counts


def filter_mask(data: GridArrays, state: GridState) -> BoolArray | None:
    """Rows every active filter keeps; ``None`` when no filter is active. ``ValueError`` for
    a bad regex, threshold expression or flag name."""
    threshold = parse_threshold(state.threshold, tuple(data.values), data.pipelines)
    matches = text_matcher(state.text, state.regex)
    masks: list[BoolArray] = []
    if not threshold.is_empty:
        masks.append(threshold.mask(data))
    if state.flag is not None:
        masks.append(flag_filter_mask(data, state.flag))
    if state.disagree_only:
        masks.append(disagreement_mask(data))
    if state.question_ids is not None:
        kept, ids = state.question_ids, data.question_ids
        masks.append(np.fromiter((q in kept for q in ids), dtype=bool, count=len(ids)))
    if matches is not None:
        # Last, and only on rows still in: the text search is the one per-row Python loop.
        keep = np.logical_and.reduce(masks) if masks else np.ones(len(data.question_ids), dtype=bool)
        texts = data.search_texts()
        for row in np.flatnonzero(keep):
            keep[row] = matches(texts[int(row)])
        return keep
    return np.logical_and.reduce(masks) if masks else None


def _sort_key(data: GridArrays, rows: IntArray, column: str) -> npt.NDArray[Any] | None:
    if column == ID_COLUMN:
        return data.id_ranks()[rows]
    if column == QUESTION_COLUMN:
        return np.array([str(q).casefold() for q in data.questions[rows]], dtype=object)
    if column == REVIEW_COLUMN:
        codes: IntArray = np.unique(data.review[rows].astype(str), return_inverse=True)[1]
        return codes
    if column == FLAGS_COLUMN:
        return flag_counts(data)[rows]
    score = split_score_column(column)
    if score is None or score[0] not in data.values or score[1] not in data.pipelines:
        return None
    scores: FloatArray = data.values[score[0]][rows, data.pipelines.index(score[1])]
    return scores


def sort_rows(data: GridArrays, rows: IntArray, column: str | None, descending: bool = False) -> IntArray:
    """``rows`` stably ordered by ``column``; missing scores (NaN) last in either direction.
    An unknown column or ``None`` keeps ``rows`` as they are."""
    key = None if column is None else _sort_key(data, rows, column)
    if key is None or len(rows) < 2:
        return rows
    if key.dtype.kind in "fi":
        order = np.argsort(-key if descending else key, kind="stable")  # NaN stays NaN: last
    elif descending:  # stable descending for strings: sort reversed, reverse back
        order = len(key) - 1 - np.argsort(key[::-1], kind="stable")[::-1]
    else:
        order = np.argsort(key, kind="stable")
    return rows[order]


def visible_rows(data: GridArrays, state: GridState) -> IntArray:
    """Data rows to show, in display order: filtered by ``state``, then stably sorted."""
    mask = filter_mask(data, state)
    rows = np.arange(len(data.question_ids), dtype=np.int64) if mask is None else np.flatnonzero(mask)
    return sort_rows(data, rows.astype(np.int64, copy=False), state.sort_column, state.sort_descending)

"""Threshold expressions of the score grid's filter: parse them, and find the rows and cells
that satisfy them (no Qt, no SQL).

A threshold expression (:func:`parse_threshold`) compares a metric with a number::

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from goldenlens.core.typed_number import finite_number
from goldenlens.core.view.grid_state import BoolArray, GridArrays
from goldenlens.core.view.metric_names import METRIC_ALIASES, metric_short

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
    return Condition(metric, op, finite_number(text), pipeline), at


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

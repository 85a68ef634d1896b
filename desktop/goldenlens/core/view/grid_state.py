"""The score grid's view state: what the analyst chose to see (columns, order, filters) and the
columns it makes (no Qt, no SQL).

Everything works on column arrays (:class:`GridArrays`): a filter is a boolean mask over the
golden rows and the visible order is an index array (:mod:`goldenlens.core.view.grid_rows`), so
100,000 questions filter and sort in milliseconds and the Qt model only indexes into the result.
Threshold expressions (``recall < 0.5``) are parsed in :mod:`goldenlens.core.view.threshold`;
the pass/fail report's figures are in :mod:`goldenlens.core.view.pass_fail`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from goldenlens.core.lexical.flags import Flag
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, RECALL

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
ObjectArray = npt.NDArray[np.object_]

DEFAULT_METRICS: tuple[str, ...] = (FACTUAL_KNOWLEDGE, F1_SCORE, RECALL)
#: The metric "pipelines disagree" is judged on.
DISAGREEMENT_METRIC = FACTUAL_KNOWLEDGE

ID_COLUMN, QUESTION_COLUMN, REVIEW_COLUMN, FLAGS_COLUMN = "id", "question", "review", "flags"
FIXED_COLUMNS: tuple[str, ...] = (ID_COLUMN, QUESTION_COLUMN, REVIEW_COLUMN, FLAGS_COLUMN)
#: Beyond this many pipelines the grid opens on the leaders only (:func:`leading_pipelines`);
#: the pipeline picker shows any others.
SHOWN_PIPELINES: int = 10
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
    #: The pipelines with columns, in the project's order; ``None``: every pipeline.
    pipelines: frozenset[str] | None = None

    def shown_pipelines(self, pipelines: Sequence[str]) -> tuple[str, ...]:
        """``pipelines`` (the project's, in its order) that have columns."""
        if self.pipelines is None:
            return tuple(pipelines)
        return tuple(p for p in pipelines if p in self.pipelines)

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
    """Fixed columns, then per shown metric one column per shown pipeline (side by side);
    ``pipeline_index`` is the pipeline's place among all ``pipelines`` (its values' column)."""
    shown = state.pipelines
    scores = (
        GridColumn(score_column(metric, name), metric, name, index)
        for metric in state.shown_metrics()
        for index, name in enumerate(pipelines)
        if shown is None or name in shown
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


def leading_pipelines(data: GridArrays, top: int = SHOWN_PIPELINES) -> frozenset[str] | None:
    """The ``top`` pipelines by their Factual Knowledge mean (ties in the project's order), what
    the grid opens on beyond ``top`` pipelines; ``None`` (every pipeline) up to it."""
    if len(data.pipelines) <= top:
        return None
    values = data.values.get(FACTUAL_KNOWLEDGE)
    if values is None or not values.size:
        return frozenset(data.pipelines[:top])
    means = np.nan_to_num(column_means(values), nan=-1.0)  # a pipeline without scores comes last
    order = np.argsort(-means, kind="stable")[:top]
    return frozenset(data.pipelines[int(i)] for i in order)


def column_means(values: FloatArray) -> FloatArray:
    """Per-column mean ignoring NaN; NaN for a column without any value (no warning)."""
    present = ~np.isnan(values)
    counts = present.sum(axis=0)
    sums = np.where(present, values, 0.0).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)

"""Score rows as the arrays a decision reads: one value per pipeline, metric and question,
and each pipeline's rows in the order they came in (the order its means sum in), built without
a Python object per value (:func:`tabulate` from row tuples, :func:`score_table` from columns).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, pairwise
from operator import countOf

import numpy as np
import numpy.typing as npt

#: ``(question_id, pipeline, values in metric order)``; ``None``: not scored.
ScoreRow = tuple[str, str, Sequence[float | None]]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class ScoreTable:
    """The rows as arrays: one value per pipeline, metric and question, and each pipeline's rows
    in the order they came in (the order its means sum in)."""

    #: Pipelines: those asked for, then any other in first-seen order.
    names: list[str]
    #: Questions in first-seen order.
    question_ids: list[str]
    #: Pipelines x metrics x questions; NaN: no response, or not scored.
    values: FloatArray
    #: Where :attr:`values` has a value (not NaN).
    scored: BoolArray
    #: Per pipeline, its rows' values (metrics x rows) in the order they came in (the first row
    #: of a repeated key only), and where they are given (not ``None``: a NaN value counts).
    in_order: list[FloatArray]
    given: list[BoolArray]


def tabulate(rows: Iterable[ScoreRow], pipelines: Sequence[str], width: int) -> ScoreTable:
    listed = rows if isinstance(rows, list | tuple) else list(rows)
    values = [row[2] for row in listed]
    return score_table(
        [row[0] for row in listed],
        [row[1] for row in listed],
        _values(listed, values, width),
        pipelines,
        lambda by_metric, order: _given(by_metric, order, values),
    )


def score_table(
    question_of: Sequence[str],
    pipeline_of: Sequence[str],
    flat: FloatArray,
    pipelines: Sequence[str],
    given_of: Callable[[FloatArray, npt.NDArray[np.intp]], BoolArray],
) -> ScoreTable:
    """The :class:`ScoreTable` of rows given as their questions, pipelines and values (rows x
    metrics, NaN where not scored); ``given_of(by_metric, order)`` says which of the kept rows'
    values (metrics x rows ``order`` picks) the means sum."""
    width = flat.shape[1]
    question_ids = list(dict.fromkeys(question_of))
    ordered = dict.fromkeys(pipelines)
    ordered.update(dict.fromkeys(pipeline_of))
    names = list(ordered)
    question = _indices(question_of, question_ids)
    pipeline = _indices(pipeline_of, names)
    kept = _first_rows(pipeline * len(question_ids) + question, len(names) * len(question_ids))
    # The kept rows by pipeline, each pipeline's in the order they came in (a stable sort).
    order = kept[np.argsort(pipeline[kept], kind="stable")]
    bounds = np.concatenate(([0], np.cumsum(np.bincount(pipeline[order], minlength=len(names)))))
    by_metric = np.ascontiguousarray(flat[order].T)  # metrics x rows, a pipeline's rows together
    given = given_of(by_metric, order)
    cube = np.full((len(names), width, len(question_ids)), np.nan)
    spans = [slice(int(lo), int(hi)) for lo, hi in pairwise(bounds.tolist())]
    for p, span in enumerate(spans):
        cube[p][:, question[order[span]]] = by_metric[:, span]
    return ScoreTable(
        names,
        question_ids,
        cube,
        ~np.isnan(cube),
        [by_metric[:, s] for s in spans],
        [given[:, s] for s in spans],
    )


def _values(rows: Sequence[ScoreRow], values: list[Sequence[float | None]], width: int) -> FloatArray:
    """Rows x metrics, ``None`` as NaN; a row with another number of values than ``width`` is
    an error naming it (the first such row)."""
    if any(found != width for found in set(map(len, values))):
        for question_id, pipeline, row_values in rows:
            if len(row_values) != width:
                raise ValueError(f"{question_id}/{pipeline}: {len(row_values)} values for {width} metrics")
    try:
        # Straight from the values: a few times faster than np.array's nested lists...
        flat = np.fromiter(chain.from_iterable(values), dtype=np.float64, count=len(values) * width)
    except (TypeError, ValueError):
        # ... which also reads None (not scored) as NaN.
        flat = np.array(values, dtype=np.float64)
    return flat.reshape(len(values), width)


def _indices(labels: Sequence[str], order: Sequence[str]) -> npt.NDArray[np.intp]:
    index = dict(zip(order, range(len(order)), strict=True))
    return np.fromiter(map(index.__getitem__, labels), dtype=np.intp, count=len(labels))


def _first_rows(keys: npt.NDArray[np.intp], size: int) -> npt.NDArray[np.intp]:
    """The rows that are the first of their key, in row order (a repeated key keeps its first)."""
    if len(keys) and int(np.bincount(keys, minlength=size).max()) > 1:
        _levels, first = np.unique(keys, return_index=True)  # index of each key's first row
        return np.sort(first)
    return np.arange(len(keys))


def _given(
    by_metric: FloatArray, order: npt.NDArray[np.intp], values: Sequence[Sequence[float | None]]
) -> BoolArray:
    """Where a value is not ``None`` (metrics x the rows ``order`` picks): the values a mean
    sums. A NaN value is summed too (as ``sum`` does), while the intervals leave it out."""
    missing = np.isnan(by_metric)
    given = ~missing
    if missing.any():
        gaps = np.flatnonzero(missing.any(axis=0)).tolist()
        rows = order[gaps].tolist()
        if sum(countOf(values[r], None) for r in rows) != int(np.count_nonzero(missing)):
            for at, r in zip(gaps, rows, strict=True):
                given[:, at] = [v is not None for v in values[r]]
    return given

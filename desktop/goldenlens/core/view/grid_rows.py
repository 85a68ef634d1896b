"""Which rows the score grid shows, and in what order: the filters of a
:class:`~goldenlens.core.view.grid_state.GridState` as boolean masks over the golden rows, and a
stable numpy sort (no Qt, no SQL)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from goldenlens.core.view.grid_state import (
    ANY_FLAG,
    DISAGREEMENT_METRIC,
    FLAG_BITS,
    FLAGS_COLUMN,
    ID_COLUMN,
    QUESTION_COLUMN,
    REVIEW_COLUMN,
    BoolArray,
    FloatArray,
    GridArrays,
    GridState,
    IntArray,
    split_score_column,
)
from goldenlens.core.view.threshold import parse_threshold


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


def flag_row_counts(data: GridArrays) -> dict[str, int]:
    """How many rows :func:`flag_filter_mask` keeps for each flag (by value) and for
    :data:`ANY_FLAG`: the numbers the flag filter shows beside its choices."""
    counts = {ANY_FLAG: int(flag_filter_mask(data, ANY_FLAG).sum())}
    for flag in FLAG_BITS:
        counts[flag] = int(flag_filter_mask(data, flag).sum())
    return counts


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

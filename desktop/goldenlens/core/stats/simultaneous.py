"""Decisions between many pipelines at a cost linear in pipelines (issue #22): one margin per
metric that holds for every pair at once, and the ranks it allows.

Beyond a handful of pipelines, a bootstrap of every pair grows with the square of their number
(500 pipelines: 124,750 pairs per metric) and no reader can take in that many verdicts. Instead,
every pipeline's mean is resampled on the *same* resampled questions, and each resample's
deviations from the observed means ``e_p = m*_p - m_p`` give the spread of the whole field at
once: ``max_p e_p - min_p e_p`` is, for that resample, the largest error of any paired
difference ``(m*_a - m*_b) - (m_a - m_b)`` — all ``P(P-1)/2`` of them — in one pass over ``P``
values. Its ``level`` quantile ``c`` (the *margin*) makes ``m_a - m_b ± c`` hold for every pair
simultaneously at that level, as Tukey's honestly significant difference does for normal means,
with the pairing kept (the same questions move every pipeline) and no normality assumed. Hence:

* a verdict "A beats B" is drawn only when ``m_a - m_b > c``; every pair a report lists (each
  pipeline against the leader, and against a chosen baseline) is covered, even though the leader
  was picked on the same data — the margin covers all pairs, not only those shown;
* rank intervals that hold jointly: pipeline ``p`` ranks at best ``1 + #{q: m_q - m_p > c}`` and
  at worst ``P - #{q: m_p - m_q > c}`` (the ranks the simultaneous intervals cannot exclude;
  Al Mohamad, Goeman & van Zwet, *Simultaneous confidence intervals for ranks*, 2022, build on
  the same idea).

The margin is conservative for pairs whose difference varies less than the field's widest (it
is not studentised), which is the price of one number holding for every pair. Resampled sums are
exact integers (values on the same 2^-s grid as :mod:`goldenlens.core.stats.bootstrap`), so the
margin is the same on every machine; one stream, seeded by the settings' seed, resamples the
questions for every metric.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from goldenlens.core.stats.bootstrap import Settings, Statistic, grid_bits, stream
from goldenlens.core.stats.decision import RankInterval

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Cells (resamples x pipelines) of one chunk of resampled sums: bounds the memory of a
#: margin whatever the number of pipelines (about 16 MB a chunk).
_CHUNK_CELLS: Final = 1 << 21


def margins(values: FloatArray, scored: BoolArray, settings: Settings) -> list[float]:
    """Each metric's simultaneous margin ``c`` of the pipelines' means: ``values`` pipelines x
    metrics x questions (where ``scored``; a pipeline with no scored question on a metric takes
    no part in it). One resampling of the questions serves every metric, so the cost is that
    of one product of the resample counts with all the values, in chunks of bounded memory."""
    pipelines, metrics, n = values.shape
    if pipelines < 2 or n == 0:
        return [0.0] * metrics
    # Questions x (metric, pipeline) columns, a metric's pipelines side by side.
    flat = np.ascontiguousarray(values.transpose(2, 1, 0).reshape(n, metrics * pipelines))
    where = np.ascontiguousarray(scored.transpose(2, 1, 0).reshape(n, metrics * pipelines))
    bits = grid_bits(np.where(where, flat, 0.0), [Statistic("", (0,))])
    scale = float(2**bits)
    grid = np.where(where, np.rint(flat * scale), 0.0)  # exact integers in float64
    counted = where.astype(np.float64)
    whole = bool(where.all())
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = grid.sum(axis=0) / (counted.sum(axis=0) * scale)  # NaN: nothing scored
    rng = stream(settings.seed, "simultaneous")
    dtype = np.uint16 if n <= 1 << 16 else np.int64
    chunk = max(1, min(settings.resamples, _CHUNK_CELLS // max(n, metrics * pipelines)))
    spread = np.empty((settings.resamples, metrics))
    for start in range(0, settings.resamples, chunk):
        rows = min(chunk, settings.resamples - start)
        drawn = rng.integers(0, n, size=(rows, n), dtype=dtype).astype(np.int64)
        drawn += (np.arange(rows, dtype=np.int64) * n)[:, None]
        counts = np.bincount(drawn.ravel(), minlength=rows * n).reshape(rows, n).astype(np.float64)
        sums = counts @ grid  # rows x columns, exact integer sums
        taken = np.full_like(sums, float(n)) if whole else counts @ counted
        with np.errstate(invalid="ignore", divide="ignore"):
            # NaN: a pipeline with none of its scored questions drawn, or none scored at all.
            deviations = (sums / (taken * scale) - observed).reshape(rows, metrics, pipelines)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a metric no pipeline has
            spread[start : start + rows] = np.nanmax(deviations, axis=2) - np.nanmin(deviations, axis=2)
    found: list[float] = []
    for m in range(metrics):
        column = spread[:, m]
        column = column[~np.isnan(column)]
        found.append(float(np.quantile(column, settings.level)) if len(column) else 0.0)
    return found


def rank_intervals(
    pipelines: Sequence[str], means: Sequence[float], metric: str, margin_: float
) -> list[RankInterval]:
    """Each pipeline's rank by ``means`` and the ranks the simultaneous margin allows, in
    ``pipelines`` order (``O(P log P)``: counts by binary search in the sorted means)."""
    ordered = np.sort(np.asarray(means, dtype=np.float64))
    total = len(ordered)
    found: list[RankInterval] = []
    for pipeline, mean in zip(pipelines, means, strict=True):
        higher = total - int(np.searchsorted(ordered, mean, side="right"))
        surely_above = total - int(np.searchsorted(ordered, mean + margin_, side="right"))
        surely_below = int(np.searchsorted(ordered, mean - margin_, side="left"))
        found.append(RankInterval(pipeline, metric, 1 + higher, 1 + surely_above, total - surely_below))
    return found

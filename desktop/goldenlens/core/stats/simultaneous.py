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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from goldenlens.core.stats.bootstrap import Settings, Statistic, grid_bits, resample_counts, stream
from goldenlens.core.stats.decision import RankInterval

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Cells (resamples x pipelines) of one chunk of resampled sums: bounds the memory of a
#: margin whatever the number of pipelines (about 16 MB a chunk).
_CHUNK_CELLS: Final = 1 << 21


@dataclass(frozen=True)
class MetricField:
    """One metric's field of pipelines, on the questions every one of them has a score for (so
    each pair's difference and the margin rest on the same questions): each pipeline's sum in
    exact grid units, the margin in the same units, and :attr:`unit` to turn them into means."""

    #: The pipelines taking part (indices into the caller's rows): those scored on any question.
    present: tuple[int, ...]
    #: The questions every present pipeline is scored on.
    questions: BoolArray
    #: Per present pipeline, the sum of its values on :attr:`questions` (exact integers).
    sums: FloatArray
    #: The simultaneous margin, in the sums' units.
    margin: float
    #: A sum's units per mean: ``1 / (questions x grid scale)``.
    unit: float

    def surely_above(self, a: int, b: int) -> bool:
        """Whether present pipeline ``a`` (a position in :attr:`present`) is surely above ``b``."""
        return bool(self.sums[a] - self.sums[b] > self.margin)


def metric_field(values: FloatArray, scored: BoolArray, settings: Settings, key: str) -> MetricField | None:
    """The field of pipelines x questions ``values`` (where ``scored``) on the questions every
    scored pipeline shares, with its simultaneous margin (see the module docstring); ``None``
    when they share none. ``key`` names the random stream (the metric)."""
    present = np.flatnonzero(scored.any(axis=1))
    common: BoolArray = np.asarray(scored[present].all(axis=0), dtype=np.bool_)
    n = int(np.count_nonzero(common))
    if n == 0:
        return None
    taken = values[np.ix_(present, np.flatnonzero(common))]
    bits = grid_bits(taken.T, [Statistic("", (0,))])
    scale = float(2**bits)
    grid = np.rint(taken * scale)  # pipelines x questions, exact integers in float64
    sums = grid.sum(axis=1)
    unit = 1.0 / (n * scale)
    if len(present) < 2:
        return MetricField(tuple(int(i) for i in present), common, sums, 0.0, unit)
    rng = stream(settings.seed, "simultaneous|" + key)
    chunk = max(1, min(settings.resamples, _CHUNK_CELLS // max(n, len(present))))
    spread = np.empty(settings.resamples)
    columns = np.ascontiguousarray(grid.T)
    for start, counts in resample_counts(rng, settings.resamples, n, chunk):
        deviations = counts @ columns - sums  # rows x pipelines: exact integers, the same n each
        spread[start : start + len(counts)] = deviations.max(axis=1) - deviations.min(axis=1)
    margin = float(np.quantile(spread, settings.level))
    return MetricField(tuple(int(i) for i in present), common, sums, margin, unit)


def rank_intervals(pipelines: Sequence[str], field: MetricField, metric: str) -> list[RankInterval]:
    """Each present pipeline's rank by its sum and the ranks the simultaneous margin allows,
    in ``field.present`` order (``O(P log P)``: counts by binary search in the sorted sums;
    integer sums and the margin compare exactly)."""
    ordered = np.sort(field.sums)
    total = len(ordered)
    whole = float(np.floor(field.margin))
    found: list[RankInterval] = []
    for position, index in enumerate(field.present):
        own = float(field.sums[position])
        higher = total - int(np.searchsorted(ordered, own, side="right"))
        # Integer sums: q - p > margin exactly when q > p + floor(margin), which is exact too.
        surely_above = total - int(np.searchsorted(ordered, own + whole, side="right"))
        surely_below = int(np.searchsorted(ordered, own - whole, side="left"))
        found.append(
            RankInterval(pipelines[index], metric, 1 + higher, 1 + surely_above, total - surely_below)
        )
    return found

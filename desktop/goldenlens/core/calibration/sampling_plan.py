"""Which responses a reviewer labels next: one round of a stratified random sample of the
responses whose verdict is not known yet, drawn so the pipelines' intervals shrink fastest.

- **Units.** With ``mode="response"`` a unit is one distinct answer to one question (every
  pipeline that gave it shares the verdict, so it is asked once); with ``mode="question"`` a unit
  is a whole question (a reviewer reads it once and judges each distinct answer in it).
- **The frame** is every response with no verdict in force (none, or a stale one). Responses with
  a verdict are known exactly; responses the reviewer was unsure of are not asked again.
- **Strata** group units by how much a label on them is expected to tell: for unit ``u``,
  ``a_u = sqrt(sum over its responses r of max(f_r (1 - f_r), floor) / N_p(r)^2)``, where ``f`` is
  the current prediction of the verdict and ``N_p`` the pipeline's number of responses. That is the
  unit's expected contribution to the sum of the pipelines' variances; the floor keeps units the
  predictor is sure of from being left out, so a confidently wrong predictor is still caught.
- **Allocation** is Neyman's with costs: ``n_h`` proportional to ``N_h * rms_h(a) / sqrt(cost_h)``,
  at least 2 per stratum (a variance needs two) and at most ``N_h``.
- **Draw.** A simple random sample without replacement in each stratum, from a seeded generator
  (the same project state and seed give the same plan), listed in an order that interleaves the
  strata, so a reviewer who stops part-way has labelled a smaller stratified sample. Each round
  of a project draws from a stream of its own (the seed and the round's place), so no two rounds
  share their random draws: the estimator adds the rounds' variances, which holds only for
  samples drawn independently of each other.

The estimator (:mod:`~goldenlens.core.calibration.estimator`) reads back exactly what is kept
here: the frame, each frame response's unit, each unit's stratum and the sampled units.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

Mode = Literal["response", "question"]

#: Strata per round at most, and units per stratum at least (fewer units make fewer strata).
MAX_STRATA: Final = 8
MIN_UNITS_PER_STRATUM: Final = 10
#: Labels per stratum a budget should allow on average (a small budget makes fewer strata: a
#: variance from two or three labels per stratum is too noisy for an interval that holds).
LABELS_PER_STRATUM: Final = 10
#: The floor of the predicted residual variance (a standard deviation of about 0.14).
VARIANCE_FLOOR: Final = 0.02
#: Labels per stratum at least, where the stratum has that many units.
MIN_PER_STRATUM: Final = 2


def predicted_variance(prediction: FloatArray) -> FloatArray:
    """Each response's residual variance as the predictor anticipates it: ``f (1 - f)`` of its
    predicted chance ``f`` of being judged correct, never below :data:`VARIANCE_FLOOR`."""
    return np.maximum(prediction * (1.0 - prediction), VARIANCE_FLOOR)


def two_sided_z(level: float) -> float:
    """The normal quantile of a two-sided interval at ``level`` (1.96 at 95%)."""
    return NormalDist().inv_cdf(0.5 + level / 2.0)


@dataclass(frozen=True)
class RoundDesign:
    """One round's sample as the estimator reads it back."""

    #: Population indices of the responses with no verdict in force when the round was planned.
    frame: IntArray
    #: Per frame response, its unit (0 .. units - 1).
    unit: IntArray
    #: Per unit, its stratum (0 .. strata - 1).
    stratum: IntArray
    #: The sampled units, in the order the reviewer is asked for them.
    sampled: IntArray
    seed: int
    mode: Mode = "response"

    @property
    def units(self) -> int:
        return len(self.stratum)

    @property
    def strata(self) -> int:
        return int(self.stratum.max()) + 1 if len(self.stratum) else 0

    @property
    def weight(self) -> float:
        """The round's weight in the combined estimate, fixed by the design's sizes alone (never
        by a label): proportional to the inverse of its variance under simple random sampling,
        ``n / (M (M - n))`` for ``n`` sampled of ``M`` units; a census gets all the weight."""
        m, n = self.units, len(self.sampled)
        if n >= m:
            return float("inf")
        return n / (m * (m - n))


def frame_units(
    frame: IntArray, question: IntArray, answer: IntArray, mode: Mode
) -> tuple[IntArray, IntArray]:
    """Per frame response its unit, and per unit its cost (distinct answers to label)."""
    key = answer[frame] if mode == "response" else question[frame]
    _levels, unit = np.unique(key, return_inverse=True)
    unit = unit.astype(np.intp)
    if mode == "response":
        return unit, np.ones(int(unit.max()) + 1 if len(unit) else 0, dtype=np.intp)
    pairs = np.unique(np.column_stack([unit, answer[frame]]), axis=0)
    cost = np.bincount(pairs[:, 0], minlength=int(unit.max()) + 1 if len(unit) else 0).astype(np.intp)
    return unit, cost


def unit_scores(
    frame: IntArray, unit: IntArray, units: int, pipeline: IntArray, prediction: FloatArray
) -> FloatArray:
    """``a_u`` of every unit (see the module docstring)."""
    per_pipeline = np.bincount(pipeline, minlength=int(pipeline.max()) + 1 if len(pipeline) else 0)
    variance = predicted_variance(prediction[frame]) / per_pipeline[pipeline[frame]].astype(np.float64) ** 2
    return np.sqrt(np.bincount(unit, weights=variance, minlength=units))


def _strata(scores: FloatArray, budget: int) -> IntArray:
    units = len(scores)
    count = max(1, min(MAX_STRATA, units // MIN_UNITS_PER_STRATUM, budget // LABELS_PER_STRATUM))
    order = np.argsort(scores, kind="stable")
    stratum = np.empty(units, dtype=np.intp)
    for h, chunk in enumerate(np.array_split(order, count)):
        stratum[chunk] = h
    return stratum


def _allocate(sizes: IntArray, shares: FloatArray, costs: FloatArray, budget: float) -> IntArray:
    """Units per stratum: proportional to ``shares`` within ``[min(2, N_h), N_h]``, spending
    about ``budget`` labels (``costs``: mean labels per unit of each stratum)."""
    low = np.minimum(MIN_PER_STRATUM, sizes).astype(np.float64)
    high = sizes.astype(np.float64)
    ideal = low.copy()
    free = np.ones(len(sizes), dtype=bool)
    for _pass in range(len(sizes) + 1):
        spare = budget - float(np.sum(ideal[~free] * costs[~free]))
        weight = np.where(free, shares, 0.0)
        if not free.any() or weight.sum() <= 0.0:
            break
        scale = spare / float(np.sum(weight * costs))
        ideal = np.where(free, weight * scale, ideal)
        clipped = free & ((ideal < low) | (ideal > high))
        if not clipped.any():
            break
        ideal = np.clip(ideal, low, high)
        free &= ~clipped
    ideal = np.clip(ideal, low, high)
    counts = np.floor(ideal).astype(np.intp)
    # Largest remainders, while labels remain and strata have units left.
    spent = float(np.sum(counts * costs))
    for h in np.argsort(-(ideal - counts), kind="stable"):
        if counts[h] < sizes[h] and spent + costs[h] <= budget + 1e-9:
            counts[h] += 1
            spent += costs[h]
    return counts


def check_budget(budget: int) -> None:
    """Refuse a plan of fewer than one label (``ValueError``)."""
    if budget < 1:
        raise ValueError("a plan needs a budget of at least one label")


#: Seeds a plan takes: ``0`` to ``SEED_LIMIT - 1``, one 32-bit word. A round after the first
#: draws from the words ``[seed, stream]``, which no single word equals: with a larger seed,
#: round 2 of seed 5 would draw exactly what round 1 of seed 5 + 2**32 draws.
SEED_LIMIT: Final = 2**32


def check_seed(seed: int) -> None:
    """Refuse a seed outside ``0`` to ``SEED_LIMIT - 1`` (``ValueError``; numpy's generators take
    no negative seed, and a larger one could repeat another seed's round)."""
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a plan's seed is a whole number from 0 to {SEED_LIMIT - 1:,}, got {seed:,}")


def plan_round(
    *,
    frame: IntArray,
    question: IntArray,
    answer: IntArray,
    pipeline: IntArray,
    prediction: FloatArray,
    budget: int,
    seed: int,
    mode: Mode = "response",
    stream: int = 0,
) -> RoundDesign:
    """Draw one round of about ``budget`` labels from the ``frame`` (see the module docstring).
    ``question``, ``answer``, ``pipeline`` and ``prediction`` are per population response;
    ``stream``: how many rounds the project planned before this one (the first round draws from
    ``seed`` alone, round ``k`` from ``(seed, k)``)."""
    check_budget(budget)
    check_seed(seed)
    unit, cost = frame_units(frame, question, answer, mode)
    units = len(cost)
    rng = np.random.default_rng(seed if stream == 0 else [seed, stream])
    if units == 0:
        empty = np.zeros(0, dtype=np.intp)
        return RoundDesign(frame, unit, empty, empty, seed, mode)
    if int(cost.sum()) <= budget:
        stratum = np.zeros(units, dtype=np.intp)
        return RoundDesign(frame, unit, stratum, rng.permutation(units).astype(np.intp), seed, mode)
    scores = unit_scores(frame, unit, units, pipeline, prediction)
    stratum = _strata(scores, budget)
    count = int(stratum.max()) + 1
    sizes = np.bincount(stratum, minlength=count).astype(np.intp)
    rms = np.sqrt(np.bincount(stratum, weights=scores**2, minlength=count) / sizes)
    costs = np.bincount(stratum, weights=cost.astype(np.float64), minlength=count) / sizes
    allocation = _allocate(sizes, sizes * rms / np.sqrt(costs), costs, float(budget))
    picked: list[IntArray] = []
    keys: list[FloatArray] = []
    for h in range(count):
        members = np.flatnonzero(stratum == h)
        take = int(allocation[h])
        if take:
            chosen = rng.choice(members, size=take, replace=False).astype(np.intp)
            picked.append(chosen)
            keys.append((np.arange(take) + rng.random(take)) / take)
    sampled = np.concatenate(picked) if picked else np.zeros(0, dtype=np.intp)
    order = np.argsort(np.concatenate(keys), kind="stable") if keys else np.zeros(0, dtype=np.intp)
    return RoundDesign(frame, unit, stratum, sampled[order], seed, mode)

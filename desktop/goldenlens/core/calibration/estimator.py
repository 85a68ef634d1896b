"""Each pipeline's share of responses a reviewer would judge correct, with an interval that holds,
from the verdicts on the rounds of samples GoldenLens drew and the automatic signals on every
response; and the paired differences between pipelines, with Holm's correction over the pairs.

The method (README: "Check the metric against a reviewer") is design-based:

- **One round at a time.** Round ``t`` was drawn from the responses with no verdict when it was
  planned (its frame). Every other response's verdict is known exactly; the frame's total is the
  predictor's sum plus a stratified difference-estimator correction from the labelled sample
  (the survey sampling "difference estimator", which prediction-powered inference rediscovered:
  Angelopoulos et al., Science 2023). Given everything before the round, its estimate is unbiased
  and its variance the textbook stratified one with the finite population correction (Cochran
  1977, ch. 5): ``V = sum_h N_h^2 (1 - n_h/N_h) s_h^2 / n_h``.
- **Cross-fitting.** The predictor of a round is a logistic regression on the verdicts known
  before it and on the round's own labels, cross-fitted: the labelled units are split into five
  folds and each fold's residual comes from the model that did not see it (cross-prediction-
  powered inference: Zrnic & Candès, PNAS 2024), so no label grades its own prediction.
- **Rounds combined** with weights fixed by the design's sizes, never by a label
  (:attr:`~goldenlens.core.calibration.sampling_plan.RoundDesign.weight`): the rounds' errors are
  martingale differences, so their variances add.
- **What is not known is bounded, not guessed.** A response whose verdict was known when a round
  was planned but no longer is (withdrawn, stale, unsure), and a sampled answer the reviewer was
  unsure of, may be either: the interval is widened by the most it could move. Sampled answers not
  labelled yet are left out of their stratum (the plan's order interleaves the strata, so a round
  stopped part-way is a smaller stratified sample); a stratum with fewer than two labels is merged
  with its neighbour. Every interval is finally intersected with what the labels alone prove.
- **Pairs** use the same estimator on the difference of the two pipelines' residuals, so answers
  both gave cancel. A verdict is about questions like these, not these alone: its variance adds
  the spread between questions (:mod:`~goldenlens.core.calibration.question_spread`), so a
  difference every label proves on this golden set is still "cannot tell" when other questions
  could reverse it. "A beats B" only when Holm's step-down procedure over all the pairs compared
  rejects "no difference" at 5% (and so the 95% interval excludes 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import erfc, sqrt
from typing import Final

import numpy as np
import numpy.typing as npt

from goldenlens.core.calibration.estimate_notes import estimate_notes
from goldenlens.core.calibration.labels import LabelState
from goldenlens.core.calibration.predictor import cross_fitted, fitted_predictions
from goldenlens.core.calibration.question_spread import PairSpread
from goldenlens.core.calibration.sampling_plan import RoundDesign, predicted_variance, two_sided_z
from goldenlens.core.stats.holm import holm

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

#: Pseudo-degrees of freedom pulling a small stratum's variance towards the round's pooled one.
SHRINK_DF: Final = 4.0
ALPHA: Final = 0.05


@dataclass(frozen=True)
class Population:
    """The responses an estimate is about (one scoring run), as arrays over responses."""

    pipeline: IntArray
    pipelines: tuple[str, ...]
    #: The answer group of each response (the same answer to the same question shares one).
    answer: IntArray
    features: FloatArray
    #: The fallback prediction where too few labels exist (fixed before any label).
    prior: FloatArray
    #: The question of each response: given, a verdict's interval adds the spread between
    #: questions (:mod:`~goldenlens.core.calibration.question_spread`).
    question: IntArray | None = None

    @property
    def size(self) -> int:
        return len(self.pipeline)

    def counts(self) -> FloatArray:
        return np.bincount(self.pipeline, minlength=len(self.pipelines)).astype(np.float64)


@dataclass(frozen=True)
class Interval:
    """An estimate with its interval; ``low``/``high`` are ``None`` where nothing is known."""

    estimate: float | None
    low: float | None
    high: float | None
    #: Standard error of the sampling part (``None`` when not estimated from a sample).
    se: float | None = None


@dataclass(frozen=True)
class PipelineEstimate:
    pipeline: str
    interval: Interval
    #: Responses of the pipeline with a verdict in force (correct or incorrect).
    labelled: int
    responses: int


@dataclass(frozen=True)
class PairEstimate:
    a: str
    b: str
    interval: Interval
    #: Two-sided p-value of "no difference" and Holm's adjustment over the pairs compared.
    p_value: float | None
    p_holm: float | None
    #: The pipeline reviewers would judge better (Holm rejects at 5%), else ``None``.
    better: str | None


@dataclass(frozen=True)
class Calibrated:
    """Every estimate of one project state."""

    estimates: tuple[PipelineEstimate, ...]
    pairs: tuple[PairEstimate, ...]
    #: Rounds whose sample the estimates rest on, and labels in force in all.
    rounds_used: int
    labelled: int
    level: float
    notes: tuple[str, ...] = field(default_factory=tuple)


#: A linear combination of the pipelines' shares: ``(pipeline indices, coefficients)``.
Combination = tuple[IntArray, FloatArray]


@dataclass
class _RoundResult:
    weight: float
    #: Per pipeline: the estimate, the bounds' shifts (``lower <= 0 <= upper``).
    point: FloatArray
    lower: FloatArray
    upper: FloatArray
    #: Per answered unit: its residual per pipeline (already divided by ``N_p``), its merged
    #: stratum, and per merged stratum its units ``N_h`` and answered units ``n_h``.
    residuals: FloatArray
    stratum: IntArray
    sizes: FloatArray
    answered: FloatArray
    #: Per merged stratum, pipelines x pipelines: the residual covariance the predictor
    #: anticipates for one unit of the stratum (the floor of the estimated one).
    anticipated: FloatArray

    def variance(self, combination: Combination) -> float:
        """The variance of the estimate of ``sum(coefficients * shares[indices])``."""
        indices, coefficients = combination
        rows = self.residuals[:, indices] @ coefficients
        block = self.anticipated[:, indices][:, :, indices]
        floor = np.einsum("hij,i,j->h", block, coefficients, coefficients)
        return float(_stratified_variance(rows, self.stratum, self.sizes, self.answered, floor))


def _known(state: npt.NDArray[np.int8]) -> BoolArray:
    known: BoolArray = (state == LabelState.CORRECT) | (state == LabelState.INCORRECT)
    return known


def _verdicts(state: npt.NDArray[np.int8]) -> FloatArray:
    return np.asarray(state == LabelState.CORRECT, dtype=np.float64)


def _merge_strata(strata: int, counts: IntArray) -> IntArray:
    """A map from each stratum to a merged one in which every merged stratum holds at least two
    answered units: a short stratum merges with its next neighbour (the last with the one
    before); a single stratum left is kept whatever it holds."""
    groups = [[h] for h in range(strata)]
    sizes = [int(counts[h]) for h in range(strata)]
    i = 0
    while len(groups) > 1 and i < len(groups):
        if sizes[i] >= 2:
            i += 1
            continue
        j = i + 1 if i + 1 < len(groups) else i - 1
        lo, hi = min(i, j), max(i, j)
        groups[lo] += groups[hi]
        sizes[lo] += sizes[hi]
        del groups[hi], sizes[hi]
        i = 0
    mapping = np.empty(strata, dtype=np.intp)
    for g, members in enumerate(groups):
        mapping[members] = g
    return mapping


def _per_pipeline(population: Population, values: FloatArray) -> FloatArray:
    counts = np.maximum(population.counts(), 1.0)
    sums = np.bincount(population.pipeline, weights=values, minlength=len(population.pipelines))
    return np.asarray(sums / counts, dtype=np.float64)


def _round(population: Population, state: npt.NDArray[np.int8], design: RoundDesign) -> _RoundResult | None:
    """Round ``design``'s estimate of every pipeline, or ``None`` with fewer than two sampled
    units answered (labelled, or judged unsure)."""
    known = _known(state)
    y = _verdicts(state)
    in_frame = np.zeros(population.size, dtype=bool)
    in_frame[design.frame] = True
    members_of = _unit_members(design)
    labelled_units: list[int] = []
    unsure_units: list[int] = []
    for u in design.sampled.tolist():
        members = members_of[u]
        if known[members].all():
            labelled_units.append(u)
        elif np.all(known[members] | (state[members] == LabelState.UNSURE)):
            unsure_units.append(u)
        # else: not labelled yet -- left out of its stratum.
    answered = labelled_units + unsure_units
    if len(answered) < 2:
        return None
    fbar, own = cross_fitted(
        population, ~in_frame & known, y, [members_of[u] for u in labelled_units], design.seed
    )
    # Known verdicts count as they are; the frame and the responses no longer known outside it
    # as predicted, the latter bounded (they may be either).
    outside_unknown = ~in_frame & ~known
    point = _per_pipeline(population, np.where(in_frame | outside_unknown, fbar, y))
    lower = _per_pipeline(population, np.where(outside_unknown, -fbar, 0.0))
    upper = _per_pipeline(population, np.where(outside_unknown, 1.0 - fbar, 0.0))
    counts = np.maximum(population.counts(), 1.0)
    k = len(population.pipelines)
    merged = _merge_strata(design.strata, np.bincount(design.stratum[answered], minlength=design.strata))
    unit_stratum = merged[design.stratum]
    sizes = np.bincount(unit_stratum, minlength=int(merged.max()) + 1).astype(np.float64)
    answered_stratum = unit_stratum[answered]
    answered_counts = np.bincount(answered_stratum, minlength=len(sizes)).astype(np.float64)
    residuals = np.zeros((len(answered), k))
    unsure_low = np.zeros((len(answered), k))
    unsure_high = np.zeros((len(answered), k))
    for i, u in enumerate(answered):
        members = members_of[u]
        pipelines = population.pipeline[members]
        scale = 1.0 / counts[pipelines]
        is_known = known[members]
        residual = np.where(is_known, y[members] - own[members], 0.0) * scale
        np.add.at(residuals[i], pipelines, residual)
        if i >= len(labelled_units):
            np.add.at(unsure_low[i], pipelines, np.where(is_known, 0.0, -fbar[members]) * scale)
            np.add.at(unsure_high[i], pipelines, np.where(is_known, 0.0, 1.0 - fbar[members]) * scale)
    anticipated = _anticipated(population, design, fbar, unit_stratum, sizes)
    expansion = sizes[answered_stratum] / answered_counts[answered_stratum]
    point = point + expansion @ residuals
    lower = lower + expansion @ unsure_low
    upper = upper + expansion @ unsure_high
    return _RoundResult(
        design.weight, point, lower, upper, residuals, answered_stratum, sizes, answered_counts, anticipated
    )


def _anticipated(
    population: Population, design: RoundDesign, fbar: FloatArray, unit_stratum: IntArray, sizes: FloatArray
) -> FloatArray:
    """Per merged stratum, the pipelines' residual covariance of one of its units as the
    predictor anticipates it: one answer's verdict is shared by every pipeline that gave it,
    with variance ``max(f (1 - f), floor)``; distinct answers are independent."""
    k = len(population.pipelines)
    counts = np.maximum(population.counts(), 1.0)
    frame = design.frame
    stratum = unit_stratum[design.unit]
    answer = population.answer[frame]
    order = np.lexsort((answer, stratum))
    frame, stratum, answer = frame[order], stratum[order], answer[order]
    pipelines = population.pipeline[frame]
    variance = predicted_variance(fbar[frame])
    weight = 1.0 / counts[pipelines]
    covariance = np.zeros((len(sizes), k, k))
    longest = int(np.max(np.unique(answer, return_counts=True)[1])) if len(answer) else 0
    for offset in range(longest):
        first = np.arange(len(frame) - offset)
        second = first + offset
        same = (answer[first] == answer[second]) & (stratum[first] == stratum[second])
        i, j = first[same], second[same]
        value = np.sqrt(variance[i] * variance[j]) * weight[i] * weight[j]
        np.add.at(covariance, (stratum[i], pipelines[i], pipelines[j]), value)
        if offset:
            np.add.at(covariance, (stratum[i], pipelines[j], pipelines[i]), value)
    return np.asarray(covariance / sizes[:, None, None], dtype=np.float64)


def _labels_waiting(
    population: Population,
    state: npt.NDArray[np.int8],
    used: Sequence[RoundDesign],
    rounds: Sequence[RoundDesign],
) -> int:
    """Responses with a verdict that no used round reads as a verdict, labelled outside the
    plans: inside every used round's frame (no verdict when it was planned) and sampled by no
    round (one whose sample is not answered enough to be used yet counts them later)."""
    if not used:
        return 0
    waiting = _known(state)
    for design in used:
        in_frame = np.zeros(population.size, dtype=bool)
        in_frame[design.frame] = True
        waiting &= in_frame
    for design in rounds:
        waiting[design.frame[np.isin(design.unit, design.sampled)]] = False
    return int(np.count_nonzero(waiting))


def _unit_members(design: RoundDesign) -> list[IntArray]:
    order = np.argsort(design.unit, kind="stable")
    bounds = np.searchsorted(design.unit[order], np.arange(design.units + 1))
    return [design.frame[order[bounds[u] : bounds[u + 1]]] for u in range(design.units)]


def _stratified_variance(
    rows: FloatArray, stratum: IntArray, sizes: FloatArray, counts: FloatArray, floor: FloatArray
) -> float:
    """``sum_h N_h^2 (1 - n_h/N_h) s_h^2 / n_h`` of the answered units' residuals ``rows``, each
    stratum's ``s_h^2`` pulled towards the pooled within-stratum variance by :data:`SHRINK_DF`
    pseudo degrees of freedom and never below the variance the predictor anticipates
    (``floor``): a stratum of a few labels that all agree with the predictor would otherwise
    claim no variance at all, and an interval from it would not hold."""
    strata = len(sizes)
    within = np.zeros(strata)
    dof = np.maximum(counts - 1.0, 0.0)
    for h in range(strata):
        members = rows[stratum == h]
        if len(members) >= 2:
            within[h] = members.var(ddof=1)
    shrunk = (dof * within + SHRINK_DF * floor) / (dof + SHRINK_DF)
    factor = np.where(counts > 0, sizes**2 * (1.0 - counts / sizes) / np.maximum(counts, 1.0), 0.0)
    return float(factor @ shrunk)


def _weights(results: Sequence[_RoundResult]) -> FloatArray:
    """The rounds' weights, summing to 1 (a census takes them all: it is exact)."""
    raw = np.array([r.weight for r in results])
    if not np.isfinite(raw).all():
        raw = np.where(np.isfinite(raw), 0.0, 1.0)
    return np.asarray(raw / raw.sum(), dtype=np.float64)


def _p_value(point: float, se: float, lower: float, upper: float) -> float:
    """Two-sided p of "no difference" when the difference's identified range is ``point +
    [lower, upper]`` (the distance from 0 to the nearest end, in standard errors)."""
    if point + lower > 0:
        distance = point + lower
    elif point + upper < 0:
        distance = -(point + upper)
    else:
        return 1.0
    if se <= 0:
        return 0.0
    return erfc(distance / se / sqrt(2.0))


@dataclass(frozen=True)
class _Combined:
    """The rounds combined, and what the labels alone prove, per pipeline."""

    results: Sequence[_RoundResult]
    weights: FloatArray
    point: FloatArray
    lower: FloatArray
    upper: FloatArray
    proven_low: FloatArray
    proven_high: FloatArray
    z: float

    def interval(self, combination: Combination, questions: float = 0.0) -> tuple[Interval, float]:
        """The estimate of ``combination`` with its interval, and the two-sided p-value of 0.
        ``questions``: the variance other questions of the same kind would add (a verdict's);
        the interval is then not held within what the labels prove of these questions."""
        indices, coefficients = combination
        positive, negative = np.clip(coefficients, 0.0, None), np.clip(coefficients, None, 0.0)
        floor = float(positive @ self.proven_low[indices] + negative @ self.proven_high[indices])
        ceiling = float(positive @ self.proven_high[indices] + negative @ self.proven_low[indices])
        exact = floor == ceiling  # every response involved has a verdict
        if exact and questions <= 0.0:
            return Interval(floor, floor, floor, 0.0), (0.0 if floor != 0.0 else 1.0)
        if not exact and not self.results:
            return Interval(None, None, None, None), 1.0
        variance = questions
        shift_low = shift_high = 0.0
        centre = floor
        if not exact:
            variance += sum(
                w * w * r.variance(combination) for w, r in zip(self.weights, self.results, strict=True)
            )
            shift_low = float(positive @ self.lower[indices] + negative @ self.upper[indices])
            shift_high = float(positive @ self.upper[indices] + negative @ self.lower[indices])
            centre = min(max(float(coefficients @ self.point[indices]), floor), ceiling)
        se = sqrt(max(variance, 0.0))
        if questions > 0.0:  # the shares of other questions may lie anywhere in [0, 1]
            floor, ceiling = float(negative.sum()), float(positive.sum())
        low = min(max(centre + shift_low - self.z * se, floor), centre)
        high = max(min(centre + shift_high + self.z * se, ceiling), centre)
        return Interval(centre, low, high, se), _p_value(centre, se, shift_low, shift_high)


def _combined(
    population: Population, state: npt.NDArray[np.int8], results: Sequence[_RoundResult], level: float
) -> _Combined:
    known = _known(state)
    y = _verdicts(state)
    k = len(population.pipelines)
    # What the labels alone prove: a response with no verdict may be either.
    proven_low = _per_pipeline(population, np.where(known, y, 0.0))
    proven_high = proven_low + _per_pipeline(population, (~known).astype(np.float64))
    weights = _weights(results) if results else np.zeros(0)
    point, lower, upper = np.zeros(k), np.zeros(k), np.zeros(k)
    for w, r in zip(weights, results, strict=True):
        point += w * r.point
        lower += w * r.lower
        upper += w * r.upper
    z = two_sided_z(level)
    return _Combined(results, weights, point, lower, upper, proven_low, proven_high, z)


def _question_spread(population: Population, state: npt.NDArray[np.int8]) -> PairSpread | None:
    """How other questions of the same kind would move a difference of two pipelines' shares
    (:class:`~goldenlens.core.calibration.question_spread.PairSpread`), from the verdicts in
    force and, elsewhere, the predictor fitted on them; ``None`` with no question given or no
    verdict known."""
    known = _known(state)
    if population.question is None or not known.any():
        return None
    y = _verdicts(state)
    probability = np.where(known, y, fitted_predictions(population, known, y))
    return PairSpread(population.pipeline, population.question, population.answer, probability, known)


def estimate(
    population: Population,
    state: npt.NDArray[np.int8],
    rounds: Sequence[RoundDesign],
    pairs: Sequence[tuple[int, int]] = (),
    *,
    level: float = 0.95,
) -> Calibrated:
    """The estimates of every pipeline and of the ``pairs`` (pipeline indices ``(a, b)``: the
    difference ``a - b``) from the labels in force (``state`` per response) and the rounds."""
    used = [(design, found) for design in rounds if (found := _round(population, state, design)) is not None]
    results = [found for _design, found in used]
    combined = _combined(population, state, results, level)
    names = population.pipelines
    known = _known(state)
    labelled = np.bincount(population.pipeline[known], minlength=len(names))
    counts = population.counts()
    estimates = tuple(
        PipelineEstimate(
            name, combined.interval((np.array([p]), np.ones(1)))[0], int(labelled[p]), int(counts[p])
        )
        for p, name in enumerate(names)
    )
    spread = _question_spread(population, state) if pairs else None
    compared = []
    for a, b in pairs:
        interval, p_value = combined.interval(
            (np.array([a, b]), np.array([1.0, -1.0])), 0.0 if spread is None else spread.variance(a, b)
        )
        exact = None if spread is None else spread.exact_p(a, b)  # every answer of both labelled
        compared.append((interval, p_value if exact is None else exact))
    adjusted = holm([p for _interval, p in compared])
    pair_estimates = []
    for (a, b), (interval, p_value), p_holm in zip(pairs, compared, adjusted, strict=True):
        if interval.estimate is None:
            pair_estimates.append(PairEstimate(names[a], names[b], interval, None, None, None))
            continue
        better = None
        if p_holm < ALPHA and interval.estimate != 0.0:
            better = names[a] if interval.estimate > 0 else names[b]
        pair_estimates.append(PairEstimate(names[a], names[b], interval, p_value, p_holm, better))
    exact = all(e.interval.low is not None and e.interval.low == e.interval.high for e in estimates)
    # Labels outside the samples wait for a round only where an estimate still rests on one.
    waiting = 0 if exact else _labels_waiting(population, state, [design for design, _found in used], rounds)
    unestimated = not results and any(e.interval.estimate is None for e in estimates)
    notes = estimate_notes(unestimated=unestimated, planned=bool(rounds), waiting=waiting)
    return Calibrated(
        estimates, tuple(pair_estimates), len(results), int(np.count_nonzero(known)), level, notes
    )

"""Seeded percentile bootstrap over questions: the confidence interval of a mean, of a pass
rate and of a paired difference of means (issue #10).

Each interval is the central ``level`` share of ``resamples`` resampled means, every resample
drawing the statistic's questions with replacement. The numbers are the same on every run and
machine: each statistic draws from its own random stream, seeded by the project-wide ``seed``
and the statistic's name (so adding a pipeline does not move another pipeline's interval), and
every sum is an exact integer sum (values on a 2^-s grid fine enough to leave the numbers
untouched to ~1e-11; see :func:`grid_bits`), whatever the order a BLAS adds in.

How a resample is drawn is chosen for speed; each way has exactly the distribution of drawing
question indices one by one:

* values with few distinct levels (a binary metric, a pass/fail, the -1/0/+1 difference of two
  binary metrics): the resampled count of each level is Binomial/Multinomial(n, share of the
  level), drawn directly — ``resamples`` draws instead of ``resamples x n``;
* otherwise (F1, precision, recall): question indices are drawn once per question set, and
  every statistic over that set (each pipeline's mean, each paired difference) is summed from
  the same resample counts in one matrix product — the joint resampling that keeps pairs paired.

One deliberate exception, for speed at scale: a statistic of that second kind over more than
:data:`NORMAL_FROM` questions is not resampled. Its bootstrap distribution is then the normal
distribution with the same mean and variance to far better than the resampling itself could
tell (the skew of a mean of n values in [0, 1] falls as 1/sqrt(n); at n = 2,000 it moves a 95%
bound by about 0.005 standard errors, while 10,000 resamples leave about 0.09 standard errors of
Monte Carlo noise on it), and drawing 10,000 x n indices would cost seconds on a large project.
Its "resampled means" are then that normal distribution's quantiles at the resamples' evenly
spaced probabilities, so every downstream step is unchanged; :func:`approximated` names them
and the report says so.

:func:`bootstrap_intervals` may draw the statistics on threads (numpy's generators draw without
the GIL): each statistic has its own stream, so the numbers do not depend on how many.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from statistics import NormalDist
from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

#: The issue's minimum; more only narrows the Monte Carlo noise of the bounds.
DEFAULT_RESAMPLES: Final = 10_000
#: Fixed so that a report's intervals can be reproduced (any integer gives valid intervals).
DEFAULT_SEED: Final = 20261201
DEFAULT_LEVEL: Final = 0.95
#: Up to this many distinct levels a statistic's resamples are drawn as counts per level
#: (a multinomial draw costs about one binomial per level).
CATEGORY_LIMIT: Final = 16
#: Finest grid the values are put on (2^-40 ≈ 1e-12): coarser only when the sums would not
#: stay exact in a float64 otherwise.
_MAX_GRID_BITS: Final = 40
#: Above this many questions a many-valued statistic uses the normal form of its bootstrap
#: distribution instead of resampling (see the module docstring).
NORMAL_FROM: Final = 2_000
#: Counts per matrix-product chunk (rows x questions): keeps the chunk in cache-sized memory.
_CHUNK_CELLS: Final = 1 << 20

FloatArray = npt.NDArray[np.float64]
_R = TypeVar("_R")


@dataclass(frozen=True)
class Statistic:
    """A mean to bootstrap over a question set: ``sum(weights[j] * columns[:, index[j]])``
    averaged over the set's questions (weights +1 and -1 for a paired difference ``a - b``).
    ``key`` names its random stream: the same key and seed always draw the same resamples."""

    key: str
    index: tuple[int, ...]
    weights: tuple[int, ...] = (1,)


@dataclass(frozen=True)
class Settings:
    """Interval level, resamples and seed (the Decision records them)."""

    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    level: float = DEFAULT_LEVEL

    def __post_init__(self) -> None:
        if self.resamples < 1:
            raise ValueError(f"resamples must be 1 or more, got {self.resamples}")
        if not 0 < self.level < 1:
            raise ValueError(f"the interval level must be between 0 and 1, got {self.level}")


def stream(seed: int, key: str) -> np.random.Generator:
    """The random stream of statistic ``key``: numpy's default generator (PCG64), seeded by the
    seed and a SHA-256 of the key, so streams do not depend on what else is computed."""
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    words = [int.from_bytes(digest[n : n + 4], "little") for n in range(0, 16, 4)]
    return np.random.default_rng(np.random.SeedSequence([seed & 0xFFFFFFFF, seed >> 32, *words]))


@dataclass(frozen=True)
class Interval:
    """A statistic's percentile interval (:func:`percentile_interval` at the settings' level), and
    whether it is that of the normal form (:func:`approximated`)."""

    low: float
    high: float
    normal: bool


def resampled_means(
    set_key: str,
    columns: FloatArray,
    statistics: Sequence[Statistic],
    settings: Settings,
    *,
    category_limit: int = CATEGORY_LIMIT,
    normal_from: int = NORMAL_FROM,
) -> list[FloatArray]:
    """Each statistic's ``settings.resamples`` bootstrap means over the question set whose
    values are ``columns`` (questions x columns, finite values). ``set_key`` names the stream
    of the joint index resampling (used by statistics with more than ``category_limit``
    distinct values, over at most ``normal_from`` questions; above, the normal form)."""
    found = _resample(
        lambda: set_key,
        columns,
        statistics,
        settings,
        _means,
        category_limit=category_limit,
        normal_from=normal_from,
        forms=False,
    )
    return [means for means, _normal in found]


def bootstrap_intervals(
    set_key: Callable[[], str],
    columns: FloatArray,
    statistics: Sequence[Statistic],
    settings: Settings,
    *,
    pool: Executor | None = None,
    exact_two_levels: bool = False,
) -> list[Interval]:
    """Each statistic's interval from :func:`resampled_means` (default limits), and whether it is
    the normal form, in one pass over the values. ``exact_two_levels``: a statistic of two
    levels (a 0/1 metric, a pass rate) takes the exact quantiles of its bootstrap distribution,
    the binomial that its resamples draw from (:func:`_binomial_interval`), instead of drawing
    them: what a decision over hundreds of pipelines asks, where the draws would dominate.
    ``set_key`` is called only when a joint resampling needs it (building it from a large set's
    question ids takes longer than the normal form it would not name).

    ``pool``: threads to draw the statistics on, each as soon as it is known. numpy's
    generators release the GIL while they draw, and each statistic draws from its own stream,
    so the numbers are the same on any number of threads."""

    def interval(means: FloatArray) -> tuple[float, float]:
        return percentile_interval(means, settings.level)

    def exact(levels: FloatArray, counts: npt.NDArray[np.int64], divisor: float) -> tuple[float, float]:
        return _binomial_interval(levels, counts, divisor, settings.level)

    found = _resample(
        set_key,
        columns,
        statistics,
        settings,
        interval,
        category_limit=CATEGORY_LIMIT,
        normal_from=NORMAL_FROM,
        forms=True,
        pool=pool,
        two_levels=exact if exact_two_levels else None,
    )
    return [Interval(low, high, normal) for (low, high), normal in found]


def _means(means: FloatArray) -> FloatArray:
    return means


def _resample(
    set_key: Callable[[], str],
    columns: FloatArray,
    statistics: Sequence[Statistic],
    settings: Settings,
    finish: Callable[[FloatArray], _R],
    *,
    category_limit: int,
    normal_from: int,
    forms: bool,
    pool: Executor | None = None,
    two_levels: Callable[[FloatArray, npt.NDArray[np.int64], float], _R] | None = None,
) -> list[tuple[_R, bool]]:
    """``finish`` of each statistic's resampled means, and whether they are the normal form
    (when ``forms``; else ``False``); ``two_levels(levels, counts, divisor)``, when given,
    stands for ``finish`` of a two-level statistic's draws."""
    n = columns.shape[0]
    if n == 0:
        raise ValueError("a bootstrap needs at least one question")
    bits = grid_bits(columns, statistics)
    scale = float(2**bits)
    grid = columns * scale
    np.rint(grid, out=grid)  # exact integers in float64
    divisor = n * scale
    # Without a negative value or a -0.0 on the grid, a column and the difference of two are
    # the matrix product's exact integers, zeros included: taken directly, no product needed.
    plain = not bool(np.signbit(grid).any())
    check = forms and n > normal_from
    # Columns whose values are on the grid exactly (0/1 metrics): a statistic of such columns has
    # as many distinct values as grid levels (the sums are exact), which approximated() counts.
    on_grid = np.all(columns == grid / scale, axis=0) if check else np.zeros(0, dtype=np.bool_)
    out: list[tuple[_R, bool] | None] = [None] * len(statistics)
    joint: list[int] = []
    pending: list[tuple[int, bool, Future[_R]]] = []
    for position, statistic in enumerate(statistics):
        combined = _combined(grid, statistic, plain)
        found = _levels(combined, category_limit, plain)
        normal = check and _normal_form(columns, statistic, on_grid, many=found is None)
        draw: Callable[[], _R] | None = None
        if found is not None and two_levels is not None and len(found[0]) == 2:
            out[position] = (two_levels(*found, divisor), normal)
            continue
        if found is not None:
            levels, counts = found

            def draw(
                levels: FloatArray = levels, counts: npt.NDArray[np.int64] = counts, key: str = statistic.key
            ) -> _R:
                sums = _category_sums(levels, counts, settings, stream(settings.seed, key))
                return finish(sums / divisor)

        elif n > normal_from:

            def draw(combined: FloatArray = combined) -> _R:
                return finish(_normal_means(combined / scale, settings.resamples))

        if draw is None:
            joint.append(position)
        elif pool is None:
            out[position] = (draw(), normal)
        else:
            pending.append((position, normal, pool.submit(draw)))
    for position, normal, future in pending:
        out[position] = (future.result(), normal)
    if joint:
        chosen = [statistics[p] for p in joint]
        for position, sums in zip(joint, _joint_sums(set_key(), grid, chosen, settings), strict=True):
            out[position] = (finish(sums / divisor), False)
    return [found for found in out if found is not None]


def _normal_form(
    columns: FloatArray, statistic: Statistic, on_grid: npt.NDArray[np.bool_], *, many: bool
) -> bool:
    """:func:`approximated` over more than ``normal_from`` questions; ``many``: more levels on
    the grid than the limit, which is the same count when the statistic's columns are on the
    grid (their sums are exact)."""
    if all(on_grid[list(statistic.index)]):
        return many
    return approximated(columns, statistic, normal_from=0)


def _combined(grid: FloatArray, statistic: Statistic, plain: bool) -> FloatArray:
    """``sum(weights[j] * grid[:, index[j]])`` for each question, as the matrix product gives it."""
    if plain and statistic.weights == (1,):
        return grid[:, statistic.index[0]]
    if plain and statistic.weights == (1, -1):
        first, second = statistic.index
        difference: FloatArray = grid[:, first] - grid[:, second]
        return difference
    # Row-major, as the product has always been taken (a -0.0's sign can depend on the order).
    values = np.ascontiguousarray(grid[:, list(statistic.index)])
    product: FloatArray = values @ np.asarray(statistic.weights, dtype=np.float64)
    return product


#: Values a quick look at the first ones of a column takes: more than the category limit of
#: distinct values among them settles that the column has too many levels to count them.
_GLANCE: Final = 256
#: Up to this many levels among the first values, the levels are counted one by one.
_FEW: Final = 4


def _levels(
    values: FloatArray, limit: int, plain: bool = False
) -> tuple[FloatArray, npt.NDArray[np.int64]] | None:
    """The distinct values and their counts (``np.unique``), ``None`` when more than ``limit``.
    ``plain``: no -0.0 among the values (whose sign ``np.unique`` might keep or not)."""
    head = np.unique(values[:_GLANCE])
    if len(head) > limit:
        return None
    if plain and len(head) <= _FEW:
        counts = np.array([np.count_nonzero(values == level) for level in head], dtype=np.int64)
        if int(counts.sum()) == len(values):  # no other value further on: these are the levels
            return head, counts
    levels, counts = np.unique(values, return_counts=True)
    return (levels, counts) if len(levels) <= limit else None


def approximated(columns: FloatArray, statistic: Statistic, *, normal_from: int = NORMAL_FROM) -> bool:
    """Whether :func:`resampled_means` gives ``statistic`` the normal form instead of resamples."""
    if columns.shape[0] <= normal_from:
        return False
    index, weights = list(statistic.index), np.asarray(statistic.weights, dtype=np.float64)
    # A glance at the first questions' values first (each value is its own row's product, and
    # np.unique counts 0.0 and -0.0 as one): enough for a many-valued metric.
    if len(np.unique(columns[:_GLANCE, index] @ weights)) > CATEGORY_LIMIT:
        return True
    return len(np.unique(columns[:, index] @ weights)) > CATEGORY_LIMIT


def _normal_means(values: FloatArray, resamples: int) -> FloatArray:
    """The bootstrap distribution of the mean of ``values`` in its normal form: the mean, and the
    plug-in standard error (population standard deviation / sqrt(n), the bootstrap's own
    variance), at the probabilities (i + 0.5) / resamples."""
    n = values.shape[0]
    error = float(np.std(values)) / math.sqrt(n)
    return float(np.mean(values)) + error * _normal_quantiles(resamples)


_QUANTILES: dict[int, FloatArray] = {}


def _normal_quantiles(resamples: int) -> FloatArray:
    found = _QUANTILES.get(resamples)
    if found is None:
        standard = NormalDist()
        found = np.array([standard.inv_cdf((i + 0.5) / resamples) for i in range(resamples)])
        _QUANTILES[resamples] = found
    return found


def percentile_interval(means: FloatArray, level: float) -> tuple[float, float]:
    """The central ``level`` share of the resampled means (numpy's linear interpolation, as
    ``scipy.stats.bootstrap(method="percentile")``): ``np.quantile(means, [tail, 1 - tail])``
    to the last bit, without its overhead (a report computes hundreds of these)."""
    tail = (1.0 - level) / 2.0
    n = len(means)
    if n == 0 or not 0.0 <= tail <= 1.0 or np.isnan(means).any():
        low, high = np.quantile(means, [tail, 1.0 - tail])  # numpy's errors and NaN handling
        return float(low), float(high)
    # numpy's "linear" method step by step: virtual index (n - 1) * q, its neighbours (the last
    # value beyond the end), the values there in order, then its _lerp.
    bounds: list[tuple[int, int, float]] = []
    for q in (tail, 1.0 - tail):
        virtual = (n - 1) * q
        below = math.floor(virtual)
        above = below + 1
        if virtual >= n - 1:
            below = above = -1
        gamma = virtual - below
        bounds.append((below, above, gamma))
    zeros = means == 0.0
    if zeros.any() and np.signbit(means[zeros]).any():
        # 0.0 and -0.0 are equal to a partition: only numpy's own leaves the same one in place.
        kth = sorted({0, -1, *(b for b, _a, _g in bounds), *(a for _b, a, _g in bounds)})
        ordered = np.partition(means, kth)
    elif bool(np.all(means[:-1] <= means[1:])):
        ordered = means  # already in order: the normal form's quantiles
    else:
        # The same order statistics as a sort, in linear time (a report computes thousands).
        ordered = np.partition(means, sorted({b for b, _a, _g in bounds} | {a for _b, a, _g in bounds}))
    low, high = (_lerp(float(ordered[b]), float(ordered[a]), g) for b, a, g in bounds)
    return low, high


def _lerp(a: float, b: float, t: float) -> float:
    # numpy's _lerp: from the nearer end, so that t = 1 gives b exactly.
    difference = b - a
    return b - difference * (1 - t) if t >= 0.5 else a + difference * t


def grid_bits(columns: FloatArray, statistics: Sequence[Statistic]) -> int:
    """Bits of the value grid: every resampled sum is an integer below 2^52 (exact in a
    float64, in any order of addition), the grid as fine as that allows, at most 2^-40."""
    largest = float(np.max(np.abs(columns))) if columns.size else 0.0
    weight = max((sum(abs(w) for w in s.weights) for s in statistics), default=1)
    bound = columns.shape[0] * largest * weight
    if bound == 0.0:
        return _MAX_GRID_BITS
    return min(_MAX_GRID_BITS, math.floor(52 - math.log2(bound)))


def _binomial_interval(
    levels: FloatArray, counts: npt.NDArray[np.int64], divisor: float, level: float
) -> tuple[float, float]:
    """The central ``level`` interval of the bootstrap distribution of a two-level statistic,
    exactly: its resampled sum is ``levels[0] * (n - K) + levels[1] * K`` with ``K`` binomial
    (``n``, share of the upper level), so the interval's ends are ``K``'s quantiles — what the
    percentile of many resamples estimates, without their Monte Carlo noise."""
    n = int(counts.sum())
    share = float(counts[1]) / n
    k = np.arange(n + 1, dtype=np.float64)
    # log C(n, k) as a running sum of log((n - i + 1) / i): no factorial overflows.
    log_choose = np.concatenate(([0.0], np.cumsum(np.log(n - k[1:] + 1.0) - np.log(k[1:]))))
    log_pmf = log_choose + k * math.log(share) + (n - k) * math.log1p(-share)
    pmf = np.exp(log_pmf - log_pmf.max())
    cdf = np.cumsum(pmf) / pmf.sum()
    tail = (1.0 - level) / 2.0
    # The smallest K whose cumulative probability reaches each quantile.
    low, high = (min(int(np.searchsorted(cdf, q, side="left")), n) for q in (tail, 1.0 - tail))
    lower, upper = (float(levels[0] * (n - K) + levels[1] * K) / divisor for K in (low, high))
    return lower, upper


def _category_sums(
    levels: FloatArray, counts: npt.NDArray[np.int64], settings: Settings, rng: np.random.Generator
) -> FloatArray:
    """Resampled sums of values that take few ``levels`` (``counts`` questions each)."""
    n = int(counts.sum())
    if len(levels) == 1:
        return np.full(settings.resamples, levels[0] * n)
    if len(levels) == 2:
        high = rng.binomial(n, counts[1] / n, size=settings.resamples).astype(np.float64)
        two: FloatArray = levels[0] * (n - high) + levels[1] * high
        return two
    drawn = rng.multinomial(n, counts / n, size=settings.resamples).astype(np.float64)
    sums: FloatArray = drawn @ levels
    return sums


def _joint_sums(
    set_key: str, grid: FloatArray, statistics: Sequence[Statistic], settings: Settings
) -> list[FloatArray]:
    """Resampled sums of several statistics over one question set, from shared resamples:
    each resample's count per question times the values, one matrix product per chunk (a
    statistic of one column with weight 1 is that column's sums; the others combine them)."""
    n = grid.shape[0]
    used = sorted({j for s in statistics for j in s.index})
    where = {j: k for k, j in enumerate(used)}
    values = np.ascontiguousarray(grid[:, used])
    single = [k for k, s in enumerate(statistics) if s.weights == (1,)]
    combined = [k for k, s in enumerate(statistics) if s.weights != (1,)]
    taken = [where[statistics[k].index[0]] for k in single]
    weights = np.zeros((len(used), len(combined)))
    for c, k in enumerate(combined):
        for j, w in zip(statistics[k].index, statistics[k].weights, strict=True):
            weights[where[j], c] += w
    rng = stream(settings.seed, "questions|" + set_key)
    chunk = max(1, min(settings.resamples, _CHUNK_CELLS // n))
    # Statistics x resamples: each statistic's sums contiguous, handed out without a copy.
    sums = np.empty((len(statistics), settings.resamples))
    for start, counts in resample_counts(rng, settings.resamples, n, chunk):
        rows = counts.shape[0]
        base = counts @ values  # rows x used columns, exact integer sums
        if single:
            sums[single, start : start + rows] = base[:, taken].T
        if combined:
            sums[combined, start : start + rows] = (base @ weights).T
    return list(sums)


def resample_counts(
    rng: np.random.Generator, resamples: int, n: int, chunk: int
) -> Iterator[tuple[int, FloatArray]]:
    """``resamples`` resamples of ``n`` questions drawn with replacement, ``chunk`` at a time:
    each chunk's first resample and how many times each question is drawn in each of its
    resamples (rows x n), what a matrix product turns into resampled sums.

    The chunks are drawn into the same two arrays, so a chunk's counts hold only until the next
    is asked for. Arrays made anew for every chunk were given back to the system and asked for
    again each time: the page faults doubled the time of a decision's joint resampling."""
    dtype = np.uint16 if n <= 1 << 16 else np.int64
    rows = min(chunk, resamples)
    offsets = (np.arange(rows, dtype=np.int64) * n)[:, None]
    drawn = np.empty((rows, n), dtype=np.int64)
    counts = np.empty((rows, n), dtype=np.float64)
    for start in range(0, resamples, rows):
        size = min(rows, resamples - start)
        these = drawn[:size]
        these[...] = rng.integers(0, n, size=(size, n), dtype=dtype)
        these += offsets[:size]
        found = counts[:size]
        found.reshape(-1)[...] = np.bincount(these.reshape(-1), minlength=size * n)
        yield start, found

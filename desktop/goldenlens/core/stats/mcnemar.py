"""McNemar's exact test of two pipelines on a binary metric (factual knowledge, exact match):
of the questions exactly one of the two got right, does one win more often than chance would?

The exact test is a two-sided binomial test of ``a_only`` successes in ``a_only + b_only``
trials at p = 1/2. It is computed here in exact integer arithmetic rather than with
``scipy.stats.binomtest`` (which gives the same value, see tests/core/test_mcnemar.py):
importing ``scipy.stats`` takes over a second on a small machine, more than every interval of
a 12,000-question report together, for one line of arithmetic.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import numpy.typing as npt


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided p-value of McNemar's exact test on the discordant counts: ``a_only``
    questions that ``a`` passed and ``b`` failed, ``b_only`` the reverse. With p = 1/2 the
    binomial is symmetric, so the outcomes at most as likely as the observed one are the two
    tails beyond ``min`` and ``max`` (what ``binomtest(..., alternative="two-sided")`` sums):
    ``p = min(1, 2 * P(X <= min(a_only, b_only)))``; 1.0 without discordant questions.

    The tail ``C(n, low) + C(n, low - 1) + ...`` is summed in exact integers from its largest
    term down, and stops as soon as the terms left cannot move the correctly rounded result:
    with thousands of discordant questions a few hundred terms of the thousands count."""
    if a_only < 0 or b_only < 0:
        raise ValueError(f"discordant counts cannot be negative: {a_only}, {b_only}")
    n = a_only + b_only
    low = min(a_only, b_only)
    if n == 0 or 2 * low == n:
        return 1.0
    whole = 1 << n
    tail = 0
    k = low
    term = _binomial(n, k)  # C(n, k): the largest term left
    while True:
        # C(n, k) + ... + C(n, k - m + 1) = C(n, k) * (1 + r1 (1 + r2 (1 + ...))) with
        # r_j = C(n, k - j) / C(n, k - j + 1) = (k - j + 1) / (n - k + j): Horner's scheme in
        # small integers, then two exact divisions of the big ones (the sums are integers).
        m = min(_BATCH, k + 1)
        top, bottom = 1, 1
        for j in range(m - 1, 0, -1):
            step = n - k + j
            top, bottom = step * bottom + (k - j + 1) * top, step * bottom
        tail += term * top // bottom
        if m == k + 1:
            return _p_value(tail, whole)  # every term added, down to C(n, 0)
        # C(n, k - m) = C(n, k) * k! / (k - m)! / ((n - k + m)! / (n - k)!), an exact division.
        term = term * math.perm(k, m) // math.perm(n - k + m, m)
        k -= m
        # The k + 1 terms left, C(n, 0..k), are each at most C(n, k) = term (the binomial
        # coefficients grow up to n / 2 and low < n / 2), so the tail lies in
        # [tail, tail + (k + 1) * term]; rounding is monotone, so when both ends give the same
        # float that float is the exact tail's.
        found = _p_value(tail, whole)
        if found == _p_value(tail + (k + 1) * term, whole):
            return found


#: Terms summed with small integers at a time, between two checks of whether the rest matters.
_BATCH = 32


def _p_value(tail: int, whole: int) -> float:
    # Integer true division rounds correctly however large both are.
    return min(1.0, (2 * tail) / whole)


def _binomial(n: int, k: int) -> int:
    """``math.comb(n, k)`` as the product of its prime powers (Legendre's formula): several
    times faster than ``math.comb`` for the central binomials of thousands of discordant
    questions (thousands of digits each), which a large report needs for every pair."""
    k = min(k, n - k)
    if k < _SMALL:
        return math.comb(n, k)
    primes = _primes(n)
    root = math.isqrt(n)
    small = primes[primes <= root].tolist()
    large = primes[primes > root]
    # Above sqrt(n) a prime's exponent is 0 or 1: n // p - k // p - (n - k) // p.
    factors = large[(n // large - k // large - (n - k) // large) == 1].tolist()
    for p in small:
        exponent, power = 0, p
        while power <= n:
            exponent += n // power - k // power - (n - k) // power
            power *= p
        if exponent:
            factors.append(p**exponent)
    return _product(factors)


#: Below this, math.comb is as fast.
_SMALL = 64


def _product(factors: list[int]) -> int:
    # Pairwise, so that the big multiplications are few and balanced.
    while len(factors) > 1:
        paired = [a * b for a, b in zip(factors[::2], factors[1::2], strict=False)]
        if len(factors) % 2:
            paired.append(factors[-1])
        factors = paired
    return factors[0] if factors else 1


def _primes(n: int) -> npt.NDArray[np.int64]:
    """The primes up to ``n``, from a sieve up to the next power of two (kept: a report asks
    for every pair)."""
    found = _sieve(max(1 << 10, 1 << (n - 1).bit_length()))
    return found[: int(np.searchsorted(found, n, side="right"))]


@functools.lru_cache(maxsize=4)
def _sieve(limit: int) -> npt.NDArray[np.int64]:
    marks = np.ones(limit + 1, dtype=np.bool_)
    marks[:2] = False
    for p in range(2, math.isqrt(limit) + 1):
        if marks[p]:
            marks[p * p :: p] = False
    return np.flatnonzero(marks).astype(np.int64)


#: Fewest discordant questions with which the exact test can reach p < 0.05 at all: with
#: five, even 5 against 0 gives p = 2 / 2^5 = 0.0625.
MIN_DISCORDANT_FOR_5_PERCENT = 6

"""McNemar's exact test of two pipelines on a binary metric (factual knowledge, exact match):
of the questions exactly one of the two got right, does one win more often than chance would?

The exact test is a two-sided binomial test of ``a_only`` successes in ``a_only + b_only``
trials at p = 1/2. It is computed here in exact integer arithmetic rather than with
``scipy.stats.binomtest`` (which gives the same value, see tests/core/test_mcnemar.py):
importing ``scipy.stats`` takes over a second on a small machine, more than every interval of
a 12,000-question report together, for one line of arithmetic.
"""

from __future__ import annotations

import math


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided p-value of McNemar's exact test on the discordant counts: ``a_only``
    questions that ``a`` passed and ``b`` failed, ``b_only`` the reverse. With p = 1/2 the
    binomial is symmetric, so the outcomes at most as likely as the observed one are the two
    tails beyond ``min`` and ``max`` (what ``binomtest(..., alternative="two-sided")`` sums):
    ``p = min(1, 2 * P(X <= min(a_only, b_only)))``; 1.0 without discordant questions.

    The tail ``C(n, low) + C(n, low - 1) + ...`` is summed in exact integers from its largest
    term down, and stops as soon as the terms left cannot move the correctly rounded result:
    with thousands of discordant questions only a few hundred terms of the thousands count."""
    if a_only < 0 or b_only < 0:
        raise ValueError(f"discordant counts cannot be negative: {a_only}, {b_only}")
    n = a_only + b_only
    low = min(a_only, b_only)
    if n == 0 or 2 * low == n:
        return 1.0
    whole = 1 << n
    tail = 0
    term = math.comb(n, low)
    for k in range(low, 0, -1):
        tail += term
        term = term * k // (n - k + 1)  # C(n, k - 1), an exact division
        if k % _CHECK_EVERY == 0:
            # The k terms left, C(n, 0..k-1), are each at most C(n, k - 1) = term (the binomial
            # coefficients grow up to n / 2 and low < n / 2), so the tail lies in
            # [tail, tail + k * term]; rounding is monotone, so when both ends give the same
            # float that float is the exact tail's.
            found = _p_value(tail, whole)
            if found == _p_value(tail + k * term, whole):
                return found
    return _p_value(tail + term, whole)  # every term added, down to C(n, 0) = term


#: Terms summed between two checks of whether the rest can still matter.
_CHECK_EVERY = 8


def _p_value(tail: int, whole: int) -> float:
    # Integer true division rounds correctly however large both are.
    return min(1.0, (2 * tail) / whole)


#: Fewest discordant questions with which the exact test can reach p < 0.05 at all: with
#: five, even 5 against 0 gives p = 2 / 2^5 = 0.0625.
MIN_DISCORDANT_FOR_5_PERCENT = 6

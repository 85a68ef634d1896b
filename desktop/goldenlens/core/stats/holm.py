"""Holm's step-down adjustment of p-values for several comparisons made together (Holm 1979):
what keeps the chance of any wrong "A beats B" among all the pairs compared at the level."""

from __future__ import annotations

from collections.abc import Sequence


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (valid under any dependence between the tests)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted

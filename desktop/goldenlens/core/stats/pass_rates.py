"""Pass rates: the share of a pipeline's scored questions whose value reaches a threshold
("factual knowledge = 1", "recall ≥ 0.5"), the number a decision-maker asks for after the
mean. Their confidence intervals come from :mod:`goldenlens.core.stats.bootstrap` like the means'."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, RECALL

#: ``metric -> threshold``: a value passes when ``value >= threshold``.
DEFAULT_PASS_THRESHOLDS: Final[Mapping[str, float]] = {FACTUAL_KNOWLEDGE: 1.0, F1_SCORE: 0.5, RECALL: 0.5}


def pass_thresholds(
    metrics: Sequence[str], thresholds: Mapping[str, float] | None = None
) -> dict[str, float]:
    """The thresholds that apply to ``metrics`` (default :data:`DEFAULT_PASS_THRESHOLDS`), in
    metric order; a threshold for a metric not reported is an error, not silently dropped."""
    chosen = DEFAULT_PASS_THRESHOLDS if thresholds is None else thresholds
    unknown = [m for m in chosen if m not in metrics]
    if thresholds is not None and unknown:
        known = ", ".join(metrics) or "none"
        raise ValueError(
            f"a pass threshold names metrics not reported: {', '.join(unknown)} (known: {known})"
        )
    return {m: float(chosen[m]) for m in metrics if m in chosen}


def passes(value: float, threshold: float) -> bool:
    """Whether ``value`` passes ``threshold`` (inclusive: FK = 1 passes a threshold of 1)."""
    return value >= threshold

"""What a decision between pipelines rests on: each mean with its confidence interval, pass rates
at thresholds, and paired comparisons with a plain-language verdict (issue #10).

These are the shapes every report reads (the Summary tab, the JSON ``comparisons`` block, the
workbook's first sheet, the HTML report, the Python API); how they are computed lives in the
modules named in each docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from goldenlens.core.errors import GoldenLensError

#: Up to this many pipelines every pair is compared (10 pipelines: 45 pairs a metric); beyond,
#: each pipeline is compared with the leader and with a chosen baseline, on margins that hold
#: for every pair at once (:mod:`goldenlens.core.stats.simultaneous`), and ranked.
ALL_PAIRS_UP_TO: Final = 10
#: :attr:`Decision.mode` values.
ALL_PAIRS: Final = "all pairs"
LEADER_AND_BASELINE: Final = "leader and baseline"


class UnknownBaselineError(GoldenLensError, ValueError):
    """``--baseline`` names no pipeline of the report."""


def check_baseline(baseline: str | None, pipelines: Sequence[str]) -> None:
    """Raise :class:`UnknownBaselineError` when ``baseline`` is given and not one of ``pipelines``."""
    if baseline is not None and baseline not in pipelines:
        listed = ", ".join(pipelines[:20]) + (
            f" and {len(pipelines) - 20} more" if len(pipelines) > 20 else ""
        )
        raise UnknownBaselineError(f"the baseline {baseline!r} is not one of the pipelines: {listed}")


@dataclass(frozen=True)
class RankInterval:
    """Where ``pipeline`` ranks on ``metric`` (1: the highest mean; ties share the best rank of
    their group) and the ranks a simultaneous ``level`` interval allows (``low`` best, ``high``
    worst)."""

    pipeline: str
    metric: str
    rank: int
    low: int
    high: int


@dataclass(frozen=True)
class MetricEstimate:
    """One pipeline's mean of one metric over the questions it has a scored value for, with a
    percentile bootstrap confidence interval (``low``/``high``; ``None`` when ``n`` is 0)."""

    pipeline: str
    metric: str
    mean: float | None
    low: float | None
    high: float | None
    #: Questions with a scored value (not-scored values are left out, as in the means).
    n: int


@dataclass(frozen=True)
class PassRate:
    """The share of a pipeline's scored questions whose value passes ``threshold`` (``value >=
    threshold``), with its bootstrap confidence interval."""

    pipeline: str
    metric: str
    threshold: float
    rate: float | None
    low: float | None
    high: float | None
    passed: int
    n: int


@dataclass(frozen=True)
class PairComparison:
    """Pipeline ``a`` against pipeline ``b`` on one metric, over the questions both have a scored
    value for: the mean difference ``a - b`` with a paired bootstrap confidence interval, and
    for a binary metric McNemar's exact test on the discordant questions."""

    metric: str
    a: str
    b: str
    difference: float | None
    low: float | None
    high: float | None
    #: Questions both pipelines have a scored value for.
    n: int
    #: McNemar's exact two-sided p-value (binary metrics only), else ``None``.
    p_value: float | None
    #: Discordant questions: ``a`` passed and ``b`` failed, and the reverse (binary metrics).
    a_only: int | None
    b_only: int | None
    #: The pipeline the interval says is better (it excludes 0), or ``None``: cannot tell.
    better: str | None
    #: One sentence for a decision-maker, e.g. "Pipeline1 beats Pipeline2 on factual knowledge:
    #: +0.40, 95% CI [0.10, 0.70], p = 0.03 — 10 questions".
    verdict: str
    #: Why the verdict should be read with care ("" when none): too few questions, too few
    #: discordant pairs to reach significance, an interval that straddles 0.
    caveat: str


@dataclass(frozen=True)
class Decision:
    """Everything the reports show about uncertainty, computed once per report."""

    estimates: tuple[MetricEstimate, ...]
    pass_rates: tuple[PassRate, ...]
    comparisons: tuple[PairComparison, ...]
    #: Bootstrap settings: the interval level (0.95), resamples (≥ 10,000) and the seed, so a
    #: reader can reproduce every interval.
    level: float
    resamples: int
    seed: int
    #: ``metric -> threshold`` used for :attr:`pass_rates`.
    thresholds: dict[str, float] = field(default_factory=dict)
    #: The intervals given by the normal form of their bootstrap distribution instead of
    #: resamples (many-valued metrics over more questions than ``normal_from``; see
    #: :mod:`goldenlens.core.stats.bootstrap`), as ``mean|pipeline|metric``, ``pass|…`` or
    #: ``diff|a|b|metric``.
    normal_approximation: tuple[str, ...] = ()
    normal_from: int = 0
    #: :data:`ALL_PAIRS` (every pair, each on its own paired bootstrap interval) or, beyond
    #: :data:`ALL_PAIRS_UP_TO` pipelines, :data:`LEADER_AND_BASELINE`: each pipeline against the
    #: metric's leader and against :attr:`baseline`, on :attr:`margins`.
    mode: str = ALL_PAIRS
    baseline: str | None = None
    #: Per metric, the half-width ``c`` that makes ``difference ± c`` hold for every pair at once
    #: (:data:`LEADER_AND_BASELINE` only).
    margins: dict[str, float] = field(default_factory=dict)
    #: Each pipeline's rank per metric with its simultaneous interval (:data:`LEADER_AND_BASELINE`).
    ranks: tuple[RankInterval, ...] = ()

    def estimate(self, pipeline: str, metric: str) -> MetricEstimate | None:
        """The estimate of ``pipeline`` on ``metric``, if computed."""
        for found in self.estimates:
            if found.pipeline == pipeline and found.metric == metric:
                return found
        return None

    def as_dict(self) -> dict[str, Any]:
        """The JSON ``comparisons`` block (plain data, in a stable order)."""
        block: dict[str, Any] = {
            "mode": self.mode,
            "level": self.level,
            "resamples": self.resamples,
            "seed": self.seed,
            "thresholds": dict(self.thresholds),
            "normal_approximation": {
                "above_questions": self.normal_from,
                "intervals": list(self.normal_approximation),
            },
            "estimates": [asdict(e) for e in self.estimates],
            "pass_rates": [asdict(p) for p in self.pass_rates],
            "pairs": [asdict(c) for c in self.comparisons],
        }
        if self.mode != ALL_PAIRS:
            block["baseline"] = self.baseline
            block["margins"] = dict(self.margins)
            block["ranks"] = [asdict(r) for r in self.ranks]
        return block

"""Decisions built by hand for the report tests (the statistics are computed and tested
elsewhere): intervals around the report's own means, pass rates counted from its rows, and
comparisons with verdict sentences written here."""

from __future__ import annotations

from dataclasses import dataclass

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES, RECALL
from goldenlens.core.scored_rows import Report
from goldenlens.core.stats.decision import Decision, MetricEstimate, PairComparison, PassRate

#: Half-width of every hand-made interval.
HALF_WIDTH = 0.125


@dataclass(frozen=True)
class DecidedReport(Report):
    """A report that can give its decision, as ``Report.decision()`` will."""

    given: Decision | None = None

    def decision(self) -> Decision | None:
        return self.given


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))


def hand_decision(report: Report, comparisons: tuple[PairComparison, ...] = ()) -> Decision:
    """Estimates at the report's means ± :data:`HALF_WIDTH` (clipped to [0, 1]); pass rates of
    FK = 1 and recall ≥ 0.5 counted from the rows; ``comparisons`` as given."""
    means = report.summary()
    estimates = []
    for pipeline in report.pipelines:
        for metric in LEXICAL_SCORE_NAMES:
            mean = means[pipeline][metric]
            n = sum(
                1 for r in report.rows if r.response.pipeline == pipeline and r.scores[metric] is not None
            )
            assert mean is not None
            estimates.append(
                MetricEstimate(pipeline, metric, mean, _clip(mean - HALF_WIDTH), _clip(mean + HALF_WIDTH), n)
            )
    thresholds = {FACTUAL_KNOWLEDGE: 1.0, RECALL: 0.5}
    rates = []
    for pipeline in report.pipelines:
        for metric, threshold in thresholds.items():
            values = [r.scores[metric] for r in report.rows if r.response.pipeline == pipeline]
            scored = [v for v in values if v is not None]
            passed = sum(1 for v in scored if v >= threshold)
            rate = passed / len(scored)
            rates.append(
                PassRate(
                    pipeline,
                    metric,
                    threshold,
                    rate,
                    _clip(rate - 0.2),
                    _clip(rate + 0.2),
                    passed,
                    len(scored),
                )
            )
    return Decision(
        estimates=tuple(estimates),
        pass_rates=tuple(rates),
        comparisons=comparisons,
        level=0.95,
        resamples=10_000,
        seed=12345,
        thresholds=thresholds,
    )


def comparison(
    a: str, b: str, metric: str, difference: float, *, better: str | None, p: float | None = None
) -> PairComparison:
    low, high = difference - 0.3, difference + 0.3
    if better is not None:
        verdict = (
            f"{a} beats {b} on {metric.replace('_', ' ')}: {difference:+.2f}, 95% CI [{low:.2f}, {high:.2f}]"
            + (f", p = {p:.2f}" if p is not None else "")
            + " — 10 questions"
        )
        caveat = ""
    else:
        verdict = (
            f"{a} and {b} cannot be told apart on {metric.replace('_', ' ')}: {difference:+.2f}, "
            f"95% CI [{low:.2f}, {high:.2f}] — 10 questions"
        )
        caveat = "too few questions to tell"
    return PairComparison(
        metric=metric, a=a, b=b, difference=difference, low=low, high=high, n=10, p_value=p,
        a_only=5 if p is not None else None, b_only=1 if p is not None else None,
        better=better, verdict=verdict, caveat=caveat,
    )  # fmt: skip

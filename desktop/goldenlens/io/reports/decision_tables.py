"""The decision's tables as every report lays them out, worked out once: the means table (per
pipeline, each metric's mean with the interval it has and the responses it rests on), the pass
rates (one column per metric and threshold) and the reviewer's view (each pipeline's share
judged correct beside its factual knowledge). The workbook's Decision sheet and the HTML report
render these same rows, each in its own format."""

from __future__ import annotations

from dataclasses import dataclass

from goldenlens.core.calibration.estimator import PipelineEstimate
from goldenlens.core.calibration.human_calibrated import HumanCalibrated
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.scored_rows import Report
from goldenlens.core.stats.decision import Decision, MetricEstimate, PassRate
from goldenlens.core.view.wording import interval_text
from goldenlens.io.reports.decision_text import (
    pass_rate_label,
    ranked_pipelines,
    shown_estimate,
)


@dataclass(frozen=True)
class MeansRow:
    """One pipeline's line of the means table: ``means[metric]`` (None where it answered
    nothing) and ``estimates[metric]``, the decision's interval of that very mean or None."""

    pipeline: str
    responses: int
    means: dict[str, float | None]
    estimates: dict[str, MetricEstimate | None]


def means_rows(report: Report, decision: Decision | None) -> tuple[MeansRow, ...]:
    """The means table of ``report``, its pipelines in the order a report lists them
    (:func:`~goldenlens.io.reports.decision_text.ranked_pipelines`)."""
    summary = report.summary()
    counts = report.response_counts()
    rows: list[MeansRow] = []
    for pipeline in ranked_pipelines(decision, report.pipelines):
        answered = counts[pipeline] > 0
        means = {m: summary[pipeline][m] if answered else None for m in LEXICAL_SCORE_NAMES}
        estimates = {m: shown_estimate(decision, pipeline, m, means[m]) for m in LEXICAL_SCORE_NAMES}
        rows.append(MeansRow(pipeline, counts[pipeline], means, estimates))
    return tuple(rows)


@dataclass(frozen=True)
class PassRateTable:
    """The pass rates: a column per (metric, threshold) in the decision's order, headed by
    ``labels``; ``rows`` holds per pipeline its rate in each column (None where it has none)."""

    labels: tuple[str, ...]
    rows: tuple[tuple[str, tuple[PassRate | None, ...]], ...]


def pass_rate_table(decision: Decision, pipelines: tuple[str, ...]) -> PassRateTable:
    """The pass rates of ``decision`` for ``pipelines``, in that order."""
    first: dict[tuple[str, float], PassRate] = {}
    for rate in decision.pass_rates:
        first.setdefault((rate.metric, rate.threshold), rate)
    by_key = {(r.pipeline, r.metric, r.threshold): r for r in decision.pass_rates}
    rows = tuple((p, tuple(by_key.get((p, *column)) for column in first)) for p in pipelines)
    return PassRateTable(tuple(pass_rate_label(rate) for rate in first.values()), rows)


@dataclass(frozen=True)
class ReviewerRow:
    """One pipeline's line of the reviewer's view: the share judged correct with its interval
    (``interval``: ``[0.79, 0.87]``, empty where not estimated), how many of its responses are
    labelled, and its factual knowledge as scored."""

    pipeline: str
    share: float | None
    interval: str
    labelled: str
    factual_knowledge: float | None


def reviewer_rows(report: Report, found: HumanCalibrated) -> tuple[ReviewerRow, ...]:
    """The reviewer's view of ``report``, a row per estimated pipeline."""
    summary = report.summary()

    def row(estimate: PipelineEstimate) -> ReviewerRow:
        interval = estimate.interval
        return ReviewerRow(
            estimate.pipeline,
            interval.estimate,
            interval_text(interval.low, interval.high),
            f"{estimate.labelled} of {estimate.responses}",
            summary.get(estimate.pipeline, {}).get(FACTUAL_KNOWLEDGE),
        )

    return tuple(row(estimate) for estimate in found.estimates)

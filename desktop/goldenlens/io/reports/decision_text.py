"""A decision's numbers as text, for every renderer — the workbook's Decision sheet, the HTML
report and the printed summary: intervals, the pairwise verdicts in the order a reader needs
them, pass-rate labels. No spreadsheet or HTML library: the command line prints these too."""

from __future__ import annotations

from collections.abc import Sequence

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.stats.decision import ALL_PAIRS, Decision, MetricEstimate, PairComparison, PassRate
from goldenlens.core.view.metric_names import metric_label

NO_INTERVALS = "Confidence intervals not available for this report."


def shown_estimate(
    decision: Decision | None, pipeline: str, metric: str, mean: float | None
) -> MetricEstimate | None:
    """The decision's estimate of ``pipeline`` on ``metric`` if it is an estimate of the mean
    shown (the same value to 1e-9): an interval around another number would mislead."""
    if decision is None or mean is None:
        return None
    found = decision.estimate(pipeline, metric)
    if found is None or found.mean is None or found.low is None or found.high is None:
        return None
    return found if abs(found.mean - mean) <= 1e-9 else None


def ordered_verdicts(decision: Decision) -> list[PairComparison]:
    """Comparisons that tell two pipelines apart first, then the others, each group in the
    decision's order."""
    decided = [c for c in decision.comparisons if c.better is not None]
    return decided + [c for c in decision.comparisons if c.better is None]


def verdict_line(comparison: PairComparison) -> str:
    """The verdict, with its caveat in brackets when it has one."""
    return f"{comparison.verdict} ({comparison.caveat})" if comparison.caveat else comparison.verdict


def pass_rate_label(rate: PassRate) -> str:
    """``Recall ≥ 0.5``; a threshold of 1 on a 0/1 metric reads ``Factual knowledge = 1``."""
    sign = "=" if rate.threshold == 1 else "≥"
    return f"{metric_label(rate.metric)} {sign} {rate.threshold:g}"


def comparisons_heading(decision: Decision) -> str:
    """What the listed comparisons are: every pair, or — beyond ten pipelines — each pipeline
    against each metric's leader (and the baseline), on intervals that hold for every pair."""
    if decision.mode == ALL_PAIRS:
        return (
            f"Comparisons ({decision.level:.0%} intervals over the questions, "
            f"{decision.resamples:,} seeded resamples):"
        )
    pipelines = len({e.pipeline for e in decision.estimates})
    against = "each metric's leader" + (f" and with {decision.baseline}" if decision.baseline else "")
    return (
        f"Comparisons with {against} ({pipelines} pipelines: {decision.level:.0%} intervals that hold "
        f"for all {pipelines * (pipelines - 1) // 2:,} pairs at once, "
        f"{decision.resamples:,} seeded resamples):"
    )


def rank_lines(decision: Decision, metric: str, top: int) -> list[str]:
    """The ``top`` pipelines by their rank on ``metric`` with the ranks a simultaneous interval
    allows ("1. P11 (could rank 1 to 3)"), and how many more; nothing when the decision has no ranks."""
    ranks = sorted((r for r in decision.ranks if r.metric == metric), key=lambda r: (r.rank, r.low))
    if not ranks:
        return []
    lines = [
        f"Ranks on {metric_label(metric).lower()} (best first, with the ranks each could hold at "
        f"{decision.level:.0%}):"
    ]
    lines += [f"  {r.rank}. {r.pipeline} (could rank {r.low} to {r.high})" for r in ranks[:top]]
    if len(ranks) > top:
        lines.append(f"  … and {len(ranks) - top} more: every rank is in the .json, .xlsx and .html reports")
    return lines


def ranked_pipelines(decision: Decision | None, pipelines: Sequence[str]) -> tuple[str, ...]:
    """``pipelines`` as a report lists them: in their order up to ten, and beyond (where the
    decision ranks them) by rank on factual knowledge, the leaders first — so that a table or a
    chart cut to its first rows shows the leaders."""
    if decision is None or decision.mode == ALL_PAIRS:
        return tuple(pipelines)
    place = {r.pipeline: (r.rank, r.low) for r in decision.ranks if r.metric == FACTUAL_KNOWLEDGE}
    unranked = (len(pipelines) + 1, 0)
    order = {p: n for n, p in enumerate(pipelines)}
    return tuple(sorted(pipelines, key=lambda p: (*place.get(p, unranked), order[p])))

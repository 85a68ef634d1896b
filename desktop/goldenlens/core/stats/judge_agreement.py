"""How far reviewers agree with the judge: per judge metric, the raw agreement and Cohen's
kappa (:mod:`goldenlens.core.stats.agreement`) over the scores a reviewer has ruled on.

A reviewer rules on a judge score by overriding it (the pair is the judge's original value
and the reviewer's) or by accepting the question without overriding that score (the judge's
value stands: the pair agrees). Scores are compared as pass/fail at :data:`PASS_AT` — the
judge's binary metrics are 0 or 1 already, and a kappa over raw fractions would count 0.74
against 0.75 as disagreement. Scores nobody ruled on are not counted. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from goldenlens.core.reviewer_decisions import REVIEW_ACCEPTED
from goldenlens.core.scored_rows import ScoredRow
from goldenlens.core.stats.agreement import Agreement, agreement

__all__ = ["PASS_AT", "judge_reviewer_agreement"]

#: A score at or above this passes.
PASS_AT = 0.5


def _passes(value: float) -> bool:
    return value >= PASS_AT


def judge_reviewer_agreement(
    rows: Iterable[ScoredRow],
    metrics: Sequence[str],
    judge_value: Callable[[tuple[str, str], str], float | None],
    review_status: Callable[[str], str],
) -> dict[str, Agreement]:
    """Agreement per metric of ``metrics``. ``judge_value(row key, metric)`` is the judge's
    stored value (``None``: not scored), ``review_status(question id)`` the question's state."""
    pairs: dict[str, tuple[list[bool], list[bool]]] = {m: ([], []) for m in metrics}
    for row in rows:
        accepted = review_status(row.item.id) == REVIEW_ACCEPTED
        for metric in metrics:
            override = row.overrides.get(metric)
            judge: float | None
            reviewer: float | None
            if override is not None:
                judge, reviewer = override.original, override.value
            elif accepted:
                judge = reviewer = judge_value(row.key, metric)
            else:
                continue
            if judge is None or reviewer is None:
                continue  # the judge gave no value: nothing to agree with
            pairs[metric][0].append(_passes(judge))
            pairs[metric][1].append(_passes(reviewer))
    return {metric: agreement(first, second) for metric, (first, second) in pairs.items()}

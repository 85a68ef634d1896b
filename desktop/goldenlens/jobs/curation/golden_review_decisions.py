"""The reviewer's decisions on the judge's golden-review verdicts (single writes, GUI thread).

A verdict is a suggestion: :func:`decide` accepts or dismisses the verdict the newest
golden-review run gave one (question, criterion), recording the judge's verdict and the
reviewer's verdict it implies (:func:`~goldenlens.core.golden.criteria.reviewer_verdict`),
the run and the triplet's fingerprint; :func:`withdraw` undoes the decision in force. Each is
one commit, validated first (``ValueError``, nothing written).

The desktop app calls them with the project it opened (:func:`goldenlens.jobs.open_project`).
"""

from __future__ import annotations

from goldenlens.core.golden.criteria import (
    Decision,
    Verdict,
    criterion_from_name,
    criterion_metric,
    reviewer_verdict,
    triplet_fingerprint,
    verdict_from_value,
)
from goldenlens.core.project_records import GOLDEN_ROW, GoldenReviewDecision
from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN
from goldenlens.jobs.project_access import takes_project
from goldenlens.store.project import ProjectStore


@takes_project
def decide(
    store: ProjectStore,
    question_id: str,
    criterion: str,
    decision: str,
    *,
    verdict: str | None = None,
    note: str = "",
    reviewer: str = "",
) -> GoldenReviewDecision:
    """Accept or dismiss the judge's verdict on ``criterion`` of ``question_id`` in the newest
    golden-review run; ``verdict`` (pass/fail) is the reviewer's own when the judge was unsure.

    ``ValueError`` when there is no such question, run or verdict (a criterion the judge
    could not rate has nothing to accept), or the decision contradicts ``verdict``.
    """
    name = criterion_from_name(criterion)
    kind = Decision(decision)
    if kind is Decision.WITHDRAWN:
        raise ValueError("use withdraw() to undo a decision")
    item = store.golden.item(question_id)
    if item is None:
        raise ValueError(f"there is no golden question {question_id!r}")
    run = store.runs.latest(GOLDEN_REVIEW_RUN)
    if run is None:
        raise ValueError("the golden set has not been reviewed by the judge yet")
    metric = criterion_metric(name)
    record = next(
        (
            r
            for r in store.results.scores_of_question(run.id, question_id)
            if r.metric == metric and r.pipeline == GOLDEN_ROW
        ),
        None,
    )
    if record is None:
        raise ValueError(f"run {run.id} has no verdict on {name.value} for {question_id!r}")
    if record.value is None:
        raise ValueError(
            f"the judge gave no verdict on {name.value} for {question_id!r} ({record.reason}); nothing to "
            "accept or dismiss"
        )
    judge = verdict_from_value(record.value)
    own = None if verdict is None else Verdict(verdict)
    mine = reviewer_verdict(judge, kind, own)
    decision_id = store.golden_review.decide(
        question_id,
        name.value,
        kind.value,
        judge_verdict=judge.value,
        reviewer_verdict=mine.value,
        run_id=run.id,
        triplet_sha256=triplet_fingerprint(item),
        note=note,
        reviewer=reviewer,
    )
    saved = store.golden_review.decision(decision_id)
    assert saved is not None  # just written, in this thread
    return saved


@takes_project
def withdraw(store: ProjectStore, question_id: str, criterion: str, *, reviewer: str = "") -> None:
    """Undo the decision in force on ``criterion`` of ``question_id`` (the entry stays in the
    audit trail); ``ValueError`` when there is none."""
    name = criterion_from_name(criterion)
    if not any(
        d.question_id == question_id and d.criterion == name.value for d in store.golden_review.decisions()
    ):
        raise ValueError(f"no decision on {name.value} for {question_id!r} to withdraw")
    store.golden_review.decide(question_id, name.value, Decision.WITHDRAWN.value, reviewer=reviewer)

"""The judge's golden-set review as the front ends show it: verdicts per golden row and
criterion, the reviewer's decisions, and how often the two agree.

Agreement is read from the decisions in force alone: each holds the judge's verdict it was
made on and the reviewer's verdict, so a later run or edit never changes a figure already
earned. The overall figures cover the judged criteria only; the counted verbosity rule
agrees with a reviewer who counts the same words, which says nothing about the judge, so
it has its own line and stays out of the total. A judge's "unsure" that the reviewer
decided counts as a disagreement (the reviewer always says pass or fail).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from goldenlens.core.golden.criteria import (
    CRITERION_INFO,
    Criterion,
    Verdict,
    VerdictError,
    criterion_metric,
    triplet_fingerprint,
    verdict_from_value,
)
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.project_records import GOLDEN_ROW, GoldenReviewDecision, RunInfo
from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN
from goldenlens.core.stats.agreement import Agreement, agreement
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import HISTORY_DELETE


@dataclass(frozen=True)
class CriterionVerdict:
    """The judge's (or the rule's) verdict on one criterion of one golden row.

    ``verdict`` is ``None`` when the judge could not rate it (``reason`` says why) or the run
    has not reached the row yet (``reason`` empty). ``decision`` is the reviewer's in force;
    ``decision_current`` is False when the triplet was edited since it was made or the judge
    now says something else (the decision then still counts in the agreement: it was true of
    what was shown).
    """

    criterion: Criterion
    verdict: Verdict | None
    reason: str
    source: str
    decision: GoldenReviewDecision | None = None
    decision_current: bool = False
    #: The fields this criterion reads were edited after the run rated them (see
    #: :attr:`GoldenReviewRow.stale`); a rerun re-asks exactly these.
    stale: bool = False

    def as_dict(self) -> dict[str, Any]:
        decision = self.decision
        return {
            "criterion": self.criterion.value,
            "verdict": None if self.verdict is None else self.verdict.value,
            "reason": self.reason,
            "source": self.source,
            "stale": self.stale,
            "decision": None
            if decision is None
            else {
                "decision": decision.decision,
                "judge_verdict": decision.judge_verdict,
                "reviewer_verdict": decision.reviewer_verdict,
                "current": self.decision_current,
                "reviewer": decision.reviewer,
                "note": decision.note,
                "at": decision.created_at,
            },
        }


@dataclass(frozen=True)
class GoldenReviewRow:
    """One golden triplet and its verdicts, in criterion order.

    ``stale``: the triplet (question, answer or fact) was edited after the run judged it, so
    its verdicts are about a text the golden set no longer holds (a new review re-asks them).
    """

    item: GoldenItem
    verdicts: tuple[CriterionVerdict, ...]
    stale: bool = False

    def verdict(self, criterion: Criterion) -> CriterionVerdict | None:
        return next((v for v in self.verdicts if v.criterion is criterion), None)

    def as_dict(self) -> dict[str, Any]:
        return {
            "question_id": self.item.id,
            "question": self.item.question,
            "answer": self.item.answer,
            "fact": self.item.fact,
            "stale": self.stale,
            "verdicts": [v.as_dict() for v in self.verdicts],
        }


@dataclass(frozen=True)
class AgreementFigures:
    """Judge-reviewer agreement: ``overall`` over the judged criteria, and per criterion."""

    overall: Agreement
    by_criterion: dict[Criterion, Agreement]

    def as_dict(self) -> dict[str, Any]:
        return {
            "overall": self.overall.as_dict(),
            "overall_covers": [c.value for c in self.by_criterion if CRITERION_INFO[c].judged],
            "by_criterion": {c.value: a.as_dict() for c, a in self.by_criterion.items()},
        }


@dataclass(frozen=True)
class GoldenReview:
    """A golden-review run's verdicts (``run`` ``None``: never reviewed) with the decisions."""

    run: RunInfo | None
    criteria: tuple[Criterion, ...]
    rows: tuple[GoldenReviewRow, ...]
    agreement: AgreementFigures

    @property
    def decided(self) -> int:
        """How many verdicts have a decision in force."""
        return sum(1 for row in self.rows for v in row.verdicts if v.decision is not None)

    def counts(self) -> dict[Criterion, dict[str, int]]:
        """Per criterion: how many pass, fail, unsure and not rated."""
        out: dict[Criterion, dict[str, int]] = {}
        for criterion in self.criteria:
            tally = {v.value: 0 for v in Verdict} | {"not_rated": 0}
            for row in self.rows:
                found = row.verdict(criterion)
                tally["not_rated" if found is None or found.verdict is None else found.verdict.value] += 1
            out[criterion] = tally
        return out

    def as_dict(self) -> dict[str, Any]:
        run = self.run
        return {
            "run": None
            if run is None
            else {
                "id": run.id,
                "status": run.status,
                "params": dict(run.params),
                "started_at": run.started_at,
            },
            "criteria": [c.value for c in self.criteria],
            "counts": {c.value: tally for c, tally in self.counts().items()},
            "rows": [row.as_dict() for row in self.rows],
            "agreement": self.agreement.as_dict(),
        }


def agreement_figures(decisions: list[GoldenReviewDecision]) -> AgreementFigures:
    """Agreement of the judge's and the reviewer's verdicts in ``decisions`` (see the module
    docstring), every criterion listed even without decisions."""
    pairs: dict[Criterion, tuple[list[str], list[str]]] = {c: ([], []) for c in Criterion}
    for decision in decisions:
        if decision.is_withdrawal:
            continue
        judge, mine = pairs[Criterion(decision.criterion)]
        judge.append(decision.judge_verdict)
        mine.append(decision.reviewer_verdict)
    by_criterion = {c: agreement(judge, mine) for c, (judge, mine) in pairs.items()}
    judged = [c for c in Criterion if CRITERION_INFO[c].judged]
    overall = agreement(
        [v for c in judged for v in pairs[c][0]],
        [v for c in judged for v in pairs[c][1]],
    )
    return AgreementFigures(overall, by_criterion)


#: A triplet field, as :attr:`~goldenlens.core.golden.criteria.CriterionInfo.reads` names it.
_FIELDS: Final[dict[str, Callable[[GoldenItem], str]]] = {
    "question": lambda item: item.question,
    "answer": lambda item: item.answer,
    "fact": lambda item: item.fact,
}


def _edited_since(store: ProjectStore, run: RunInfo | None) -> dict[str, GoldenItem | None]:
    """The items changed after ``run`` started, as they were then (``None``: added since).

    Only the ids with a history entry after the run's golden version are read in full, so a
    review of an untouched golden set costs one cheap scan of the history marks. A run made
    before runs recorded their golden version gives nothing (it cannot be told)."""
    if run is None or run.golden_history_id is None:
        return {}
    since = run.golden_history_id
    changed = {mark.item_id for mark in store.golden.history_marks() if mark.version_id > since}
    out: dict[str, GoldenItem | None] = {}
    for item_id in changed:
        then = [entry for entry in store.golden.history(item_id) if entry.version_id <= since]
        out[item_id] = then[-1].item if then and then[-1].action != HISTORY_DELETE else None
    return out


def load_golden_review(store: ProjectStore, run_id: int | None = None) -> GoldenReview:
    """The verdicts of golden-review run ``run_id`` (default: the newest, finished or not)
    for every golden row, with the decisions in force and the agreement figures.

    Raises ``ValueError`` for a run that is not a golden review, and
    :class:`~goldenlens.core.golden.criteria.VerdictError` for a stored value that is no
    verdict (a damaged file: reported, never shown as a verdict)."""
    run = store.runs.latest(GOLDEN_REVIEW_RUN) if run_id is None else store.runs.get(run_id)
    if run is not None and run.kind != GOLDEN_REVIEW_RUN:
        raise ValueError(f"run {run.id} is a {run.kind} run, not a golden review")
    criteria = tuple(Criterion(c) for c in (run.params.get("criteria") if run else None) or list(Criterion))
    records = {} if run is None else {(r.question_id, r.metric): r for r in store.results.scores(run.id)}
    decisions = store.golden_review.decisions()
    in_force = {(d.question_id, d.criterion): d for d in decisions}
    rows = []
    judged_as = _edited_since(store, run)
    for item in store.golden.items():
        fingerprint = triplet_fingerprint(item)
        before = judged_as.get(item.id, item)
        stale = bool(records) and (before is None or triplet_fingerprint(before) != fingerprint)
        verdicts = []
        for criterion in criteria:
            record = records.get((item.id, criterion_metric(criterion)))
            verdict: Verdict | None = None
            reason, source = "", ""
            if record is not None and record.pipeline == GOLDEN_ROW:
                detail = record.detail
                source = str(detail.get("source", ""))
                if record.value is None:
                    reason = record.reason
                else:
                    verdict = verdict_from_value(record.value)
                    if detail.get("verdict") != verdict.value:
                        raise VerdictError(
                            f"{store.path}: run {run.id if run else '?'} stores {record.value} for "
                            f"{criterion.value} of {item.id!r} but its detail says {detail.get('verdict')!r}"
                        )
                    reason = str(detail.get("reason", ""))
            decision = in_force.get((item.id, criterion.value))
            current = (
                decision is not None
                and decision.triplet_sha256 == fingerprint
                and verdict is not None
                and decision.judge_verdict == verdict.value
            )
            changed = stale and (
                before is None
                or any(_FIELDS[f](before) != _FIELDS[f](item) for f in CRITERION_INFO[criterion].reads)
            )
            verdicts.append(
                CriterionVerdict(
                    criterion, verdict, reason, source, decision, current, changed and verdict is not None
                )
            )
        rows.append(GoldenReviewRow(item, tuple(verdicts), stale and any(v.verdict for v in verdicts)))
    return GoldenReview(run, criteria, tuple(rows), agreement_figures(decisions))

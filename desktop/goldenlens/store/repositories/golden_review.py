"""The golden-review decisions repository (``store.golden_review``): what the reviewer did with
each of the judge's golden-review verdicts.

The verdicts themselves are score rows of a golden-review run (:mod:`.results`, on the
golden row); this table holds only the reviewer's side. Entries are append-only: the latest
per (question, criterion) is in force, a ``withdrawn`` entry undoes the one before, and every
entry stays as the audit trail. Each keeps the judge's verdict it was made on and the
reviewer's verdict, so the agreement of the two is read from the entries alone.
"""

from __future__ import annotations

from goldenlens.core.golden.criteria import Decision, Verdict, criterion_from_name
from goldenlens.core.project_records import GoldenReviewDecision
from goldenlens.store.base import Repository, Row
from goldenlens.store.values import utc_now

_COLUMNS = (
    "d.id, d.question_id, d.criterion, d.decision, d.judge_verdict, d.reviewer_verdict, d.run_id,"
    " d.triplet_sha256, d.note, d.reviewer, d.created_at"
)


def _decision(row: Row) -> GoldenReviewDecision:
    return GoldenReviewDecision(*row)


class GoldenReviewRepository(Repository):
    """Reviewer decisions on golden-review verdicts: ``store.golden_review`` of a
    :class:`~goldenlens.store.project.ProjectStore`."""

    def decide(
        self,
        question_id: str,
        criterion: str,
        decision: str,
        *,
        judge_verdict: str = "",
        reviewer_verdict: str = "",
        run_id: int | None = None,
        triplet_sha256: str = "",
        note: str = "",
        reviewer: str = "",
    ) -> int:
        """Record a decision (committed at once); returns its id.

        ``ValueError`` (nothing written) for an unknown criterion, decision or verdict, or a
        decision that lacks its verdicts; :class:`StoreError` for an unknown question id.
        """
        criterion_from_name(criterion)
        kind = Decision(decision)
        if kind is Decision.WITHDRAWN:
            judge_verdict = reviewer_verdict = ""
        else:
            Verdict(judge_verdict)
            if Verdict(reviewer_verdict) is Verdict.UNSURE:
                raise ValueError("the reviewer's verdict is pass or fail, not unsure")
        with self._write(f"save the golden-review decision on {criterion!r} of {question_id!r}") as conn:
            cursor = conn.execute(
                "INSERT INTO golden_review_decisions (question_id, criterion, decision, judge_verdict,"
                " reviewer_verdict, run_id, triplet_sha256, note, reviewer, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    question_id,
                    criterion,
                    kind.value,
                    judge_verdict,
                    reviewer_verdict,
                    run_id,
                    triplet_sha256,
                    note,
                    reviewer,
                    utc_now(),
                ),
            )
            return self._inserted_id(cursor)

    def decisions(self, *, all: bool = False) -> list[GoldenReviewDecision]:
        """Decisions in effect: the latest per (question, criterion), without withdrawals, in
        golden-set order. With ``all=True``: every entry ever made, oldest first."""
        if all:
            rows = self._fetch(f"SELECT {_COLUMNS} FROM golden_review_decisions AS d ORDER BY d.id")  # noqa: S608
            return [_decision(row) for row in rows]
        rows = self._fetch(
            f"SELECT {_COLUMNS} FROM golden_review_decisions AS d"  # noqa: S608
            " JOIN golden_items AS g ON g.id = d.question_id"
            " WHERE d.id IN (SELECT MAX(id) FROM golden_review_decisions GROUP BY question_id, criterion)"
            " AND d.decision <> ? ORDER BY g.position, d.criterion",
            [Decision.WITHDRAWN.value],
        )
        return [_decision(row) for row in rows]

    def decision(self, decision_id: int) -> GoldenReviewDecision | None:
        """One entry by id, or ``None``."""
        row = self._fetch_one(
            f"SELECT {_COLUMNS} FROM golden_review_decisions AS d WHERE d.id = ?",  # noqa: S608
            [decision_id],
        )
        return None if row is None else _decision(row)

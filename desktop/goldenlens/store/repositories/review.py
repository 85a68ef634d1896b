"""The review repository: score overrides (append-only, latest wins) and the review state of
each question (``store.reviews``)."""

from __future__ import annotations

from goldenlens.core.project_records import Override, Review
from goldenlens.core.reviewer_decisions import REVIEW_STATUSES
from goldenlens.store.base import RecordRows, Repository
from goldenlens.store.values import check_finite, utc_now

#: An :class:`Override` from its row of ``overrides``.
OVERRIDES = RecordRows(
    Override,
    ("id", "question_id", "pipeline", "metric", "value", "passed", "note", "reviewer", "created_at"),
    convert={"passed": bool},
)


class ReviewRepository(Repository):
    """Human review of a project: ``store.reviews`` of a
    :class:`~goldenlens.store.project.ProjectStore`."""

    def set_override(
        self,
        question_id: str,
        pipeline: str,
        metric: str,
        *,
        value: float | None,
        passed: bool | None,
        note: str = "",
        reviewer: str = "",
    ) -> None:
        """Record a reviewer's override of one score. Earlier overrides are kept (they are
        the audit trail) and the stored score itself is never touched. ``value=None`` and
        ``passed=None`` together withdraw the override for this key."""
        number = check_finite(value, f"override of {metric!r} for ({question_id!r}, {pipeline!r})")
        verdict = None if passed is None else int(bool(passed))
        with self._write(f"save the override of {metric!r} for {question_id!r}") as conn:
            conn.execute(
                "INSERT INTO overrides (question_id, pipeline, metric, value, passed, note, reviewer,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (question_id, pipeline, metric, number, verdict, note, reviewer, utc_now()),
            )

    def overrides(self, *, all: bool = False) -> list[Override]:
        """Overrides in effect: the latest per ``(question_id, pipeline, metric)``, leaving out
        keys whose latest entry is a withdrawal. With ``all=True``: every entry ever made,
        oldest first, withdrawals included."""
        if all:
            rows = self._fetch(
                f"SELECT {OVERRIDES.select('overrides')} FROM overrides ORDER BY id"  # noqa: S608
            )
            return OVERRIDES.records(rows)
        rows = self._fetch(
            f"SELECT {OVERRIDES.select('o')} FROM overrides AS o"  # noqa: S608
            " JOIN golden_items AS g ON g.id = o.question_id"
            " LEFT JOIN pipelines AS p ON p.name = o.pipeline"
            " WHERE o.id IN (SELECT MAX(id) FROM overrides GROUP BY question_id, pipeline, metric)"
            " AND NOT (o.value IS NULL AND o.passed IS NULL)"
            " ORDER BY g.position, p.position, o.pipeline, o.metric"
        )
        return OVERRIDES.records(rows)

    def override_in_effect(self, question_id: str, pipeline: str, metric: str) -> Override | None:
        """The latest override of one key, or ``None`` when there is none or it was withdrawn."""
        row = self._fetch_one(
            f"SELECT {OVERRIDES.select('overrides')} FROM overrides"  # noqa: S608
            " WHERE question_id = ? AND pipeline = ? AND metric = ? ORDER BY id DESC LIMIT 1",
            [question_id, pipeline, metric],
        )
        if row is None:
            return None
        override = OVERRIDES.record(row)
        return None if override.is_withdrawal else override

    def set(self, question_id: str, status: str, note: str = "", reviewer: str = "") -> None:
        """Set the review state of a golden question (``unreviewed``, ``accepted``,
        ``needs_curation``)."""
        if status not in REVIEW_STATUSES:
            raise ValueError(f"unknown review status {status!r}; use one of {sorted(REVIEW_STATUSES)}")
        with self._write(f"save the review of {question_id!r}") as conn:
            conn.execute(
                "INSERT INTO reviews (question_id, status, note, reviewer, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (question_id) DO UPDATE SET status = excluded.status, note = excluded.note,"
                " reviewer = excluded.reviewer, updated_at = excluded.updated_at",
                (question_id, status, note, reviewer, utc_now()),
            )

    def all(self) -> dict[str, Review]:
        """Review state by question id; questions never reviewed are absent (``unreviewed``)."""
        rows = self._fetch(
            "SELECT r.question_id, r.status, r.note, r.reviewer, r.updated_at FROM reviews AS r"
            " JOIN golden_items AS g ON g.id = r.question_id ORDER BY g.position"
        )
        return {
            row[0]: Review(question_id=row[0], status=row[1], note=row[2], reviewer=row[3], updated_at=row[4])
            for row in rows
        }

    def of_question(self, question_id: str) -> Review | None:
        """The review state of one question; ``None`` when it was never reviewed."""
        row = self._fetch_one(
            "SELECT question_id, status, note, reviewer, updated_at FROM reviews WHERE question_id = ?",
            [question_id],
        )
        if row is None:
            return None
        return Review(question_id=row[0], status=row[1], note=row[2], reviewer=row[3], updated_at=row[4])

    def clear(self, question_id: str) -> None:
        """Forget the review state of a question (it reads as never reviewed again) — what
        undoing the first review of a question restores."""
        with self._write(f"clear the review of {question_id!r}") as conn:
            conn.execute("DELETE FROM reviews WHERE question_id = ?", (question_id,))

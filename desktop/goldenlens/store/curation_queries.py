"""One question's slice of the project, for the curation edits made on the GUI thread.

Editing a golden row re-scores that row alone, so every read here is bounded by one
question (an index look-up), never by the size of the project: an edit stays in the
milliseconds with 100k scored rows. :meth:`CurationQueriesMixin.atomic` lets the jobs layer
compose an edit and its re-score into one commit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

from goldenlens.core.model import PipelineResponse, ScoreRecord
from goldenlens.store.base import StoreBase
from goldenlens.store.results import _SCORE_SELECT, _score_record
from goldenlens.store.review import override_from_row
from goldenlens.store.values import Override, Review


class CurationQueriesMixin(StoreBase):
    """Per-question reads and writes of :class:`~goldenlens.store.project.ProjectStore`."""

    @contextmanager
    def atomic(self, what: str) -> Iterator[None]:
        """Everything written inside commits together or not at all.

        Public writers join the open transaction, so ``update_golden_item`` followed by
        ``save_scores`` inside one ``atomic`` block is a single commit. ``what`` names the
        action in a :class:`StoreError` message.
        """
        with self._write(what):
            yield

    def responses_of_question(self, question_id: str) -> list[PipelineResponse]:
        """The responses to one question, in pipeline order."""
        rows = self._fetch(
            "SELECT r.question_id, r.pipeline, r.response, r.contexts, r.source_row FROM responses AS r"
            " LEFT JOIN pipelines AS p ON p.name = r.pipeline WHERE r.question_id = ?"
            " ORDER BY p.position, r.pipeline",
            [question_id],
        )
        return [
            PipelineResponse(
                question_id=row[0],
                pipeline=row[1],
                response=row[2],
                contexts=tuple(str(context) for context in json.loads(row[3])),
                source_row=int(row[4]),
            )
            for row in rows
        ]

    def scores_of_question(self, run_id: int, question_id: str) -> list[ScoreRecord]:
        """Full score records of one question in a run, by pipeline order then metric."""
        rows = self._fetch(
            _SCORE_SELECT + " LEFT JOIN pipelines AS p ON p.name = pk.name"  # noqa: S608
            " WHERE s.run_id = ?1 AND s.metric IN (SELECT key FROM metric_keys)"
            " AND s.item = (SELECT key FROM item_keys WHERE question_id = ?2)"
            " ORDER BY p.position, pk.name, m.name",
            [run_id, question_id],
        )
        signatures = {row[0]: row[1] for row in self._fetch("SELECT id, json FROM signatures")}
        return [_score_record(row, signatures) for row in rows]

    def flags_of_question(self, run_id: int, question_id: str) -> list[tuple[str, str, str]]:
        """``(question_id, pipeline, flag)`` of one question in a run; golden-row flags
        (pipeline ``""``) first."""
        rows = self._fetch(
            "SELECT ?2, pk.name, c.name FROM flags AS f JOIN pipeline_keys AS pk ON pk.key = f.pipeline"
            " JOIN flag_codes AS c ON c.code = f.code LEFT JOIN pipelines AS p ON p.name = pk.name"
            " WHERE f.run_id = ?1 AND f.item = (SELECT key FROM item_keys WHERE question_id = ?2)"
            " ORDER BY pk.name <> '', p.position, pk.name, c.name",
            [run_id, question_id],
        )
        return [(row[0], row[1], row[2]) for row in rows]

    def delete_question_results(self, run_id: int, question_id: str) -> None:
        """Forget every score and flag of one question in a run (all pipelines and the golden
        row), so it can be scored again after an edit."""
        with self._write(f"delete the scores of {question_id!r} in run {run_id}") as conn:
            for table, metric in (
                ("scores", "metric IN (SELECT key FROM metric_keys) AND"),
                ("score_notes", ""),
                ("flags", ""),
            ):
                conn.execute(
                    f"DELETE FROM {table} WHERE run_id = ? AND {metric}"  # noqa: S608
                    " item = (SELECT key FROM item_keys WHERE question_id = ?)",
                    (run_id, question_id),
                )

    def override_in_effect(self, question_id: str, pipeline: str, metric: str) -> Override | None:
        """The latest override of one key, or ``None`` when there is none or it was withdrawn."""
        row = self._fetch_one(
            "SELECT id, question_id, pipeline, metric, value, passed, note, reviewer, created_at"
            " FROM overrides WHERE question_id = ? AND pipeline = ? AND metric = ? ORDER BY id DESC LIMIT 1",
            [question_id, pipeline, metric],
        )
        if row is None:
            return None
        override = override_from_row(row)
        return None if override.is_withdrawal else override

    def review_of_question(self, question_id: str) -> Review | None:
        """The review state of one question; ``None`` when it was never reviewed."""
        row = self._fetch_one(
            "SELECT question_id, status, note, reviewer, updated_at FROM reviews WHERE question_id = ?",
            [question_id],
        )
        if row is None:
            return None
        return Review(question_id=row[0], status=row[1], note=row[2], reviewer=row[3], updated_at=row[4])

    def clear_review(self, question_id: str) -> None:
        """Forget the review state of a question (it reads as never reviewed again) — what
        undoing the first review of a question restores."""
        with self._write(f"clear the review of {question_id!r}") as conn:
            conn.execute("DELETE FROM reviews WHERE question_id = ?", (question_id,))

"""The drafts repository (``store.drafts``): judge-drafted golden items awaiting review.

One table, ``drafts`` (project format 4): each row is one chunk's draft with its provenance
(document, page, chunk id, the chunk's text), what the judge wrote, the problems found in
it, the fact's proposed variants, and its review state. ``draft_key`` identifies the chunk's
text with the model and prompt that drafted it: a chunk is drafted once per model and
prompt, so running the same sources again adds nothing twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from goldenlens.core.errors import StoreError
from goldenlens.core.golden.drafts import Draft, DraftProblem, DraftStatus, DraftText
from goldenlens.core.golden.source_chunks import SourceChunk
from goldenlens.store.base import RecordRows, Repository
from goldenlens.store.values import to_json, utc_now


@dataclass(frozen=True)
class NewDraft:
    """A draft to save: the chunk, what the judge wrote and what is wrong with it."""

    key: str
    chunk: SourceChunk
    text: DraftText
    problems: Sequence[DraftProblem] = ()
    variants: Sequence[dict[str, Any]] = ()
    detail: dict[str, Any] = field(default_factory=dict)


def _stored_draft(*, question: str, answer: str, fact: str, **fields: Any) -> Draft:
    return Draft(text=DraftText(question=question, answer=answer, fact=fact), **fields)


_DRAFTS = RecordRows(
    _stored_draft,
    (
        "id",
        "document",
        "page",
        "chunk_id",
        "chunk_text",
        "question",
        "answer",
        "fact",
        "status",
        "problems",
        "variants",
        "detail",
        "run_id",
        "golden_id",
        "reviewer",
        "note",
        "created_at",
        "reviewed_at",
    ),
    convert={
        "id": int,
        "page": int,
        "status": DraftStatus,
        "problems": lambda text: tuple(DraftProblem.from_dict(p) for p in json.loads(text)),
        "variants": lambda text: tuple(json.loads(text)),
        "detail": json.loads,
    },
)
_SELECT = f"SELECT {_DRAFTS.select('drafts')} FROM drafts"  # noqa: S608


class DraftRepository(Repository):
    """The review queue of drafted golden items: ``store.drafts``."""

    # -- reading ------------------------------------------------------------------------

    def all(self, status: DraftStatus | None = None) -> list[Draft]:
        """Drafts in the order they were written; only those of ``status`` when given."""
        if status is None:
            rows = self._fetch(_SELECT + " ORDER BY id")
        else:
            rows = self._fetch(_SELECT + " WHERE status = ? ORDER BY id", [status.value])
        return _DRAFTS.records(rows)

    def get(self, draft_id: int) -> Draft | None:
        """One draft by id, or ``None``."""
        row = self._fetch_one(_SELECT + " WHERE id = ?", [draft_id])
        return None if row is None else _DRAFTS.record(row)

    def of_golden(self, golden_id: str) -> Draft | None:
        """The accepted draft a golden item came from (its provenance), or ``None``."""
        row = self._fetch_one(
            _SELECT + " WHERE golden_id = ? ORDER BY id DESC LIMIT 1",
            [golden_id],
        )
        return None if row is None else _DRAFTS.record(row)

    def keys(self) -> set[str]:
        """The ``draft_key`` of every draft (a chunk drafted by this model and prompt)."""
        return {str(row[0]) for row in self._fetch("SELECT draft_key FROM drafts")}

    def counts(self) -> dict[DraftStatus, int]:
        """How many drafts are in each state (every state present, 0 when none)."""
        found: dict[str, int] = dict(self._fetch("SELECT status, COUNT(*) FROM drafts GROUP BY status"))
        return {status: int(found.get(status.value, 0)) for status in DraftStatus}

    # -- writing ------------------------------------------------------------------------

    def add(self, run_id: int | None, drafts: Sequence[NewDraft]) -> list[int]:
        """Save drafts as pending, in one transaction (joins the caller's); returns their ids.

        A draft whose key is already stored is refused (:class:`StoreError`): a chunk is
        drafted once per model and prompt.
        """
        ids: list[int] = []
        now = utc_now()
        with self._write("save drafts") as conn:
            for new in drafts:
                if self._fetch_one("SELECT id FROM drafts WHERE draft_key = ?", [new.key]) is not None:
                    raise StoreError(
                        f"{self._path}: chunk {new.chunk.chunk_id!r} of {new.chunk.document} "
                        "is already drafted"
                    )
                cursor = conn.execute(
                    "INSERT INTO drafts (draft_key, run_id, document, page, chunk_id, chunk_text, question,"
                    " answer, fact, variants, problems, detail, status, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        new.key,
                        run_id,
                        new.chunk.document,
                        new.chunk.page,
                        new.chunk.chunk_id,
                        new.chunk.text,
                        new.text.question,
                        new.text.answer,
                        new.text.fact,
                        to_json(list(new.variants)),
                        to_json([p.as_dict() for p in new.problems]),
                        to_json(new.detail),
                        DraftStatus.PENDING.value,
                        now,
                    ),
                )
                ids.append(self._inserted_id(cursor))
        return ids

    def review(
        self,
        draft_id: int,
        status: DraftStatus,
        *,
        reviewer: str,
        note: str = "",
        golden_id: str | None = None,
    ) -> None:
        """Record a reviewer's decision on a pending draft (joins the caller's transaction, so
        an acceptance commits with its golden item). Only a pending draft can be decided."""
        with self._write(f"review draft {draft_id}"):
            row = self._fetch_one("SELECT status FROM drafts WHERE id = ?", [draft_id])
            if row is None:
                raise StoreError(f"{self._path}: there is no draft {draft_id}")
            if row[0] != DraftStatus.PENDING.value:
                raise StoreError(f"{self._path}: draft {draft_id} is already {row[0]}")
            self._conn.execute(
                "UPDATE drafts SET status = ?, golden_id = ?, reviewer = ?, note = ?, reviewed_at = ?"
                " WHERE id = ?",
                (status.value, golden_id, reviewer, note, utc_now(), draft_id),
            )

    def reopen(self, draft_id: int) -> None:
        """Put a decided draft back in the queue as pending (the undo of a decision; joins the
        caller's transaction, so an undone acceptance commits with its item's removal)."""
        with self._write(f"reopen draft {draft_id}"):
            row = self._fetch_one("SELECT status FROM drafts WHERE id = ?", [draft_id])
            if row is None:
                raise StoreError(f"{self._path}: there is no draft {draft_id}")
            if row[0] == DraftStatus.PENDING.value:
                raise StoreError(f"{self._path}: draft {draft_id} is already pending")
            self._conn.execute(
                "UPDATE drafts SET status = ?, golden_id = NULL, reviewer = '', note = '', reviewed_at = NULL"
                " WHERE id = ?",
                (DraftStatus.PENDING.value, draft_id),
            )

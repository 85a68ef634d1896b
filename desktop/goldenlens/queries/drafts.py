"""The drafts review queue as a front end shows it: rows with status and provenance, counts.

Read-only, like every query: decisions (accept, edit-then-accept, reject) are writes and go
through :mod:`goldenlens.jobs.drafting.draft_review`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from goldenlens.core.golden.drafts import Draft, DraftProblem, DraftStatus, DraftText
from goldenlens.store.project import ProjectStore

__all__ = ["Draft", "DraftProblem", "DraftQueue", "DraftStatus", "DraftText", "draft_queue", "provenance_of"]


@dataclass(frozen=True)
class DraftQueue:
    """The drafts to show (all, or of one status) and how many are in each state, for
    "3 of 12 reviewed" and the status filter's counts."""

    drafts: tuple[Draft, ...]
    counts: dict[DraftStatus, int]

    @property
    def reviewed(self) -> int:
        """Drafts accepted or rejected."""
        return self.counts[DraftStatus.ACCEPTED] + self.counts[DraftStatus.REJECTED]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def progress(self) -> str:
        """``3 of 12 reviewed``."""
        return f"{self.reviewed} of {self.total} reviewed"

    def as_dict(self) -> dict[str, Any]:
        """JSON form (for ``--json`` output and tests)."""
        return {
            "counts": {status.value: n for status, n in self.counts.items()},
            "drafts": [draft_as_dict(d) for d in self.drafts],
        }


def draft_as_dict(draft: Draft) -> dict[str, Any]:
    """A draft as JSON: provenance, text, problems, variants, review state."""
    return {
        "id": draft.id,
        "status": draft.status.value,
        "document": draft.document,
        "page": draft.page,
        "chunk_id": draft.chunk_id,
        "provenance": draft.provenance(),
        "question": draft.text.question,
        "answer": draft.text.answer,
        "fact": draft.text.fact,
        "variants": [dict(v) for v in draft.variants],
        "problems": [p.as_dict() for p in draft.problems],
        "golden_id": draft.golden_id,
        "reviewer": draft.reviewer,
        "note": draft.note,
        "model": draft.detail.get("model", ""),
        "chunk_text": draft.chunk_text,
    }


def draft_queue(store: ProjectStore, status: DraftStatus | None = None) -> DraftQueue:
    """The review queue: drafts in the order written (only ``status`` when given), with the
    counts of every state."""
    return DraftQueue(tuple(store.drafts.all(status)), store.drafts.counts())


def provenance_of(store: ProjectStore, golden_id: str) -> Draft | None:
    """The draft a golden item was accepted from, ``None`` for an item not drafted here."""
    return store.drafts.of_golden(golden_id)

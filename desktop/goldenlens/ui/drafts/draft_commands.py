"""Undoable decisions on drafts: accepting (the golden item is added; undo deletes it and
puts the draft back in the queue) and rejecting (undo puts it back).

The decision is made when it is pushed (:func:`accept_draft_undoably`,
:func:`reject_draft_undoably`), so a refusal (a flagged draft, an empty field) raises
``ValueError`` and nothing is pushed; the command's first ``redo()`` is that decision, later
ones make it again with the same text, variants and id. Undoing an acceptance is refused
when the golden item was edited since (:func:`goldenlens.jobs.drafting.draft_review.undo_decision`):
the command then marks itself obsolete and reports on :func:`curation_messages`, like the
curation commands. Every step announces ``project_changed``: the grid gains or loses a row.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from PySide6.QtGui import QUndoCommand, QUndoStack

from goldenlens.core.errors import StoreError
from goldenlens.core.inputs import GoldenItem
from goldenlens.jobs.drafting import draft_review
from goldenlens.jobs.drafting.draft_review import AcceptedDraft
from goldenlens.queries.drafts import DraftText
from goldenlens.ui.review.undo_commands import curation_messages
from goldenlens.ui.session import ProjectSession

_log = logging.getLogger(__name__)


class _DraftCommand(QUndoCommand):
    """A decision on a draft that is already made when the command is pushed."""

    def __init__(self, session: ProjectSession, draft_id: int, text: str, reviewer: str) -> None:
        super().__init__(text)
        self.session = session
        self.draft_id = draft_id
        self.reviewer = reviewer
        self._made = True  # the first redo() is the decision made before the push

    def _apply(self, step: Callable[[], str], what: str) -> None:
        try:
            message = step()
        except (ValueError, StoreError) as exc:
            _log.warning("could not %s %r: %s", what, self.text(), exc)
            self.setObsolete(True)
            curation_messages(self.session).failed.emit(f"Could not {what} “{self.text()}”: {exc}")
            return
        self.session.notify_project()
        curation_messages(self.session).message.emit(message)

    def redo(self) -> None:
        if self._made:
            self._made = False
            return
        self._apply(self._decide, "redo")

    def undo(self) -> None:
        self._apply(self._reopen, "undo")

    def _decide(self) -> str:
        raise NotImplementedError

    def _reopen(self) -> str:
        draft_review.undo_decision(self.session.handle, self.draft_id, reviewer=self.reviewer)
        return f"Draft {self.draft_id} is pending again"


class AcceptDraftCommand(_DraftCommand):
    """Accept a draft; undo deletes the golden item it became (unless edited since)."""

    def __init__(
        self,
        session: ProjectSession,
        accepted: AcceptedDraft,
        *,
        reviewer: str,
        edit: DraftText | None,
        variants: Sequence[str],
        accept_flagged: bool,
    ) -> None:
        super().__init__(
            session, accepted.draft_id, f"Accept draft {accepted.draft_id} as {accepted.item.id}", reviewer
        )
        self.item: GoldenItem = accepted.item
        self.edit = edit
        self.variants = list(variants)
        self.accept_flagged = accept_flagged

    def _decide(self) -> str:
        accepted = draft_review.accept_draft(
            self.session.handle,
            self.draft_id,
            reviewer=self.reviewer,
            edit=self.edit,
            variants=self.variants,
            item_id=self.item.id,
            accept_flagged=self.accept_flagged,
        )
        self.item = accepted.item
        return f"Draft {self.draft_id} is golden item {self.item.id} again"

    def _reopen(self) -> str:
        draft_review.undo_decision(
            self.session.handle, self.draft_id, reviewer=self.reviewer, accepted=self.item
        )
        return f"Golden item {self.item.id} removed; draft {self.draft_id} is pending again"


class RejectDraftCommand(_DraftCommand):
    """Reject a draft with a note; undo puts it back in the queue."""

    def __init__(self, session: ProjectSession, draft_id: int, *, reviewer: str, note: str) -> None:
        super().__init__(session, draft_id, f"Reject draft {draft_id}", reviewer)
        self.note = note

    def _decide(self) -> str:
        draft_review.reject_draft(self.session.handle, self.draft_id, reviewer=self.reviewer, note=self.note)
        return f"Draft {self.draft_id} rejected again"


def accept_draft_undoably(
    stack: QUndoStack,
    session: ProjectSession,
    draft_id: int,
    *,
    reviewer: str,
    edit: DraftText | None,
    variants: Sequence[str],
    accept_flagged: bool,
) -> AcceptedDraft:
    """Accept a draft and push the undo of it. Raises ``ValueError`` (nothing written, nothing
    pushed) when the acceptance is refused."""
    accepted = draft_review.accept_draft(
        session.handle,
        draft_id,
        reviewer=reviewer,
        edit=edit,
        variants=variants,
        accept_flagged=accept_flagged,
    )
    stack.push(
        AcceptDraftCommand(
            session, accepted, reviewer=reviewer, edit=edit, variants=variants, accept_flagged=accept_flagged
        )
    )
    return accepted


def reject_draft_undoably(
    stack: QUndoStack, session: ProjectSession, draft_id: int, *, reviewer: str, note: str
) -> None:
    """Reject a draft and push the undo of it. Raises ``ValueError`` when it is refused."""
    draft_review.reject_draft(session.handle, draft_id, reviewer=reviewer, note=note)
    stack.push(RejectDraftCommand(session, draft_id, reviewer=reviewer, note=note.strip()))

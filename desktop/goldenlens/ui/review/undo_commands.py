"""Undoable curation edits: every change a reviewer makes goes on one ``QUndoStack``.

Each command holds the values before and after, so ``undo()`` puts the project back exactly
(golden text, the re-scored numbers, overrides in effect, review state). ``redo()`` and
``undo()`` call :mod:`goldenlens.jobs.curation.edits` on the session's open project (its
:attr:`~goldenlens.ui.session.ProjectSession.handle`) and then announce the question through
:meth:`ProjectSession.notify_question`.

Push commands through the ``push_*`` factories: they validate first (a ``ValueError`` for bad
input, nothing pushed), so a command on the stack never fails for a reason known up front.
Should one fail anyway (the question vanished in a re-import), it marks itself obsolete —
Qt then drops it from the stack — and reports the error on :func:`curation_messages`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Unpack

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from goldenlens.core.errors import StoreError
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.factual_knowledge import fact_with_variant
from goldenlens.core.project_records import Override, Review
from goldenlens.core.reviewer_decisions import REVIEW_ACCEPTED, REVIEW_NEEDS_CURATION, REVIEW_UNREVIEWED
from goldenlens.core.view.metric_names import metric_in_sentence
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.curation.edits import OverrideFields, ScoreKey
from goldenlens.ui.session import ProjectSession

_log = logging.getLogger(__name__)

#: Edits of the same field of the same question within this many seconds merge into one
#: command (e.g. focus-out followed by Ctrl+Enter, or a quick correction of a typo).
MERGE_SECONDS = 2.0

_EDIT_ID = 0x474C01
_REVIEW_ID = 0x474C02

_STATUS_TEXTS = {
    REVIEW_ACCEPTED: "Accept {qid}",
    REVIEW_NEEDS_CURATION: "Mark {qid} as needing curation",
    REVIEW_UNREVIEWED: "Mark {qid} as unreviewed",
}


def _review_state(review: Review | None) -> tuple[str, str]:
    """(status, note); a question never reviewed reads as unreviewed with no note."""
    return (review.status, review.note) if review is not None else (REVIEW_UNREVIEWED, "")


class CurationMessages(QObject):
    """Where curation commands report: ``message`` after each redo/undo (status-bar text),
    ``failed`` when one could not be applied."""

    message = Signal(str)
    failed = Signal(str)


def curation_messages(session: ProjectSession) -> CurationMessages:
    """The session's message hub (one per session, created on first use, owned by it)."""
    hub = session.findChild(CurationMessages)
    if hub is None:
        hub = CurationMessages(session)
    return hub


class _CurationCommand(QUndoCommand):
    """Runs a curation step, announces the question, and survives a failed step."""

    def __init__(self, session: ProjectSession, question_id: str, text: str) -> None:
        super().__init__(text)
        self.session = session
        self.question_id = question_id
        self.reviewer = session.reviewer

    def _apply(self, step: Callable[[], str], what: str) -> None:
        try:
            message = step()
        except (ValueError, StoreError) as exc:
            _log.warning("could not %s %r: %s", what, self.text(), exc)
            self.setObsolete(True)  # Qt removes an obsolete command from the stack
            curation_messages(self.session).failed.emit(f"Could not {what} “{self.text()}”: {exc}")
            return
        self.session.notify_question(self.question_id)
        curation_messages(self.session).message.emit(message)


def _field_names(old: GoldenItem, new: GoldenItem) -> tuple[str, ...]:
    return tuple(name for name in curation.EDITABLE_FIELDS if getattr(old, name) != getattr(new, name))


class EditGoldenCommand(_CurationCommand):
    """Replace a golden item's text (re-scoring its question); undo restores the old text."""

    def __init__(self, session: ProjectSession, old_item: GoldenItem, new_item: GoldenItem) -> None:
        self.fields = _field_names(old_item, new_item)
        what = self.fields[0] if len(self.fields) == 1 else "golden row"
        super().__init__(session, old_item.id, f"Edit {what} of {old_item.id}")
        self.old_item = old_item
        self.new_item = new_item
        self.created = time.monotonic()

    def redo(self) -> None:
        self._apply(self._save(self.new_item), "redo")

    def undo(self) -> None:
        self._apply(self._save(self.old_item), "undo")

    def _save(self, item: GoldenItem) -> Callable[[], str]:
        def step() -> str:
            return curation.edit_golden_item(self.session.handle, item, reviewer=self.reviewer).message()

        return step

    def id(self) -> int:
        return _EDIT_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        """Absorb a quick follow-up edit of the same single field of the same question."""
        if (
            not isinstance(other, EditGoldenCommand)
            or type(other) is not type(self)
            or other.question_id != self.question_id
            or len(self.fields) != 1
            or other.fields != self.fields
            or other.created - self.created > MERGE_SECONDS
        ):
            return False
        self.new_item = other.new_item
        if self.new_item == self.old_item:
            self.setObsolete(True)  # typed and typed back: nothing left to undo
        return True


class AddFactVariantCommand(EditGoldenCommand):
    """Append ``<OR>variant`` to a question's fact; undo restores the fact it had.

    ``and_group``: the variant is a whole ``<AND>`` group (what the variant generator proposes
    for an ``<AND>`` fact, :attr:`~goldenlens.core.variants.generator.FactVariant.and_group`)."""

    def __init__(
        self, session: ProjectSession, old_item: GoldenItem, variant: str, *, and_group: bool = False
    ) -> None:
        fact = fact_with_variant(old_item.fact, variant, and_group=and_group)
        if fact is None:
            raise ValueError(f"the fact of {old_item.id} already has the alternative {variant.strip()!r}")
        super().__init__(session, old_item, replace(old_item, fact=fact))
        self.variant = variant.strip()
        self.and_group = and_group
        self.setText(f"Add fact variant “{self.variant}” to {old_item.id}")

    def redo(self) -> None:
        def step() -> str:
            project = self.session.handle
            if (
                curation.add_fact_variant(
                    project, self.question_id, self.variant, reviewer=self.reviewer, and_group=self.and_group
                )
                is None
            ):
                return f"{self.question_id}: the fact already has “{self.variant}”"
            return f"{self.question_id}: added fact variant “{self.variant}”"

        self._apply(step, "redo")

    def id(self) -> int:
        return -1  # each variant is its own step


def facts_with_variants(fact: str, variants: Sequence[tuple[str, bool]]) -> tuple[str, tuple[str, ...]]:
    """``fact`` with each ``(variant, and_group)`` appended as an ``<OR>`` alternative, in
    order, and the variants that were added (one the fact already has, or that an earlier one
    already added, is skipped). Raises ``ValueError`` for a bad variant."""
    added: list[str] = []
    for variant, and_group in variants:
        longer = fact_with_variant(fact, variant, and_group=and_group)
        if longer is not None:
            fact = longer
            added.append(variant.strip())
    return fact, tuple(added)


class AddFactVariantsCommand(EditGoldenCommand):
    """Append several ``<OR>`` alternatives to a question's fact in ONE undoable step (the
    variant dialog's "Add N variants"): redo saves the longer fact and re-scores the question,
    undo restores the fact it had and its scores."""

    def __init__(
        self, session: ProjectSession, old_item: GoldenItem, variants: Sequence[tuple[str, bool]]
    ) -> None:
        fact, added = facts_with_variants(old_item.fact, variants)
        if not added:
            raise ValueError(f"the fact of {old_item.id} already has every one of these alternatives")
        super().__init__(session, old_item, replace(old_item, fact=fact))
        self.variants = added
        what = f"fact variant “{added[0]}”" if len(added) == 1 else f"{len(added)} fact variants"
        self.setText(f"Add {what} to {old_item.id}")

    def redo(self) -> None:
        def step() -> str:
            result = curation.edit_golden_item(self.session.handle, self.new_item, reviewer=self.reviewer)
            count = len(self.variants)
            return f"Added {count} fact variant{'s' if count > 1 else ''}. {result.message()}"

        self._apply(step, "redo")

    def undo(self) -> None:
        def step() -> str:
            result = curation.edit_golden_item(self.session.handle, self.old_item, reviewer=self.reviewer)
            return f"Undone: {self.text()}. {result.message()}"

        self._apply(step, "undo")

    def id(self) -> int:
        return -1  # never merged with a typed edit of the fact


class OverrideCommand(_CurationCommand):
    """Set (or, with neither a value nor a verdict in ``fields``, remove) the override of the
    score ``key``; undo puts back the override that was in effect before, or none."""

    def __init__(
        self, session: ProjectSession, key: ScoreKey, fields: OverrideFields, before: Override | None
    ) -> None:
        question_id, pipeline, metric = key
        verb = "Remove override of" if _removes(fields) else "Override"
        super().__init__(
            session, question_id, f"{verb} {metric_in_sentence(metric)} of {question_id} / {pipeline}"
        )
        self.key = key
        self.fields = fields
        self.before = before

    def redo(self) -> None:
        def step() -> str:
            if _removes(self.fields):
                curation.clear_override(
                    self.session.handle, *self.key, reviewer=self.reviewer, note=self.fields["note"]
                )
            else:
                curation.set_override(self.session.handle, *self.key, reviewer=self.reviewer, **self.fields)
            return self.text()

        self._apply(step, "redo")

    def undo(self) -> None:
        def step() -> str:
            curation.restore_override(self.session.handle, *self.key, self.before, reviewer=self.reviewer)
            return f"Undone: {self.text()}"

        self._apply(step, "undo")


def _removes(fields: OverrideFields) -> bool:
    """Whether an override's fields remove the one in effect (no value, no verdict)."""
    return fields["value"] is None and fields["passed"] is None


class ReviewCommand(_CurationCommand):
    """Set a question's review status and note; undo restores the previous review state."""

    def __init__(
        self, session: ProjectSession, question_id: str, before: Review | None, status: str, note: str
    ) -> None:
        same_status = status == _review_state(before)[0]
        template = "Edit review note of {qid}" if same_status else _STATUS_TEXTS[status]
        super().__init__(session, question_id, template.format(qid=question_id))
        self.before = before
        self.status = status
        self.note = note
        self.created = time.monotonic()

    def redo(self) -> None:
        def step() -> str:
            curation.set_review(
                self.session.handle, self.question_id, self.status, self.note, reviewer=self.reviewer
            )
            return self.text()

        self._apply(step, "redo")

    def undo(self) -> None:
        def step() -> str:
            curation.restore_review(
                self.session.handle, self.question_id, self.before, reviewer=self.reviewer
            )
            return f"Undone: {self.text()}"

        self._apply(step, "undo")

    def id(self) -> int:
        return _REVIEW_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        """Absorb a quick note edit that keeps the status (status changes stay separate)."""
        if (
            not isinstance(other, ReviewCommand)
            or other.question_id != self.question_id
            or other.status != self.status
            or other.created - self.created > MERGE_SECONDS
        ):
            return False
        self.note = other.note
        if (self.status, self.note) == _review_state(self.before):
            self.setObsolete(True)
        return True


# -- factories: validate, then push -------------------------------------------------------


def push_edit(stack: QUndoStack, session: ProjectSession, new_item: GoldenItem) -> bool:
    """Push an :class:`EditGoldenCommand` for ``new_item``; ``False`` (nothing pushed) when it
    equals the stored item. Raises ``ValueError`` for an invalid edit."""
    old = curation.check_golden_edit(session.handle, new_item)
    if not _field_names(old, new_item):
        return False
    stack.push(EditGoldenCommand(session, old, new_item))
    return True


def push_add_fact_variant(
    stack: QUndoStack, session: ProjectSession, question_id: str, variant: str, *, and_group: bool = False
) -> bool:
    """Push an :class:`AddFactVariantCommand`; ``False`` (nothing pushed) when the fact already
    has that alternative. Raises ``ValueError`` for an unknown question or a bad variant."""
    item = session.project.golden_item(question_id)
    if item is None:
        raise ValueError(f"there is no golden question {question_id!r}")
    if fact_with_variant(item.fact, variant, and_group=and_group) is None:
        return False
    stack.push(AddFactVariantCommand(session, item, variant, and_group=and_group))
    return True


def push_add_fact_variants(
    stack: QUndoStack, session: ProjectSession, question_id: str, variants: Sequence[tuple[str, bool]]
) -> int:
    """Push one :class:`AddFactVariantsCommand` adding every ``(variant, and_group)``; returns
    how many were new (0: nothing pushed). Raises ``ValueError`` for an unknown question or a
    bad variant (nothing pushed)."""
    item = session.project.golden_item(question_id)
    if item is None:
        raise ValueError(f"there is no golden question {question_id!r}")
    _fact, added = facts_with_variants(item.fact, variants)
    if not added:
        return 0
    stack.push(AddFactVariantsCommand(session, item, variants))
    return len(added)


def push_override(
    stack: QUndoStack,
    session: ProjectSession,
    question_id: str,
    pipeline: str,
    metric: str,
    **fields: Unpack[OverrideFields],
) -> None:
    """Push an :class:`OverrideCommand` setting an override (``value``, ``passed``, ``note``)
    by :attr:`session.reviewer`. Raises ``ValueError`` (nothing pushed) for an invalid
    override or a missing reviewer."""
    key = (question_id, pipeline, metric)
    curation.check_override(session.handle, key, fields, reviewer=session.reviewer)
    stack.push(OverrideCommand(session, key, fields, session.project.override_in_effect(*key)))


def push_clear_override(
    stack: QUndoStack,
    session: ProjectSession,
    question_id: str,
    pipeline: str,
    metric: str,
    *,
    note: str = "",
) -> None:
    """Push an :class:`OverrideCommand` removing the override in effect; ``ValueError`` when
    there is none."""
    before = session.project.override_in_effect(question_id, pipeline, metric)
    if before is None:
        raise ValueError(f"{question_id} / {pipeline} has no {metric_in_sentence(metric)} override to remove")
    removal = OverrideFields(value=None, passed=None, note=note)
    stack.push(OverrideCommand(session, (question_id, pipeline, metric), removal, before))


def push_review(
    stack: QUndoStack, session: ProjectSession, question_id: str, status: str, note: str | None = None
) -> bool:
    """Push a :class:`ReviewCommand`; ``note=None`` keeps the current note. ``False`` (nothing
    pushed) when status and note are unchanged. Raises ``ValueError`` for bad input."""
    curation.check_review(session.handle, question_id, status)
    before = session.project.review_of_question(question_id)
    old_status, old_note = _review_state(before)
    new_note = old_note if note is None else note.strip()
    if (status, new_note) == (old_status, old_note):
        return False
    stack.push(ReviewCommand(session, question_id, before, status, new_note))
    return True

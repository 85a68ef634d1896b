"""Single-question writes on an open project: golden edits, fact variants, overrides, reviews,
and decisions on drafts.

The desktop app keeps one :class:`~goldenlens.queries.project.ProjectQueries` on the GUI
thread; its edits (and their undo and redo) come here with that object, and each function
hands the project's connection to :mod:`goldenlens.jobs.curation.edits`, which validates first and
writes in one transaction. So ``goldenlens.ui`` writes without ever naming the store.

The functions take any :class:`OpenProject` (an object with a ``store``), not the queries
class itself: ``jobs`` then does not depend on ``queries``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from goldenlens.core.golden.drafts import Draft, DraftText
from goldenlens.core.inputs import GoldenItem
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.curation.edits import RescoreResult
from goldenlens.jobs.drafting import draft_review
from goldenlens.jobs.drafting.draft_review import AcceptedDraft
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import Override, Review


class OpenProject(Protocol):
    """An open project whose connection the writes use (``ProjectQueries`` is one)."""

    @property
    def store(self) -> ProjectStore: ...


def check_golden_edit(project: OpenProject, new_item: GoldenItem) -> GoldenItem:
    """Validate an edited item (``ValueError``) and return the stored item it replaces."""
    return curation.check_golden_edit(project.store, new_item)


def edit_golden_item(project: OpenProject, new_item: GoldenItem, *, reviewer: str) -> RescoreResult:
    """Save an edited golden item and re-score its question (:func:`curation.edit_golden_item`)."""
    return curation.edit_golden_item(project.store, new_item, reviewer=reviewer)


def add_fact_variant(
    project: OpenProject, question_id: str, variant: str, *, reviewer: str, and_group: bool = False
) -> GoldenItem | None:
    """Append ``<OR>variant`` to a question's fact and re-score it; ``None`` when the fact
    already has that alternative (:func:`curation.add_fact_variant`; ``and_group``: the
    variant is a whole ``<AND>`` group, as the variant generator proposes for an ``<AND>`` fact)."""
    return curation.add_fact_variant(
        project.store, question_id, variant, reviewer=reviewer, and_group=and_group
    )


def check_override(
    project: OpenProject,
    question_id: str,
    pipeline: str,
    metric: str,
    *,
    value: float | None,
    passed: bool | None,
    note: str,
    reviewer: str,
) -> None:
    """Validate an override without writing it (:func:`curation.check_override`)."""
    curation.check_override(
        project.store, question_id, pipeline, metric, value=value, passed=passed, note=note, reviewer=reviewer
    )


def set_override(
    project: OpenProject,
    question_id: str,
    pipeline: str,
    metric: str,
    *,
    value: float | None,
    passed: bool | None,
    note: str,
    reviewer: str,
) -> Override:
    """Record an override of one score; returns the override now in effect."""
    return curation.set_override(
        project.store, question_id, pipeline, metric, value=value, passed=passed, note=note, reviewer=reviewer
    )


def clear_override(
    project: OpenProject, question_id: str, pipeline: str, metric: str, *, reviewer: str, note: str = ""
) -> None:
    """Withdraw the override in effect for one score (the audit trail keeps every entry)."""
    curation.clear_override(project.store, question_id, pipeline, metric, reviewer=reviewer, note=note)


def restore_override(
    project: OpenProject,
    question_id: str,
    pipeline: str,
    metric: str,
    before: Override | None,
    *,
    reviewer: str,
) -> None:
    """Put back the override that was in effect before (``None``: there was none) — undo."""
    curation.restore_override(project.store, question_id, pipeline, metric, before, reviewer=reviewer)


def check_review(project: OpenProject, question_id: str, status: str) -> None:
    """Validate a review: a known question and a known status (``ValueError``)."""
    curation.check_review(project.store, question_id, status)


def set_review(
    project: OpenProject, question_id: str, status: str, note: str = "", *, reviewer: str
) -> Review:
    """Set a question's review state and note; returns the saved state."""
    return curation.set_review(project.store, question_id, status, note, reviewer=reviewer)


def restore_review(project: OpenProject, question_id: str, before: Review | None, *, reviewer: str) -> None:
    """Put back the review state there was before (``None``: never reviewed) — undo."""
    curation.restore_review(project.store, question_id, before, reviewer=reviewer)


def accept_draft(
    project: OpenProject,
    draft_id: int,
    *,
    reviewer: str,
    edit: DraftText | None = None,
    variants: Sequence[str] | None = None,
    item_id: str | None = None,
    accept_flagged: bool = False,
) -> AcceptedDraft:
    """Accept a draft of the review queue, as drafted or edited, into the golden set
    (:func:`goldenlens.jobs.drafting.draft_review.accept_draft`)."""
    return draft_review.accept_draft(
        project.store,
        draft_id,
        reviewer=reviewer,
        edit=edit,
        variants=variants,
        item_id=item_id,
        accept_flagged=accept_flagged,
    )


def reject_draft(project: OpenProject, draft_id: int, *, reviewer: str, note: str = "") -> Draft:
    """Reject a draft of the review queue (:func:`goldenlens.jobs.drafting.draft_review.reject_draft`)."""
    return draft_review.reject_draft(project.store, draft_id, reviewer=reviewer, note=note)


def undo_draft_decision(
    project: OpenProject, draft_id: int, *, reviewer: str, accepted: GoldenItem | None = None
) -> Draft:
    """Put a decided draft back in the queue, deleting the golden item an acceptance made
    (:func:`goldenlens.jobs.drafting.draft_review.undo_decision`)."""
    return draft_review.undo_decision(project.store, draft_id, reviewer=reviewer, accepted=accepted)

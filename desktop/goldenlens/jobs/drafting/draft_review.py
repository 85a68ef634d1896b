"""The reviewer's decisions on drafts: accept (as drafted or edited) into the golden set, or
reject. Nothing enters the golden set without one of these calls.

An accepted draft becomes a golden item in one commit with the draft's new state: the item
is added after the last one (an ``add`` entry in the golden history, with the reviewer), its
notes say where it came from (``Drafted from report.pdf, page 3, chunk p3-2 (draft 7)``), and
the draft keeps the item's id, so the provenance stays queryable
(:meth:`~goldenlens.store.repositories.drafts.DraftRepository.of_golden`) even if the notes are edited.
The fact is the drafted (or edited) fact with the chosen variants as ``<OR>`` alternatives;
by default the generator's variants that carry no false-match risk.

The text is checked again as it will be accepted: an empty question, answer or fact is
refused; any other problem (the fact not in the chunk, an answer over the guardrail) is
refused unless the reviewer accepts it deliberately (``accept_flagged``). Every refusal is a
:class:`DraftReviewError` (a ``ValueError``) with one line; nothing is written then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from goldenlens.core.golden.drafts import (
    DEFAULT_MAX_ANSWER_WORDS,
    Draft,
    DraftProblem,
    DraftStatus,
    DraftText,
    draft_problems,
    missing_fields,
)
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.factual_knowledge import fact_with_variant
from goldenlens.core.variants.generator import suggest_variants
from goldenlens.jobs.project_access import takes_project
from goldenlens.store.project import ProjectStore

__all__ = [
    "AcceptedDraft",
    "DraftReviewError",
    "accept_draft",
    "default_variants",
    "golden_id_for",
    "reject_draft",
    "undo_decision",
]


class DraftReviewError(ValueError):
    """A decision on a draft that cannot be saved; the message is one line."""


@dataclass(frozen=True)
class AcceptedDraft:
    """A draft just accepted: the golden item it became and the problems the reviewer
    accepted it with (empty unless ``accept_flagged``)."""

    item: GoldenItem
    draft_id: int
    edited: bool
    problems: tuple[DraftProblem, ...] = ()


def golden_id_for(draft: Draft) -> str:
    """The golden id an accepted draft gets unless the reviewer names one: ``draft-<id>``
    (unique, and says where the item came from)."""
    return f"draft-{draft.id}"


def default_variants(draft: Draft, fact: str | None = None) -> list[str]:
    """The variants added by default: the generator's suggestions without a false-match risk,
    for the drafted fact, or for ``fact`` when the reviewer edited it."""
    if fact is None or fact.strip() == draft.text.fact.strip():
        return [str(v["text"]) for v in draft.variants if not v.get("risks")]
    return [v.text for v in suggest_variants(fact.strip()).variants if not v.risky]


def _pending(store: ProjectStore, draft_id: int) -> Draft:
    draft = store.drafts.get(draft_id)
    if draft is None:
        raise DraftReviewError(f"there is no draft {draft_id}")
    if draft.status is not DraftStatus.PENDING:
        where = f" as {draft.golden_id}" if draft.golden_id else ""
        raise DraftReviewError(f"draft {draft_id} is already {draft.status.value}{where}")
    return draft


def _fact_with(fact: str, variants: Sequence[str]) -> str:
    combined = fact.strip()
    for variant in variants:
        try:
            added = fact_with_variant(combined, variant)
        except ValueError as error:
            raise DraftReviewError(f"variant {variant!r}: {error}") from None
        if added is not None:
            combined = added
    return combined


@takes_project
def accept_draft(
    store: ProjectStore,
    draft_id: int,
    *,
    reviewer: str,
    edit: DraftText | None = None,
    variants: Sequence[str] | None = None,
    item_id: str | None = None,
    accept_flagged: bool = False,
) -> AcceptedDraft:
    """Accept a pending draft, as drafted or as ``edit``ed, into the golden set.

    ``variants`` are the ``<OR>`` alternatives to add to the fact (default:
    :func:`default_variants`); ``item_id`` the new item's id (default :func:`golden_id_for`).
    """
    draft = _pending(store, draft_id)
    text = edit or draft.text
    text = DraftText(text.question.strip(), text.answer.strip(), text.fact.strip())
    edited = text != DraftText(
        draft.text.question.strip(), draft.text.answer.strip(), draft.text.fact.strip()
    )
    missing = missing_fields(text)
    if missing:
        raise DraftReviewError(
            f"draft {draft_id} cannot be accepted: {'; '.join(p.message for p in missing)} (edit it first)"
        )
    guardrail = int(draft.detail.get("max_answer_words", DEFAULT_MAX_ANSWER_WORDS))
    problems = draft_problems(text, draft.chunk_text, max_answer_words=guardrail)
    if problems and not accept_flagged:
        raise DraftReviewError(
            f"draft {draft_id} is flagged: {'; '.join(p.message for p in problems)}; "
            "edit it, or accept it as flagged deliberately"
        )
    chosen = default_variants(draft, text.fact) if variants is None else list(variants)
    new_id = (item_id or golden_id_for(draft)).strip()
    if not new_id:
        raise DraftReviewError("a golden item needs an id")
    if store.golden.item(new_id) is not None:
        raise DraftReviewError(f"the golden set already has an item {new_id!r}; choose another id")
    how = ", edited" if edited else ""
    item = GoldenItem(
        id=new_id,
        question=text.question,
        answer=text.answer,
        fact=_fact_with(text.fact, chosen),
        notes=f"Drafted from {draft.provenance()} (draft {draft.id}{how})",
    )
    with store.atomic(f"accept draft {draft_id}"):
        store.golden.add(item, reviewer=reviewer)
        store.drafts.review(draft_id, DraftStatus.ACCEPTED, reviewer=reviewer, golden_id=new_id)
    return AcceptedDraft(item, draft_id, edited, problems if accept_flagged else ())


@takes_project
def reject_draft(store: ProjectStore, draft_id: int, *, reviewer: str, note: str = "") -> Draft:
    """Reject a pending draft (it stays in the queue's history with the note); returns it as
    it now stands."""
    _pending(store, draft_id)
    store.drafts.review(draft_id, DraftStatus.REJECTED, reviewer=reviewer, note=note.strip())
    rejected = store.drafts.get(draft_id)
    if rejected is None:  # pragma: no cover - it was just updated through this connection
        raise DraftReviewError(f"draft {draft_id} vanished while it was rejected")
    return rejected


@takes_project
def undo_decision(
    store: ProjectStore, draft_id: int, *, reviewer: str, accepted: GoldenItem | None = None
) -> Draft:
    """Undo the decision on a draft: it is pending again; an accepted draft's golden item is
    deleted in the same commit (its history keeps an entry of the deletion by ``reviewer``).

    ``accepted`` is the item as the acceptance made it: when the item was edited since, the
    undo is refused (the edit would be lost silently); without it, the item is deleted as it is.
    """
    draft = store.drafts.get(draft_id)
    if draft is None:
        raise DraftReviewError(f"there is no draft {draft_id}")
    if draft.status is DraftStatus.PENDING:
        raise DraftReviewError(f"draft {draft_id} is pending: there is no decision to undo")
    item = store.golden.item(draft.golden_id) if draft.golden_id else None
    if accepted is not None and item is not None and item != accepted:
        raise DraftReviewError(
            f"golden item {item.id} was edited after draft {draft_id} was accepted; edit or delete it instead"
        )
    with store.atomic(f"undo the decision on draft {draft_id}"):
        if item is not None:
            store.golden.delete(item.id, reviewer=reviewer)
        store.drafts.reopen(draft_id)
    reopened = store.drafts.get(draft_id)
    if reopened is None:  # pragma: no cover - it was just updated through this connection
        raise DraftReviewError(f"draft {draft_id} vanished while its decision was undone")
    return reopened

"""Reviewing drafts: accept (as drafted or edited) into the golden set with provenance,
reject, and every refusal (nothing written then)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.jobs.drafting import CHUNKS, FX, GOOD, SALES, good_reply
from tests.judge.scripted import ScriptedEngine

from goldenlens.core.golden.drafts import DraftStatus, DraftText
from goldenlens.core.inputs import GoldenItem
from goldenlens.jobs.drafting.draft_job import DraftOptions, draft_chunks
from goldenlens.jobs.drafting.draft_review import DraftReviewError, accept_draft, reject_draft, undo_decision
from goldenlens.store.project import ProjectStore


@pytest.fixture
def store(tmp_path: Path) -> ProjectStore:
    opened = ProjectStore.open(tmp_path / "p.goldenlens", create=True)
    opened.golden.add(GoldenItem("q01", "Existing?", "Yes.", "Yes"))
    draft_chunks(opened, CHUNKS, DraftOptions(), engine=ScriptedEngine(responder=good_reply))
    yield opened  # type: ignore[misc]
    opened.close()


def test_accepting_a_draft_adds_a_golden_item_that_keeps_its_provenance(store: ProjectStore) -> None:
    accepted = accept_draft(store, 1, reviewer="ann")
    question, fact, answer = GOOD[SALES]
    # The generator's variants without a false-match risk join the fact as <OR> alternatives.
    assert accepted.item.fact.startswith(f"{fact}<OR>")
    assert "$134.383 billion" in accepted.item.fact.split("<OR>")
    assert accepted.item == GoldenItem(
        "draft-1",
        question,
        answer,
        accepted.item.fact,
        notes="Drafted from report.pdf, page 1, chunk p1-1 (draft 1)",
    )
    assert [item.id for item in store.golden.items()] == ["q01", "draft-1"]
    assert store.golden.item("draft-1") == accepted.item
    (entry,) = store.golden.history("draft-1")
    assert (entry.action, entry.reviewer) == ("add", "ann")
    draft = store.drafts.get(1)
    assert draft is not None
    assert (draft.status, draft.golden_id, draft.reviewer) == (DraftStatus.ACCEPTED, "draft-1", "ann")
    assert draft.text.fact == fact  # the draft keeps what the judge wrote
    # Provenance stays queryable after the notes are edited away.
    store.golden.update(GoldenItem("draft-1", question, answer, fact, notes=""))
    found = store.drafts.of_golden("draft-1")
    assert found is not None
    assert found.provenance() == "report.pdf, page 1, chunk p1-1"
    with pytest.raises(DraftReviewError, match="draft 1 is already accepted as draft-1"):
        accept_draft(store, 1, reviewer="ann")


def test_edit_then_accept(store: ProjectStore) -> None:
    edit = DraftText(
        "How much did exchange rates reduce Amazon's International segment net sales in Q2 2023?",
        "They reduced them by $180 million.",
        "$180 million",
    )
    accepted = accept_draft(
        store, 2, reviewer="bob", edit=edit, variants=["180 million dollars"], item_id="q02"
    )
    assert accepted.edited
    assert accepted.item == GoldenItem(
        "q02", edit.question, edit.answer, "$180 million<OR>180 million dollars",
        notes="Drafted from report.pdf, page 1, chunk p1-2 (draft 2, edited)",
    )  # fmt: skip
    draft = store.drafts.get(2)
    assert draft is not None
    assert draft.text.answer == GOOD[FX][2]  # the judge's text is kept


def test_an_edited_fact_gets_its_own_variants(store: ProjectStore) -> None:
    edit = DraftText(GOOD[SALES][0], "Total net sales increased 11% to $134,383 million.", "134,383 million")
    accepted = accept_draft(store, 1, reviewer="ann", edit=edit)
    alternatives = accepted.item.fact.split("<OR>")
    assert alternatives[0] == "134,383 million"
    assert "134.383 billion" in alternatives


def test_rejecting_a_draft(store: ProjectStore) -> None:
    rejected = reject_draft(store, 3, reviewer="ann", note="  not a useful question ")
    assert (rejected.status, rejected.note, rejected.reviewer) == (
        DraftStatus.REJECTED,
        "not a useful question",
        "ann",
    )
    assert rejected.reviewed_at
    assert [item.id for item in store.golden.items()] == ["q01"]
    with pytest.raises(DraftReviewError, match="draft 3 is already rejected"):
        reject_draft(store, 3, reviewer="ann")
    assert store.drafts.counts() == {DraftStatus.PENDING: 2, DraftStatus.ACCEPTED: 0, DraftStatus.REJECTED: 1}


def test_refusals_write_nothing(store: ProjectStore) -> None:
    before = store.golden.items()
    with pytest.raises(DraftReviewError, match="there is no draft 99"):
        accept_draft(store, 99, reviewer="ann")
    with pytest.raises(DraftReviewError, match="the question is empty"):
        accept_draft(
            store,
            1,
            reviewer="ann",
            edit=DraftText(" ", "An answer with $134,383 million.", "$134,383 million"),
        )
    flagged = DraftText(GOOD[SALES][0], "Sales were $134.4 billion.", "$134.4 billion")
    with pytest.raises(
        DraftReviewError, match=r"flagged: the fact '\$134\.4 billion' does not occur in the chunk"
    ):
        accept_draft(store, 1, reviewer="ann", edit=flagged)
    with pytest.raises(DraftReviewError, match="already has an item 'q01'"):
        accept_draft(store, 1, reviewer="ann", item_id="q01")
    with pytest.raises(DraftReviewError, match="variant '134<OR>5'"):
        accept_draft(store, 1, reviewer="ann", variants=["134<OR>5"])
    assert store.golden.items() == before
    assert store.drafts.counts()[DraftStatus.PENDING] == 3


def test_a_flagged_draft_is_accepted_only_deliberately(tmp_path: Path) -> None:
    with ProjectStore.open(tmp_path / "f.goldenlens", create=True) as store:
        reply = json.dumps(
            {"question": "What were sales?", "fact": "$134.4 billion", "answer": "$134.4 billion."}
        )
        draft_chunks(store, CHUNKS[:1], DraftOptions(), engine=ScriptedEngine(reply))
        with pytest.raises(DraftReviewError, match="flagged"):
            accept_draft(store, 1, reviewer="ann")
        accepted = accept_draft(store, 1, reviewer="ann", accept_flagged=True, variants=[])
        assert [p.code.value for p in accepted.problems] == ["fact_not_in_chunk", "fact_is_answer"]
        assert accepted.item.fact == "$134.4 billion"


def test_undoing_a_decision_puts_the_draft_back_and_removes_its_item(store: ProjectStore) -> None:
    accepted = accept_draft(store, 1, reviewer="ann")
    reopened = undo_decision(store, 1, reviewer="bob", accepted=accepted.item)
    assert (reopened.status, reopened.golden_id, reopened.reviewer, reopened.reviewed_at) == (
        DraftStatus.PENDING,
        None,
        "",
        None,
    )
    assert [item.id for item in store.golden.items()] == ["q01"]
    assert [(e.action, e.reviewer) for e in store.golden.history("draft-1")] == [
        ("add", "ann"),
        ("delete", "bob"),
    ]
    assert store.drafts.of_golden("draft-1") is None
    # Accepted again, it is the same item.
    assert accept_draft(store, 1, reviewer="ann").item == accepted.item
    reject_draft(store, 2, reviewer="ann", note="dull")
    assert undo_decision(store, 2, reviewer="ann").status is DraftStatus.PENDING
    assert store.drafts.counts()[DraftStatus.REJECTED] == 0


def test_an_undo_that_would_lose_an_edit_is_refused(store: ProjectStore) -> None:
    accepted = accept_draft(store, 1, reviewer="ann")
    edited = GoldenItem("draft-1", accepted.item.question, accepted.item.answer, "$134,383 million")
    store.golden.update(edited)
    with pytest.raises(DraftReviewError, match="golden item draft-1 was edited after draft 1 was accepted"):
        undo_decision(store, 1, reviewer="ann", accepted=accepted.item)
    assert store.golden.item("draft-1") == edited
    assert store.drafts.get(1).status is DraftStatus.ACCEPTED  # type: ignore[union-attr]
    with pytest.raises(DraftReviewError, match="draft 3 is pending: there is no decision to undo"):
        undo_decision(store, 3, reviewer="ann")

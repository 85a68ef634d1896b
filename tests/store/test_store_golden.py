"""Golden items: replacing, editing, history and named snapshots."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from goldenlens.core.model import GoldenItem, PipelineResponse, ScoreRecord
from goldenlens.store import ProjectStore, StoreError

ScoreFactory = Callable[..., ScoreRecord]


def test_golden_items_keep_file_order_and_exact_text(store: ProjectStore, awkward: str) -> None:
    items = [
        GoldenItem("z-last-id", "first row", "a", "f", "", 2),
        GoldenItem("a-first-id", awkward, awkward, awkward, awkward, 3),
        GoldenItem("m", "", "", "", "", 0),
    ]
    store.replace_golden(items)
    assert store.golden_items() == items
    assert store.golden_item("a-first-id") == items[1]
    assert store.golden_item("missing") is None


def test_duplicate_ids_are_refused_before_writing(store: ProjectStore, items: list[GoldenItem]) -> None:
    store.replace_golden(items)
    with pytest.raises(ValueError, match="'q1'"):
        store.replace_golden([*items, items[0]])
    assert store.golden_items() == items


def test_replace_golden_keeps_everything_of_surviving_ids(
    imported: ProjectStore, items: list[GoldenItem], score: ScoreFactory
) -> None:
    run = imported.start_run("lexical", {}, 6)
    imported.save_scores(run, [score("q1", "baseline"), score("q3", "baseline")], [("q3", "", "ambiguous")])
    imported.set_review("q1", "accepted", "fine", "ana")
    imported.set_review("q3", "needs_curation", "fact too short", "ana")
    imported.set_override("q1", "baseline", "f1_score", value=1.0, passed=True, note="ok", reviewer="ana")
    imported.set_override("q3", "baseline", "f1_score", value=0.0, passed=False, note="", reviewer="ana")

    edited_q1 = replace(items[0], answer="About 10.3 billion shares.")
    new_q4 = GoldenItem("q4", "New question?", "New answer", "new")
    imported.replace_golden([new_q4, items[1], edited_q1], source="golden-v2.xlsx")

    assert [item.id for item in imported.golden_items()] == ["q4", "q2", "q1"]
    assert imported.golden_item("q1") == edited_q1
    assert set(imported.reviews()) == {"q1"}
    assert imported.reviews()["q1"].note == "fine"
    assert [(o.question_id, o.value) for o in imported.overrides()] == [("q1", 1.0)]
    assert {r.question_id for r in imported.responses()} == {"q1", "q2"}  # q3's went with it
    assert imported.scored_keys(run) == {("q1", "baseline")}
    assert imported.flags(run) == []


def test_history_records_import_edit_add_and_delete(store: ProjectStore, items: list[GoldenItem]) -> None:
    store.replace_golden(items, source="golden.xlsx")
    store.replace_golden(items, source="golden.xlsx")  # unchanged: no new entries
    assert [(h.item.id, h.action, h.source) for h in store.golden_history()] == [
        ("q1", "import", "golden.xlsx"),
        ("q2", "import", "golden.xlsx"),
        ("q3", "import", "golden.xlsx"),
    ]

    edited = replace(items[0], fact="10,317,750,796<OR>10.3 billion")
    store.update_golden_item(edited, reviewer="ana")
    store.update_golden_item(edited, reviewer="ana")  # no change: nothing recorded
    added = GoldenItem("q9", "Added in the app?", "Yes", "yes")
    store.add_golden_item(added, reviewer="ben")
    store.delete_golden_item("q2", reviewer="ana")
    store.replace_golden([edited, added], source="golden-v2.xlsx")  # drops q3

    assert [item.id for item in store.golden_items()] == ["q1", "q9"]
    q1 = store.golden_history("q1")
    assert [(h.action, h.reviewer, h.item) for h in q1] == [("import", "", items[0]), ("edit", "ana", edited)]
    assert q1[0].version_id < q1[1].version_id
    assert [(h.action, h.reviewer) for h in store.golden_history("q9")] == [("add", "ben")]
    deleted_q2 = store.golden_history("q2")[-1]
    assert (deleted_q2.action, deleted_q2.reviewer, deleted_q2.item) == ("delete", "ana", items[1])
    deleted_q3 = store.golden_history("q3")[-1]
    assert (deleted_q3.action, deleted_q3.source, deleted_q3.item) == ("delete", "golden-v2.xlsx", items[2])
    assert all(h.changed_at.endswith("+00:00") for h in store.golden_history())


def test_added_items_go_last_and_edits_keep_their_place(store: ProjectStore, items: list[GoldenItem]) -> None:
    store.replace_golden(items)
    store.add_golden_item(GoldenItem("q0", "?", "!", "!"))
    store.update_golden_item(replace(items[0], notes="checked"))
    assert [item.id for item in store.golden_items()] == ["q1", "q2", "q3", "q0"]


def test_unknown_or_duplicate_items_are_store_errors(store: ProjectStore, items: list[GoldenItem]) -> None:
    store.replace_golden(items)
    with pytest.raises(StoreError, match=r"demo\.goldenlens.*'q1' already exists"):
        store.add_golden_item(items[0])
    with pytest.raises(StoreError, match="'nope'"):
        store.update_golden_item(GoldenItem("nope", "q", "a", "f"))
    with pytest.raises(StoreError, match="'nope'"):
        store.delete_golden_item("nope")
    assert store.golden_items() == items
    assert len(store.golden_history()) == 3


def test_deleting_an_item_cascades_to_its_responses_and_review(
    imported: ProjectStore, answers: list[PipelineResponse]
) -> None:
    imported.set_review("q2", "accepted")
    imported.delete_golden_item("q2")
    assert imported.responses() == [r for r in answers if r.question_id != "q2"]
    assert imported.reviews() == {}


def test_snapshots_freeze_the_golden_set(
    project_path: Path, store: ProjectStore, items: list[GoldenItem]
) -> None:
    store.replace_golden(items)
    first = store.snapshot_golden("as imported", "before curation")
    store.update_golden_item(replace(items[1], fact="Seattle"))
    store.delete_golden_item("q3")
    second = store.snapshot_golden("curated")

    assert store.golden_snapshot(first) == items
    assert store.golden_snapshot(second) == [items[0], replace(items[1], fact="Seattle")]
    versions = store.golden_versions()
    assert [(v.id, v.name, v.note, v.item_count) for v in versions] == [
        (first, "as imported", "before curation", 3),
        (second, "curated", "", 2),
    ]
    assert versions[0].last_history_id == 3
    assert versions[1].last_history_id == store.golden_history()[-1].version_id
    with pytest.raises(StoreError, match="no golden-set version 999"):
        store.golden_snapshot(999)
    with pytest.raises(ValueError, match="name"):
        store.snapshot_golden("  ")
    store.close()
    with ProjectStore.open(project_path) as reopened:
        assert reopened.golden_snapshot(first) == items

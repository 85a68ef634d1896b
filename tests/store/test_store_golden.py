"""Golden items: replacing, editing, history and named snapshots."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.scores import ScoreRecord
from goldenlens.store import ProjectStore, StoreError

ScoreFactory = Callable[..., ScoreRecord]


def test_golden_items_keep_file_order_and_exact_text(store: ProjectStore, awkward: str) -> None:
    items = [
        GoldenItem("z-last-id", "first row", "a", "f", "", 2),
        GoldenItem("a-first-id", awkward, awkward, awkward, awkward, 3),
        GoldenItem("m", "", "", "", "", 0),
    ]
    store.golden.replace(items)
    assert store.golden.items() == items
    assert store.golden.item("a-first-id") == items[1]
    assert store.golden.item("missing") is None


def test_duplicate_ids_are_refused_before_writing(store: ProjectStore, items: list[GoldenItem]) -> None:
    store.golden.replace(items)
    with pytest.raises(ValueError, match="'q1'"):
        store.golden.replace([*items, items[0]])
    assert store.golden.items() == items


def test_replace_golden_keeps_everything_of_surviving_ids(
    imported: ProjectStore, items: list[GoldenItem], score: ScoreFactory
) -> None:
    run = imported.runs.start("lexical", {}, 6)
    imported.results.save(run, [score("q1", "baseline"), score("q3", "baseline")], [("q3", "", "ambiguous")])
    imported.reviews.set("q1", "accepted", "fine", "ana")
    imported.reviews.set("q3", "needs_curation", "fact too short", "ana")
    imported.reviews.set_override(
        "q1", "baseline", "f1_score", value=1.0, passed=True, note="ok", reviewer="ana"
    )
    imported.reviews.set_override(
        "q3", "baseline", "f1_score", value=0.0, passed=False, note="", reviewer="ana"
    )

    edited_q1 = replace(items[0], answer="About 10.3 billion shares.")
    new_q4 = GoldenItem("q4", "New question?", "New answer", "new")
    imported.golden.replace([new_q4, items[1], edited_q1], source="golden-v2.xlsx")

    assert [item.id for item in imported.golden.items()] == ["q4", "q2", "q1"]
    assert imported.golden.item("q1") == edited_q1
    assert set(imported.reviews.all()) == {"q1"}
    assert imported.reviews.all()["q1"].note == "fine"
    assert [(o.question_id, o.value) for o in imported.reviews.overrides()] == [("q1", 1.0)]
    assert {r.question_id for r in imported.responses.all()} == {"q1", "q2"}  # q3's went with it
    assert imported.results.scored_keys(run) == {("q1", "baseline")}
    assert imported.results.flags(run) == []


def test_history_records_import_edit_add_and_delete(store: ProjectStore, items: list[GoldenItem]) -> None:
    store.golden.replace(items, source="golden.xlsx")
    store.golden.replace(items, source="golden.xlsx")  # unchanged: no new entries
    assert [(h.item.id, h.action, h.source) for h in store.golden.history()] == [
        ("q1", "import", "golden.xlsx"),
        ("q2", "import", "golden.xlsx"),
        ("q3", "import", "golden.xlsx"),
    ]

    edited = replace(items[0], fact="10,317,750,796<OR>10.3 billion")
    store.golden.update(edited, reviewer="ana")
    store.golden.update(edited, reviewer="ana")  # no change: nothing recorded
    added = GoldenItem("q9", "Added in the app?", "Yes", "yes")
    store.golden.add(added, reviewer="ben")
    store.golden.delete("q2", reviewer="ana")
    store.golden.replace([edited, added], source="golden-v2.xlsx")  # drops q3

    assert [item.id for item in store.golden.items()] == ["q1", "q9"]
    q1 = store.golden.history("q1")
    assert [(h.action, h.reviewer, h.item) for h in q1] == [("import", "", items[0]), ("edit", "ana", edited)]
    assert q1[0].version_id < q1[1].version_id
    assert [(h.action, h.reviewer) for h in store.golden.history("q9")] == [("add", "ben")]
    deleted_q2 = store.golden.history("q2")[-1]
    assert (deleted_q2.action, deleted_q2.reviewer, deleted_q2.item) == ("delete", "ana", items[1])
    deleted_q3 = store.golden.history("q3")[-1]
    assert (deleted_q3.action, deleted_q3.source, deleted_q3.item) == ("delete", "golden-v2.xlsx", items[2])
    assert all(h.changed_at.endswith("+00:00") for h in store.golden.history())


def test_added_items_go_last_and_edits_keep_their_place(store: ProjectStore, items: list[GoldenItem]) -> None:
    store.golden.replace(items)
    store.golden.add(GoldenItem("q0", "?", "!", "!"))
    store.golden.update(replace(items[0], notes="checked"))
    assert [item.id for item in store.golden.items()] == ["q1", "q2", "q3", "q0"]


def test_unknown_or_duplicate_items_are_store_errors(store: ProjectStore, items: list[GoldenItem]) -> None:
    store.golden.replace(items)
    with pytest.raises(StoreError, match=r"demo\.goldenlens.*'q1' already exists"):
        store.golden.add(items[0])
    with pytest.raises(StoreError, match="'nope'"):
        store.golden.update(GoldenItem("nope", "q", "a", "f"))
    with pytest.raises(StoreError, match="'nope'"):
        store.golden.delete("nope")
    assert store.golden.items() == items
    assert len(store.golden.history()) == 3


def test_deleting_an_item_cascades_to_its_responses_and_review(
    imported: ProjectStore, answers: list[PipelineResponse]
) -> None:
    imported.reviews.set("q2", "accepted")
    imported.golden.delete("q2")
    assert imported.responses.all() == [r for r in answers if r.question_id != "q2"]
    assert imported.reviews.all() == {}


def test_snapshots_freeze_the_golden_set(
    project_path: Path, store: ProjectStore, items: list[GoldenItem]
) -> None:
    store.golden.replace(items)
    first = store.golden.snapshot("as imported", "before curation")
    store.golden.update(replace(items[1], fact="Seattle"))
    store.golden.delete("q3")
    second = store.golden.snapshot("curated")

    assert store.golden.version_items(first) == items
    assert store.golden.version_items(second) == [items[0], replace(items[1], fact="Seattle")]
    versions = store.golden.versions()
    assert [(v.id, v.name, v.note, v.item_count) for v in versions] == [
        (first, "as imported", "before curation", 3),
        (second, "curated", "", 2),
    ]
    assert versions[0].last_history_id == 3
    assert versions[1].last_history_id == store.golden.history()[-1].version_id
    with pytest.raises(StoreError, match="no golden-set version 999"):
        store.golden.version_items(999)
    with pytest.raises(ValueError, match="name"):
        store.golden.snapshot("  ")
    store.close()
    with ProjectStore.open(project_path) as reopened:
        assert reopened.golden.version_items(first) == items


def test_the_analysts_other_columns_are_kept_with_the_current_row(store: ProjectStore) -> None:
    """Format 6: a row's other columns survive a re-import, an edit and a reopen; history and
    named versions keep what is scored by."""
    tagged = GoldenItem("q1", "Who?", "Ann.", "Ann", extra=(("Category", "people"), ("Owner", "Bo 📝")))
    plain = GoldenItem("q2", "When?", "In 1932.", "1932")
    store.golden.replace([tagged, plain], source="g.xlsx")
    assert store.golden.items() == [tagged, plain]
    store.golden.update(replace(tagged, notes="checked"), reviewer="ann")
    assert store.golden.item("q1") == replace(tagged, notes="checked")
    recategorised = replace(tagged, notes="checked", extra=(("Category", "names"),))
    store.golden.replace([recategorised, plain], source="g.xlsx")
    assert store.golden.item("q1") == recategorised
    store.golden.add(GoldenItem("q3", "Where?", "Here.", "Here", extra=(("Owner", "Cy"),)))
    path = store.path
    store.close()
    with ProjectStore.open(path) as again:
        assert [item.extra for item in again.golden.items()] == [
            (("Category", "names"),),
            (),
            (("Owner", "Cy"),),
        ]
        assert all(entry.item.extra == () for entry in again.golden.history())

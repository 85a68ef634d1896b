"""A golden-history row shares its item's current content instead of storing a copy (project
format 4): through imports, moves, edits, adds and deletes, every history entry still reads
back exactly the content it recorded, and an import stores no second copy of the texts.

The expected history is written out by hand from the operations, not read from the store.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from goldenlens.core.inputs import GoldenItem
from goldenlens.store.project import ProjectStore


def _item(item_id: str, fact: str, row: int, answer: str = "An answer.") -> GoldenItem:
    return GoldenItem(item_id, f"Question {item_id}?", answer, fact, "", row)


def _entries(store: ProjectStore) -> list[tuple[str, str, str, int]]:
    return [(e.item.id, e.action, e.item.fact, e.item.source_row) for e in store.golden.history()]


def _stored_copies(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(
            conn.execute("SELECT COUNT(*) FROM golden_history WHERE question IS NOT NULL").fetchone()[0]
        )


def test_every_entry_keeps_its_content_through_every_kind_of_change(tmp_path: Path) -> None:
    path = tmp_path / "p.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace([_item("a", "1", 2), _item("b", "2", 3), _item("c", "3", 4)], source="v1.csv")
        expected = [("a", "import", "1", 2), ("b", "import", "2", 3), ("c", "import", "3", 4)]
        assert _entries(store) == expected
        assert _stored_copies(path) == 0  # the import shares golden_items' texts

        # Rows moved in the file only (source_row changes): no entry, but the earlier entries
        # keep the rows they recorded.
        store.golden.replace([_item("c", "3", 2), _item("a", "1", 3), _item("b", "2", 4)], source="v2.csv")
        assert _entries(store) == expected

        store.golden.update(_item("a", "1<OR>one", 3), reviewer="ann")
        expected.append(("a", "edit", "1<OR>one", 3))
        assert _entries(store) == expected

        store.golden.add(_item("d", "4", 0), reviewer="ann")
        expected.append(("d", "add", "4", 0))
        store.golden.delete("b", reviewer="ben")
        expected.append(("b", "delete", "2", 4))
        assert _entries(store) == expected

        # A re-import that changes c, removes d and brings b back.
        store.golden.replace(
            [_item("a", "1<OR>one", 3), _item("b", "two", 5), _item("c", "three", 2)], source="v3.csv"
        )
        expected += [("d", "delete", "4", 0), ("b", "import", "two", 5), ("c", "import", "three", 2)]
        assert _entries(store) == expected
        assert [e.action for e in store.golden.history("c")] == ["import", "import"]
        assert [e.item.fact for e in store.golden.history("c")] == ["3", "three"]

    with ProjectStore.open(path) as store:  # the same after reopening
        assert _entries(store) == expected
        assert store.golden.history("a")[0].item == _item("a", "1", 2)


def test_only_changed_or_deleted_items_store_a_copy(tmp_path: Path) -> None:
    path = tmp_path / "p.goldenlens"
    items = [_item(f"q{n}", str(n), n + 2, answer="A long golden answer. " * 20) for n in range(200)]
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace(items, source="golden.csv")
        store.golden.update(_item("q7", "seven", 9, answer="A long golden answer. " * 20), reviewer="ann")
        store.golden.delete("q8")
    # q7's import entry (the item changed since), q8's import entry and its delete entry (the
    # item is gone); the other 198 import entries share golden_items' texts.
    assert _stored_copies(path) == 3


@pytest.mark.parametrize("fixture", ["format1", "format2", "format3"])
def test_history_of_an_upgraded_project_reads_as_before(tmp_path: Path, fixture: str) -> None:
    """Rows written by formats 1-3 hold their content; the upgrade keeps every one, with its id."""
    source = Path(__file__).parent / "fixtures" / f"{fixture}.goldenlens"
    with sqlite3.connect(source) as conn:
        before = conn.execute(
            "SELECT version_id, item_id, question, answer, fact, notes, source_row, action"
            " FROM golden_history ORDER BY version_id"
        ).fetchall()
    copy = tmp_path / "old.goldenlens"
    copy.write_bytes(source.read_bytes())
    with ProjectStore.open(copy) as store:
        after = [
            (e.version_id, e.item.id, e.item.question, e.item.answer, e.item.fact, e.item.notes,
             e.item.source_row, e.action)
            for e in store.golden.history()
        ]  # fmt: skip
    assert after == [tuple(row) for row in before]
    assert before

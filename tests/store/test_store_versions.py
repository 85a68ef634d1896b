"""What the store keeps for golden-set versions: the golden version a run started from and the
edits re-scored into it, the history head, and names given to versions with their frozen rows."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from dataclasses import replace

import pytest

from goldenlens.core.inputs import GoldenItem
from goldenlens.store import ProjectStore, StoreError


def test_a_run_records_the_golden_history_head(imported: ProjectStore) -> None:
    head = imported.golden.head()
    assert head == len(imported.golden.history()) > 0
    first = imported.runs.start("lexical", {"multiset": False}, 6)
    pinned = imported.runs.start("judge", {}, 6, golden_history_id=1)
    runs = {run.id: run for run in imported.runs.all()}
    assert [run.id for run in imported.runs.all()] == [first, pinned]
    assert (runs[first].golden_history_id, runs[first].golden_rescored_id) == (head, None)
    assert runs[pinned].golden_history_id == 1
    assert runs[first].params == {"multiset": False}  # the store's keys are not options


def test_a_rescore_is_recorded_in_the_run_and_survives_reopening(imported: ProjectStore) -> None:
    run = imported.runs.start("lexical", {"multiset": True}, 6, inputs_sha256="ab")
    item = imported.golden.items()[0]
    imported.golden.update(replace(item, fact="new fact"), reviewer="ana")
    imported.runs.record_rescore(run, imported.golden.head())
    stored = imported.runs.get(run)
    assert stored is not None
    assert (stored.golden_rescored_id, stored.inputs_sha256, stored.params) == (
        imported.golden.head(),
        "ab",
        {"multiset": True},
    )
    with closing(sqlite3.connect(imported.path)) as raw_db:
        raw = raw_db.execute("SELECT params FROM runs WHERE id = ?", (run,)).fetchone()[0]
    assert json.loads(raw)["golden_rescored_id"] == imported.golden.head()
    with pytest.raises(StoreError, match="no run 999"):
        imported.runs.record_rescore(999, 1)


@pytest.mark.parametrize("key", ["inputs_sha256", "golden_history_id", "golden_rescored_id"])
def test_the_store_keys_are_reserved(imported: ProjectStore, key: str) -> None:
    with pytest.raises(ValueError, match="reserved"):
        imported.runs.start("lexical", {key: 1}, 6)
    assert imported.runs.all() == []


def test_naming_a_version_freezes_the_given_rows_and_renames_in_place(
    imported: ProjectStore, items: list[GoldenItem]
) -> None:
    head = imported.golden.head()
    frozen = [replace(items[0], notes="as it was")]
    first = imported.golden.name_version(head, "as imported", frozen, note="baseline")
    assert imported.golden.version_items(first) == frozen
    again = imported.golden.name_version(head, "renamed", items)
    assert again == first
    (named,) = imported.golden.versions()
    assert (named.name, named.note, named.last_history_id, named.item_count) == (
        "renamed",
        "baseline",
        head,
        1,
    )
    assert imported.golden.version_items(first) == frozen  # renaming keeps the frozen rows
    with pytest.raises(StoreError, match="no golden-history entry"):
        imported.golden.name_version(head + 1, "future", items)
    with pytest.raises(ValueError, match="needs a name"):
        imported.golden.name_version(head, " ", items)


def test_an_empty_project_is_at_history_zero(store: ProjectStore) -> None:
    assert store.golden.head() == 0
    run = store.runs.start("lexical", {}, 0)
    assert (store.runs.get(run) or pytest.fail("no run")).golden_history_id == 0

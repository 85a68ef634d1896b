"""Project format 4: the drafts table, upgraded into from formats 1, 2 and 3 in one
transaction, and the drafts repository (``store.drafts``)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from goldenlens.core.golden.drafts import DraftProblem, DraftStatus, DraftText, ProblemCode
from goldenlens.core.golden.source_chunks import SourceChunk
from goldenlens.store import LATEST_VERSION, NewDraft, ProjectStore, StoreError

FIXTURES = Path(__file__).parent / "fixtures"
CHUNK = SourceChunk("report.pdf", "p2-1", "Net sales were $134,383 million.", page=2)


def _copy(version: int, tmp_path: Path) -> Path:
    path = tmp_path / f"format{version}.goldenlens"
    shutil.copyfile(FIXTURES / f"format{version}.goldenlens", path)
    return path


def _new(key: str = "k1", chunk: SourceChunk = CHUNK) -> NewDraft:
    return NewDraft(
        key,
        chunk,
        DraftText("What were net sales?", "Net sales were $134,383 million.", "$134,383 million"),
        (DraftProblem(ProblemCode.FACT_PRONE_TO_FALSE_MATCHES, "short"),),
        ({"text": "$134.383 billion", "risks": []},),
        {"model": "m.gguf"},
    )


@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_old_project_gets_an_empty_queue_that_works(tmp_path: Path, version: int) -> None:
    path = _copy(version, tmp_path)
    with ProjectStore.open(path) as store:
        assert store.diagnostics()["user_version"] == LATEST_VERSION == 7
        assert store.drafts.all() == []
        (draft_id,) = store.drafts.add(None, [_new()])
        store.drafts.review(draft_id, DraftStatus.ACCEPTED, reviewer="ann", golden_id="q1")
        found = store.drafts.of_golden("q1")
        assert found is not None
        assert found.provenance() == "report.pdf, page 2, chunk p2-1"


@pytest.mark.parametrize("version", [1, 3])
def test_the_upgrade_is_one_transaction(tmp_path: Path, version: int) -> None:
    """A clash in the last step (a stray ``drafts`` table) rolls back every step before it."""
    path = _copy(version, tmp_path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE drafts (x)")
    tables_before = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.close()
    with pytest.raises(StoreError, match=r"could not upgrade the project.*drafts already exists"):
        ProjectStore.open(path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == version
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert tables == tables_before  # format 1 has no "signatures" or "item_keys" after the failure
        assert [row[1] for row in conn.execute("PRAGMA table_info(drafts)")] == ["x"]
    finally:
        conn.close()


def test_the_repository_round_trip(tmp_path: Path) -> None:
    with ProjectStore.open(tmp_path / "p.goldenlens", create=True) as store:
        run_id = store.runs.start("draft", {}, total=2)
        other = SourceChunk("notes.csv", "c9", "Another chunk.", row=4)
        first, second = store.drafts.add(run_id, [_new(), _new("k2", other)])
        assert store.drafts.keys() == {"k1", "k2"}
        draft = store.drafts.get(first)
        assert draft is not None
        assert (draft.document, draft.page, draft.chunk_id, draft.chunk_text, draft.run_id) == (
            "report.pdf", 2, "p2-1", CHUNK.text, run_id
        )  # fmt: skip
        assert draft.problems == (DraftProblem(ProblemCode.FACT_PRONE_TO_FALSE_MATCHES, "short"),)
        assert draft.variants == ({"text": "$134.383 billion", "risks": []},)
        assert draft.detail == {"model": "m.gguf"}
        assert draft.status is DraftStatus.PENDING
        assert draft.created_at
        with pytest.raises(StoreError, match=r"chunk 'p2-1' of report\.pdf is already drafted"):
            store.drafts.add(run_id, [_new()])
        store.drafts.review(second, DraftStatus.REJECTED, reviewer="bob", note="vague")
        with pytest.raises(StoreError, match=f"draft {second} is already rejected"):
            store.drafts.review(second, DraftStatus.ACCEPTED, reviewer="bob", golden_id="x")
        with pytest.raises(StoreError, match="there is no draft 77"):
            store.drafts.review(77, DraftStatus.REJECTED, reviewer="bob")
        assert [d.id for d in store.drafts.all(DraftStatus.PENDING)] == [first]
        assert store.drafts.counts() == {
            DraftStatus.PENDING: 1,
            DraftStatus.ACCEPTED: 0,
            DraftStatus.REJECTED: 1,
        }

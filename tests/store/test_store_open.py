"""Opening, creating, migrating and refusing project files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.problems import Problem
from goldenlens.store import LATEST_VERSION, ProjectStore, StoreError
from goldenlens.store.schema import APP_NAME, APPLICATION_ID, FORMAT_MARKER

TABLES = {
    "meta", "imports", "golden_items", "golden_history", "golden_versions", "golden_version_items",
    "pipelines", "responses", "runs", "scores", "signatures", "flags", "overrides", "reviews",
    "problems", "judge_cache", "item_keys", "pipeline_keys", "metric_keys", "flag_codes", "run_metrics",
    "score_notes", "drafts", "golden_review_decisions", "labels", "label_rounds", "label_round_frame",
}  # fmt: skip


def _raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def _tables(path: Path) -> set[str]:
    with _raw(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {row[0] for row in rows if not row[0].startswith("sqlite_")}


def _user_version(path: Path) -> int:
    conn = _raw(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def _version_zero_file(path: Path) -> None:
    """What the very first GoldenLens wrote: the marker table, nothing else."""
    conn = _raw(path)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [("app", APP_NAME), ("format", FORMAT_MARKER)])
    conn.close()


def test_create_sets_wal_foreign_keys_synchronous_and_version(project_path: Path) -> None:
    with ProjectStore.open(project_path, create=True) as store:
        settings = store.diagnostics()
        assert settings["journal_mode"] == "wal"
        assert settings["foreign_keys"] == 1
        assert settings["synchronous"] == 1  # NORMAL
        assert settings["user_version"] == LATEST_VERSION
        assert settings["application_id"] == APPLICATION_ID
        assert store.path == project_path
    # journal mode and user_version live in the file itself
    conn = _raw(project_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    assert _user_version(project_path) == LATEST_VERSION
    assert _tables(project_path) == TABLES


def test_reopen_round_trips_golden_responses_and_problems(
    project_path: Path,
    items: list[GoldenItem],
    answers: list[PipelineResponse],
    found_problems: list[Problem],
) -> None:
    with ProjectStore.open(project_path, create=True) as store:
        import_id = store.responses.import_inputs(
            items,
            answers,
            ["baseline", "rag-v2"],
            found_problems,
            golden_source="g.xlsx",
            responses_source="r.csv",
        )
    with ProjectStore.open(project_path) as store:
        assert store.golden.items() == items
        assert store.responses.all() == answers
        assert store.responses.pipelines() == ["baseline", "rag-v2"]
        assert store.responses.problems() == found_problems
        assert [(i.id, i.golden_source, i.responses_source) for i in store.responses.imports()] == [
            (import_id, "g.xlsx", "r.csv")
        ]
        assert store.diagnostics()["foreign_keys"] == 1


def test_create_true_opens_an_existing_project_without_wiping_it(
    project_path: Path, items: list[GoldenItem]
) -> None:
    with ProjectStore.open(project_path, create=True) as store:
        store.golden.replace(items)
    with ProjectStore.open(str(project_path), create=True) as store:
        assert store.golden.items() == items


def test_missing_file_without_create_is_refused_and_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nope.goldenlens"
    with pytest.raises(StoreError, match=r"nope\.goldenlens"):
        ProjectStore.open(missing)
    assert not missing.exists()
    assert list(tmp_path.iterdir()) == []


def test_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=f"{tmp_path.name}.*folder"):
        ProjectStore.open(tmp_path, create=True)


@pytest.mark.parametrize(
    "content",
    [b"question,answer,fact\nWho?,Me,me\n" * 50, b"PK\x03\x04 not really a workbook", b"x"],
    ids=["csv-text", "zip-header", "one-byte"],
)
def test_non_sqlite_file_is_not_a_project(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "golden.csv"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=r"golden\.csv is not a GoldenLens project"):
        ProjectStore.open(path)
    with pytest.raises(StoreError, match=r"golden\.csv is not a GoldenLens project"):
        ProjectStore.open(path, create=True)
    assert path.read_bytes() == content


def test_random_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = _raw(path)
    conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO customers (name) VALUES ('Ada')")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"other\.db is not a GoldenLens project"):
        ProjectStore.open(path, create=True)
    assert path.read_bytes() == before  # not even switched to WAL
    assert not path.with_name("other.db-wal").exists()


def test_meta_table_of_another_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "meta.db"
    conn = _raw(path)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('app', 'SomethingElse')")
    conn.close()
    with pytest.raises(StoreError, match=r"meta\.db is not a GoldenLens project.*another program"):
        ProjectStore.open(path)


def test_a_project_cut_short_is_called_damaged_and_left_as_it_is(
    tmp_path: Path, items: list[GoldenItem]
) -> None:
    """A project file cut in half (a full disk, a copy stopped midway) was called "not a
    GoldenLens project"; it is one, damaged, and the message says so and what to do."""
    path = tmp_path / "cut.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace(items)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(StoreError, match=r"cut\.goldenlens is damaged: SQLite cannot read it \(") as caught:
        ProjectStore.open(path)
    assert "open a copy saved earlier, or score the inputs into a new project" in str(caught.value)
    assert path.read_bytes() == whole[: len(whole) // 2]


def test_empty_file_is_a_project_only_when_creating(tmp_path: Path) -> None:
    path = tmp_path / "empty.goldenlens"
    path.touch()
    with pytest.raises(StoreError, match=r"empty\.goldenlens is not a GoldenLens project.*empty"):
        ProjectStore.open(path)
    with ProjectStore.open(path, create=True) as store:
        assert store.golden.items() == []
    assert _user_version(path) == LATEST_VERSION


def test_version_zero_file_is_migrated_on_open(tmp_path: Path, items: list[GoldenItem]) -> None:
    path = tmp_path / "old.goldenlens"
    _version_zero_file(path)
    assert _user_version(path) == 0
    with ProjectStore.open(path) as store:
        assert store.diagnostics()["user_version"] == LATEST_VERSION
        store.golden.replace(items)
    assert _user_version(path) == LATEST_VERSION
    assert _tables(path) == TABLES
    with ProjectStore.open(path) as store:
        assert store.golden.items() == items


def test_failed_migration_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "clash.goldenlens"
    _version_zero_file(path)
    conn = _raw(path)
    conn.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY)")  # the v1 migration creates 'runs'
    conn.close()
    with pytest.raises(StoreError, match=r"clash\.goldenlens: could not upgrade.*runs"):
        ProjectStore.open(path)
    assert _user_version(path) == 0
    assert _tables(path) == {"meta", "runs"}  # the tables created before the clash were rolled back


def test_newer_format_is_refused(project_path: Path) -> None:
    ProjectStore.open(project_path, create=True).close()
    conn = _raw(project_path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match=r"demo\.goldenlens was made by a newer GoldenLens"):
        ProjectStore.open(project_path)
    assert _user_version(project_path) == LATEST_VERSION + 1


def test_close_twice_is_harmless_and_use_after_close_is_a_store_error(project_path: Path) -> None:
    store = ProjectStore.open(project_path, create=True)
    store.close()
    store.close()
    with pytest.raises(StoreError, match=r"demo\.goldenlens"):
        store.golden.items()


def test_awkward_file_names_work(tmp_path: Path, items: list[GoldenItem]) -> None:
    path = tmp_path / "Q&A project #1 (ü 🦜) 50%.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace(items)
    with ProjectStore.open(path) as store:
        assert store.golden.items() == items
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # WAL files gone after close


def test_folder_that_does_not_exist_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "no-such-folder" / "p.goldenlens"
    with pytest.raises(StoreError, match=r"p\.goldenlens"):
        ProjectStore.open(path, create=True)
    assert not path.parent.exists()


def test_a_second_connection_sees_committed_writes(project_path: Path, items: list[GoldenItem]) -> None:
    with ProjectStore.open(project_path, create=True) as writer, ProjectStore.open(project_path) as reader:
        assert reader.golden.items() == []
        writer.golden.replace(items)
        assert reader.golden.items() == items
        run = writer.runs.start("lexical", {}, total=0)
        assert [r.id for r in reader.runs.unfinished()] == [run]

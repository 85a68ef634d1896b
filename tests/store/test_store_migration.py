"""Upgrading a real version-1 project file (signatures inline in every score row) to the current
format, through version 2 (signatures by id) to version 3 (plain numbers keyed by integers)."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
from sqlite_utils import Database

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.signature import lexical_signature
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.store import LATEST_VERSION, ProjectStore, StoreError
from goldenlens.store.schema import (
    APP_NAME,
    BUSY_TIMEOUT_SECONDS,
    FORMAT_MARKER,
    META_DDL,
    MIGRATIONS,
    _compact,
)

NOW = "2024-05-01T12:00:00.000+00:00"
PIPELINES = ("baseline", "rag-v2")  # the pipelines of conftest's responses
F1 = lexical_signature("f1_score", {"counting": "set"}).to_json()
RECALL = lexical_signature("recall_over_words", {"counting": "multiset"}).to_json()
JUDGE = '{"metric":"faithfulness","model_sha256":"ab","prompt_version":"3","seed":7,"temperature":0}'
JUDGE_METRICS = frozenset({"faithfulness"})
TEXT = "=SUM(A1:A3)\nline two\r\nthird\tcol 🦜 naïve cafe\u0301 שלום  "

#: Score rows as version 1 held them: (run, question, pipeline, metric, value, status, reason,
#: signature, detail). Two runs share signatures; most details are the empty object.
V1_SCORES: list[tuple[int, str, str, str, float | None, str, str, str, dict[str, object]]] = [
    (1, "q1", "baseline", "f1_score", 0.5, "scored", "", F1, {"alignment": [[0, 5, "m"]], "text": TEXT}),
    (1, "q1", "rag-v2", "f1_score", 0.0, "scored", "", F1, {}),
    (1, "q2", "baseline", "f1_score", None, "not_scored", "empty response", F1, {}),
    (1, "q2", "rag-v2", "recall_over_words", 1.0, "scored", "", RECALL, {}),
    (1, "q3", "rag-v2", "recall_over_words", 0.25, "scored", "", RECALL, {"missed": ["billion"]}),
    (2, "q1", "baseline", "f1_score", 0.75, "scored", "", F1, {}),
    (2, "q3", "baseline", "faithfulness", 0.9, "scored", "", JUDGE, {"statements": ["a"], "verdicts": [1]}),
    # written with version 1's column defaults (see _v1_project): signature and detail '{}'
    (2, "q2", "rag-v2", "exact_match_score", 1.0, "scored", "", "{}", {}),
]  # fmt: skip
V1_FLAGS = [
    (1, "q1", "rag-v2", "verbose"),
    (1, "q2", "", "ambiguous_question"),
    (2, "q3", "baseline", "verbose"),
]
V1_SIGNATURES = {row[7] for row in V1_SCORES}


def _raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def _v1_json(value: object) -> str:
    """JSON the way version 1 wrote it (compact, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _v1_project(
    path: Path, items: list[GoldenItem], answers: list[PipelineResponse], *, orphan_score: bool = False
) -> None:
    """A version-1 project file made by the version-1 migration alone and filled with plain SQL
    as version 1 stored its rows: nothing of the current store code writes to it."""
    conn = _raw(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN")
    conn.execute(META_DDL)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [("app", APP_NAME), ("format", FORMAT_MARKER)])
    MIGRATIONS[0](Database(conn, execute_plugins=False))
    conn.executemany(
        "INSERT INTO golden_items (id, position, question, answer, fact, notes, source_row, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(i.id, n, i.question, i.answer, i.fact, i.notes, i.source_row, NOW) for n, i in enumerate(items)],
    )
    conn.executemany("INSERT INTO pipelines VALUES (?, ?)", [(p, n) for n, p in enumerate(PIPELINES)])
    conn.executemany(
        "INSERT INTO responses (question_id, pipeline, response, contexts, source_row)"
        " VALUES (?, ?, ?, ?, ?)",
        [(r.question_id, r.pipeline, r.response, _v1_json(list(r.contexts)), r.source_row) for r in answers],
    )
    conn.execute(
        "INSERT INTO runs (id, kind, params, status, started_at, finished_at, total)"
        " VALUES (1, 'lexical', '{}', 'finished', ?1, ?1, 6), (2, 'lexical', '{}', 'finished', ?1, ?1, 6)",
        (NOW,),
    )
    *explicit, defaults = V1_SCORES
    if orphan_score:  # a score of a run that does not exist (foreign keys are off here)
        explicit.append((99, "q1", "baseline", "f1_score", 0.5, "scored", "", F1, {}))
    conn.executemany(
        "INSERT INTO scores (run_id, question_id, pipeline, metric, value, status, reason, signature, detail,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(*row[:8], _v1_json(row[8]), NOW) for row in explicit],
    )
    conn.execute(
        "INSERT INTO scores (run_id, question_id, pipeline, metric, value, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (*defaults[:5], NOW),
    )
    conn.executemany("INSERT INTO flags VALUES (?, ?, ?, ?)", V1_FLAGS)
    conn.execute("INSERT INTO reviews VALUES ('q2', 'accepted', 'fine', 'ann', ?)", (NOW,))
    conn.execute("PRAGMA user_version = 1")
    conn.execute("COMMIT")
    conn.close()


def _expected(run_id: int, items: list[GoldenItem]) -> list[tuple[ScoreRecord, dict[str, object]]]:
    """What the store must read back for a run, in table order: records and their details
    (``ScoreRecord`` equality leaves ``detail`` out, so it is compared on its own)."""
    order = {item.id: n for n, item in enumerate(items)}
    rows = sorted(
        (row for row in V1_SCORES if row[0] == run_id),
        key=lambda row: (order[row[1]], PIPELINES.index(row[2]), row[3]),
    )
    # Version 3 drops the lexical metrics' per-row details: spans are derived data now.
    return [
        (
            ScoreRecord(q, p, m, value, signature, ScoreStatus(status), reason),
            detail if m in JUDGE_METRICS else {},
        )
        for _run, q, p, m, value, status, reason, signature, detail in rows
    ]


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]


def test_version_one_file_is_upgraded_and_reads_back_identical(
    tmp_path: Path, items: list[GoldenItem], answers: list[PipelineResponse]
) -> None:
    path = tmp_path / "v1.goldenlens"
    _v1_project(path, items, answers)
    assert LATEST_VERSION == 7

    with ProjectStore.open(path) as store:
        assert store.diagnostics()["user_version"] == 7
        for run_id in (1, 2):
            expected = _expected(run_id, items)
            got = store.results.scores(run_id)
            assert got == [record for record, _detail in expected]
            assert [r.detail for r in got] == [detail for _record, detail in expected]
            for question in ("q1", "q2", "q3"):
                of_question = store.results.scores_of_question(run_id, question)
                assert of_question == [r for r in got if r.question_id == question]
                assert [r.detail for r in of_question] == [r.detail for r in got if r.question_id == question]
        assert store.results.flags(1) == [("q1", "rag-v2", "verbose"), ("q2", "", "ambiguous_question")]
        assert store.results.flags(2) == [("q3", "baseline", "verbose")]
        assert store.results.scored_keys(2) == {("q1", "baseline"), ("q2", "rag-v2"), ("q3", "baseline")}
        assert store.results.score_matrix(1, "recall_over_words") == {
            ("q2", "rag-v2"): 1.0,
            ("q3", "rag-v2"): 0.25,
        }
        assert store.grid.scores(1, "f1_score") == [
            ("q1", "baseline", 0.5), ("q1", "rag-v2", 0.0), ("q2", "baseline", None)
        ]  # fmt: skip
        assert store.results.metrics(2) == ["exact_match_score", "f1_score", "faithfulness"]
        assert store.golden.items() == items
        assert store.responses.all() == answers
        review = store.reviews.all()["q2"]
        assert (review.status, review.note, review.reviewer) == ("accepted", "fine", "ann")

    conn = _raw(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 7
        assert {row[0] for row in conn.execute("SELECT json FROM signatures")} == V1_SIGNATURES
        assert conn.execute("SELECT COUNT(*) FROM signatures").fetchone()[0] == len(V1_SIGNATURES)
        # One signature per run and metric; notes only for the not-scored row and the judge's detail.
        assert conn.execute("SELECT COUNT(*) FROM run_metrics").fetchone()[0] == 5
        notes = conn.execute(
            "SELECT reason, detail, signature_id FROM score_notes ORDER BY reason"
        ).fetchall()
        assert notes == [("", '{"statements":["a"],"verdicts":[1]}', None), ("empty response", None, None)]
        assert conn.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == len(V1_SCORES)
        assert _columns(conn, "scores") == ["run_id", "metric", "item", "pipeline", "value"]
        assert _columns(conn, "flags") == ["run_id", "item", "pipeline", "code"]
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        assert {"signatures", "item_keys", "score_notes", "item_keys_cascade", "runs_cascade"} <= names
        assert not {"scores_v2", "scores_v3", "flags_v3"} & names
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA freelist_count").fetchone()[0] == 0  # compacted after the rebuild
    finally:
        conn.close()


def test_compacting_gives_way_to_another_writer(tmp_path: Path) -> None:
    path = tmp_path / "busy.goldenlens"
    ProjectStore.open(path, create=True).close()
    db = Database(sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS))
    other = _raw(path)
    try:
        other.execute("BEGIN IMMEDIATE")
        started = time.perf_counter()
        _compact(db)  # the lock is taken: skipped at once, no error
        assert time.perf_counter() - started < 1.0
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] == BUSY_TIMEOUT_SECONDS * 1000
        other.execute("ROLLBACK")
    finally:
        other.close()
        db.conn.close()


def test_upgraded_file_keeps_working(
    tmp_path: Path, items: list[GoldenItem], answers: list[PipelineResponse]
) -> None:
    path = tmp_path / "v1.goldenlens"
    _v1_project(path, items, answers)
    with ProjectStore.open(path) as store:
        # signatures carried over are reused; a new one is added once
        store.results.save(1, [ScoreRecord("q3", "baseline", "f1_score", 0.5, F1)])
        store.results.save(
            2,
            [
                ScoreRecord("q1", "rag-v2", "f1_score", 0.2, "new"),
                ScoreRecord("q3", "rag-v2", "f1_score", 0.3, "new"),
            ],
        )
        assert [r.signature for r in store.results.scores(2, metrics=["f1_score"])] == [F1, "new", "new"]
        # the golden-item cascade reaches the rebuilt table
        store.golden.delete("q1")
        assert {r.question_id for r in store.results.scores(1)} == {"q2", "q3"}
        assert store.results.scores_of_question(2, "q1") == []
    conn = _raw(path)
    try:
        assert conn.execute("SELECT COUNT(*) FROM signatures").fetchone()[0] == len(V1_SIGNATURES) + 1
        assert conn.execute("SELECT COUNT(*) FROM item_keys WHERE question_id = 'q1'").fetchone()[0] == 0
        orphans = "SELECT COUNT(*) FROM scores WHERE item NOT IN (SELECT key FROM item_keys)"
        assert conn.execute(orphans).fetchone()[0] == 0
    finally:
        conn.close()


def test_failed_upgrade_leaves_the_version_one_file_as_it_was(
    tmp_path: Path, items: list[GoldenItem], answers: list[PipelineResponse]
) -> None:
    path = tmp_path / "broken.goldenlens"
    # A score of a run that does not exist (written with foreign keys off, as a buggy tool might)
    # cannot be carried over: the upgrade is refused and rolled back as a whole.
    _v1_project(path, items, answers, orphan_score=True)
    conn = _raw(path)
    before = conn.execute("SELECT * FROM scores ORDER BY run_id, metric, question_id, pipeline").fetchall()
    conn.close()

    with pytest.raises(StoreError, match=r"broken\.goldenlens: could not upgrade.*FOREIGN KEY"):
        ProjectStore.open(path)

    conn = _raw(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "signatures" not in tables
        assert "scores_v2" not in tables
        assert "signature" in _columns(conn, "scores")
        after = conn.execute("SELECT * FROM scores ORDER BY run_id, metric, question_id, pipeline").fetchall()
        assert after == before
    finally:
        conn.close()

"""How score rows are stored: each signature once, empty details as NULL — invisible through the API."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from goldenlens.core.scores import ScoreRecord
from goldenlens.store import ProjectStore

ScoreFactory = Callable[..., ScoreRecord]
METRICS = ("factual_knowledge", "f1_score", "recall_over_words")
KEYS = (("q1", "baseline"), ("q1", "rag-v2"), ("q2", "baseline"))


def _count(path: Path, sql: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


def test_each_signature_is_stored_once(
    imported: ProjectStore, project_path: Path, score: ScoreFactory
) -> None:
    first = imported.runs.start("lexical", {}, total=6)
    second = imported.runs.start("lexical", {}, total=6)
    records = [score(q, p, m) for q, p in KEYS for m in METRICS]
    imported.results.save(first, records)
    imported.results.save(first, records)
    imported.results.save(second, records)
    assert _count(project_path, "SELECT COUNT(*) FROM signatures") == len(METRICS)

    got = imported.results.scores(second)
    assert sorted(got, key=lambda r: (r.question_id, r.pipeline, r.metric)) == sorted(
        records, key=lambda r: (r.question_id, r.pipeline, r.metric)
    )
    f1 = [r for r in got if r.metric == "f1_score"]
    assert f1[0].signature == records[1].signature
    assert all(r.signature is f1[0].signature for r in f1)  # one str per signature, not per row

    # an empty signature is a signature like any other
    imported.results.save(second, [ScoreRecord("q3", "rag-v2", "f1_score", 0.5, "")])
    assert imported.results.scores_of_question(second, "q3")[0].signature == ""
    assert _count(project_path, "SELECT COUNT(*) FROM signatures") == len(METRICS) + 1


def test_only_rows_with_something_to_say_get_a_note(
    imported: ProjectStore, project_path: Path, score: ScoreFactory
) -> None:
    run = imported.runs.start("lexical", {}, total=6)
    detail = {"alignment": [[0, 5, "m"]], "empty_list": [], "zero": 0}
    imported.results.save(
        run, [score("q1", "baseline", "f1_score", 0.5, **detail), score("q1", "baseline", "em")]
    )
    # A plain number is a scores row alone; the detail goes to score_notes.
    assert _count(project_path, "SELECT COUNT(*) FROM scores") == 2
    assert _count(project_path, "SELECT COUNT(*) FROM score_notes WHERE detail IS NOT NULL") == 1
    assert _count(project_path, "SELECT COUNT(*) FROM score_notes") == 1
    assert [r.detail for r in imported.results.scores(run)] == [{}, detail]
    assert [r.detail for r in imported.results.scores_of_question(run, "q1")] == [{}, detail]


def test_a_rolled_back_batch_leaves_no_signature_behind(
    imported: ProjectStore, project_path: Path, score: ScoreFactory
) -> None:
    run = imported.runs.start("lexical", {}, total=6)
    fresh = ScoreRecord("q1", "baseline", "f1_score", 0.5, '{"metric":"f1_score","new":true}')

    def save_then_fail() -> None:
        with imported.atomic("score an edited row"):
            imported.results.save(run, [fresh])
            raise RuntimeError("undo")

    with pytest.raises(RuntimeError, match="undo"):
        save_then_fail()
    with pytest.raises(ValueError, match="finite"):
        imported.results.save(run, [fresh, score("q2", "baseline", value=float("nan"))])
    assert _count(project_path, "SELECT COUNT(*) FROM signatures") == 0
    assert imported.results.scores(run) == []

    # the same signature saved again gets a real id (no stale one from the rolled-back batches)
    imported.results.save(run, [fresh])
    assert imported.results.scores(run) == [fresh]
    assert _count(project_path, "SELECT COUNT(*) FROM signatures") == 1


def test_records_may_come_from_a_generator_with_new_signatures_midway(
    imported: ProjectStore, score: ScoreFactory
) -> None:
    run = imported.runs.start("lexical", {}, total=6)
    records = [score(q, p, m) for q, p in KEYS for m in METRICS]

    def one_by_one() -> Iterator[ScoreRecord]:
        yield from records

    imported.results.save(run, one_by_one())  # as the killed run in test_store_runs does
    assert len(imported.results.scores(run)) == len(records)
    assert {r.signature for r in imported.results.scores(run)} == {r.signature for r in records}

"""Runs, scores and flags, including a run whose process is killed halfway."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.store import ProjectStore, StoreError

ScoreFactory = Callable[..., ScoreRecord]
DESKTOP = Path(__file__).resolve().parents[2] / "desktop"
METRICS = ("factual_knowledge", "f1_score", "recall_over_words")


def test_run_lifecycle(imported: ProjectStore) -> None:
    assert imported.runs.latest() is None
    first = imported.runs.start("lexical", {"multiset": False, "thresholds": {"recall": 0.7}}, total=6)
    info = imported.runs.get(first)
    assert info is not None
    assert (info.kind, info.status, info.total, info.finished_at) == ("lexical", "running", 6, None)
    assert info.params == {"multiset": False, "thresholds": {"recall": 0.7}}
    assert info.import_id == imported.responses.imports()[-1].id
    assert not info.is_finished

    imported.runs.finish(first)
    second = imported.runs.start("lexical", {}, total=6)
    imported.runs.finish(second, "cancelled")
    judge = imported.runs.start("judge", {"model_sha256": "ab" * 32}, total=6)

    done = imported.runs.get(first)
    assert done is not None
    assert done.status == "finished"
    assert done.is_finished
    assert done.finished_at is not None
    assert done.finished_at >= done.started_at
    latest = imported.runs.latest()
    assert latest is not None
    assert latest.id == second
    finished = imported.runs.latest("lexical", finished_only=True)
    assert finished is not None
    assert finished.id == first
    assert [r.id for r in imported.runs.unfinished()] == [second, judge]
    assert [r.id for r in imported.runs.unfinished("judge")] == [judge]
    assert imported.runs.get(12345) is None

    imported.runs.resume(second)
    resumed = imported.runs.get(second)
    assert resumed is not None
    assert (resumed.status, resumed.finished_at) == ("running", None)
    with pytest.raises(ValueError, match="'running'"):
        imported.runs.finish(first, "running")
    with pytest.raises(StoreError, match="no run 12345"):
        imported.runs.finish(12345)


def test_scores_round_trip_and_are_idempotent(
    imported: ProjectStore, score: ScoreFactory, awkward: str
) -> None:
    run = imported.runs.start("lexical", {}, total=6)
    detail = {"alignment": [[0, 5, "matched"]], "text": awkward, "nested": {"ok": True, "n": None}}
    records = [
        score("q2", "rag-v2", "f1_score", 0.25, **detail),
        score("q1", "baseline", "f1_score", 1.0),
        score("q1", "baseline", "faithfulness", None),
        score("q1", "rag-v2", "f1_score", 0.0),
    ]
    flags = [("q1", "rag-v2", "verbose"), ("q1", "", "fact_prone_to_false_matches")]
    imported.results.save(run, records, flags)
    imported.results.save(run, records, flags)  # again: replaced, not duplicated

    got = imported.results.scores(run)
    assert [(r.question_id, r.pipeline, r.metric) for r in got] == [
        ("q1", "baseline", "f1_score"),
        ("q1", "baseline", "faithfulness"),
        ("q1", "rag-v2", "f1_score"),
        ("q2", "rag-v2", "f1_score"),
    ]
    assert got[3] == records[0]
    assert got[3].detail == detail
    assert got[1].status is ScoreStatus.NOT_SCORED
    assert (got[1].value, got[1].reason) == (None, "no statements")
    assert imported.results.scores(run, metrics=["faithfulness"]) == [records[2]]
    assert imported.results.scores(run, metrics=[]) == []
    assert imported.results.score_matrix(run, "f1_score") == {
        ("q2", "rag-v2"): 0.25,
        ("q1", "baseline"): 1.0,
        ("q1", "rag-v2"): 0.0,
    }
    assert imported.results.score_matrix(run, "faithfulness") == {("q1", "baseline"): None}
    assert imported.results.scored_keys(run) == {("q1", "baseline"), ("q1", "rag-v2"), ("q2", "rag-v2")}
    assert imported.results.flags(run) == [
        ("q1", "", "fact_prone_to_false_matches"),
        ("q1", "rag-v2", "verbose"),
    ]

    imported.results.save(run, [score("q1", "baseline", "f1_score", 0.75)])
    assert imported.results.score_matrix(run, "f1_score")[("q1", "baseline")] == 0.75


def test_runs_do_not_see_each_others_scores(imported: ProjectStore, score: ScoreFactory) -> None:
    one = imported.runs.start("lexical", {}, total=6)
    two = imported.runs.start("lexical", {"multiset": True}, total=6)
    imported.results.save(one, [score("q1", "baseline", value=0.1)])
    imported.results.save(two, [score("q1", "baseline", value=0.2)], [("q1", "baseline", "verbose")])
    assert imported.results.score_matrix(one, "f1_score") == {("q1", "baseline"): 0.1}
    assert imported.results.score_matrix(two, "f1_score") == {("q1", "baseline"): 0.2}
    assert imported.results.flags(one) == []


def test_delete_scores_forgets_edited_rows(imported: ProjectStore, score: ScoreFactory) -> None:
    run = imported.runs.start("lexical", {}, total=6)
    keys = [("q1", "baseline"), ("q1", "rag-v2"), ("q2", "baseline")]
    imported.results.save(
        run,
        [score(q, p, m) for q, p in keys for m in METRICS],
        [(q, p, "verbose") for q, p in keys] + [("q1", "", "ambiguous_question")],
    )
    imported.results.delete(run, [("q1", "rag-v2"), ("q2", "baseline")])
    assert imported.results.scored_keys(run) == {("q1", "baseline")}
    assert imported.results.flags(run) == [("q1", "", "ambiguous_question"), ("q1", "baseline", "verbose")]
    imported.results.delete(run, [("q1", "")])
    assert imported.results.flags(run) == [("q1", "baseline", "verbose")]


def test_bad_records_are_refused_and_nothing_of_the_batch_is_saved(
    imported: ProjectStore, score: ScoreFactory
) -> None:
    run = imported.runs.start("lexical", {}, total=6)
    good = score("q1", "baseline")
    bad_records = [
        ScoreRecord("q2", "baseline", "f1_score", None, "{}"),  # 'scored' without a value
        ScoreRecord("q2", "baseline", "f1_score", 0.3, "{}", ScoreStatus.NOT_SCORED, "why"),
        score("q2", "baseline", value=float("nan")),
        score("q2", "baseline", value=float("inf")),
        score("q2", "baseline", blob=object()),
        score("q2", "baseline", nan=float("nan")),
    ]
    for bad in bad_records:
        with pytest.raises(ValueError, match=r"\('q2', 'baseline'\)"):
            imported.results.save(run, [good, bad])
    with pytest.raises(StoreError, match="FOREIGN KEY"):
        imported.results.save(run, [good, score("q404", "baseline")])
    with pytest.raises(StoreError, match="FOREIGN KEY"):
        imported.results.save(12345, [good])
    assert imported.results.scores(run) == []


def test_save_scores_of_seven_metrics_for_a_thousand_rows_is_fast(
    store: ProjectStore, score: ScoreFactory
) -> None:
    items = [GoldenItem(f"q{i:04d}", f"question {i}", f"answer {i}", f"fact {i}") for i in range(250)]
    pipelines = ["p1", "p2", "p3", "p4"]
    store.golden.replace(items)
    store.responses.replace([PipelineResponse(i.id, p, "r") for i in items for p in pipelines], pipelines)
    metrics = [f"metric_{k}" for k in range(7)]
    detail = {"alignment": [[0, 4, "matched"], [5, 9, "extra"]], "fact_span": [0, 4]}
    records = [score(i.id, p, m, 0.5, **detail) for i in items for p in pipelines for m in metrics]
    run = store.runs.start("lexical", {}, total=1000)
    started = time.perf_counter()
    store.results.save(run, records)
    elapsed = time.perf_counter() - started
    assert elapsed < 2.0, f"results.save of 7,000 records took {elapsed:.2f}s"
    assert len(store.results.score_matrix(run, "metric_3")) == 1000


_KILLED_RUN = textwrap.dedent(
    """
    import sys, time
    from goldenlens.core.scores import ScoreRecord
    from goldenlens.store import ProjectStore

    path, run_id, half = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    metrics = ("factual_knowledge", "f1_score", "recall_over_words")
    store = ProjectStore.open(path)
    keys = [(r.question_id, r.pipeline) for r in store.responses.all()]

    def records(batch):
        return [ScoreRecord(q, p, m, 0.5, "{}") for q, p in batch for m in metrics]

    for start in range(0, half, 4):
        batch = keys[start:min(start + 4, half)]
        store.results.save(run_id, records(batch), [(q, p, "verbose") for q, p in batch])
        print(f"committed {start + len(batch)} rows", flush=True)

    def slow_rest():
        # The next batch: half written inside its transaction when the process is killed.
        for n, record in enumerate(records(keys[half:])):
            if n == 5:
                print("writing uncommitted rows", flush=True)
                time.sleep(600)
            yield record

    store.results.save(run_id, slow_rest())
    print("should never get here", flush=True)
    """
)


def test_run_killed_halfway_keeps_exactly_the_committed_rows(project_path: Path, score: ScoreFactory) -> None:
    items = [GoldenItem(f"q{i:02d}", f"question {i}", "answer", "fact") for i in range(20)]
    pipelines = ["a", "b"]
    with ProjectStore.open(project_path, create=True) as store:
        store.responses.import_inputs(
            items,
            [PipelineResponse(i.id, p, f"response {i.id}") for i in items for p in pipelines],
            pipelines,
            [],
            golden_source="g.csv",
            responses_source="r.csv",
        )
        run_id = store.runs.start("lexical", {"multiset": False}, total=40)
        keys = [(r.question_id, r.pipeline) for r in store.responses.all()]

    half = len(keys) // 2
    env = {**os.environ, "PYTHONPATH": str(DESKTOP)}
    child = subprocess.Popen(
        [sys.executable, "-c", _KILLED_RUN, str(project_path), str(run_id), str(half)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    watchdog = threading.Timer(60, child.kill)  # never hang the suite if the child misbehaves
    watchdog.start()
    try:
        committed = 0
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("committed "):
                committed = int(line.split()[1])
            if line.startswith("writing uncommitted"):
                break
        else:
            pytest.fail(f"child ended early: {child.stderr.read() if child.stderr else ''}")
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        watchdog.cancel()
        watchdog.join()
        if child.poll() is None:
            child.kill()
            child.wait()
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()
    assert child.returncode == -signal.SIGKILL
    assert committed == half

    with ProjectStore.open(project_path) as store:
        assert store.results.scored_keys(run_id) == set(keys[:committed])
        assert len(store.results.scores(run_id)) == committed * len(METRICS)
        assert len(store.results.flags(run_id)) == committed
        info = store.runs.get(run_id)
        assert info is not None
        assert info.status == "running"
        assert [r.id for r in store.runs.unfinished("lexical")] == [run_id]
        # the crashed run can be completed where it stopped
        rest = [score(q, p, m) for q, p in keys[committed:] for m in METRICS]
        store.results.save(run_id, rest)
        store.runs.finish(run_id)
        assert store.results.scored_keys(run_id) == set(keys)
        assert store.runs.unfinished() == []


@pytest.mark.parametrize(
    ("stored", "read"),
    [("7", 7), ("0", 0), ("true", None), ("2.0", None), ('"3"', None), ("null", None)],
)
def test_a_golden_version_is_read_back_only_as_a_whole_number(
    project_path: Path, imported: ProjectStore, stored: str, read: int | None
) -> None:
    """A run's golden-history ids come from its JSON parameters, which another program may
    have written: JSON's ``true`` is not version 1, nor ``2.0`` version 2."""
    run_id = imported.runs.start("lexical", {}, total=6)
    imported.runs.record_rescore(run_id, 5)
    edited = f'{{"multiset": false, "golden_history_id": {stored}, "golden_rescored_id": {stored}}}'
    conn = sqlite3.connect(project_path)
    try:
        with conn:
            conn.execute("UPDATE runs SET params = ? WHERE id = ?", (edited, run_id))
    finally:
        conn.close()
    info = imported.runs.get(run_id)
    assert info is not None
    assert (info.golden_history_id, info.golden_rescored_id) == (read, read)
    assert info.params == {"multiset": False}

"""Scoring over both cores: a process pool gives exactly the numbers, flags and order of one
process, commits batch by batch, and stops at a cancel."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from goldenlens.core.flags import FlagThresholds
from goldenlens.io.sample import sample_dir
from goldenlens.jobs import score_rows
from goldenlens.jobs.import_job import import_inputs
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress
from goldenlens.jobs.score_job import score_project
from goldenlens.store.project import ProjectStore

needs_two_cores = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="the pool is used only with two cores or more"
)


def _imported(path: Path) -> ProjectStore:
    store = ProjectStore.open(path, create=True)
    import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
    return store


def _contents(store: ProjectStore, run_id: int) -> tuple[object, ...]:
    records = [
        (r.question_id, r.pipeline, r.metric, r.value, r.status, r.reason)
        for r in store.results.scores(run_id)
    ]
    return (records, store.results.flags(run_id), sorted(store.results.scored_keys(run_id)))


def test_small_runs_stay_in_this_process_and_large_ones_use_the_cores() -> None:
    assert score_rows.workers_for(score_rows.POOL_MIN_ROWS - 1) == 0
    expected = 0 if len(os.sched_getaffinity(0)) < 2 else min(len(os.sched_getaffinity(0)), 4)
    assert score_rows.workers_for(score_rows.POOL_MIN_ROWS) == expected


@needs_two_cores
def test_pool_chunks_come_back_in_order_with_the_single_process_numbers(tmp_path: Path) -> None:
    with _imported(tmp_path / "p.goldenlens") as store:
        items = {item.id: item for item in store.golden.items()}
        rows = [
            (r.question_id, r.pipeline, r.response, items[r.question_id].answer, items[r.question_id].fact)
            for r in store.responses.all()
        ]
    chunks = [rows[n : n + 4] for n in range(0, len(rows), 4)]
    thresholds = FlagThresholds()
    alone = list(score_rows.score_chunks(chunks, False, thresholds, workers=0))
    pooled = list(score_rows.score_chunks(chunks, False, thresholds, workers=2))
    assert [c.keys for c in pooled] == [[(r[0], r[1]) for r in chunk] for chunk in chunks]
    assert pooled == alone
    assert any(c.flags for c in pooled)


@needs_two_cores
def test_a_pooled_run_stores_what_a_single_process_run_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _imported(tmp_path / "alone.goldenlens") as store:
        alone = _contents(store, score_project(store, batch_size=7))
    monkeypatch.setattr(score_rows, "POOL_MIN_ROWS", 1)
    assert score_rows.workers_for(30) >= 2
    with _imported(tmp_path / "pooled.goldenlens") as store:
        pooled = _contents(store, score_project(store, batch_size=7))
    assert pooled == alone


@needs_two_cores
def test_a_pooled_run_cancels_between_batches_and_resumes_to_the_same_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _imported(tmp_path / "alone.goldenlens") as store:
        alone = _contents(store, score_project(store, batch_size=5))
    monkeypatch.setattr(score_rows, "POOL_MIN_ROWS", 1)
    token = CancelToken()

    def cancel_after_two_batches(progress: Progress) -> None:
        if progress.done >= 10:
            token.cancel()

    with _imported(tmp_path / "pooled.goldenlens") as store:
        with pytest.raises(Cancelled):
            score_project(store, progress=cancel_after_two_batches, cancel=token, batch_size=5)
        [run] = store.runs.unfinished("lexical")
        assert run.status == "cancelled"
        assert len(store.results.scored_keys(run.id)) == 10  # the committed batches, nothing queued after
        assert score_project(store, batch_size=5) == run.id
        assert _contents(store, run.id) == alone

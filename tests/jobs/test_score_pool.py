"""Scoring over both cores: a process pool gives exactly the numbers, flags and order of one
process, commits batch by batch, and stops at a cancel."""

from __future__ import annotations

import math
import multiprocessing
import os
from array import array
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress
from goldenlens.jobs.scoring import score_rows
from goldenlens.jobs.scoring.score_files import ResponseRows, question_bounds
from goldenlens.jobs.scoring.score_job import score_project
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


@given(st.lists(st.integers(min_value=1, max_value=6), max_size=40), st.integers(min_value=1, max_value=9))
def test_chunk_bounds_cover_every_row_once_and_never_split_a_question(
    sizes: list[int], min_rows: int
) -> None:
    question_ids = [f"q{n}" for n, size in enumerate(sizes) for _ in range(size)]
    bounds = question_bounds(question_ids, min_rows)
    assert [n for start, end in bounds for n in range(start, end)] == list(range(len(question_ids)))
    for start, end in bounds[:-1]:
        assert end - start >= min_rows
        assert question_ids[end - 1] != question_ids[end]  # the next chunk starts a new question
    if bounds:  # the last chunk is short only when it is the rest of the rows
        assert bounds[-1][1] == len(question_ids)


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
@needs_two_cores
def test_slices_scored_in_a_pool_equal_the_chunks_scored_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start_method: str
) -> None:
    """Forked workers build their chunks from their copy of the rows, spawned ones are sent
    them; either gives what scoring the same chunks in this process gives."""
    if start_method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start_method} on this platform")
    with _imported(tmp_path / "p.goldenlens") as store:
        source = ResponseRows(store.responses.all(), {item.id: item for item in store.golden.items()})
    bounds = question_bounds([r.question_id for r in source.responses], 4)
    thresholds = FlagThresholds()
    alone = list(score_rows.score_chunks([source.rows(*b) for b in bounds], False, thresholds, workers=0))
    monkeypatch.setattr(score_rows, "child_context", lambda: multiprocessing.get_context(start_method))
    pooled = list(score_rows.score_slices(source, bounds, False, thresholds, workers=2))
    assert pooled == alone
    assert [len(c.keys) for c in pooled] == [end - start for start, end in bounds]


def test_packed_values_keep_every_value_and_mark_the_not_scored() -> None:
    rows = [(1.0, 0.0, 0.5, 1 / 3, 2 / 3, 0.0, 1.0), (None, None, 0.25, 0.1, 0.7, 1.0, 0.0)]
    packed = array("d", score_rows.pack_values(rows)).tolist()
    assert packed[:7] == list(rows[0])
    assert [math.isnan(v) for v in packed[7:9]] == [True, True]
    assert packed[9:] == list(rows[1][2:])

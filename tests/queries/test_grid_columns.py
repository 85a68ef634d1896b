"""The whole-grid fast path (each score column read as integer-key and integer-value arrays,
placed through item keys) against the slow keyed reads, on real project files.

Expected values come from the store's keyed reader ``score_matrix`` (one ``(question_id,
pipeline) -> value`` row per score, the reader the reports use) and from the per-question
path ``load_grid_head`` takes; every comparison is bit for bit.
"""

from __future__ import annotations

import random
import sqlite3
import struct
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.flags import Flag
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES, RECALL
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.core.view.grid_state import FLAG_BITS
from goldenlens.queries.grid_data import GridData
from goldenlens.queries.grid_loading import load_grid, load_grid_head
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import StoreError

# Values a score column must carry exactly: the edges of the integer encoding (2**-10, 2),
# values just inside and outside them, ratios of small integers (what FMEval's metrics give),
# and values outside a score's range that take the exact REAL fallback.
EDGES = [
    0.0, 1.0, 0.5, 2.0**-10, 2.0**-10 * (1 - 2**-53), np.nextafter(2.0**-10, 1.0), 1 / 3, 2 / 3, 0.1, 0.7,
    1.9999999999999998, 2.0, 2.5, -0.25, -1.0, 1e-300, 5e-324, 1e300, 123456.789, -1e-310, 0.999,
]  # fmt: skip


def _bits(value: float) -> bytes:
    return struct.pack("<d", value)


def _store_with(path: Path, values: list[float | None], pipelines: tuple[str, ...] = ("A", "B")) -> int:
    """A project of ``len(values) / len(pipelines)`` questions whose F1 scores are ``values``."""
    n = len(values) // len(pipelines)
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace([GoldenItem(f"q{i}", f"Q{i}?", "a", "f") for i in range(n)], source="test")
        responses = [PipelineResponse(f"q{i}", p, "r") for i in range(n) for p in pipelines]
        store.responses.replace(responses, list(pipelines))
        run = store.runs.start("lexical", {}, total=len(responses))
        records = [
            ScoreRecord(r.question_id, r.pipeline, F1_SCORE, v, "{}")
            if v is not None
            else ScoreRecord(r.question_id, r.pipeline, F1_SCORE, None, "{}", ScoreStatus.NOT_SCORED, "empty")
            for r, v in zip(responses, values, strict=True)
        ]
        store.results.save(run, records, [])
        store.runs.finish(run)
    return run


def test_a_score_column_carries_every_value_bit_for_bit(tmp_path: Path) -> None:
    rng = random.Random(5)
    values: list[float | None] = [*EDGES, None]
    values += [rng.random() for _ in range(300)]
    values += [i / j for j in range(1, 40) for i in range(j + 1)]
    values += [rng.random() * 2.0 ** -rng.randrange(1, 60) for _ in range(100)]  # down to tiny
    values += [None] * (len(values) % 2)
    run = _store_with(tmp_path / "p.goldenlens", values)
    with ProjectStore.open(tmp_path / "p.goldenlens") as store:
        expected = store.results.score_matrix(run, F1_SCORE)
        column = store.grid.score_column(run, F1_SCORE)
        names = {key: qid for qid, key in store.grid.item_keys()}
        pipelines = {key: name for name, key in store.grid.pipeline_keys().items()}
    assert len(column.values) == len(expected) == len(values)
    got = {
        (names[int(item)], pipelines[int(pipe)]): float(value)
        for item, pipe, value in zip(column.items, column.pipelines, column.values, strict=True)
    }
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if value is None:
            assert np.isnan(got[key]), key
        else:
            assert _bits(got[key]) == _bits(value), (key, value, got[key])


def test_an_empty_column_and_an_unknown_metric(tmp_path: Path) -> None:
    run = _store_with(tmp_path / "p.goldenlens", [0.5, None])
    with ProjectStore.open(tmp_path / "p.goldenlens") as store:
        for metric in (RECALL, "no_such_metric"):
            column = store.grid.score_column(run, metric)
            assert (len(column.items), len(column.pipelines), len(column.values)) == (0, 0, 0)
        assert store.grid.score_column(run + 1, F1_SCORE).values.size == 0


def test_an_unreadable_column_is_an_error_not_a_short_array() -> None:
    from goldenlens.store.repositories.grid_reads import _parse_integers

    assert _parse_integers("1,-2,30", 3).tolist() == [1, -2, 30]
    for text, count in (("1,2", 3), ("1,x,3", 3), ("1.5,2", 2)):
        with pytest.raises(StoreError):
            _parse_integers(text, count)


def _expected_matrix(store: ProjectStore, grid: GridData, run: int, metric: str) -> np.ndarray:
    """The grid's matrix for ``metric`` built from ``score_matrix`` and the golden order."""
    matrix = np.full((len(grid), len(grid.pipelines)), np.nan)
    rows = {item.id: row for row, item in enumerate(store.golden.items())}
    for (question_id, pipeline), value in store.results.score_matrix(run, metric).items():
        if question_id in rows and pipeline in grid.pipelines and value is not None:
            matrix[rows[question_id], grid.pipelines.index(pipeline)] = value
    for override in store.grid.overrides():
        if override.metric == metric and override.pipeline in grid.pipelines:
            shown = override.value if override.value is not None else float(bool(override.passed))
            matrix[rows[override.question_id], grid.pipelines.index(override.pipeline)] = shown
    return matrix


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.tobytes() == b.tobytes()  # bit for bit, NaN included


def test_the_whole_grid_equals_the_keyed_reads(tmp_path: Path) -> None:
    """A project that has lived: golden set reordered after scoring (rows no longer in key
    order), questions deleted and added (item keys with gaps and reused), a pipeline dropped,
    scores not scored, one metric scoring only some keys, out-of-range values, overrides, flags
    on responses and on golden rows."""
    rng = random.Random(11)
    path = tmp_path / "lived.goldenlens"
    pipelines = ["P1", "P2", "P3"]
    items = [GoldenItem(f"q{i:03d}", f"Question {i}?", f"answer {i}", f"fact {i}") for i in range(240)]
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace(items, source="test")
        responses = [PipelineResponse(item.id, p, f"r {item.id}") for item in items for p in pipelines]
        store.responses.replace(responses, pipelines)
        run = store.runs.start("lexical", {}, total=len(responses))
        records: list[ScoreRecord] = []
        for r in responses:
            for metric in LEXICAL_SCORE_NAMES:
                if metric == RECALL and rng.random() < 0.3:
                    continue  # this metric did not score every key
                if rng.random() < 0.05:
                    records.append(
                        ScoreRecord(r.question_id, r.pipeline, metric, None, "{}", ScoreStatus.NOT_SCORED)
                    )
                    continue
                value = rng.choice([rng.random(), rng.randrange(7) / rng.randrange(1, 9), rng.choice(EDGES)])
                records.append(ScoreRecord(r.question_id, r.pipeline, metric, value, "{}"))
        flags = [
            (item.id, pipeline, rng.choice(list(Flag)).value)
            for item in items
            for pipeline in ["", *pipelines]
            if rng.random() < 0.15
        ]
        store.results.save(run, records, flags)
        store.runs.finish(run)
        shuffled = items[:]
        rng.shuffle(shuffled)
        gone = {"q239", "q100", "q005"}
        store.golden.replace([i for i in shuffled if i.id not in gone], source="test")
        store.golden.add(GoldenItem("q900", "A new question?", "a", "f"))  # may reuse q239's key
        kept = [r for r in responses if r.pipeline != "P2" and r.question_id not in gone]
        store.responses.replace(kept, ["P3", "P1"])
        store.reviews.set_override("q010", "P1", F1_SCORE, value=0.25, passed=None, note="")
        store.reviews.set_override("q011", "P3", FACTUAL_KNOWLEDGE, value=None, passed=True, note="")
        keys = {key: qid for qid, key in store.grid.item_keys()}
        assert len(keys) == len(items) - 3 + 1

    with ProjectStore.open(path) as store:
        grid = load_grid(store, run)  # the fast path
        head = load_grid_head(store, run, limit=len(grid) - 1)  # the keyed path, per question id
        assert grid.pipelines == ("P3", "P1")
        assert list(grid.question_ids) == [item.id for item in store.golden.items()]
        assert not head.complete
        for metric in LEXICAL_SCORE_NAMES:
            expected = _expected_matrix(store, grid, run, metric)
            assert _same(grid.values[metric], expected), metric
            assert _same(head.values[metric], grid.values[metric][: len(head)]), metric
            assert _same(head.overridden[metric], grid.overridden[metric][: len(head)]), metric
        expected_flags = np.zeros_like(grid.flags)
        expected_golden = np.zeros_like(grid.golden_flags)
        for question_id, pipeline, name in store.grid.flags(run):
            row = grid.index_of(question_id)
            if row is not None and pipeline == "":
                expected_golden[row] |= FLAG_BITS[name]
            elif row is not None and pipeline in grid.pipelines:
                expected_flags[row, grid.pipelines.index(pipeline)] |= FLAG_BITS[name]
        assert expected_flags.any()
        assert expected_golden.any()
        assert _same(grid.flags, expected_flags)
        assert _same(grid.golden_flags, expected_golden)
        assert _same(head.flags, grid.flags[: len(head)])
        assert _same(head.golden_flags, grid.golden_flags[: len(head)])
        new_row = grid.index_of("q900")
        assert new_row is not None
        assert all(np.isnan(grid.values[m][new_row]).all() for m in LEXICAL_SCORE_NAMES)


def test_keys_too_large_to_pack_are_an_error_not_a_guess(tmp_path: Path) -> None:
    """An item key so large that ``item * width + pipeline`` overflows 64 bits (SQLite then
    computes it as a REAL) is refused, never read as some other key."""
    path = tmp_path / "p.goldenlens"
    run = _store_with(path, [0.5, 0.25])
    with closing(sqlite3.connect(path)) as conn:
        huge = "UPDATE scores SET item = ? WHERE pipeline = (SELECT max(pipeline) FROM scores)"
        conn.execute(huge, [2**62])
        conn.commit()
    with ProjectStore.open(path) as store, pytest.raises(StoreError, match="score column"):
        store.grid.score_column(run, F1_SCORE)


def test_grid_reads_in_a_snapshot_see_one_committed_state(tmp_path: Path) -> None:
    """Inside ``grid.snapshot`` a commit from another connection is not seen half-way: the
    golden rows and the item keys read after it still match the ones read before."""
    path = tmp_path / "p.goldenlens"
    _store_with(path, [0.5, 0.25, 1.0, 0.0])
    with ProjectStore.open(path) as reader, ProjectStore.open(path) as writer:
        with reader.grid.snapshot():
            before = [row[0] for row in reader.grid.golden()]
            writer.golden.delete("q1")
            writer.golden.add(GoldenItem("q9", "Q9?", "a", "f"))
            assert [row[0] for row in reader.grid.golden()] == before == ["q0", "q1"]
            assert sorted(q for q, _key in reader.grid.item_keys()) == ["q0", "q1"]
            with reader.grid.snapshot():  # nested: joins the open one
                assert reader.grid.question_count() == 2
        assert [row[0] for row in reader.grid.golden()] == ["q0", "q9"]

"""Fills a :class:`~goldenlens.queries.grid_data.GridData`'s arrays from the project: scores,
flags and reviews, overrides, the flags in force under them, response texts.

A metric arrives as arrays of integer keys and values (``store.grid.score_column``), no Python
object per score, and the keys go to rows and columns through two lookup arrays; only the rows
of some questions are read when a few are reloaded (``ids``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter

import numpy as np

from goldenlens.core.lexical.flags import (
    FLAG_INPUTS,
    FlagThresholds,
    golden_flags_in_force,
    response_flags_in_force,
)
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.view.grid_state import FLAG_BITS, BoolArray, IntArray, ObjectArray
from goldenlens.queries.grid_data import GridData, OverrideNote, flag_mask, flags_in, frozen, objects
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import GOLDEN_ROW, Override

_FIRST, _SECOND, _THIRD = itemgetter(0), itemgetter(1), itemgetter(2)


def _positions(where: Mapping[str, int], keys: Iterable[str]) -> IntArray:
    """``where[key]`` of each key as an array, -1 for a missing key (fast path: none missing)."""
    names = list(keys)
    try:
        return np.fromiter(map(where.__getitem__, names), dtype=np.int64, count=len(names))
    except KeyError:
        return np.fromiter((where.get(k, -1) for k in names), dtype=np.int64, count=len(names))


def _lookup(table: IntArray, keys: IntArray) -> IntArray:
    """``table[key]`` of each key, -1 for a key outside the table."""
    inside = (keys >= 0) & (keys < len(table))
    found = np.full(len(keys), -1, dtype=np.int64)
    found[inside] = table[keys[inside]]
    return found


class GridBuilder:
    """Mutable arrays being filled; rows limited to ``ids`` when reloading some questions."""

    def __init__(self, data: GridData, ids: Sequence[str] | None) -> None:
        self.data = data
        self.ids = ids
        data.index_of("")  # builds the id -> row index the fills below share
        self.columns = {name: col for col, name in enumerate(data.pipelines)}
        self.values = {m: v.copy() for m, v in data.values.items()}
        self.overridden = {m: v.copy() for m, v in data.overridden.items()}
        self.flags = data.flags.copy()
        self.golden_flags = data.golden_flags.copy()
        self.review = data.review.copy()
        self.notes = dict(data.override_notes)
        self.reasons = dict(data.reasons)
        self.responses = None if data.responses is None else data.responses.copy()
        self.key_tables: tuple[IntArray, IntArray, int] | None = None

    def rows(self, question_ids: Iterable[str]) -> IntArray:
        """Row of each id, -1 for an id not in the grid (deleted, or past a partial grid)."""
        return _positions(self.data._cache["index"], question_ids)

    def cols(self, pipelines: Iterable[str]) -> IntArray:
        """Column of each pipeline, -1 for one the project no longer lists."""
        return _positions(self.columns, pipelines)

    def scores(self, store: ProjectStore, metrics: Sequence[str]) -> None:
        n, p = len(self.data), len(self.data.pipelines)
        if self.ids is None:
            self._all_scores(store, metrics)
            self._reasons(store, metrics)
            return
        last: tuple[list[str], list[str], tuple[IntArray, IntArray, BoolArray]] | None = None
        for metric in metrics:
            matrix = self.values.setdefault(metric, np.full((n, p), np.nan))
            self.overridden.setdefault(metric, np.zeros((n, p), dtype=bool))
            run_id = self.data.run_of(metric)
            found = store.grid.scores(run_id, metric, self.ids) if run_id is not None else []
            keys = list(map(_FIRST, found)), list(map(_SECOND, found))
            if last is not None and keys[0] == last[0] and keys[1] == last[1]:
                rows, cols, keep = last[2]  # a run scores every metric of a key: same cells again
            else:
                rows, cols = self.rows(keys[0]), self.cols(keys[1])
                keep = (rows >= 0) & (cols >= 0)
                last = (*keys, (rows, cols, keep))
            values = np.fromiter(map(_THIRD, found), dtype=np.float64, count=len(found))  # None -> NaN
            matrix[rows[keep], cols[keep]] = values[keep]
        self._reasons(store, metrics)

    def _reasons(self, store: ProjectStore, metrics: Sequence[str]) -> None:
        """Why the judge scores of ``metrics`` that were not scored are missing (lexical
        scores are always scored where there is a response: nothing to read for them)."""
        judged = [m for m in metrics if m in self.data.judge_metrics]
        if not judged or self.data.judge_run_id is None:
            return
        for question_id, pipeline, metric, reason in store.grid.reasons(
            self.data.judge_run_id, judged, self.ids
        ):
            self.reasons[(question_id, pipeline, metric)] = reason

    def _all_scores(self, store: ProjectStore, metrics: Sequence[str]) -> None:
        """The whole grid: each metric is one column of integer keys and values, placed by
        numpy through the rows' item keys (no Python object per score)."""
        n, p = len(self.data), len(self.data.pipelines)
        for metric in metrics:
            matrix = self.values.setdefault(metric, np.full((n, p), np.nan))
            self.overridden.setdefault(metric, np.zeros((n, p), dtype=bool))
            run_id = self.data.run_of(metric)
            if run_id is None:
                continue
            rows_of_item, cols_of_pipeline, _golden = self._key_tables(store)
            column = store.grid.score_column(run_id, metric)
            rows, cols = _lookup(rows_of_item, column.items), _lookup(cols_of_pipeline, column.pipelines)
            keep = (rows >= 0) & (cols >= 0)
            matrix[rows[keep], cols[keep]] = column.values[keep]

    def _key_tables(self, store: ProjectStore) -> tuple[IntArray, IntArray, int]:
        """Row of each item key, column of each pipeline key (-1: not in the grid), and the
        pipeline key of golden-row flags (read once per builder)."""
        if self.key_tables is None:
            self.key_tables = self._read_key_tables(store)
        return self.key_tables

    def _read_key_tables(self, store: ProjectStore) -> tuple[IntArray, IntArray, int]:
        found = store.grid.item_keys()
        item_rows = self.rows(map(_FIRST, found))
        item_keys = np.fromiter(map(_SECOND, found), np.int64, len(found))
        usable = item_keys >= 0  # SQLite allows a negative rowid; no writer of ours makes one
        rows = np.full(int(item_keys.max(initial=-1)) + 1, -1, dtype=np.int64)
        rows[item_keys[usable]] = item_rows[usable]  # -1 for an item past a partial grid
        pipeline_keys = store.grid.pipeline_keys()
        cols = np.full(max(pipeline_keys.values(), default=-1) + 1, -1, dtype=np.int64)
        for name, col in self.columns.items():
            if name in pipeline_keys:
                cols[pipeline_keys[name]] = col
        return rows, cols, pipeline_keys.get(GOLDEN_ROW, -1)

    def marks(self, store: ProjectStore) -> None:
        """Flags and review states."""
        index: dict[str, int] = self.data._cache["index"]
        if self.data.run_id is not None and self.ids is None:
            self._all_flags(store, self.data.run_id)
        elif self.data.run_id is not None:
            for question_id, pipeline, name in store.grid.flags(self.data.run_id, self.ids):
                row, bit = index.get(question_id), FLAG_BITS.get(name, 0)
                if row is None:
                    continue
                if pipeline == GOLDEN_ROW:
                    self.golden_flags[row] |= bit
                elif pipeline in self.columns:
                    self.flags[row, self.columns[pipeline]] |= bit
        for question_id, status in store.grid.reviews(self.ids):
            row = self.data.index_of(question_id)
            if row is not None:
                self.review[row] = status

    def _all_flags(self, store: ProjectStore, run_id: int) -> None:
        """Every flag of the run from integer keys and codes, placed by numpy."""
        found = store.grid.flag_keys(run_id)
        if not found:
            return
        items, pipelines, codes = np.array(found, dtype=np.int64).reshape(-1, 3).T
        names = store.grid.flag_names()
        bit_of_code = np.zeros(max(names, default=0) + 1, dtype=np.int64)
        for code, name in names.items():
            bit_of_code[code] = FLAG_BITS.get(name, 0)
        bits = bit_of_code[codes]
        rows_of_item, cols_of_pipeline, golden_key = self._key_tables(store)
        rows, cols = _lookup(rows_of_item, items), _lookup(cols_of_pipeline, pipelines)
        golden = (pipelines == golden_key) & (rows >= 0)
        np.bitwise_or.at(self.golden_flags, rows[golden], bits[golden])
        response = (rows >= 0) & (cols >= 0)
        np.bitwise_or.at(self.flags, (rows[response], cols[response]), bits[response])

    def overrides(self, overrides: Iterable[Override], metrics: Sequence[str]) -> None:
        for o in overrides:
            row, col = self.data.index_of(o.question_id), self.columns.get(o.pipeline)
            if row is None or col is None or o.metric not in metrics:
                continue
            original = float(self.values[o.metric][row, col])
            shown = o.value if o.value is not None else float(bool(o.passed))
            self.values[o.metric][row, col] = shown
            self.overridden[o.metric][row, col] = True
            was = None if np.isnan(original) else original
            note = OverrideNote(o.reviewer, o.note, was, o.value, o.passed)
            self.notes[(o.question_id, o.pipeline, o.metric)] = note

    def flags_in_force(self, store: ProjectStore, overrides: Iterable[Override]) -> None:
        """The flags under the scores in force, as the question's detail and the reports show
        them: a cell whose reviewer overrode a score a flag reads gets its flags derived again
        (:func:`~goldenlens.core.lexical.flags.response_flags_in_force`), and its question, when the
        exact Factual Knowledge was overridden, its ambiguous-question flag
        (:func:`~goldenlens.core.lexical.flags.golden_flags_in_force`). The stored scores of those
        cells are read again, whichever metric columns the grid shows."""
        run_id = self.data.run_id
        changed: dict[tuple[str, str], dict[str, float]] = {}
        for o in overrides:
            value = o.effective_value
            in_grid = o.pipeline in self.columns and self.data.index_of(o.question_id) is not None
            if o.metric in FLAG_INPUTS and value is not None and in_grid:
                changed.setdefault((o.question_id, o.pipeline), {})[o.metric] = value
        if run_id is None or not changed:
            return
        run = store.runs.get(run_id)
        thresholds = FlagThresholds.from_params(run.params if run is not None else {})
        questions = sorted({question_id for question_id, _pipeline in changed})
        stored = {
            metric: {(q, p): v for q, p, v in store.grid.scores(run_id, metric, questions)}
            for metric in FLAG_INPUTS
        }
        for (question_id, pipeline), values in changed.items():
            row, col = self.data.index_of(question_id), self.columns[pipeline]
            assert row is not None  # (checked above)
            scores = {metric: stored[metric].get((question_id, pipeline)) for metric in FLAG_INPUTS}
            names = [flag.value for flag in flags_in(int(self.flags[row, col]))]
            self.flags[row, col] = flag_mask(response_flags_in_force(names, scores | values, thresholds))
        for question_id in {q for (q, _p), values in changed.items() if FACTUAL_KNOWLEDGE in values}:
            row = self.data.index_of(question_id)
            assert row is not None
            found: list[float] = []
            for pipeline in self.columns:
                key = (question_id, pipeline)
                value = changed.get(key, {}).get(FACTUAL_KNOWLEDGE, stored[FACTUAL_KNOWLEDGE].get(key))
                if value is not None:
                    found.append(value)
            names = [flag.value for flag in flags_in(int(self.golden_flags[row]))]
            self.golden_flags[row] = flag_mask(golden_flags_in_force(names, found))

    def texts(self, store: ProjectStore) -> None:
        if self.responses is None:
            return
        found = store.grid.responses(self.ids)
        rows, cols = self.rows(map(_FIRST, found)), self.cols(map(_SECOND, found))
        keep = (rows >= 0) & (cols >= 0)
        self.responses[rows[keep], cols[keep]] = objects([row[2] for row in found])[keep]

    def build(self, texts: Sequence[ObjectArray] = (), available: tuple[str, ...] | None = None) -> GridData:
        d = self.data
        questions, answers, facts = texts or (d.questions, d.answers, d.facts)
        new = GridData(
            run_id=d.run_id,
            question_ids=d.question_ids,
            questions=questions,
            answers=answers,
            facts=facts,
            pipelines=d.pipelines,
            values={m: frozen(v) for m, v in self.values.items()},
            overridden={m: frozen(v) for m, v in self.overridden.items()},
            flags=frozen(self.flags),
            golden_flags=frozen(self.golden_flags),
            review=frozen(self.review),
            override_notes=self.notes,
            responses=None if self.responses is None else frozen(self.responses),
            available_metrics=d.available_metrics if available is None else available,
            complete=d.complete,
            total=d.total,
            judge_run_id=d.judge_run_id,
            judge_metrics=d.judge_metrics,
            reasons=self.reasons,
        )
        for key in ("index", "ranks"):  # same ids, same rows
            if key in d._cache:
                new._cache[key] = d._cache[key]
        return new

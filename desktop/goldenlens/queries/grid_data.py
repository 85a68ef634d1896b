"""The score grid's data: one run's scores, flags, overrides and reviews as numpy arrays.

:func:`load_grid` reads a project with a handful of bulk queries (one per metric, one each
for golden items, item keys, responses, flags, reviews and overrides) and places the values
with vectorised numpy assignment: a metric arrives as arrays of integer keys and values
(:meth:`ProjectStore.grid_score_column`), no Python object per score, and the keys go to
rows and columns through two lookup arrays. 100,000 questions x 3 pipelines with three
metrics load in about 0.9 s of CPU (each further metric ~0.15 s).
:func:`update_rows` reloads a few questions after an edit without touching the rest.
:func:`load_grid_head` reads only the first questions (milliseconds on any size): a view shows
them at once while :func:`load_grid` runs in the background, as Anki's browser does.

Overrides replace the value shown (and filtered and sorted on): ``value`` when given, else
``passed`` as 1.0/0.0. The stored score stays in :class:`OverrideNote` for the tooltip.

Judge metrics are columns like the lexical ones: their scores come from the newest judge run
(finished or not: the run every report shows, ``goldenlens.jobs.reporting.stored_run.judge_scores``),
read through the same score columns, with the reviewer's overrides of judge metrics applied
the same way (an override counts even where the judge never reached the row). A judge score
that is not scored stays NaN — shown as missing, never as 0 — and its reason is kept in
:attr:`GridData.reasons` for the tooltip.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import Any

import numpy as np

from goldenlens.core.gc_pause import collector_paused
from goldenlens.core.lexical.flags import (
    FLAG_INPUTS,
    Flag,
    FlagThresholds,
    golden_flags_in_force,
    response_flags_in_force,
)
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.view.grid_state import FLAG_BITS, BoolArray, FloatArray, IntArray, ObjectArray
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import GOLDEN_ROW, REVIEW_UNREVIEWED, Override

Key = tuple[str, str, str]  # (question_id, pipeline, metric)
#: Up to this many responses, :func:`load_grid` loads their texts for the search by default.
RESPONSES_AUTO_LIMIT = 60_000
#: Questions :func:`load_grid_head` reads by default: a few screens, well under 10 ms.
HEAD_LIMIT = 500
Row = tuple[Any, ...]
_FIRST, _SECOND, _THIRD = itemgetter(0), itemgetter(1), itemgetter(2)


def flag_mask(names: Iterable[str]) -> int:
    """Bit mask of flag names (:data:`goldenlens.core.view.grid_state.FLAG_BITS`); unknown names ignored."""
    return functools.reduce(operator.or_, (FLAG_BITS.get(name, 0) for name in names), 0)


def flags_in(mask: int) -> list[Flag]:
    """The flags set in ``mask``, in :class:`Flag` order."""
    return [flag for flag in Flag if mask & FLAG_BITS[flag.value]]


@dataclass(frozen=True)
class OverrideNote:
    """Who overrode a score, why, and what the stored score was (``None``: not scored)."""

    reviewer: str
    note: str
    original: float | None
    value: float | None
    passed: bool | None

    def describe(self) -> str:
        """``overridden by Ann: fact variant missing; original 0.42``."""
        who = f" by {self.reviewer}" if self.reviewer else ""
        why = f": {self.note}" if self.note else ""
        was = "not scored" if self.original is None else f"{self.original:.4g}"
        return f"overridden{who}{why}; original {was}"


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


def _objects(items: Sequence[Any]) -> ObjectArray:
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


def _frozen(array: Any) -> Any:
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class GridData:
    """Column arrays of the grid; row ``i`` is the ``i``-th golden question in set order.

    ``values[metric]`` is ``(n_questions, n_pipelines)`` float with NaN for missing scores
    and overrides applied; ``overridden[metric]`` marks overridden cells. ``flags`` holds a
    bit mask (:data:`~goldenlens.core.view.grid_state.FLAG_BITS`) per response, ``golden_flags`` per
    golden row. ``review`` is the review status. Arrays are read-only: build a new
    ``GridData`` (:func:`update_rows`) to change one. ``complete`` is False when only the
    first rows are loaded (:func:`load_grid_head`); ``total`` counts the project's questions.
    ``judge_run_id`` is the newest judge run (``None``: none) and ``judge_metrics`` the
    metrics it scored (plus judge metrics only a reviewer's override gives a value);
    their columns in ``values`` hold that run's scores. ``reasons`` says why a loaded judge
    score is not scored, by ``(question_id, pipeline, metric)``.
    """

    run_id: int | None
    question_ids: ObjectArray
    questions: ObjectArray
    answers: ObjectArray
    facts: ObjectArray
    pipelines: tuple[str, ...]
    values: Mapping[str, FloatArray]
    overridden: Mapping[str, BoolArray]
    flags: IntArray
    golden_flags: IntArray
    review: ObjectArray
    override_notes: Mapping[Key, OverrideNote]
    responses: ObjectArray | None = None
    available_metrics: tuple[str, ...] = ()
    complete: bool = True
    total: int = -1  # made len(self) unless partial
    judge_run_id: int | None = None
    judge_metrics: tuple[str, ...] = ()
    reasons: Mapping[Key, str] = field(default_factory=dict)
    _cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", max(self.total, len(self)) if not self.complete else len(self))

    @classmethod
    def empty(cls, pipelines: Sequence[str] = ()) -> GridData:
        """A grid with no questions (what a view shows before a project is open)."""
        return _assemble(None, [], tuple(pipelines), None)

    def __len__(self) -> int:
        return len(self.question_ids)

    def index_of(self, question_id: str) -> int | None:
        """Row of a question id, ``None`` if it is not in the grid."""
        index: dict[str, int] | None = self._cache.get("index")
        if index is None:
            index = self._cache["index"] = {qid: row for row, qid in enumerate(self.question_ids)}
        return index.get(question_id)

    def search_texts(self) -> list[str]:
        """Per row: id, question, answer, fact and responses joined by newlines, lower-cased
        (built on first use, then cached)."""
        texts: list[str] | None = self._cache.get("search")
        if texts is None:
            texts = self._cache["search"] = [self._search_text(row) for row in range(len(self))]
        return texts

    def _search_text(self, row: int) -> str:
        parts = [self.question_ids[row], self.questions[row], self.answers[row], self.facts[row]]
        if self.responses is not None:
            parts.extend(self.responses[row])
        return "\n".join(parts).lower()

    def id_ranks(self) -> IntArray:
        """Rank of each id in natural order, ``q2`` before ``q10`` (cached)."""
        ranks: IntArray | None = self._cache.get("ranks")
        if ranks is None:
            ranks = self._cache["ranks"] = natural_ranks(list(self.question_ids))
        return ranks

    def override_note(self, row: int, pipeline: int, metric: str) -> OverrideNote | None:
        """The override shown in one cell, if any."""
        key = (self.question_ids[row], self.pipelines[pipeline], metric)
        return self.override_notes.get(key)

    def run_of(self, metric: str) -> int | None:
        """The run a metric's column is read from: the judge run for a judge metric."""
        return self.judge_run_id if metric in self.judge_metrics else self.run_id

    def missing_reason(self, row: int, pipeline: int, metric: str) -> str:
        """Why a cell shows no score, in words for its tooltip."""
        key = (self.question_ids[row], self.pipelines[pipeline], metric)
        reason = self.reasons.get(key)
        if reason:
            return f"not scored: {reason}"
        if metric in self.judge_metrics:
            return f"not judged in judge run {self.judge_run_id} (the newest)"
        return "not scored"


_DIGITS = re.compile(r"(\d+)")


def natural_ranks(ids: Sequence[str]) -> IntArray:
    """Rank of each id in natural order: digit runs compare as numbers (``q2`` < ``q10``)."""
    keys = [tuple(int(p) if p.isdigit() else p.casefold() for p in _DIGITS.split(i)) for i in ids]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ranks = np.empty(len(keys), dtype=np.int64)
    ranks[order] = np.arange(len(keys), dtype=np.int64)
    return ranks


class _Builder:
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
        self.responses[rows[keep], cols[keep]] = _objects([row[2] for row in found])[keep]

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
            values={m: _frozen(v) for m, v in self.values.items()},
            overridden={m: _frozen(v) for m, v in self.overridden.items()},
            flags=_frozen(self.flags),
            golden_flags=_frozen(self.golden_flags),
            review=_frozen(self.review),
            override_notes=self.notes,
            responses=None if self.responses is None else _frozen(self.responses),
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


def _assemble(
    run_id: int | None,
    golden: Sequence[Any],
    pipelines: tuple[str, ...],
    responses: ObjectArray | None,
) -> GridData:
    """A grid of ``golden`` rows ``(id, question, answer, fact)`` with nothing scored yet."""
    n = len(golden)
    columns = list(zip(*golden, strict=True)) if n else [()] * 4
    ids, questions, answers, facts = (_objects(column) for column in columns)
    return GridData(
        run_id=run_id,
        question_ids=ids,
        questions=questions,
        answers=answers,
        facts=facts,
        pipelines=pipelines,
        values={},
        overridden={},
        flags=np.zeros((n, len(pipelines)), dtype=np.int64),
        golden_flags=np.zeros(n, dtype=np.int64),
        review=_objects([REVIEW_UNREVIEWED] * n),
        override_notes={},
        responses=responses,
    )


def load_grid(
    store: ProjectStore,
    run_id: int | None,
    metrics: Sequence[str] | None = None,
    *,
    responses: bool | None = None,
) -> GridData:
    """Everything the grid shows for ``run_id`` (``None``: questions without scores).

    ``metrics=None`` loads every metric the run has; otherwise only those listed (each costs
    one index range scan, about 0.15 s per 100,000 x 3 scores). ``responses`` puts the
    response texts into the text search; by default only while there are at most
    :data:`RESPONSES_AUTO_LIMIT` of them (beyond, they would add ~0.4 s and ~100 MB per
    300,000 and the search covers id, question, answer and fact).
    """
    return load_grid_head(store, run_id, metrics, limit=None, responses=responses)


def load_grid_head(
    store: ProjectStore,
    run_id: int | None,
    metrics: Sequence[str] | None = None,
    *,
    limit: int | None = HEAD_LIMIT,
    responses: bool | None = None,
) -> GridData:
    """The first ``limit`` questions in golden-set order, as :func:`load_grid` shows them.

    Every query is limited to their ids (index seeks): milliseconds on 100,000 questions.
    When the project holds more, the grid has ``complete=False`` and ``total`` counts them
    all; ``responses`` defaults as for the full grid. ``limit=None`` is :func:`load_grid`.
    """
    with collector_paused(), store.grid.snapshot():
        return _load(store, run_id, metrics, limit, responses)


def _load(
    store: ProjectStore,
    run_id: int | None,
    metrics: Sequence[str] | None,
    limit: int | None,
    responses: bool | None,
) -> GridData:
    golden = store.grid.golden(limit=None if limit is None else limit + 1)  # one more: any left?
    ids, total = None, -1
    if limit is not None and len(golden) > limit:
        golden, total = golden[:limit], store.grid.question_count()
        ids = [row[0] for row in golden]
    pipelines = tuple(store.responses.pipelines())
    lexical = tuple(store.results.metrics(run_id)) if run_id is not None else ()
    overrides = store.grid.overrides(ids)
    judge_run_id, judge_metrics = _judge_columns(store, overrides)
    available = (*lexical, *(m for m in judge_metrics if m not in lexical))
    wanted = available if metrics is None else tuple(dict.fromkeys(metrics))
    if responses is None:
        responses = max(total, len(golden)) * len(pipelines) <= RESPONSES_AUTO_LIMIT
    text = np.full((len(golden), len(pipelines)), "", dtype=object) if responses else None
    base = replace(
        _assemble(run_id, golden, pipelines, text), judge_run_id=judge_run_id, judge_metrics=judge_metrics
    )
    builder = _Builder(base if ids is None else replace(base, complete=False, total=total), ids)
    builder.scores(store, wanted)
    builder.marks(store)
    builder.overrides(overrides, wanted)
    builder.flags_in_force(store, overrides)
    builder.texts(store)
    return builder.build(available=available)


def _judge_columns(store: ProjectStore, overrides: Sequence[Override]) -> tuple[int | None, tuple[str, ...]]:
    """The newest judge run (finished or not, as the reports take it) and its metrics, sorted,
    with the judge metrics a reviewer overrode (their value counts as the reports count it);
    ``(None, ())`` without a judge run (the reports then show no judge score either)."""
    judge = store.runs.latest(JUDGE_RUN)
    if judge is None:
        return None, ()
    scored = set(store.results.metrics(judge.id))
    overridden = {o.metric for o in overrides if o.metric not in LEXICAL_SCORE_NAMES}
    return judge.id, tuple(sorted(scored | overridden))


def newest_judge_run(store: ProjectStore) -> int | None:
    """The id of the judge run the grid reads (the newest), ``None`` when there is none."""
    judge = store.runs.latest(JUDGE_RUN)
    return None if judge is None else judge.id


def add_metrics(data: GridData, store: ProjectStore, metrics: Sequence[str]) -> GridData:
    """``data`` with more metric columns loaded (those already there are kept as they are)."""
    missing = [m for m in dict.fromkeys(metrics) if m not in data.values]
    if not missing:
        return data
    ids = None if data.complete else [str(q) for q in data.question_ids]
    with collector_paused(), store.grid.snapshot():
        builder = _Builder(data, ids)
        builder.scores(store, missing)
        builder.overrides(store.grid.overrides(ids), missing)
        return builder.build()


def update_rows(
    data: GridData, store: ProjectStore, run_id: int | None, question_ids: Iterable[str]
) -> GridData:
    """``data`` with some questions reloaded (text, scores, flags, overrides, review).

    Cheap for a few ids. A new or deleted question, changed pipelines or another run cannot
    be patched in place: the whole grid is reloaded then (same metrics; a partial grid
    reloads as many first rows).
    """
    ids = list(dict.fromkeys(question_ids))
    golden = store.grid.golden(ids)
    if (
        run_id != data.run_id
        or newest_judge_run(store) != data.judge_run_id
        or tuple(store.responses.pipelines()) != data.pipelines
        or len(golden) != len(ids)
        or any(data.index_of(q) is None for q in ids)
    ):
        limit, searched = None if data.complete else len(data), data.responses is not None
        return load_grid_head(store, run_id, tuple(data.values), limit=limit, responses=searched)
    builder = _Builder(data, ids)
    rows = builder.rows(ids)
    for metric in builder.values:
        builder.values[metric][rows] = np.nan
        builder.overridden[metric][rows] = False
    builder.flags[rows] = 0
    builder.golden_flags[rows] = 0
    builder.review[rows] = REVIEW_UNREVIEWED
    if builder.responses is not None:
        builder.responses[rows] = ""
    reloaded = set(ids)
    builder.notes = {key: note for key, note in builder.notes.items() if key[0] not in reloaded}
    builder.reasons = {key: why for key, why in builder.reasons.items() if key[0] not in reloaded}
    builder.scores(store, tuple(data.values))
    builder.marks(store)
    overrides = store.grid.overrides(ids)
    builder.overrides(overrides, tuple(data.values))
    builder.flags_in_force(store, overrides)
    builder.texts(store)
    texts = [c.copy() for c in (data.questions, data.answers, data.facts)]
    for item in golden:
        row = data.index_of(item[0])
        for column, value in zip(texts, item[1:], strict=True):
            column[row] = value
    new = builder.build(texts=[_frozen(c) for c in texts])
    if "search" in data._cache:  # patch the search texts instead of rebuilding 100k of them
        search = list(data._cache["search"])
        for row in rows:
            search[int(row)] = new._search_text(int(row))
        new._cache["search"] = search
    return new

"""The score grid's data: one run's scores, flags, overrides and reviews as numpy arrays
(:class:`GridData`), and the flag masks its cells hold.

Overrides replace the value shown (and filtered and sorted on): ``value`` when given, else
``passed`` as 1.0/0.0. The stored score stays in :class:`OverrideNote` for the tooltip.

Judge metrics are columns like the lexical ones (the newest judge run's scores, with the
reviewer's overrides of judge metrics). A judge score that is not scored stays NaN — shown as
missing, never as 0 — and its reason is kept in :attr:`GridData.reasons` for the tooltip.
:mod:`goldenlens.queries.grid_loading` reads a :class:`GridData` from a project.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from goldenlens.core.lexical.flags import Flag
from goldenlens.core.view.grid_state import FLAG_BITS, BoolArray, FloatArray, IntArray, ObjectArray
from goldenlens.store.values import REVIEW_UNREVIEWED

Key = tuple[str, str, str]  # (question_id, pipeline, metric)


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


def objects(items: Sequence[Any]) -> ObjectArray:
    """A one-dimensional object array of ``items`` (numpy would make tuples a second axis)."""
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


def frozen(array: Any) -> Any:
    """``array``, made read-only: a :class:`GridData` is changed only by building a new one."""
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
        return empty_grid(None, [], tuple(pipelines), None)

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


def empty_grid(
    run_id: int | None,
    golden: Sequence[Any],
    pipelines: tuple[str, ...],
    responses: ObjectArray | None,
) -> GridData:
    """A grid of ``golden`` rows ``(id, question, answer, fact)`` with nothing scored yet."""
    n = len(golden)
    columns = list(zip(*golden, strict=True)) if n else [()] * 4
    ids, questions, answers, facts = (objects(column) for column in columns)
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
        review=objects([REVIEW_UNREVIEWED] * n),
        override_notes={},
        responses=responses,
    )

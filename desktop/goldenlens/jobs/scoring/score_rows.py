"""Scoring rows of (question, pipeline) into plain numbers, in this process or a pool of them.

The lean path of a lexical run: a row goes in as five strings and comes out as a
:class:`ScoredChunk` of tuples — the seven values in :data:`LEXICAL_SCORE_NAMES` order, the
not-scored reasons, the flag names — with no per-score objects, no signatures (one per run and
metric, added by the store) and no spans (derived data, worked out when shown).

Large runs score their chunks in a process pool over both cores: chunks go out in order and
come back in order (``Executor.map`` semantics with a bounded window), so the run stores
exactly what one process would, batch by batch, and a cancel takes effect between chunks.
Small runs stay in this process: starting workers costs more than they would save.
"""

from __future__ import annotations

import multiprocessing
import os
from array import array
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Final, Protocol, cast

from goldenlens.core.lexical.batch import batch_values
from goldenlens.core.lexical.flags import Flag, FlagThresholds, flags_from_values
from goldenlens.core.lexical.refusal import refusals
from goldenlens.core.lexical.scorer import (
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    LEXICAL_SCORE_NAMES,
    PRECISION,
    RECALL,
    LexicalScorer,
)
from goldenlens.jobs.scoring.child_processes import child_context, settle_child

_EXACT, _QUASI, _RECALL, _PRECISION = (
    LEXICAL_SCORE_NAMES.index(name)
    for name in (FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT, RECALL, PRECISION)
)

#: ``(question_id, pipeline, response, answer, fact)``
RowText = tuple[str, str, str, str, str]

#: Rows from which a pool pays for its start-up (measured: ~0.3 s to start two workers, a
#: chunk of 2,000 rows scores in ~0.2 s per core).
POOL_MIN_ROWS: Final = 20_000
#: Chunks in flight per worker: enough to keep both cores busy while the writer commits,
#: few enough that memory stays bounded on a 200,000-row run.
_WINDOW_PER_WORKER: Final = 2


@dataclass(frozen=True)
class ScoredChunk:
    """Scores and flags of a chunk of rows, in row order."""

    keys: list[tuple[str, str]] = field(default_factory=list)
    values: list[tuple[float | None, ...]] = field(default_factory=list)
    #: ``(question_id, pipeline, metric, reason)`` of the values that are not scored
    reasons: list[tuple[str, str, str, str]] = field(default_factory=list)
    #: ``(question_id, pipeline, flag)``
    flags: list[tuple[str, str, str]] = field(default_factory=list)
    #: Filled by a rendering worker (:func:`goldenlens.jobs.scoring.score_files.render_chunk`) only,
    #: which leaves the fields above empty: the rows' lines of the JSON report as the report
    #: writes them, the values packed, and the number of rows.
    text: str = ""
    #: The rows' values as :func:`pack_values` packs them (a rendering worker's, for the means
    #: and the paired comparisons: 8 bytes a value instead of a float object each).
    packed: bytes = b""
    rendered_rows: int = 0

    @property
    def row_count(self) -> int:
        return len(self.keys) or self.rendered_rows


def pack_values(values: Sequence[Sequence[float | None]]) -> bytes:
    """Rows of values as one run of native doubles, row after row, a not-scored value (``None``)
    as NaN: what a worker sends back instead of a float object per value. Lexical values are
    never NaN (ratios of word counts and 0/1 matches), so NaN stands for ``None`` alone."""
    flat = list(chain.from_iterable(values))
    try:
        return array("d", cast(list[float], flat)).tobytes()
    except TypeError:  # a value is not scored
        return array("d", [_NAN if value is None else value for value in flat]).tobytes()


_NAN: Final = float("nan")


@dataclass(frozen=True)
class ScoreOptions:
    """What changes the lexical numbers or flags; stored as the run's parameters."""

    multiset: bool = False
    thresholds: FlagThresholds = field(default_factory=FlagThresholds)

    def params(self) -> dict[str, Any]:
        return {"multiset": self.multiset, "thresholds": self.thresholds.as_dict()}


def score_chunk(rows: Sequence[RowText], multiset: bool, thresholds: FlagThresholds) -> ScoredChunk:
    """Score ``rows`` (pure; runs in a worker process or in this one)."""
    scorer, scored, flagged = row_scores(rows, multiset, thresholds)
    out = ScoredChunk()
    flags = out.flags
    for (question_id, pipeline, _response, _answer, fact), values, row_flags in zip(
        rows, scored, flagged, strict=True
    ):
        out.keys.append((question_id, pipeline))
        if values[_EXACT] is None or values[_QUASI] is None:
            out.reasons.extend(
                (question_id, pipeline, name, reason) for name, reason in scorer.reasons(fact).items()
            )
        flags.extend((question_id, pipeline, flag.value) for flag in row_flags)
    out.values.extend(scored)
    return out


def row_scores(
    rows: Sequence[RowText], multiset: bool, thresholds: FlagThresholds
) -> tuple[LexicalScorer, list[tuple[float | None, ...]], list[list[Flag]]]:
    """Each row's seven values (:data:`LEXICAL_SCORE_NAMES` order) and flags, and the scorer
    that knows why a value is not scored (:meth:`LexicalScorer.reasons`)."""
    # A scorer per chunk prepares each golden answer and fact once: the rows of a question are
    # adjacent, so caching across chunks would save little and keep every answer in memory.
    scorer = LexicalScorer(multiset=multiset)
    scored = batch_values(scorer, [(response, answer, fact) for _q, _p, response, answer, fact in rows])
    refused = refusals([row[2] for row in rows])
    flagged = [
        flags_from_values(
            values[_EXACT],
            values[_QUASI],
            values[_RECALL],
            values[_PRECISION],
            thresholds,
            empty=not row[2] or row[2].isspace(),  # not row[2].strip(), with no copy made
            refusal=refusal,
        )
        for row, values, refusal in zip(rows, scored, refused, strict=True)
    ]
    return scorer, scored, flagged


def workers_for(rows: int) -> int:
    """How many worker processes a run of ``rows`` rows uses (0: score in this process)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if rows < POOL_MIN_ROWS or cores < 2:
        return 0
    return min(cores, 4)


#: A function that scores one chunk: :func:`score_chunk` or one that does more per row.
ChunkWorker = Callable[[Sequence[RowText], bool, FlagThresholds], ScoredChunk]


def score_chunks(
    chunks: Iterable[Sequence[RowText]],
    multiset: bool,
    thresholds: FlagThresholds,
    *,
    workers: int,
    worker: ChunkWorker = score_chunk,
) -> Generator[ScoredChunk, None, None]:
    """``worker``'s result for each chunk, in order. With ``workers`` > 0 the chunks are scored
    in a process pool (``worker`` must then be a module-level function); closing the iterator
    early (a cancel) stops it without waiting for queued chunks."""
    if workers <= 0:
        for chunk in chunks:
            yield worker(chunk, multiset, thresholds)
        return
    calls = ((worker, (chunk, multiset, thresholds)) for chunk in chunks)
    yield from _in_pool(calls, workers, child_context())


class RowSource(Protocol):
    """Rows that can be built from what a process holds: a forked worker builds its own
    chunks from the parent's copy, so no row's texts are sent to it."""

    def rows(self, start: int, end: int) -> list[RowText]:
        """Rows ``start`` to ``end`` (excluded), in order."""
        ...


#: The source the workers of a forked pool build their chunks from (its one element): set
#: before the pool forks them, so each has it in its copy of this process (:func:`score_slices`).
_SHARED_SOURCE: list[RowSource] = []


def score_slices(
    source: RowSource,
    bounds: Iterable[tuple[int, int]],
    multiset: bool,
    thresholds: FlagThresholds,
    *,
    workers: int,
    worker: ChunkWorker = score_chunk,
) -> Generator[ScoredChunk, None, None]:
    """:func:`score_chunks` of ``source.rows(start, end)`` for each ``(start, end)`` of
    ``bounds``. A forked pool's workers build each chunk themselves from their copy of
    ``source`` and are sent only its bounds; a spawned one's are sent the rows."""
    if workers <= 0:
        for start, end in bounds:
            yield worker(source.rows(start, end), multiset, thresholds)
        return
    context = child_context()
    calls: Iterable[tuple[Callable[..., ScoredChunk], tuple[Any, ...]]]
    if context.get_start_method() == "fork":
        _SHARED_SOURCE[:] = [source]
        calls = ((_score_shared, (worker, start, end, multiset, thresholds)) for start, end in bounds)
    else:
        calls = ((worker, (source.rows(start, end), multiset, thresholds)) for start, end in bounds)
    try:
        yield from _in_pool(calls, workers, context)
    finally:
        _SHARED_SOURCE.clear()


def _score_shared(
    worker: ChunkWorker, start: int, end: int, multiset: bool, thresholds: FlagThresholds
) -> ScoredChunk:
    """In a forked worker: ``worker`` on rows ``start`` to ``end`` of the inherited source."""
    if not _SHARED_SOURCE:  # only a pool forked by score_slices sends this
        raise RuntimeError("no rows to score: this worker was not forked by score_slices")
    return worker(_SHARED_SOURCE[0].rows(start, end), multiset, thresholds)


def _in_pool(
    calls: Iterable[tuple[Callable[..., ScoredChunk], tuple[Any, ...]]],
    workers: int,
    context: multiprocessing.context.BaseContext,
) -> Generator[ScoredChunk, None, None]:
    """Each call's result, in order, from a pool of ``workers`` processes, with a bounded
    number in flight; closing the iterator early cancels what is queued."""
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=settle_child) as pool:
        pending: deque[Future[ScoredChunk]] = deque()
        try:
            for function, arguments in calls:
                pending.append(pool.submit(function, *arguments))
                if len(pending) >= workers * _WINDOW_PER_WORKER:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()

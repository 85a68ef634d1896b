"""Judge every response of a project with the chosen judge and embedding metrics.

Qt-free, like every job: :func:`judge_project` takes a progress callback and a cancel token.
Each finished (question, pipeline) row is one commit, and every metric result is cached in
the project file (:mod:`goldenlens.jobs.judging.judge_cache`), so:

* a rerun with the same models and parameters calls no model at all;
* editing one golden row re-judges only the rows and metrics that read it;
* a run killed at any point keeps its finished rows, and calling :func:`judge_project` again
  with equal options on the same inputs resumes it, judging only what is missing. A run
  records the fingerprint of the questions, answers, facts, responses and contexts it
  judges; when they changed, a new run starts, so a run never mixes old and new inputs;
* the project's writer lock is held for the whole run, so a second process refuses to judge
  or score the project meanwhile (:class:`~goldenlens.store.lock.ProjectBusyError`).

The store is touched only on the caller's thread. With a judge server (``judge_url``) and
``parallel > 1`` rows are judged by a pool of worker threads; the HTTP engine bounds the
requests in flight. An in-process model has one owner thread, so rows are judged in turn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.runs.fingerprint import inputs_fingerprint
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.scores import ScoreRecord
from goldenlens.jobs.judging.judge_cache import (
    ModelIds,
    cache_key,
    model_sha_for,
    result_from_cache,
    result_to_cache,
)
from goldenlens.jobs.judging.judge_options import Engines, JudgeOptions, comparable, open_engines
from goldenlens.jobs.judging.judge_progress import JudgeMeter as _Meter
from goldenlens.jobs.judging.judge_selection import selected_questions
from goldenlens.jobs.progress import Cancelled, CancelToken, ProgressFn, no_progress
from goldenlens.jobs.scoring.resume import resumable_run
from goldenlens.judge.engines.embedding import EmbeddingError
from goldenlens.judge.metrics.base import JudgeCall, JudgeMetric, MetricInputs, MetricResult, judge_signature
from goldenlens.judge.registry import MetricInfo, available
from goldenlens.store.lock import project_lock
from goldenlens.store.project import ProjectStore

__all__ = [
    "JUDGE_RUN",
    "Engines",
    "JudgeOptions",
    "JudgeRunError",
    "MetricInfo",
    "available",
    "judge_project",
    "open_engines",
]

#: Consecutive rows whose judge calls failed (server down, engine error) before a run stops.
MAX_ENGINE_ERRORS = 5


class JudgeRunError(RuntimeError):
    """The run stopped: the engine kept failing. Finished rows are kept; resume later."""


@dataclass
class _Row:
    """One (question, pipeline) row: cached results, and the metrics still to compute."""

    response: PipelineResponse
    inputs: MetricInputs
    results: dict[str, MetricResult]
    misses: list[tuple[JudgeMetric, str]]


@dataclass
class _Computed:
    """A row's freshly computed results and what went wrong with the engines."""

    results: list[tuple[JudgeMetric, str, MetricResult, bool]]  # metric, key, result, cacheable
    engine_error: str = ""
    cancelled: bool = False


def inputs_for(item: GoldenItem, response: PipelineResponse) -> MetricInputs:
    """The judge metrics' view of a row: question, golden answer and fact from the golden
    item; response and contexts from the pipeline."""
    return MetricInputs(
        question=item.question,
        response=response.response,
        contexts=tuple(response.contexts),
        reference=item.answer,
        fact=item.fact,
    )


def judge_project(
    store: ProjectStore,
    options: JudgeOptions,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    engines: Engines | None = None,
    batch_size: int = 1,
    data_dir: Path | None = None,
    resume: bool = True,
    max_engine_errors: int = MAX_ENGINE_ERRORS,
) -> int:
    """Judge all responses of ``store`` with ``options.metrics``; return the run id.

    ``engines`` lets the caller keep models loaded between runs; otherwise they are opened
    from ``options`` (default embedding model converted into ``data_dir/models``, default
    :func:`~goldenlens.settings.folders.data_dir`) and closed at the end. ``batch_size`` rows
    make one commit (1: every row commits at once).

    On cancel the finished rows stay, the run is marked ``cancelled`` and :class:`Cancelled`
    is raised. After ``max_engine_errors`` consecutive rows with engine errors the run is
    marked ``failed`` and :class:`JudgeRunError` is raised (those rows are not saved, so a
    resume retries them).
    """
    options.build_metrics()  # a bad name or parameter fails before anything is opened
    settings = _Settings(progress, cancel, max(1, batch_size), resume, max_engine_errors)
    # The lock first: a busy project is refused before any model is loaded.
    with project_lock(store.path, while_waiting=None if cancel is None else cancel.raise_if_cancelled):
        if engines is not None:
            return _JudgeRun(store, options, engines, settings).run()
        if data_dir is None:
            from goldenlens.settings.folders import data_dir as default_data_dir

            data_dir = default_data_dir()
        with open_engines(options, data_dir) as opened:
            return _JudgeRun(store, options, opened, settings).run()


@dataclass(frozen=True)
class _Settings:
    progress: ProgressFn
    cancel: CancelToken | None
    batch_size: int
    resume: bool
    max_engine_errors: int


def judge_fingerprint(items: Sequence[GoldenItem], responses: Sequence[PipelineResponse]) -> str:
    """The fingerprint of what a judge run reads (:func:`inputs_for`): questions, answers,
    facts, responses and contexts."""
    return inputs_fingerprint(items, responses, questions=True, contexts=True)


class _JudgeRun:
    """One call of :func:`judge_project`: the store is used only from the calling thread."""

    def __init__(
        self, store: ProjectStore, options: JudgeOptions, engines: Engines, settings: _Settings
    ) -> None:
        self.store = store
        self.options = options
        self.engines = engines
        self.settings = settings
        self.metrics = options.build_metrics()
        self.models = ModelIds(
            judge=engines.judge.model_sha256 if engines.judge is not None else "",
            embedder=engines.embedder.model_sha256 if engines.embedder is not None else "",
        )
        self.signatures = {
            m.name: judge_signature(
                m,
                engine=engines.judge,
                embedder=engines.embedder,
                temperature=options.temperature,
                seed=options.seed,
            ).to_json()
            for m in self.metrics
        }
        self.items = {item.id: item for item in store.golden.items()}
        self.pending: list[ScoreRecord] = []  # judged, not yet committed (batch_size > 1)
        self.held: list[list[ScoreRecord]] = []  # rows with engine errors: saved once it recovers
        self.streak = 0
        self.meter = _Meter(settings.progress, 0, 0)

    def run(self) -> int:
        chosen = selected_questions(self.store, self.options.only, self.options.where)
        keep = set(self.items) if chosen is None else set(chosen)
        responses = [r for r in self.store.responses.all() if r.question_id in keep]
        fingerprint = judge_fingerprint(list(self.items.values()), responses)
        wanted = self.options.comparable_params()
        run_id = (
            resumable_run(self.store, JUDGE_RUN, fingerprint, lambda stored: comparable(stored) == wanted)
            if self.settings.resume
            else None
        )
        if run_id is None:
            run_id = self.store.runs.start(
                JUDGE_RUN, self.options.params(), total=len(responses), inputs_sha256=fingerprint
            )
        else:
            self.store.runs.resume(run_id)
        done = self.store.results.scored_keys(run_id)
        todo = [r for r in responses if (r.question_id, r.pipeline) not in done]
        self.meter = _Meter(self.settings.progress, len(responses), len(responses) - len(todo))
        self.meter.report()
        workers = self.options.parallel if self.options.judge_url else 1
        cancel = self.settings.cancel
        try:
            for row, computed in _rows_in_order(todo, self._prepare, self._compute, workers, cancel):
                self._take(run_id, row, computed)
        except Cancelled:
            self._save(run_id, with_held=True)
            self.store.runs.finish(run_id, "cancelled")
            raise
        except JudgeRunError:
            self._save(run_id, with_held=False)
            self.store.runs.finish(run_id, "failed")
            raise
        except BaseException:
            # Anything else (a model that failed, a bug): keep what is finished; the run stays
            # "running" in the file, so it counts as interrupted and can be resumed.
            self._save(run_id, with_held=True)
            raise
        self._save(run_id, with_held=True)
        self.store.runs.finish(run_id, "finished")
        self.meter.report(final=True)
        return run_id

    def _prepare(self, response: PipelineResponse) -> _Row:
        """Look the row's metrics up in the cache (job thread: it reads the store)."""
        inputs = inputs_for(self.items[response.question_id], response)
        row = _Row(response, inputs, {}, [])
        temperature, seed = self.options.temperature, self.options.seed
        for metric in self.metrics:
            key = cache_key(metric, inputs, self.models, temperature=temperature, seed=seed)
            cached = self.store.cache.get(key)
            result = None if cached is None else result_from_cache(metric.name, cached)
            if result is None:
                row.misses.append((metric, key))
            else:
                row.results[metric.name] = result
        return row

    def _compute(self, row: _Row) -> _Computed:
        return _compute(row, self.engines, self.options, self.settings.cancel)

    def _take(self, run_id: int, row: _Row, computed: _Computed) -> None:
        """Cache a row's fresh results and commit it (job thread)."""
        for metric, key, result, cacheable in computed.results:
            if cacheable:
                self.store.cache.put(
                    key,
                    metric=metric.name,
                    model_sha256=model_sha_for(metric, self.models),
                    prompt_version=metric.prompt_version,
                    output=result_to_cache(result),
                )
            row.results[metric.name] = result
        cancel = self.settings.cancel
        if computed.cancelled or (cancel is not None and cancel.cancelled):
            raise Cancelled
        records = _records(row, self.metrics, self.signatures)
        if computed.engine_error:
            self._engine_failed(records, computed.engine_error)
            return
        self.streak = 0
        for held in self.held:
            self.pending.extend(held)
            self.meter.row_done(fresh=False, tokens=0)
        self.held.clear()
        self.pending.extend(records)
        tokens = sum(result.completion_tokens for _, _, result, _ in computed.results)
        self.meter.row_done(fresh=bool(computed.results), tokens=tokens)
        if self.meter.rows_since_commit >= self.settings.batch_size:
            self._save(run_id, with_held=False)
            self.meter.report()

    def _engine_failed(self, records: list[ScoreRecord], error: str) -> None:
        self.streak += 1
        self.held.append(records)
        if self.streak >= self.settings.max_engine_errors:
            raise JudgeRunError(
                f"stopped after {self.streak} consecutive rows failed in the judge engine; the last "
                f"error: {error}. Finished rows are saved; resume when the engine works."
            )

    def _save(self, run_id: int, *, with_held: bool) -> None:
        records = self.pending + ([r for row in self.held for r in row] if with_held else [])
        if records:
            self.store.results.save(run_id, records)
        self.pending.clear()
        if with_held:
            self.held.clear()
        self.meter.committed()


def _rows_in_order(
    todo: Sequence[PipelineResponse],
    prepare: Callable[[PipelineResponse], _Row],
    compute: Callable[[_Row], _Computed],
    workers: int,
    cancel: CancelToken | None,
) -> Iterator[tuple[_Row, _Computed]]:
    """Prepared rows (cache looked up on this thread) with their computed results, in order.

    With ``workers > 1`` up to ``2 * workers`` rows are computed ahead on a thread pool."""
    if workers <= 1:
        for item in todo:
            if cancel is not None and cancel.cancelled:
                raise Cancelled
            row = prepare(item)
            yield row, compute(row)
        return
    window: deque[tuple[_Row, Future[_Computed]]] = deque()
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="goldenlens-judge") as pool:
        try:
            queue = iter(todo)
            while True:
                while len(window) < 2 * workers:
                    if cancel is not None and cancel.cancelled:
                        break
                    response = next(queue, None)
                    if response is None:
                        break
                    row = prepare(response)
                    window.append((row, pool.submit(compute, row)))
                if not window:
                    if cancel is not None and cancel.cancelled:
                        raise Cancelled
                    return
                row, future = window.popleft()
                yield row, future.result()
        finally:
            for _row, future in window:
                future.cancel()


def _compute(row: _Row, engines: Engines, options: JudgeOptions, cancel: CancelToken | None) -> _Computed:
    """Run the row's cache misses (on any thread: the engines serialise their models)."""
    out = _Computed([])
    for metric, key in row.misses:
        if cancel is not None and cancel.cancelled:
            out.cancelled = True
            break
        judge = None
        if engines.judge is not None and "judge" in metric.requires:
            judge = JudgeCall(
                engines.judge, temperature=options.temperature, seed=options.seed, cancel=cancel
            )
        try:
            result = metric.score(row.inputs, judge, engines.embedder)
        except EmbeddingError as error:
            result = MetricResult.not_scored(metric.name, f"embedding model error: {error}")
            out.engine_error = str(error)
            out.results.append((metric, key, result, False))
            continue
        finishes = [reply["finish_reason"] for reply in (judge.replies if judge else [])]
        errors = [
            reply["error"] for reply in (judge.replies if judge else []) if reply["finish_reason"] == "error"
        ]
        missing_engine = ("judge" in metric.requires and engines.judge is None) or (
            "embeddings" in metric.requires and engines.embedder is None
        )
        if "cancelled" in finishes:
            out.cancelled = True
        if errors:
            out.engine_error = str(errors[-1]) or "judge engine error"
        cacheable = not errors and "cancelled" not in finishes and not missing_engine
        out.results.append((metric, key, result, cacheable))
    return out


def _records(row: _Row, metrics: Sequence[JudgeMetric], signatures: dict[str, str]) -> list[ScoreRecord]:
    records: list[ScoreRecord] = []
    for metric in metrics:
        result = row.results[metric.name]
        detail: dict[str, object] = {
            **result.detail,
            "usage": {
                "calls": result.calls,
                "prompt_tokens": result.prompt_tokens,
                "completion_tokens": result.completion_tokens,
                "seconds": round(result.seconds, 4),
            },
        }
        records.append(
            ScoreRecord(
                question_id=row.response.question_id,
                pipeline=row.response.pipeline,
                metric=metric.name,
                value=result.value,
                signature=signatures[metric.name],
                status=result.status,
                reason=result.reason,
                detail=detail,
            )
        )
    return records

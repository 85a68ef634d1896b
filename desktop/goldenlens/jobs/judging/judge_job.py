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
from goldenlens.jobs.judging import run_driver
from goldenlens.jobs.judging.judge_cache import ModelIds, cached_result, put_result
from goldenlens.jobs.judging.judge_options import Engines, JudgeOptions, comparable, open_engines
from goldenlens.jobs.judging.judge_progress import JudgeMeter as _Meter
from goldenlens.jobs.judging.judge_selection import selected_questions
from goldenlens.jobs.judging.run_driver import JudgeRunError
from goldenlens.jobs.progress import Cancelled, CancelToken, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.judge.engines.embedding import EmbeddingError
from goldenlens.judge.metrics.base import JudgeCall, JudgeMetric, MetricInputs, MetricResult, judge_signature
from goldenlens.judge.registry import MetricInfo, available
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import RUN_FINISHED

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

    row: _Row
    results: list[tuple[JudgeMetric, str, MetricResult, bool]]  # metric, key, result, cacheable
    engine_error: str = ""
    cancelled: bool = False

    @property
    def tokens(self) -> int:
        return sum(result.completion_tokens for _, _, result, _ in self.results)


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


@takes_project
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
    max_engine_errors: int = run_driver.MAX_ENGINE_ERRORS,
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
    call = run_driver.RunCall(store, progress, cancel, resume, max_engine_errors)
    batch_size = max(1, batch_size)
    # The lock first: a busy project is refused before any model is loaded.
    with call.lock():
        if engines is not None:
            return _JudgeRun(call, options, engines, batch_size).run()
        if data_dir is None:
            from goldenlens.settings.folders import data_dir as default_data_dir

            data_dir = default_data_dir()
        with open_engines(options, data_dir) as opened:
            return _JudgeRun(call, options, opened, batch_size).run()


def judge_fingerprint(items: Sequence[GoldenItem], responses: Sequence[PipelineResponse]) -> str:
    """The fingerprint of what a judge run reads (:func:`inputs_for`): questions, answers,
    facts, responses and contexts."""
    return inputs_fingerprint(items, responses, questions=True, contexts=True)


class _JudgeRun:
    """One call of :func:`judge_project` and its :class:`~.run_driver.RunSteps`: the store is
    used only from the calling thread. A row whose engine failed is held back, and saved
    (scored as far as it went) once a later row shows the engine works again."""

    unit = "rows"
    stop_advice = "Finished rows are saved; resume when the engine works."
    stop_error = JudgeRunError

    def __init__(
        self, call: run_driver.RunCall, options: JudgeOptions, engines: Engines, batch_size: int
    ) -> None:
        self.call = call
        self.store = call.store
        self.options = options
        self.engines = engines
        self.batch_size = batch_size
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
                temperature=options.engine.temperature,
                seed=options.engine.seed,
            ).to_json()
            for m in self.metrics
        }
        self.items = {item.id: item for item in call.store.golden.items()}
        self.pending: list[ScoreRecord] = []  # judged, not yet committed (batch_size > 1)
        self.held: list[list[ScoreRecord]] = []  # rows with engine errors: saved once it recovers
        self.meter = _Meter(call.progress, 0, 0)

    def run(self) -> int:
        chosen = selected_questions(self.store, self.options.only, self.options.where)
        keep = set(self.items) if chosen is None else set(chosen)
        responses = [r for r in self.store.responses.all() if r.question_id in keep]
        wanted = self.options.comparable_params()
        run_id = run_driver.open_run(
            self.call,
            JUDGE_RUN,
            fingerprint=judge_fingerprint(list(self.items.values()), responses),
            params=self.options.params(),
            total=len(responses),
            same=lambda stored: comparable(stored) == wanted,
        )
        assert run_id is not None  # a run is always started
        done = self.store.results.scored_keys(run_id)
        todo = [r for r in responses if (r.question_id, r.pipeline) not in done]
        self.meter = _Meter(self.call.progress, len(responses), len(responses) - len(todo))
        self.meter.report()
        run_driver.drive_run(self.call, run_id, self, todo)
        return run_id

    def outcomes(self, todo: Sequence[PipelineResponse]) -> Iterator[tuple[PipelineResponse, _Computed]]:
        """The rows judged (on a pool of threads with a server), their fresh results cached."""
        cancel = self.call.cancel
        rows = _rows_in_order(todo, self._prepare, self._compute, self.options.engine.workers, cancel)
        for response, computed in rows:
            for metric, key, result, cacheable in computed.results:
                if cacheable:
                    put_result(self.store, key, metric, self.models, result)
                computed.row.results[metric.name] = result
            computed.cancelled = computed.cancelled or self.call.cancelled
            yield response, computed

    def _prepare(self, response: PipelineResponse) -> _Row:
        """Look the row's metrics up in the cache (job thread: it reads the store)."""
        inputs = inputs_for(self.items[response.question_id], response)
        row = _Row(response, inputs, {}, [])
        temperature, seed = self.options.engine.temperature, self.options.engine.seed
        for metric in self.metrics:
            key, result = cached_result(
                self.store, metric, inputs, self.models, temperature=temperature, seed=seed
            )
            if result is None:
                row.misses.append((metric, key))
            else:
                row.results[metric.name] = result
        return row

    def _compute(self, row: _Row) -> _Computed:
        return _compute(row, self.engines, self.options, self.call.cancel)

    def take(self, run_id: int, response: PipelineResponse, computed: _Computed) -> None:
        """Commit a row (in batches of ``batch_size``), or hold it back when its engine failed."""
        results = computed.row.results
        records = [
            results[m.name].record(response.question_id, response.pipeline, self.signatures[m.name])
            for m in self.metrics
        ]
        if computed.engine_error:
            self.held.append(records)
            return
        for held in self.held:
            self.pending.extend(held)
            self.meter.row_done(fresh=False, tokens=0)
        self.held.clear()
        self.pending.extend(records)
        self.meter.row_done(fresh=bool(computed.results), tokens=computed.tokens)
        if self.meter.rows_since_commit >= self.batch_size:
            self.flush(run_id, keep_failed=False)
            self.meter.report()

    def conclude(self) -> str:
        """Finished: the rows held back are saved as they are (:meth:`flush`)."""
        self.meter.report(final=True)
        return RUN_FINISHED

    def flush(self, run_id: int, *, keep_failed: bool) -> None:
        records = self.pending + ([r for row in self.held for r in row] if keep_failed else [])
        if records:
            self.store.results.save(run_id, records)
        self.pending.clear()
        if keep_failed:
            self.held.clear()
        self.meter.committed()


def _rows_in_order(
    todo: Sequence[PipelineResponse],
    prepare: Callable[[PipelineResponse], _Row],
    compute: Callable[[_Row], _Computed],
    workers: int,
    cancel: CancelToken | None,
) -> Iterator[tuple[PipelineResponse, _Computed]]:
    """The rows, prepared (cache looked up on this thread) and computed, in order.

    With ``workers > 1`` up to ``2 * workers`` rows are computed ahead on a thread pool."""
    if workers <= 1:
        yield from run_driver.one_by_one(todo, lambda response: compute(prepare(response)), cancel)
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
                yield row.response, future.result()
        finally:
            for _row, future in window:
                future.cancel()


def _compute(row: _Row, engines: Engines, options: JudgeOptions, cancel: CancelToken | None) -> _Computed:
    """Run the row's cache misses (on any thread: the engines serialise their models)."""
    out = _Computed(row, [])
    for metric, key in row.misses:
        if cancel is not None and cancel.cancelled:
            out.cancelled = True
            break
        judge = None
        if engines.judge is not None and "judge" in metric.requires:
            judge = JudgeCall(
                engines.judge, temperature=options.engine.temperature, seed=options.engine.seed, cancel=cancel
            )
        try:
            result = metric.score(row.inputs, judge, engines.embedder)
        except EmbeddingError as error:
            result = MetricResult.not_scored(metric.name, f"embedding model error: {error}")
            out.engine_error = str(error)
            out.results.append((metric, key, result, False))
            continue
        missing_engine = ("judge" in metric.requires and engines.judge is None) or (
            "embeddings" in metric.requires and engines.embedder is None
        )
        cancelled, failure = (judge.cancelled, judge.engine_error) if judge is not None else (False, "")
        out.cancelled = out.cancelled or cancelled
        out.engine_error = failure or out.engine_error
        cacheable = not failure and not cancelled and not missing_engine
        out.results.append((metric, key, result, cacheable))
    return out

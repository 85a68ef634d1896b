"""The resumable run of a judge job, written once: start or resume the run, judge item by
item committing as it goes, stop after a streak of engine errors, finish.

Judge runs (:mod:`.judge_job`), golden reviews (:mod:`.golden_review_job`) and drafting
(:mod:`goldenlens.jobs.drafting.draft_job`) all run :func:`drive_run`; what differs between
them (what an item is, how it is judged and saved, what an engine error leaves behind, how a
run that went through ends) is their :class:`RunSteps`. Every job holds the project's writer
lock for the whole run (:meth:`RunCall.lock`) and takes the judge from the caller or opens
the one its spec names (:func:`judge_engine`); a :class:`RunCall` carries what the caller
chose (progress, cancel, resume, how many engine errors stop a run).

How a run ends:

* cancelled (the token, or the model stopped on it): the finished items stay, the run is
  marked ``cancelled`` and :class:`~goldenlens.jobs.progress.Cancelled` is raised;
* ``max_engine_errors`` items in a row failed in the engine: the run is marked ``failed`` and
  the steps' :class:`JudgeRunError` is raised; the items that failed are not saved, so calling
  again retries them;
* anything else (a bug, a model that died, Ctrl+C): what is finished is kept and the run stays
  ``running`` in the file, so it counts as interrupted and the same call resumes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from goldenlens.core.errors import GoldenLensError
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.jobs.progress import Cancelled, CancelToken, ProgressFn, no_progress
from goldenlens.jobs.scoring.resume import resumable_run
from goldenlens.judge.engines.from_spec import open_judge_engine
from goldenlens.judge.engines.protocol import JudgeEngine
from goldenlens.store.lock import project_lock
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import RUN_CANCELLED, RUN_FAILED

__all__ = [
    "MAX_ENGINE_ERRORS",
    "JudgeRunError",
    "Outcome",
    "RunCall",
    "RunSteps",
    "drive_run",
    "judge_engine",
    "one_by_one",
    "open_run",
]

#: Consecutive items whose judge calls failed (server down, engine error) before a run stops.
MAX_ENGINE_ERRORS = 5

Item = TypeVar("Item")
Result = TypeVar("Result", bound="Outcome")


class JudgeRunError(GoldenLensError, RuntimeError):
    """The run stopped: the engine kept failing. Finished items are kept; resume later."""


class Outcome(Protocol):
    """What judging one item came to, as the driver reads it."""

    @property
    def engine_error(self) -> str:
        """The engine's last error ('' when it answered every call)."""
        ...

    @property
    def cancelled(self) -> bool:
        """The model stopped on the cancel token (so nothing of the item is saved)."""
        ...


class RunSteps(Protocol[Item, Result]):
    """What differs between the jobs :func:`drive_run` runs."""

    #: The items in the message of a run stopped by engine errors ("chunks", "golden rows").
    unit: str
    #: How that message ends: what is kept and how to go on.
    stop_advice: str
    #: The error that message is raised as.
    stop_error: type[JudgeRunError]

    def outcomes(self, todo: Sequence[Item]) -> Iterator[tuple[Item, Result]]:
        """Each item of ``todo`` with its outcome, in order; raises
        :class:`~goldenlens.jobs.progress.Cancelled` once the token is set
        (:func:`one_by_one` for a job that judges one item at a time)."""
        ...

    def take(self, run_id: int, item: Item, outcome: Result) -> None:
        """A judged item: commit it (and report progress). An outcome with an engine error
        that did not stop the run comes here too: whether it is kept is the job's choice."""
        ...

    def conclude(self) -> str:
        """Every item went through: the status to finish the run with, after the last
        progress report; raise :class:`JudgeRunError` to mark the run failed instead."""
        ...

    def flush(self, run_id: int, *, keep_failed: bool) -> None:
        """As the run ends, however it ends: commit what is judged but not saved yet
        (``keep_failed``: the items that failed in the engine too)."""
        ...


def one_by_one(
    todo: Sequence[Item], judge: Callable[[Item], Result], cancel: CancelToken | None
) -> Iterator[tuple[Item, Result]]:
    """:meth:`RunSteps.outcomes` for a job that judges one item at a time."""
    for item in todo:
        if cancel is not None and cancel.cancelled:
            raise Cancelled
        yield item, judge(item)


@dataclass(frozen=True)
class RunCall:
    """One call of a judge job: the project it writes, where its progress goes, its cancel
    token, whether it may continue an unfinished run, and how many items failing in the
    engine in a row stop it."""

    store: ProjectStore
    progress: ProgressFn = no_progress
    cancel: CancelToken | None = None
    resume: bool = True
    max_engine_errors: int = MAX_ENGINE_ERRORS

    @property
    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.cancelled

    def lock(self) -> AbstractContextManager[None]:
        """The project's writer lock, held for the whole run: a second process refuses to
        judge or score meanwhile (refused before any model loads when taken first); waiting
        for another thread of this process gives up on cancel."""
        cancel = self.cancel
        return project_lock(
            self.store.path, while_waiting=None if cancel is None else cancel.raise_if_cancelled
        )


@contextmanager
def judge_engine(engine: JudgeEngine | None, spec: JudgeEngineSpec) -> Iterator[JudgeEngine]:
    """``engine`` when the caller keeps one loaded, else the judge ``spec`` names, opened
    here and closed on exit."""
    if engine is not None:
        yield engine
        return
    with open_judge_engine(spec) as opened:
        yield opened


def open_run(
    call: RunCall,
    kind: str,
    *,
    fingerprint: str,
    params: Mapping[str, Any],
    total: int,
    same: Callable[[Mapping[str, Any]], bool] | None = None,
    start: bool = True,
) -> int | None:
    """The newest unfinished ``kind`` run on these inputs whose parameters are ``same``
    (default: equal to ``params``), marked running again; else (or when the call may not
    resume) a new run recording ``params`` — or ``None`` when ``start`` is false. Call it
    holding the project lock (:meth:`RunCall.lock`)."""
    store = call.store
    matches = same or (lambda stored: dict(stored) == dict(params))
    run_id = resumable_run(store, kind, fingerprint, matches) if call.resume else None
    if run_id is not None:
        store.runs.resume(run_id)
        return run_id
    if not start:
        return None
    return store.runs.start(kind, dict(params), total=total, inputs_sha256=fingerprint)


def drive_run(call: RunCall, run_id: int, steps: RunSteps[Item, Result], todo: Sequence[Item]) -> None:
    """Judge ``todo`` into run ``run_id`` item by item and finish the run (see the module
    docstring for how it ends)."""
    store = call.store
    try:
        _judge_all(run_id, steps, todo, call.max_engine_errors)
        status = steps.conclude()
    except Cancelled:
        steps.flush(run_id, keep_failed=True)
        store.runs.finish(run_id, RUN_CANCELLED)
        raise
    except JudgeRunError:
        steps.flush(run_id, keep_failed=False)
        store.runs.finish(run_id, RUN_FAILED)
        raise
    except BaseException:
        # Keep what is finished; the run stays "running", so it counts as interrupted.
        steps.flush(run_id, keep_failed=True)
        raise
    steps.flush(run_id, keep_failed=True)
    store.runs.finish(run_id, status)


def _judge_all(
    run_id: int, steps: RunSteps[Item, Result], todo: Sequence[Item], max_engine_errors: int
) -> None:
    """Judge the items and hand each to the steps."""
    streak = 0
    for item, outcome in steps.outcomes(todo):
        if outcome.cancelled:
            raise Cancelled
        if outcome.engine_error:
            streak += 1
            if streak >= max_engine_errors:
                raise steps.stop_error(
                    f"stopped after {streak} consecutive {steps.unit} failed in the judge engine; the "
                    f"last error: {outcome.engine_error}. {steps.stop_advice}"
                )
        else:
            streak = 0
        steps.take(run_id, item, outcome)

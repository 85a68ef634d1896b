"""The resumable run driver on a real project file: which run it continues, how each ending
marks the run, and the streak of engine errors that stops it. The steps are the smallest
job there is: an item is a number, its outcome is scripted, and ``take`` records what the
driver handed over (the judge, golden-review and draft jobs have their own tests)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from goldenlens.jobs.judging.run_driver import JudgeRunError, RunCall, drive_run, one_by_one, open_run
from goldenlens.jobs.progress import Cancelled, CancelToken
from goldenlens.store.project import ProjectStore

KIND = "judge"


@dataclass(frozen=True)
class Scripted:
    engine_error: str = ""
    cancelled: bool = False


OK = Scripted()
DOWN = Scripted(engine_error="connection refused")


class StoppedError(JudgeRunError):
    """The error this job stops with."""


@dataclass
class Steps:
    """Items 0, 1, 2, … with the scripted outcomes; raises ``boom`` at item ``boom_at``."""

    script: Sequence[Scripted]
    cancel: CancelToken | None = None
    fail_at_end: bool = False
    boom_at: int | None = None
    unit: str = "things"
    stop_advice: str = "Come back later."
    stop_error: type[JudgeRunError] = StoppedError
    taken: list[tuple[int, Scripted]] = field(default_factory=list)
    flushes: list[bool] = field(default_factory=list)

    def outcomes(self, todo: Sequence[int]) -> Iterator[tuple[int, Scripted]]:
        return one_by_one(todo, self._judge, self.cancel)

    def _judge(self, item: int) -> Scripted:
        if item == self.boom_at:
            raise RuntimeError("boom")
        return self.script[item]

    def take(self, run_id: int, item: int, outcome: Scripted) -> None:
        self.taken.append((item, outcome))

    def conclude(self) -> str:
        if self.fail_at_end:
            raise JudgeRunError("some failed")
        return "finished"

    def flush(self, run_id: int, *, keep_failed: bool) -> None:
        self.flushes.append(keep_failed)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ProjectStore]:
    with ProjectStore.open(tmp_path / "d.goldenlens", create=True) as opened:
        yield opened


def _run(store: ProjectStore, steps: Steps) -> int:
    call = RunCall(store, cancel=steps.cancel, max_engine_errors=3)
    run_id = open_run(call, KIND, fingerprint="inputs", params={"seed": 42}, total=len(steps.script))
    assert run_id is not None
    drive_run(call, run_id, steps, range(len(steps.script)))
    return run_id


def _status(store: ProjectStore, run_id: int) -> str:
    run = store.runs.get(run_id)
    assert run is not None
    return run.status


def test_a_run_that_goes_through_is_finished_and_a_streak_below_the_limit_goes_on(
    store: ProjectStore,
) -> None:
    steps = Steps([DOWN, DOWN, OK, DOWN, DOWN, OK])
    run_id = _run(store, steps)
    assert [item for item, _ in steps.taken] == [0, 1, 2, 3, 4, 5]  # failed items too: the job decides
    assert steps.flushes == [True]
    assert _status(store, run_id) == "finished"


def test_a_streak_of_engine_errors_stops_the_run_as_failed(store: ProjectStore) -> None:
    steps = Steps([OK, DOWN, DOWN, DOWN, OK])
    with pytest.raises(StoppedError) as stopped:
        _run(store, steps)
    assert str(stopped.value) == (
        "stopped after 3 consecutive things failed in the judge engine; the last error: connection refused. "
        "Come back later."
    )
    assert [item for item, _ in steps.taken] == [0, 1, 2]  # the item that stopped it is not handed over
    assert steps.flushes == [False]  # what failed is not kept
    (run,) = store.runs.unfinished(KIND)
    assert run.status == "failed"


def test_cancel_keeps_what_is_done_and_marks_the_run_cancelled(store: ProjectStore) -> None:
    token = CancelToken()
    steps = Steps([OK, Scripted(cancelled=True), OK], cancel=token)  # the model stopped on the token
    with pytest.raises(Cancelled):
        _run(store, steps)
    assert [item for item, _ in steps.taken] == [0]
    assert steps.flushes == [True]
    (run,) = store.runs.unfinished(KIND)
    assert run.status == "cancelled"
    token.cancel()
    again = Steps([OK, OK, OK], cancel=token)
    with pytest.raises(Cancelled):
        _run(store, again)
    assert again.taken == []


def test_a_crash_leaves_the_run_running_and_the_same_call_resumes_it(store: ProjectStore) -> None:
    steps = Steps([OK, OK, OK], boom_at=1)
    with pytest.raises(RuntimeError, match="boom"):
        _run(store, steps)
    assert steps.flushes == [True]
    (run,) = store.runs.unfinished(KIND)
    assert run.status == "running"
    assert _run(store, Steps([OK, OK, OK])) == run.id
    assert _status(store, run.id) == "finished"


def test_the_steps_can_fail_a_run_that_went_through(store: ProjectStore) -> None:
    steps = Steps([OK, DOWN], fail_at_end=True)
    with pytest.raises(JudgeRunError, match="some failed"):
        _run(store, steps)
    assert steps.flushes == [False]
    (run,) = store.runs.unfinished(KIND)
    assert run.status == "failed"


def test_which_run_is_continued(store: ProjectStore) -> None:
    call = RunCall(store)
    first = open_run(call, KIND, fingerprint="inputs", params={"seed": 42}, total=2)
    assert first is not None
    store.runs.finish(first, "cancelled")
    # Other parameters: a new run; the cancelled one waits for its own parameters.
    other = open_run(call, KIND, fingerprint="inputs", params={"seed": 7}, total=2)
    assert other not in (None, first)
    assert open_run(call, KIND, fingerprint="inputs", params={"seed": 42}, total=2) == first
    assert _status(store, first) == "running"
    store.runs.finish(first, "cancelled")
    # A comparison of the caller's: what does not change a number is left out.
    same_seed = open_run(
        call,
        KIND,
        fingerprint="inputs",
        params={"seed": 42, "parallel": 4},
        total=2,
        same=lambda stored: stored["seed"] == 42,
    )
    assert same_seed == first
    store.runs.finish(first, "cancelled")
    anew = open_run(RunCall(store, resume=False), KIND, fingerprint="inputs", params={"seed": 42}, total=2)
    assert anew not in (None, first)
    # Nothing to do and nothing to continue: no run is recorded.
    assert open_run(call, "draft", fingerprint="inputs", params={}, total=0, start=False) is None
    assert store.runs.latest("draft") is None
    # Inputs that changed: the old run can never be continued, so it is superseded.
    assert open_run(call, KIND, fingerprint="edited", params={"seed": 42}, total=2) not in (None, first)
    assert _status(store, first) == "superseded"

"""JobRunner: results, errors, cancel, progress and shutdown, on real threads."""

from __future__ import annotations

import threading

from pytestqt.qtbot import QtBot

from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn
from goldenlens.ui.workers import JobRunner, live_worker_threads


def test_result_and_progress_arrive_on_the_gui_thread(qtbot: QtBot) -> None:
    runner = JobRunner(interval=0.0)
    seen: list[tuple[Progress, bool]] = []
    runner.progressed.connect(
        lambda p: seen.append((p, threading.current_thread() is threading.main_thread()))
    )

    def job(progress: ProgressFn, cancel: CancelToken) -> int:
        for i in range(1, 6):
            progress(Progress("count", i, 5))
        return 42

    with qtbot.waitSignal(runner.succeeded, timeout=5000) as blocker:
        runner.start(job, name="count")
    assert blocker.args == [42]
    qtbot.waitUntil(lambda: len(seen) == 5)
    assert [p.done for p, _ in seen] == [1, 2, 3, 4, 5]
    assert all(on_main for _, on_main in seen)
    assert runner.wait(5)


def test_errors_become_the_failed_signal(qtbot: QtBot) -> None:
    runner = JobRunner()

    def job(progress: ProgressFn, cancel: CancelToken) -> None:
        raise ValueError("golden.xlsx, row 3: bad")

    with qtbot.waitSignal(runner.failed, timeout=5000) as blocker:
        runner.start(job)
    assert isinstance(blocker.args[0], ValueError)
    assert runner.wait(5)


def test_cancel_stops_a_long_job(qtbot: QtBot) -> None:
    runner = JobRunner()
    started = threading.Event()

    def job(progress: ProgressFn, cancel: CancelToken) -> None:
        started.set()
        while True:
            cancel.raise_if_cancelled()
            threading.Event().wait(0.01)

    with qtbot.waitSignal(runner.cancelled, timeout=5000):
        runner.start(job)
        assert started.wait(5)
        runner.cancel()
    assert runner.wait(5)
    assert live_worker_threads() == []


def test_starting_a_new_job_cancels_the_previous_one(qtbot: QtBot) -> None:
    runner = JobRunner()
    first_cancelled = threading.Event()

    def slow(progress: ProgressFn, cancel: CancelToken) -> str:
        while not cancel.cancelled:
            threading.Event().wait(0.01)
        first_cancelled.set()
        return "stale"

    def fast(progress: ProgressFn, cancel: CancelToken) -> str:
        return "fresh"

    results: list[str] = []
    runner.succeeded.connect(results.append)
    runner.start(slow)
    with qtbot.waitSignal(runner.succeeded, timeout=5000):
        runner.start(fast)
    assert first_cancelled.wait(5)
    assert runner.shutdown(5)
    qtbot.wait(50)
    assert results == ["fresh"]


def test_live_worker_threads_sees_a_running_worker(qtbot: QtBot) -> None:
    runner = JobRunner()
    release = threading.Event()
    runner.start(lambda progress, cancel: release.wait(5), name="held")
    assert [t.name for t in live_worker_threads()] == ["goldenlens-held"]
    release.set()
    assert runner.wait(5)
    assert live_worker_threads() == []

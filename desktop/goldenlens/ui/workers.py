"""Run Qt-free jobs off the GUI thread, with throttled progress, cancel and clean shutdown.

A job is any callable ``job(progress, cancel) -> result`` (Orange3's shape): the jobs layer
already takes a :class:`ProgressFn` and a :class:`CancelToken`. :class:`JobRunner` runs one job
at a time on its own thread; starting a new job cancels the previous one. Results, errors and
progress come back as Qt signals, which Qt queues onto the GUI thread because the runner
lives there. Worker code never touches widgets. :class:`LatestJobRunner` serves views that ask
again and again (a preview, a flip preview, the advice): a newer request replaces any that
waits, so the thread count never grows while the analyst clicks around.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from goldenlens.jobs.progress import Cancelled, CancelToken, Progress, ProgressFn

Job = Callable[[ProgressFn, CancelToken], Any]

# Live worker threads, so tests (and the app on close) can prove none is left running.
_LIVE: set[threading.Thread] = set()
_LIVE_LOCK = threading.Lock()


def live_worker_threads() -> list[threading.Thread]:
    """Worker threads that have not finished yet."""
    with _LIVE_LOCK:
        return [t for t in _LIVE if t.is_alive()]


class JobRunner(QObject):
    """Runs one job at a time on a worker thread.

    Signals (always delivered on the thread that owns the runner, i.e. the GUI thread):
    ``progressed(Progress)`` at most every ``interval`` seconds plus the last one,
    ``succeeded(result)``, ``failed(BaseException)``, ``cancelled()`` and, after any of the
    three, ``done()``.
    """

    progressed = Signal(object)
    succeeded = Signal(object)
    failed = Signal(object)
    cancelled = Signal()
    done = Signal()

    def __init__(self, parent: QObject | None = None, *, interval: float = 0.05) -> None:
        super().__init__(parent)
        self._interval = interval
        self._thread: threading.Thread | None = None
        self._token: CancelToken | None = None
        self._generation = 0
        self.name = ""

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, job: Job, *, name: str = "") -> None:
        """Run ``job``; a job still running is cancelled first (its result is ignored)."""
        self.cancel()
        self._generation += 1
        generation = self._generation
        token = CancelToken()
        self._token = token
        self.name = name
        thread = threading.Thread(
            target=self._run, args=(job, token, generation), name=f"goldenlens-{name or 'job'}", daemon=True
        )
        self._thread = thread
        with _LIVE_LOCK:
            _LIVE.add(thread)
        thread.start()

    def cancel(self) -> None:
        """Ask the running job to stop at its next check; finished work stays committed."""
        if self._token is not None:
            self._token.cancel()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the worker thread ends (used on close and in tests)."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def shutdown(self, timeout: float = 30.0) -> bool:
        """Cancel and wait: what the main window does when it closes."""
        self.cancel()
        return self.wait(timeout)

    def _run(self, job: Job, token: CancelToken, generation: int) -> None:
        last = 0.0

        def report(progress: Progress, /) -> None:
            nonlocal last
            now = time.monotonic()
            final = progress.total > 0 and progress.done >= progress.total
            if final or now - last >= self._interval:
                last = now
                if generation == self._generation:
                    self.progressed.emit(progress)

        try:
            result = job(report, token)
        except Cancelled:
            self._emit_if_current(generation, self.cancelled)
        except Exception as error:
            if generation == self._generation:
                self.failed.emit(error)
                self.done.emit()
        else:
            if token.cancelled:
                self._emit_if_current(generation, self.cancelled)
            elif generation == self._generation:
                self.succeeded.emit(result)
                self.done.emit()
        finally:
            with _LIVE_LOCK:
                _LIVE.discard(threading.current_thread())

    def _emit_if_current(self, generation: int, signal: Any) -> None:
        if generation == self._generation:
            signal.emit()
            self.done.emit()


class LatestJobRunner(QObject):
    """Runs at most one job at a time; a request made while one runs waits, replacing any
    earlier waiting request, and the running job is cancelled. So the most recent request
    wins and only one worker thread ever exists.

    Signals (GUI thread): ``succeeded(result)``, ``failed(error)``, ``cancelled()``,
    ``progressed(Progress)`` — only for the most recent request — and ``busy_changed(bool)``.
    """

    succeeded = Signal(object)
    failed = Signal(object)
    cancelled = Signal()
    progressed = Signal(object)
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, *, name: str = "job") -> None:
        super().__init__(parent)
        self._name = name
        self._runner = JobRunner(self)
        self._active = False
        self._closed = False
        self._pending: Job | None = None
        self._runner.succeeded.connect(self._on_succeeded)
        self._runner.failed.connect(self._on_failed)
        self._runner.cancelled.connect(self._on_cancelled)
        self._runner.progressed.connect(self._on_progressed)
        self._runner.done.connect(self._on_done)

    @property
    def busy(self) -> bool:
        """A job runs or waits."""
        return self._active or self._pending is not None

    def request(self, job: Job) -> None:
        """Run ``job`` now, or after the running one stops (which is asked to cancel)."""
        if self._closed:
            return
        if self._active:
            self._pending = job
            self._runner.cancel()
            return
        self._start(job)

    def cancel(self) -> None:
        """Drop any waiting request and ask the running job to stop."""
        self._pending = None
        self._runner.cancel()

    def shutdown(self, timeout: float = 30.0) -> bool:
        """Cancel, wait for the worker thread and ignore anything it still reports."""
        self._closed = True
        self._pending = None
        return self._runner.shutdown(timeout)

    def _start(self, job: Job) -> None:
        self._active = True
        self._runner.start(job, name=self._name)
        self.busy_changed.emit(True)

    def _current(self) -> bool:
        return not self._closed and self._pending is None

    def _on_succeeded(self, result: object) -> None:
        if self._current():
            self.succeeded.emit(result)

    def _on_failed(self, error: object) -> None:
        if self._current():
            self.failed.emit(error)

    def _on_cancelled(self) -> None:
        if self._current():
            self.cancelled.emit()

    def _on_progressed(self, progress: object) -> None:
        if self._current():
            self.progressed.emit(progress)

    def _on_done(self) -> None:
        self._active = False
        if self._closed:
            return
        if self._pending is not None:
            job, self._pending = self._pending, None
            self._start(job)
        else:
            self.busy_changed.emit(False)

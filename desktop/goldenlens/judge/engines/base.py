"""What every engine shares: one owner thread for the model, and the lifecycle around it.

An engine (the llama.cpp judge, the HTTP judge, the llama.cpp embedder) does all its model
work on a single thread it owns: the llama.cpp engines load, use and free the model there, so
the model is never touched from two threads; the HTTP engine runs its asyncio loop there.
:class:`OwnedEngine` creates that thread, refuses work once closed, and closes exactly once:
``close()``, ``with engine:`` and, for judges, :meth:`JudgeEngineBase.complete_many`, are
written here and nowhere else.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

from goldenlens.core.closing import ClosedOnExit
from goldenlens.judge.engines.protocol import CancelCheck, JudgeReply, JudgeRequest

__all__ = ["JudgeEngineBase", "OwnedEngine"]

_T = TypeVar("_T")
_engine_numbers = itertools.count(1)


class _OwnerThread:
    """One daemon thread running submitted calls in order (a daemon, so an engine nobody
    closed cannot keep the process alive, the HTTP engine's loop included)."""

    def __init__(self, name: str) -> None:
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]] | None]
        self._queue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def submit(self, function: Callable[..., _T], *args: Any) -> Future[_T]:
        future: Future[_T] = Future()
        self._queue.put((future, function, args))
        return future

    def shutdown(self) -> None:
        """Run what is queued, then stop the thread and wait for it."""
        self._queue.put(None)
        if self._thread is not threading.current_thread():
            self._thread.join()

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            future, function, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(function(*args))
            except BaseException as exc:  # handed to the caller through the future
                future.set_exception(exc)


class OwnedEngine(ClosedOnExit):
    """An engine whose model work runs on one owner thread, named ``{thread_prefix}-{n}``.

    Subclasses submit work with :meth:`_submit`, free their resources in :meth:`_release`
    (run once, on the owner thread, after every queued call) and name the error a closed
    engine raises in :meth:`_closed_error`.
    """

    def __init__(self, thread_prefix: str) -> None:
        self._lock = threading.Lock()
        self._closed = False
        self._threads: set[str] = set()
        # A number per engine, so a thread dump tells the engines' owner threads apart.
        self._owner = _OwnerThread(f"{thread_prefix}-{next(_engine_numbers)}")

    @property
    def model_threads(self) -> frozenset[str]:
        """Names of the threads that have touched the model: always the one owner thread."""
        with self._lock:
            return frozenset(self._threads)

    def close(self) -> None:
        """Let queued work finish, release the model on its owner thread and stop the thread.
        Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        # No call can be queued any more: stop outside the lock, so work that still runs on
        # the owner thread can finish.
        self._stop()
        self._owner.shutdown()

    # -- for subclasses ----------------------------------------------------------------------

    def _submit(self, function: Callable[..., _T], *args: Any) -> Future[_T]:
        """Queue ``function(*args)`` on the owner thread; raise once the engine is closed."""
        with self._lock:
            if self._closed:
                raise self._closed_error()
            return self._owner.submit(self._on_owner, function, *args)

    def _on_owner(self, function: Callable[..., _T], *args: Any) -> _T:
        self._note_thread()
        return function(*args)

    def _note_thread(self) -> None:
        with self._lock:
            self._threads.add(threading.current_thread().name)

    def _stop(self) -> None:
        """Called once by :meth:`close` before the thread stops: by default queue :meth:`_release`."""
        self._owner.submit(self._on_owner, self._release)

    def _release(self) -> None:
        """Free the model (owner thread). Nothing to free by default."""

    def _closed_error(self) -> Exception:
        return RuntimeError("the engine is closed")


class JudgeEngineBase(OwnedEngine):
    """An :class:`OwnedEngine` that is a :class:`~goldenlens.judge.engines.protocol.JudgeEngine`.

    ``complete_json`` and ``complete_many`` are written here once, on the subclass's
    :meth:`_complete_one`; an engine that runs requests in parallel (HTTP) overrides
    ``complete_many``.
    """

    def complete_json(self, *args: Any, cancel: CancelCheck | None = None, **kwargs: Any) -> JudgeReply:
        """:meth:`JudgeEngine.complete_json <goldenlens.judge.engines.protocol.JudgeEngine.
        complete_json>`, same arguments (``messages, schema, *, max_tokens, temperature, seed``)."""
        return self._complete_one(JudgeRequest(*args, **kwargs), cancel)

    def complete_many(
        self, requests: Sequence[JudgeRequest], *, cancel: CancelCheck | None = None
    ) -> list[JudgeReply]:
        """Run the requests one after another, in order."""
        return [self._complete_one(request, cancel) for request in requests]

    def _complete_one(self, request: JudgeRequest, cancel: CancelCheck | None) -> JudgeReply:
        raise NotImplementedError

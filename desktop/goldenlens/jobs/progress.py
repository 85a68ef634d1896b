"""Progress reporting and cancellation shared by every job (Orange3's ``run(data, state)`` shape).

Jobs take a :class:`ProgressFn` and a :class:`CancelToken`; they never know who is listening.
The CLI prints throttled lines on stderr; the desktop app turns the calls into queued Qt
signals. Tests pass a recording callback and a pre-set token.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Progress:
    """A snapshot of a job's progress. ``total`` is 0 when unknown."""

    stage: str
    done: int
    total: int
    message: str = ""

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0


class ProgressFn(Protocol):
    def __call__(self, progress: Progress, /) -> None: ...


def no_progress(progress: Progress, /) -> None:
    """A :class:`ProgressFn` that ignores everything."""


class Cancelled(Exception):  # noqa: N818 - reads as "the job was cancelled"
    """Raised inside a job when its cancel token is set; finished work is already committed."""


class CancelToken:
    """A thread-safe flag a job checks between units of work."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled

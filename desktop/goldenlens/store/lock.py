"""One writer job per project: a cross-process lock beside the project file.

Scoring, judging and importing take :func:`project_lock` for the whole job, so two processes
never write one run (or import under a running one). The lock is an advisory OS file lock
(``flock`` on POSIX, ``msvcrt.locking`` on Windows) on the sidecar ``<project>.lock``: it dies
with its process, so a crash or ``kill -9`` never leaves a stale lock behind.

Another *process* holding the lock is refused at once with :class:`ProjectBusyError` (the CLI
exits 2), rather than waiting for a run that may take hours. Inside one process the lock is
re-entrant for the thread that holds it (the CLI's import-then-score nests it) and another
thread waits for it: the desktop app cancels a job before it starts the next, and the next
should simply follow once the cancelled one has committed its last batch.

The sidecar is removed on release. A process that opened it just before the removal could
lock a file that is no longer linked; it notices (the path no longer names its file) and
tries again, so two holders can never both believe they hold the lock.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from goldenlens.core.errors import StoreError

#: Suffix of the sidecar lock file (``results.goldenlens.lock``).
LOCK_SUFFIX = ".lock"
_BUSY_MESSAGE = "project is being scored by another process"


class ProjectBusyError(StoreError):
    """Another process is scoring, judging or importing into this project."""


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        with suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def lock_path(project: Path) -> Path:
    """The sidecar lock file of ``project``."""
    return project.with_name(project.name + LOCK_SUFFIX)


@dataclass
class _Held:
    """This process's hold on one project's lock: the thread-level lock and the OS one."""

    thread_lock: threading.RLock = field(default_factory=threading.RLock)
    depth: int = 0
    fd: int | None = None


_REGISTRY: dict[Path, _Held] = {}
_REGISTRY_LOCK = threading.Lock()


def _held(key: Path) -> _Held:
    with _REGISTRY_LOCK:
        return _REGISTRY.setdefault(key, _Held())


def _acquire_os_lock(path: Path, project: Path) -> int:
    """Lock ``path`` (creating it) and return its descriptor, or raise ProjectBusyError."""
    for _attempt in range(100):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise StoreError(
                f"{project}: cannot create the lock file {path.name}: {exc.strerror or exc}"
            ) from exc
        if not _try_lock(fd):
            os.close(fd)
            raise ProjectBusyError(f"{project}: {_BUSY_MESSAGE}")
        try:
            same = os.path.samestat(os.fstat(fd), path.stat())
        except OSError:
            same = False  # removed by the holder that released it just now
        if same:
            return fd
        _unlock(fd)
        os.close(fd)
    raise ProjectBusyError(f"{project}: {_BUSY_MESSAGE}")  # pragma: no cover - a lock storm


def _release_os_lock(fd: int, path: Path) -> None:
    if sys.platform == "win32":  # pragma: no cover - an open file cannot be removed there
        _unlock(fd)
        os.close(fd)
        with suppress(OSError):
            path.unlink()
        return
    # Remove while still holding it: whoever opens the path afterwards gets a new file.
    with suppress(OSError):
        path.unlink()
    _unlock(fd)
    os.close(fd)


@contextmanager
def project_lock(project: Path, *, while_waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the project's writer lock for the block.

    Raises :class:`ProjectBusyError` ("project is being scored by another process") when
    another process holds it. Another thread of this process holding it is waited for;
    ``while_waiting`` is called every 0.1 s meanwhile and may raise to give up (a job passes
    its cancel token's ``raise_if_cancelled``).
    """
    key = project.resolve()
    held = _held(key)
    while not held.thread_lock.acquire(timeout=0.1):
        if while_waiting is not None:
            while_waiting()
    try:
        if held.depth == 0:
            held.fd = _acquire_os_lock(lock_path(key), project)
        held.depth += 1
        try:
            yield
        finally:
            held.depth -= 1
            if held.depth == 0 and held.fd is not None:
                fd, held.fd = held.fd, None
                _release_os_lock(fd, lock_path(key))
    finally:
        held.thread_lock.release()

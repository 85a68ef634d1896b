"""How a command starts processes of its own: the scoring pool's workers and the process that
works out a report's statistics (:mod:`goldenlens.jobs.scoring.report_statistics`).

Forked when this process runs no other thread (the CLI): a child starts at once with what the
parent has imported and read. Spawned otherwise (the desktop app's worker thread): forking a
process with running threads can copy a lock some thread holds. A child ignores Ctrl+C and ends
with its parent.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading

from goldenlens.core.gc_pause import settle_worker


def fork_is_safe() -> bool:
    """Whether a child can be forked: this process runs no other thread and the platform forks."""
    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


def child_context() -> multiprocessing.context.BaseContext:
    """``fork`` when :func:`fork_is_safe`, else ``spawn``."""
    return multiprocessing.get_context("fork" if fork_is_safe() else "spawn")


def settle_child() -> None:
    """In a child, first: it ignores Ctrl+C (the terminal sends it to the whole process group,
    and the parent alone decides what a cancel does; a child interrupted mid-task would only
    print a traceback), SIGTERM ends it at once whatever handler the parent had when it forked
    this one, on Linux it ends when its parent dies (even by SIGKILL) instead of waiting for
    work forever, and it runs without cyclic collection (:func:`settle_worker`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_with_parent()
    settle_worker()


def _end_with_parent() -> None:
    """Ask Linux to send this process SIGTERM when its parent ends (``PR_SET_PDEATHSIG``);
    elsewhere nothing (the parent's own shutdown ends a child it leaves)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    # The C library's prctl, as this process has it linked (no ctypes.util.find_library, whose
    # import and search cost each worker 17 ms at start); found by name only if it is not.
    prctl = getattr(ctypes.CDLL(None, use_errno=True), "prctl", None)
    if prctl is None:
        import ctypes.util

        name = ctypes.util.find_library("c")
        if name is None:
            return
        prctl = ctypes.CDLL(name, use_errno=True).prctl
    pr_set_pdeathsig = 1
    prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)
    if os.getppid() == 1:  # the parent died before the request took effect
        os._exit(1)

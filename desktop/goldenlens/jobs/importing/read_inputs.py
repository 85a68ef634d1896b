"""The reading step of every import and of scoring files without a project: both files read
and validated completely, with progress and a cancel check, before anything is written."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from goldenlens.core.gc_pause import collector_paused
from goldenlens.core.input_selection import InputSelection
from goldenlens.core.inputs import GoldenItem, Loaded
from goldenlens.io.importing.input_files import load_inputs
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn, no_progress


def read_inputs(
    golden: Path,
    responses: Path | None,
    *,
    selection: InputSelection | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    golden_read: Callable[[Sequence[GoldenItem]], None] | None = None,
) -> Loaded:
    """The golden set and responses of the files (read as ``selection`` says: sheets, column
    mapping, header rows), with every problem found. A fatal problem raises
    :class:`goldenlens.core.problems.InputError`; a cancel raises
    :class:`~goldenlens.jobs.progress.Cancelled` once they are read. ``golden_read`` is called
    with the golden items once they are read, before the responses are."""
    progress(Progress("read", 0, 2, f"Reading {golden.name}"))
    with collector_paused():
        loaded = load_inputs(golden, responses, selection=selection, golden_read=golden_read)
    if cancel is not None:
        cancel.raise_if_cancelled()
    return loaded

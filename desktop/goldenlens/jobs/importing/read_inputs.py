"""The reading step of every import and of scoring files without a project: both files read
and validated completely, with progress and a cancel check, before anything is written."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from goldenlens.core.gc_pause import collector_paused
from goldenlens.core.inputs import Loaded
from goldenlens.io.importing.input_files import load_inputs
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn, no_progress


def read_inputs(
    golden: Path,
    responses: Path | None,
    *,
    golden_sheet: str | None = None,
    responses_sheet: str | None = None,
    mapping: Mapping[str, str] | None = None,
    header_row: int | None = None,
    responses_header_row: int | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> Loaded:
    """The golden set and responses of the files, with every problem found. A fatal problem
    raises :class:`goldenlens.core.problems.InputError`; a cancel raises
    :class:`~goldenlens.jobs.progress.Cancelled` once they are read. ``header_row`` (1-based)
    fixes the header row of the golden set and, unless ``responses_header_row`` is given, of
    the responses; by default it is detected."""
    progress(Progress("read", 0, 2, f"Reading {golden.name}"))
    with collector_paused():
        loaded = load_inputs(
            golden,
            responses,
            golden_sheet=golden_sheet,
            responses_sheet=responses_sheet,
            mapping=dict(mapping or {}),
            header_row=header_row,
            responses_header_row=responses_header_row,
        )
    if cancel is not None:
        cancel.raise_if_cancelled()
    return loaded

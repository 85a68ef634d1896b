"""Import a golden set and pipeline responses into a project, all or nothing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from goldenlens.core.model import Loaded, Problem
from goldenlens.io.readers import load_inputs
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn, no_progress
from goldenlens.store.project import ProjectStore


@dataclass(frozen=True)
class ImportResult:
    import_id: int
    golden_count: int
    response_count: int
    pipelines: tuple[str, ...]
    problems: tuple[Problem, ...]


def import_inputs(
    store: ProjectStore,
    golden_path: Path,
    responses_path: Path | None = None,
    *,
    golden_sheet: str | None = None,
    responses_sheet: str | None = None,
    mapping: Mapping[str, str] | None = None,
    header_row: int | None = None,
    responses_header_row: int | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> ImportResult:
    """Read and validate both inputs completely, then write them to ``store`` in one transaction.

    A fatal problem raises :class:`goldenlens.core.model.InputError` before the store is
    touched, so an existing project keeps everything it had. ``header_row`` (1-based) fixes
    the header row of the golden set and, unless ``responses_header_row`` is given, of the
    responses; by default it is detected.
    """
    progress(Progress("read", 0, 2, f"Reading {golden_path.name}"))
    loaded: Loaded = load_inputs(
        golden_path,
        responses_path,
        golden_sheet=golden_sheet,
        responses_sheet=responses_sheet,
        mapping=dict(mapping or {}),
        header_row=header_row,
        responses_header_row=responses_header_row,
    )
    if cancel is not None:
        cancel.raise_if_cancelled()
    progress(Progress("write", 1, 2, f"Saving {len(loaded.golden.items)} golden items"))
    responses = loaded.responses.responses if loaded.responses else ()
    pipelines = loaded.responses.pipelines if loaded.responses else ()
    import_id = store.import_inputs(
        loaded.golden.items,
        responses,
        pipelines,
        loaded.problems,
        golden_source=str(golden_path),
        responses_source=str(responses_path or ""),
    )
    progress(Progress("write", 2, 2, "Imported"))
    return ImportResult(
        import_id, len(loaded.golden.items), len(responses), tuple(pipelines), tuple(loaded.problems)
    )

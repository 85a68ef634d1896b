"""Long jobs on the project at a path, for a worker thread: each opens its own connection
there, runs one job and closes it again.

These are what the desktop app's workers call; the store a job writes through never leaves
this module, so ``goldenlens.ui`` needs only a path (SQLite's WAL lets this connection work
beside the one the GUI thread reads through).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from goldenlens.jobs.import_job import ImportResult, import_inputs, project_for_import
from goldenlens.jobs.judge_options import JudgeOptions
from goldenlens.jobs.progress import Cancelled, CancelToken, ProgressFn, no_progress
from goldenlens.jobs.report_job import export_golden, export_report
from goldenlens.jobs.score_job import LEXICAL_RUN, score_project
from goldenlens.store.project import ProjectStore


def score_project_at(
    path: Path, *, progress: ProgressFn = no_progress, cancel: CancelToken | None = None
) -> int:
    """Score the project's responses (resuming an unfinished run); returns the run id."""
    with ProjectStore.open(path) as store:
        return score_project(store, progress=progress, cancel=cancel)


def judge_project_at(
    path: Path,
    options: JudgeOptions,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> int:
    """Run the judge metrics of ``options`` on the project; returns the run id."""
    # The judge job imports the engines' modules: only when a judge run starts.
    from goldenlens.jobs.judge_job import judge_project

    with ProjectStore.open(path) as store:
        return judge_project(store, options, progress=progress, cancel=cancel)


def export_golden_at(path: Path, out: Path, *, question_ids: Collection[str] | None = None) -> int:
    """Write the curated golden set (optionally only ``question_ids``); returns the item count."""
    with ProjectStore.open(path) as store:
        return export_golden(store, out, question_ids=question_ids)


def export_report_at(
    path: Path, out: Path, *, question_ids: Collection[str] | None = None, progress: ProgressFn = no_progress
) -> int:
    """Write the report workbook of the latest run (optionally only ``question_ids``); returns
    the number of scored responses it lists."""
    with ProjectStore.open(path) as store:
        return len(export_report(store, out, question_ids=question_ids, progress=progress).rows)


def import_and_score(
    path: Path,
    golden: Path,
    responses: Path | None,
    options: Mapping[str, Any],
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> tuple[ImportResult, int, str | None]:
    """Import ``golden`` and ``responses`` into the project (creating it if needed), then score.

    ``options`` are :func:`~goldenlens.jobs.import_job.import_inputs`'s keyword arguments
    beyond the paths. The import commits first; a scoring failure or cancel after it is
    reported, not raised, so the import is kept. Returns the import's result, the responses
    scored in the latest lexical run and the scoring error (``'cancelled'``, the error's
    text, or ``None``). A failed import into a new project leaves no file behind.
    """
    # The writer lock for import and scoring; a new file is removed again if the import fails.
    with project_for_import(path, cancel=cancel) as store:
        result = import_inputs(store, golden, responses, **options, progress=progress, cancel=cancel)
        error: str | None = None
        try:
            score_project(store, progress=progress, cancel=cancel)
        except Cancelled:
            error = "cancelled"
        except Exception as exc:  # the import stands; the analyst can score again later
            error = str(exc) or type(exc).__name__
        run = store.latest_run(LEXICAL_RUN)
        return result, len(store.scored_keys(run.id)) if run else 0, error

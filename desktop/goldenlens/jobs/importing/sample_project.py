"""The bundled sample project (Amazon 10-Q, Q2 2023), imported and scored on demand."""

from __future__ import annotations

from pathlib import Path

from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.io.importing.sample import SAMPLE_GOLDEN, SAMPLE_RESPONSES, sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.progress import CancelToken, ProgressFn, no_progress
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.settings.folders import data_dir
from goldenlens.store.project import ProjectStore

SAMPLE_PROJECT_NAME = "amazon_q2_2023.goldenlens"


def default_sample_path() -> Path:
    return data_dir() / "sample" / SAMPLE_PROJECT_NAME


def ensure_sample_project(
    path: Path | None = None,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> Path:
    """Create (or finish) the scored sample project at ``path`` and return its path.

    An existing, fully scored sample is reused as it is, reviews and edits included.
    """
    target = path or default_sample_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    with ProjectStore.open(target, create=True) as store:
        if not store.golden.items():
            folder = sample_dir()
            import_inputs(
                store, folder / SAMPLE_GOLDEN, folder / SAMPLE_RESPONSES, progress=progress, cancel=cancel
            )
        if store.runs.latest(LEXICAL_RUN, finished_only=True) is None:
            score_project(store, progress=progress, cancel=cancel)
    return target

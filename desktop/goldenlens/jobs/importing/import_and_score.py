"""Import a golden set and responses into a project, then score them: the one workflow that
both the command line (``goldenlens score``) and the desktop import wizard run.

One writer lock covers the import, the scoring and (on the command line) the judging, so no
other process changes the inputs in between. The import is all or nothing and a new project
file is removed again when it fails; once the import has committed it stands, whatever
happens to the scoring (the run can be resumed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.core.input_selection import InputSelection
from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.jobs.importing.import_job import ImportResult, import_inputs, project_for_import
from goldenlens.jobs.progress import Cancelled, CancelToken, ProgressFn, no_progress
from goldenlens.jobs.scoring.pending import recorded_scoring
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.jobs.scoring.score_rows import ScoreOptions

if TYPE_CHECKING:  # the judge packages load only when a judge run is asked for
    from goldenlens.jobs.judging.judge_job import JudgeOptions


@dataclass(frozen=True)
class ImportedAndScored:
    """What :func:`import_and_score` did.

    ``run_id`` is the lexical run (``None`` when scoring failed before it started), ``scored``
    the responses it has scores for, ``scoring_error`` ``'cancelled'`` or the scoring error's
    text when ``report_scoring_errors`` caught one, and ``judge_run_id`` the judge run.
    """

    imported: ImportResult
    run_id: int | None
    scored: int
    scoring_error: str | None = None
    judge_run_id: int | None = None


def import_and_score(
    project: Path,
    golden: Path,
    responses: Path | None,
    *,
    selection: InputSelection | None = None,
    options: ScoreOptions | None = None,
    judge: JudgeOptions | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    report_scoring_errors: bool = False,
    check_pipelines: Callable[[Sequence[str]], None] | None = None,
) -> ImportedAndScored:
    """Import ``golden`` and ``responses`` (read as ``selection`` says) into ``project`` (created
    if needed), score every response with the lexical metrics and, with ``judge``, judge them.

    An import failure raises and leaves the project as it was, as does whatever
    ``check_pipelines`` raises (it is given the pipelines read, before anything is written). A
    scoring failure after the import raises too, unless ``report_scoring_errors`` (the wizard,
    which keeps the import and tells the analyst): it is then returned as ``scoring_error``.
    """
    options = options or ScoreOptions()
    # Recorded with the import, in its transaction: a process killed before the runs start
    # leaves them for `goldenlens resume` (jobs/scoring/pending.py).
    asked = recorded_scoring(options, None if judge is None else judge.params(), selection)
    with project_for_import(project, cancel=cancel) as store:
        imported = import_inputs(
            store,
            golden,
            responses,
            selection=selection,
            progress=progress,
            cancel=cancel,
            score_options=asked,
            check_pipelines=check_pipelines,
        )
        error: str | None = None
        try:
            run_id: int | None = score_project(store, options, progress=progress, cancel=cancel)
        except Cancelled:
            if not report_scoring_errors:
                raise
            error = "cancelled"
        except Exception as exc:
            if not report_scoring_errors:
                raise
            error = str(exc) or type(exc).__name__
        if error is not None:
            run = store.runs.latest(LEXICAL_RUN)
            run_id = run.id if run is not None else None
        scored = len(store.results.scored_keys(run_id)) if run_id is not None else 0
        judge_run = None
        if judge is not None and error is None:
            from goldenlens.jobs.judging.judge_job import judge_project

            judge_run = judge_project(store, judge, progress=progress, cancel=cancel)
    return ImportedAndScored(imported, run_id, scored, error, judge_run)

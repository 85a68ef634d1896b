"""``goldenlens resume PROJECT``: finish what a killed or cancelled command left undone.

An interrupted lexical run, judge run or golden review continues with the options it recorded
(:mod:`goldenlens.jobs.scoring.score_job` scores only what is missing). A ``score`` stopped
between its import and its runs left its options with the import
(:mod:`goldenlens.jobs.scoring.pending`): the runs it never began start now with those
options, so the report is the one the uninterrupted ``score`` would have written. An import
that recorded nothing (an older GoldenLens made it) is not guessed at: the command that
scores it is printed instead.
"""

from __future__ import annotations

import argparse
import sys

from goldenlens.cli.commands.review_golden import resume_golden_review
from goldenlens.cli.judge_options import resume_judge, start_judge_run_asked_for
from goldenlens.cli.output import StderrProgress, write_outputs
from goldenlens.core.errors import EXIT_BAD_INPUT
from goldenlens.core.project_handle import ProjectHandle
from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.jobs import open_project
from goldenlens.jobs.scoring.pending import PendingScoring, finish_scoring, never_scored, pending_scoring
from goldenlens.queries.project import ProjectQueries


def cmd_resume(args: argparse.Namespace) -> int:
    """Resume the interrupted runs of ``args.project``, start those its last ``score`` never
    began, and print the summary of what was scored; exit 2 when the scoring cannot be finished
    from what the project recorded (the message names the command that finishes it)."""
    with open_project(args.project) as project:
        name = args.project.name
        pending = pending_scoring(project)  # before any run starts on the import
        run_id = _resume_lexical(project, pending, quiet=args.quiet)
        if pending is not None and pending.judge is not None:  # newer than any interrupted judge run
            judge_run: int | None = start_judge_run_asked_for(
                project,
                pending.judge,
                pending.imported.id,
                restart=f"start it anew with `{pending.score_command()}`",
                quiet=args.quiet,
            )
        else:
            judge_run = resume_judge(project, quiet=args.quiet)
        review_run = resume_golden_review(project, quiet=args.quiet)
        if review_run is not None:
            print(
                f"{name}: golden review {review_run} finished (`goldenlens review-golden` shows it)",
                file=sys.stderr,
            )
        if run_id is not None or judge_run is not None:
            write_outputs(project, run_id, None, judge_run_id=judge_run)
        left = pending_scoring(project)  # an interrupted run resumed may have scored the import
        if left is not None and left.lexical and not left.resumable:
            print(f"goldenlens: error: {name}: {never_scored(left)}", file=sys.stderr)
            return EXIT_BAD_INPUT
        if run_id is None and judge_run is None and review_run is None:
            print(f"{name}: no interrupted run to resume.", file=sys.stderr)
    return 0


def _resume_lexical(project: ProjectHandle, pending: PendingScoring | None, *, quiet: bool) -> int | None:
    """Finish the newest interrupted lexical run, or start the one ``score`` never began; the
    run id, ``None`` when there is neither."""
    name = project.path.name
    interrupted = ProjectQueries(project).unfinished_runs(LEXICAL_RUN)
    never_began = pending is not None and pending.lexical and pending.resumable
    if not interrupted and not never_began:
        return None
    if never_began and pending is not None:
        print(
            f"{name}: `score` stopped after import {pending.imported.id}; "
            "scoring it with the options it was given",
            file=sys.stderr,
        )
    progress = StderrProgress(quiet=quiet)
    # The interrupted run's own options (counting and flag thresholds), else the import's; on
    # changed inputs the scoring starts a fresh run rather than finish the interrupted one.
    run_id = finish_scoring(project, progress=progress)
    progress.finish()
    if interrupted and run_id != interrupted[-1].id:
        print(
            f"{name}: the inputs changed since run {interrupted[-1].id} was interrupted; "
            f"scored them afresh in run {run_id}",
            file=sys.stderr,
        )
    return run_id

"""The commands that work on a project file: ``score --project`` (and ``score`` with judge
metrics), ``report``, ``resume`` (in :mod:`.resume`), ``export-golden`` and ``sample``.

Kept apart from :mod:`.main` so that a command line that scores files straight into a report
never imports the store, SQLite or the workbook writer. Each opens its project with
:func:`goldenlens.jobs.open_project` and hands it to the jobs.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path

from goldenlens.cli.commands.resume import cmd_resume
from goldenlens.cli.gate import (
    combined,
    input_errors_exit,
    minimums_exit,
    refuse_unknown_pipeline,
    regression_exit,
    unknown_pipeline_exit,
)
from goldenlens.cli.input_options import input_selection
from goldenlens.cli.output import (
    StderrProgress,
    check_not_read,
    check_report_path,
    print_problems,
    write_outputs,
)
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.stats.gates import UnknownPipelineError, check_pipelines
from goldenlens.jobs import open_project
from goldenlens.jobs.importing.import_and_score import import_and_score
from goldenlens.jobs.importing.import_job import ImportResult
from goldenlens.jobs.importing.sample_project import SAMPLE_PROJECT_NAME, ensure_sample_project
from goldenlens.jobs.judging.judge_job import JudgeOptions
from goldenlens.jobs.scoring.score_rows import ScoreOptions
from goldenlens.queries.project import ProjectQueries


def _import_and_score(
    project: Path,
    golden: Path,
    responses: Path | None,
    args: argparse.Namespace,
    *,
    multiset: bool,
    judge: JudgeOptions | None = None,
) -> tuple[ImportResult, int, int | None]:
    progress = StderrProgress(quiet=getattr(args, "quiet", False))
    minimums = getattr(args, "fail_under", [])
    done = import_and_score(
        project,
        golden,
        responses,
        selection=input_selection(args),
        options=ScoreOptions(multiset=multiset),
        judge=judge,
        progress=progress,
        # A gate naming a pipeline the inputs lack stops before anything is written or scored.
        check_pipelines=lambda pipelines: check_pipelines(pipelines, minimums) if minimums else None,
    )
    progress.finish()
    assert done.run_id is not None  # scoring errors are raised, not reported, here
    return done.imported, done.run_id, done.judge_run_id


def cmd_score_project(args: argparse.Namespace, judge: JudgeOptions | None) -> int:
    """``score`` into a project: ``--project FILE``, or a temporary one for judge metrics."""
    with tempfile.TemporaryDirectory(prefix="goldenlens-") as tmp:
        project = args.project or Path(tmp) / "scores.goldenlens"
        try:
            result, run_id, judge_run = _import_and_score(
                project, args.golden, args.responses, args, multiset=args.multiset, judge=judge
            )
        except UnknownPipelineError as error:
            return refuse_unknown_pipeline(error)
        print_problems(result.problems)
        with open_project(project) as scored:
            summary = write_outputs(
                scored,
                run_id,
                args.output,
                judge_run_id=judge_run,
                baseline=getattr(args, "baseline", None),
                progress=StderrProgress(quiet=getattr(args, "quiet", False)),
            )
            # The gate decides once the report is written.
            code = combined(
                minimums_exit(summary, getattr(args, "fail_under", [])),
                input_errors_exit(result.problems, getattr(args, "fail_on_input_errors", False)),
            )
            if getattr(args, "fail_on_regression", False):
                code = combined(code, regression_exit(scored, run_id))
    return code


def _cmd_report(args: argparse.Namespace) -> int:
    check_report_path(args.output, reads=(("project", args.project),))
    with open_project(args.project) as project:
        refused = unknown_pipeline_exit(ProjectQueries(project).pipelines(), args.fail_under)
        if refused:
            return refused
        summary = write_outputs(
            project, None, args.output, baseline=args.baseline, progress=StderrProgress(quiet=args.quiet)
        )
    return minimums_exit(summary, args.fail_under)  # after the report is written


def _cmd_export_golden(args: argparse.Namespace) -> int:
    if args.output.suffix.lower() != ".xlsx":
        raise InputError(
            Problem(
                args.output.name, "export-golden writes a workbook: name the output FILE.xlsx", Severity.FATAL
            )
        )
    check_not_read(args.output, (("golden set", args.source),))
    from goldenlens.io.importing.input_files import read_golden
    from goldenlens.io.reports.xlsx.golden_workbook import write_golden_workbook

    if args.source.suffix.lower() == ".goldenlens":
        from goldenlens.jobs.reporting.report_job import export_golden

        with open_project(args.source) as project:
            count = export_golden(project, args.output)
    else:
        selection = input_selection(args)
        golden, problems = read_golden(
            args.source,
            sheet=selection.golden_sheet,
            mapping=selection.mapping,
            header_row=selection.header_row,
        )
        print_problems(problems)
        write_golden_workbook(golden.items, args.output)
        count = len(golden.items)
    print(f"Wrote {count} golden items to {args.output}")
    return 0


def _cmd_sample(args: argparse.Namespace) -> int:
    out_dir: Path = args.out_dir
    progress = StderrProgress(quiet=args.quiet)
    project = ensure_sample_project(out_dir / SAMPLE_PROJECT_NAME, progress=progress)
    progress.finish()
    report_path = out_dir / "amazon_q2_2023-report.xlsx"
    with open_project(project) as sample:
        write_outputs(sample, None, report_path)
        write_outputs(sample, None, None)
    print(f"Project: {project}\nReport:  {report_path}")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "report": _cmd_report,
    "resume": cmd_resume,
    "export-golden": _cmd_export_golden,
    "sample": _cmd_sample,
}

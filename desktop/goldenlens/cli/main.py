"""``goldenlens`` command line: a thin front end over the jobs.

Exit codes: 0 success (warnings listed on stderr), 2 bad input or unusable file (one line on
stderr naming the file, sheet, row and column where known — never a traceback), 130 cancelled.
Every error a user can meet derives from :class:`~goldenlens.core.errors.GoldenLensError`,
whose class says its exit code; :func:`main` catches that one class.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import NoReturn

from goldenlens import __version__
from goldenlens.cli.commands.advise import add_advise_command, cmd_advise
from goldenlens.cli.commands.doctor import add_doctor_command, cmd_doctor, gui_preflight
from goldenlens.cli.commands.draft_from_sources import add_draft_command, cmd_draft
from goldenlens.cli.commands.drafts_queue import add_drafts_command, cmd_drafts
from goldenlens.cli.commands.labels import add_label_commands, cmd_label, cmd_plan_labels
from goldenlens.cli.commands.review import add_review_commands, cmd_override, cmd_review
from goldenlens.cli.commands.review_golden import add_golden_review_command, cmd_review_golden
from goldenlens.cli.commands.runs import add_runs_commands, cmd_compare, cmd_runs
from goldenlens.cli.commands.variants import add_curation_commands, cmd_variants
from goldenlens.cli.commands.versions import add_version_commands, cmd_diff, cmd_versions
from goldenlens.cli.gate import (
    add_baseline_option,
    add_gate_options,
    combined,
    gate_usage_error,
    input_errors_exit,
    minimums_exit,
    unknown_pipeline_exit,
)
from goldenlens.cli.input_options import add_input_options, input_selection
from goldenlens.cli.judge_options import JudgeHelpFormatter, add_judge_options, judge_options
from goldenlens.cli.output import (
    StderrProgress,
    check_report_path,
    print_problems,
    project_file,
    write_report,
)
from goldenlens.cli.project_argument import add_project_argument
from goldenlens.core.errors import EXIT_BAD_INPUT, GoldenLensError
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.jobs.progress import Cancelled

EXIT_CANCELLED = 130
#: The output's reader left before it was all written (128 + SIGPIPE, as a shell reports it).
EXIT_BROKEN_PIPE = 141
EXIT_NOT_READY = 1
#: Fatal problems printed for a refused input, the first included; the rest are counted.
_FATAL_SHOWN = 20


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="goldenlens",
        description="Score question-answering and RAG pipelines against a golden set (FMEval-exact lexical "
        "metrics), offline.",
    )
    parser.add_argument("--version", action="version", version=f"goldenlens {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser(
        "score",
        help="import a golden set and responses, score them, write a report",
        formatter_class=JudgeHelpFormatter,
    )
    score.add_argument("golden", type=Path, help="golden set: .xlsx .xlsm .xls .ods .csv .tsv")
    score.add_argument(
        "responses", type=Path, help="pipeline responses (long or wide layout); may be the same workbook"
    )
    score.add_argument(
        "-o",
        "--output",
        type=Path,
        help="report file: .xlsx workbook, .html page, .json or .csv (default: print a summary)",
    )
    score.add_argument(
        "--project", type=project_file, help="keep the project in this .goldenlens file (created or updated)"
    )
    score.add_argument(
        "--multiset",
        action="store_true",
        help="count repeated words and keep articles (NOT FMEval; matches hand-worked TP/FP/FN tables)",
    )
    score.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_input_options(score)
    add_gate_options(score)
    add_baseline_option(score)
    add_judge_options(score)

    export = sub.add_parser(
        "export-golden", help="write a golden set (spreadsheet or project) as a clean workbook"
    )
    export.add_argument("source", type=Path, help="a spreadsheet or a .goldenlens project")
    export.add_argument("-o", "--output", type=Path, required=True, help="the .xlsx file to write")
    add_input_options(export)

    report = sub.add_parser("report", help="write the report of a scored project")
    add_project_argument(report, scored=True)
    report.add_argument(
        "-o", "--output", type=Path, help=".xlsx, .html, .json or .csv (default: print a summary)"
    )
    add_gate_options(report, regression=False)
    add_baseline_option(report)
    report.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")

    resume = sub.add_parser(
        "resume",
        help="finish the interrupted lexical and judge runs and golden review of a project (same models)",
    )
    add_project_argument(resume)
    resume.add_argument("-q", "--quiet", action="store_true")

    sample = sub.add_parser("sample", help="score the bundled Amazon Q2 2023 sample and write its report")
    sample.add_argument(
        "--out-dir",
        type=Path,
        default=Path("goldenlens-sample"),
        help="where to write (default: %(default)s)",
    )
    sample.add_argument("-q", "--quiet", action="store_true")

    add_review_commands(sub)
    add_label_commands(sub)
    add_curation_commands(sub)
    add_advise_command(sub)
    add_draft_command(sub)
    add_drafts_command(sub)
    add_golden_review_command(sub)
    add_version_commands(sub)
    add_runs_commands(sub)
    add_doctor_command(sub)

    gui = sub.add_parser("gui", help="open the desktop app (optionally on a project)")
    gui.add_argument("project", type=Path, nargs="?", help="a .goldenlens project to open")
    gui.add_argument("--sample", action="store_true", help="open the bundled sample project")
    return parser


def _cmd_score(args: argparse.Namespace) -> int:
    check_report_path(
        args.output,
        reads=(("golden set", args.golden), ("responses file", args.responses), ("project", args.project)),
    )
    wrong = gate_usage_error(args)
    if wrong is not None:
        print(f"goldenlens: error: {wrong}", file=sys.stderr)
        return EXIT_BAD_INPUT
    judge = judge_options(args)
    if args.project is not None or judge is not None:
        from goldenlens.cli.commands.score_project import cmd_score_project

        return cmd_score_project(args, judge)
    return _score_files(args)


def _score_files(args: argparse.Namespace) -> int:
    """``score`` with nothing to keep: files in, report out, no project in between.

    The cyclic garbage collector waits until the command is over: scoring makes no cycles and
    reference counting frees each step's objects, so between the steps the collector would only
    walk the read inputs again, finding nothing (7% of the command's time on 60,000 rows)."""
    from goldenlens.core.gc_pause import collector_paused

    with collector_paused():
        return _score_files_paused(args)


def _score_files_paused(args: argparse.Namespace) -> int:
    from goldenlens.jobs.scoring.score_files import score_files
    from goldenlens.jobs.scoring.score_rows import ScoreOptions

    progress = StderrProgress(quiet=args.quiet)
    out: Path | None = args.output
    as_json = out is not None and out.suffix.lower() == ".json"
    try:
        done = score_files(
            args.golden,
            args.responses,
            selection=input_selection(args),
            options=ScoreOptions(multiset=args.multiset),
            progress=progress,
            baseline=args.baseline,
            json_report=as_json,
        )
        try:
            print_problems(done.problems)
            refused = unknown_pipeline_exit(done.pipelines, args.fail_under)
            if refused:
                return refused
            if out is not None and as_json:
                summary = done.write_json(out)  # rows written as the workers return them
                progress.finish()
                print(f"Wrote {done.row_count} scored responses to {out}", file=sys.stderr)
                _Ending.at_once = True  # the report is in place and the workers have ended (run)
            else:
                report = done.report()
                progress.finish()
                write_report(report, out, sources=done.sources, progress=progress)
                summary = report.summary()
        finally:
            done.close()
    except KeyboardInterrupt:
        print("goldenlens: cancelled; nothing was written.", file=sys.stderr)
        return EXIT_CANCELLED
    return combined(  # after the report is written
        minimums_exit(summary, args.fail_under),
        input_errors_exit(done.problems, args.fail_on_input_errors),
    )


#: The desktop app's entry point, named here and imported only when ``goldenlens gui`` runs:
#: the CLI and the desktop app are independent front ends (an import-linter contract), and
#: PySide6 is an optional extra that a CLI-only install lacks.
GUI_ENTRY_POINT = "goldenlens.ui.app:run_app"


def _cmd_gui(args: argparse.Namespace) -> int:
    # Qt aborts the process (exit 134) when its platform plugin cannot load; say why first.
    if gui_preflight() != 0:
        return EXIT_NOT_READY
    module_name, _, function = GUI_ENTRY_POINT.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        print(
            f"goldenlens: error: the desktop app needs PySide6 and pyqtgraph ({error}); "
            "install them with: pip install 'goldenlens[gui]'",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    run_app: Callable[..., int] = getattr(module, function)
    return run_app(project=args.project, sample=args.sample)


#: Commands that work on a project file live in :mod:`.project_commands`, imported when one
#: runs: scoring files straight to a report needs neither the store nor SQLite.
_PROJECT_COMMANDS = ("report", "resume", "export-golden", "sample")


def _project_command(name: str) -> Callable[[argparse.Namespace], int]:
    from goldenlens.cli.commands import score_project as project_commands

    return project_commands.COMMANDS[name]


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "gui": _cmd_gui,
    "score": _cmd_score,
    "override": cmd_override,
    "review": cmd_review,
    "label": cmd_label,
    "plan-labels": cmd_plan_labels,
    "variants": cmd_variants,
    "advise": cmd_advise,
    "draft": cmd_draft,
    "drafts": cmd_drafts,
    "review-golden": cmd_review_golden,
    "versions": cmd_versions,
    "diff": cmd_diff,
    "runs": cmd_runs,
    "compare": cmd_compare,
    "doctor": cmd_doctor,
}


@contextmanager
def _sigterm_stops_the_command(command: str) -> Iterator[None]:
    """While a command runs, SIGTERM (``kill``, ``timeout``, a cancelled CI job) stops it as
    Ctrl+C does, so its cleanup runs: no half-written temporary report is left, a run keeps
    what it saved, and worker processes are shut down. Not for the desktop app (Qt's event
    loop would hold the signal back) nor off the main thread (Python allows handlers there
    only); the previous handler is put back afterwards."""
    if command == "gui" or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run() -> NoReturn:
    """The ``goldenlens`` console script and ``python -m goldenlens``: :func:`main`, then the
    process ends. After ``score`` wrote a JSON report with no project, its file written, closed
    and renamed into place and its workers ended, the process ends at once, without tearing the
    interpreter down: freeing a large run's objects one by one took a tenth of a second, for
    nothing. Every other command (and a failed ``score``) exits as usual."""
    code = main()
    if _Ending.at_once:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


class _Ending:
    """How this process ends (:func:`run`)."""

    #: Set by a ``score`` that wrote its JSON report with no project.
    at_once = False


def _error_line(problem: Problem) -> str:
    """A fatal problem as its ``goldenlens: error:`` line says it: located, unless the message
    names the file already."""
    if problem.message.startswith(problem.file) and problem.location() == problem.file:
        return problem.message
    return f"{problem.location()}: {problem.message}"


def _parsed(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args(argv)``, but an option the command does not know is refused by the
    command's own parser: its usage line, not the list of every command, follows the error."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        commands = next(
            action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
        )
        command = commands.choices.get(getattr(args, "command", None) or "", parser)
        command.error(f"unrecognized arguments: {' '.join(unknown)}{_meant(command, unknown)}")
    return args


def _meant(parser: argparse.ArgumentParser, unknown: Sequence[str]) -> str:
    """`` (did you mean --fail-under?)`` for the first unknown option close to one ``parser``
    knows; ``""`` when none is."""
    import difflib

    known = [option for action in parser._actions for option in action.option_strings]
    for word in unknown:
        if word.startswith("-"):
            option = word.split("=", 1)[0]
            if option in known:  # the command's own option, given before the command's name
                return f" ({option} belongs after `{parser.prog.rsplit(' ', 1)[-1]}`)"
            close = difflib.get_close_matches(option, known, n=1, cutoff=0.7)
            if close:
                return f" (did you mean {close[0]}?)"
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: the exit status of the command ``argv`` (default: ``sys.argv``) asks for."""
    args = _parsed(build_parser(), argv)
    args.started_at = datetime.now(UTC).isoformat(timespec="milliseconds")  # what a cancel left
    try:
        command = COMMANDS.get(args.command) or _project_command(args.command)
        with _sigterm_stops_the_command(args.command):
            return command(args)
    except InputError as error:
        print(f"goldenlens: error: {_error_line(error.problem)}", file=sys.stderr)
        # The other fatal problems in the same shape as the first: each is a reason nothing was done.
        fatal = [other for other in error.others if other.severity is Severity.FATAL]
        for other in fatal[: _FATAL_SHOWN - 1]:
            print(f"goldenlens: error: {_error_line(other)}", file=sys.stderr)
        if len(fatal) >= _FATAL_SHOWN:
            more = len(fatal) - _FATAL_SHOWN + 1
            print(f"goldenlens: error: ... and {more:,} more like these", file=sys.stderr)
        print_problems([p for p in error.others if p.severity not in (Severity.INFO, Severity.FATAL)])
        return EXIT_BAD_INPUT
    except GoldenLensError as error:  # a project, export, run or engine error: its one-line message
        print(f"goldenlens: error: {error}", file=sys.stderr)
        return error.exit_code
    except BrokenPipeError:
        # The reader of the output left (``goldenlens advise p | head``): end quietly, as a
        # shell tool ended by SIGPIPE does, and keep the interpreter's last flush from failing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except OSError as error:
        name = Path(error.filename).name if error.filename else ""
        print(f"goldenlens: error: {name + ': ' if name else ''}{error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (Cancelled, KeyboardInterrupt):
        print(f"goldenlens: cancelled; {_after_cancel(args)}", file=sys.stderr)
        return EXIT_CANCELLED


def _after_cancel(args: argparse.Namespace) -> str:
    """What a cancel left, read from the project: a run to resume, scores saved with no report
    written, or nothing changed (every other write is one transaction or an atomic file)."""
    project = getattr(args, "project", None)
    if not isinstance(project, Path) or not project.is_file():
        return "nothing was written."
    quoted = shlex.quote(str(project))
    try:
        from goldenlens.jobs import open_project
        from goldenlens.jobs.scoring.pending import left_to_resume, scored_since

        with open_project(project) as opened:
            resumable = left_to_resume(opened)
            scored = scored_since(opened, getattr(args, "started_at", ""))
    # What it left cannot be read: say what would finish it. ImportError, AttributeError: Ctrl+C
    # inside an import left that module half made (pandas: "partially initialized module").
    except (GoldenLensError, OSError, ImportError, AttributeError):
        return f"if a run was interrupted, `goldenlens resume {quoted}` finishes it."
    if resumable:
        return f"the finished rows are saved: `goldenlens resume {quoted}` finishes the run."
    output = getattr(args, "output", None)
    if args.command == "score" and scored and isinstance(output, Path):  # scored, not reported
        return (
            f"the scores are saved in {project.name}, the report was not written: "
            f"`goldenlens report {quoted} -o {shlex.quote(str(output))}` writes it."
        )
    return f"{project.name} has nothing half-done (every change is saved whole or not at all)."


if __name__ == "__main__":
    sys.exit(main())

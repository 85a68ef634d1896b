"""``goldenlens`` command line: a thin front end over the jobs.

Exit codes: 0 success (warnings listed on stderr), 2 bad input or unusable file (one line on
stderr naming the file, sheet, row and column where known — never a traceback), 130 cancelled.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from goldenlens import __version__
from goldenlens.core.model import InputError, Severity
from goldenlens.io.golden_writer import ExportError
from goldenlens.jobs.curation import run_options
from goldenlens.jobs.import_and_score import import_and_score
from goldenlens.jobs.import_job import ImportResult
from goldenlens.jobs.judge_job import JudgeOptions, JudgeRunError
from goldenlens.jobs.progress import Cancelled
from goldenlens.jobs.report_job import NoScoresError
from goldenlens.jobs.sample_project import SAMPLE_PROJECT_NAME, ensure_sample_project
from goldenlens.jobs.score_job import ScoreOptions, score_project
from goldenlens.judge.engine import JudgeEngineError
from goldenlens.judge.model_files import ModelNotFoundError
from goldenlens.store.project import ProjectStore, StoreError

from .advise_command import add_advise_command, cmd_advise
from .judge_args import add_judge_options, judge_options, resume_judge
from .output import StderrProgress, parse_mapping, print_problems, write_outputs
from .review_commands import add_review_commands, cmd_override, cmd_review

EXIT_BAD_INPUT = 2


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="FIELD=COLUMN",
        help="use COLUMN for FIELD (id, question, answer, fact, notes, question_id, pipeline, response, "
        "contexts); repeatable; applies to whichever input has that column",
    )
    parser.add_argument(
        "--golden-sheet", metavar="NAME", help="sheet of the golden set (default: first that maps)"
    )
    parser.add_argument(
        "--responses-sheet", metavar="NAME", help="sheet of the responses (default: first that maps)"
    )
    parser.add_argument(
        "--header-row",
        type=_positive_int,
        metavar="N",
        help="row N (as Excel numbers it) is the header of both inputs (default: the first of the first "
        "20 rows that names a known column)",
    )
    parser.add_argument(
        "--responses-header-row",
        type=_positive_int,
        metavar="N",
        help="the header row of the responses when it differs from --header-row",
    )


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a row number (1, 2, ...), got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"a row number is 1 or more, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="goldenlens",
        description="Score question-answering and RAG pipelines against a golden set (FMEval-exact lexical "
        "metrics), offline.",
    )
    parser.add_argument("--version", action="version", version=f"goldenlens {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help="import a golden set and responses, score them, write a report")
    score.add_argument("golden", type=Path, help="golden set: .xlsx .xlsm .xls .ods .csv .tsv")
    score.add_argument(
        "responses", type=Path, help="pipeline responses (long or wide layout); may be the same workbook"
    )
    score.add_argument(
        "-o",
        "--output",
        type=Path,
        help="report file: .xlsx workbook, .json or .csv (default: print a summary)",
    )
    score.add_argument(
        "--project", type=Path, help="keep the project in this .goldenlens file (created or updated)"
    )
    score.add_argument(
        "--multiset",
        action="store_true",
        help="count repeated words and keep articles (NOT FMEval; matches hand-worked TP/FP/FN tables)",
    )
    score.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    _add_input_options(score)
    add_judge_options(score)

    export = sub.add_parser(
        "export-golden", help="write a golden set (spreadsheet or project) as a clean workbook"
    )
    export.add_argument("source", type=Path, help="a spreadsheet or a .goldenlens project")
    export.add_argument("-o", "--output", type=Path, required=True, help="the .xlsx file to write")
    _add_input_options(export)

    report = sub.add_parser("report", help="write the report of a scored project")
    report.add_argument("project", type=Path)
    report.add_argument("-o", "--output", type=Path, help=".xlsx, .json or .csv (default: print a summary)")

    resume = sub.add_parser(
        "resume", help="finish the interrupted lexical and judge runs of a project (same models)"
    )
    resume.add_argument("project", type=Path)
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
    add_advise_command(sub)

    gui = sub.add_parser("gui", help="open the desktop app (optionally on a project)")
    gui.add_argument("project", type=Path, nargs="?", help="a .goldenlens project to open")
    gui.add_argument("--sample", action="store_true", help="open the bundled sample project")
    return parser


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
    done = import_and_score(
        project,
        golden,
        responses,
        golden_sheet=getattr(args, "golden_sheet", None),
        responses_sheet=getattr(args, "responses_sheet", None),
        mapping=parse_mapping(getattr(args, "map", [])),
        header_row=getattr(args, "header_row", None),
        responses_header_row=getattr(args, "responses_header_row", None),
        options=ScoreOptions(multiset=multiset),
        judge=judge,
        progress=progress,
    )
    progress.finish()
    assert done.run_id is not None  # scoring errors are raised, not reported, here
    return done.imported, done.run_id, done.judge_run_id


def _cmd_score(args: argparse.Namespace) -> int:
    judge = judge_options(args)
    with tempfile.TemporaryDirectory(prefix="goldenlens-") as tmp:
        project = args.project or Path(tmp) / "scores.goldenlens"
        result, run_id, judge_run = _import_and_score(
            project, args.golden, args.responses, args, multiset=args.multiset, judge=judge
        )
        print_problems(result.problems)
        with ProjectStore.open(project) as store:
            write_outputs(store, run_id, args.output, judge_run_id=judge_run)
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    with ProjectStore.open(args.project) as store:
        write_outputs(store, None, args.output)
    return 0


def _cmd_resume(args: argparse.Namespace) -> int:
    with ProjectStore.open(args.project) as store:
        pending = store.unfinished_runs("lexical")
        run_id = None
        if pending:
            # The run's own options (counting and flag thresholds); on changed inputs
            # score_project starts a fresh run rather than finish this one with them.
            options = run_options(pending[-1].params)
            progress = StderrProgress(quiet=args.quiet)
            run_id = score_project(store, options, progress=progress)
            progress.finish()
            if run_id != pending[-1].id:
                print(
                    f"{args.project.name}: the inputs changed since run {pending[-1].id} was interrupted; "
                    f"scored them afresh in run {run_id}",
                    file=sys.stderr,
                )
        judge_run = resume_judge(store, quiet=args.quiet)
        if run_id is None and judge_run is None:
            print(f"{args.project.name}: no interrupted run to resume.", file=sys.stderr)
            return 0
        write_outputs(store, run_id, None, judge_run_id=judge_run)
    return 0


def _cmd_export_golden(args: argparse.Namespace) -> int:
    from goldenlens.io.golden_writer import write_golden_workbook
    from goldenlens.io.readers import read_golden

    if args.source.suffix.lower() == ".goldenlens":
        from goldenlens.jobs.report_job import export_golden

        with ProjectStore.open(args.source) as store:
            count = export_golden(store, args.output)
    else:
        golden, problems = read_golden(
            args.source, sheet=args.golden_sheet, mapping=parse_mapping(args.map), header_row=args.header_row
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
    with ProjectStore.open(project) as store:
        write_outputs(store, None, report_path)
        write_outputs(store, None, None)
    print(f"Project: {project}\nReport:  {report_path}")
    return 0


#: The desktop app's entry point, named here and imported only when ``goldenlens gui`` runs:
#: the CLI and the desktop app are independent front ends (an import-linter contract), and
#: PySide6 is an optional extra that a CLI-only install lacks.
GUI_ENTRY_POINT = "goldenlens.ui.app:run_app"


def _cmd_gui(args: argparse.Namespace) -> int:
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


COMMANDS = {
    "gui": _cmd_gui,
    "score": _cmd_score,
    "report": _cmd_report,
    "resume": _cmd_resume,
    "export-golden": _cmd_export_golden,
    "sample": _cmd_sample,
    "override": cmd_override,
    "review": cmd_review,
    "advise": cmd_advise,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``goldenlens`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except InputError as error:
        problem = error.problem
        if problem.message.startswith(problem.file) and problem.location() == problem.file:
            line = problem.message  # the message already names the file
        else:
            line = f"{problem.location()}: {problem.message}"
        print(f"goldenlens: error: {line}", file=sys.stderr)
        print_problems([p for p in error.others if p.severity is not Severity.INFO])
        return EXIT_BAD_INPUT
    except ModelNotFoundError as error:
        print(f"goldenlens: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (StoreError, ExportError, NoScoresError, JudgeEngineError, JudgeRunError) as error:
        print(f"goldenlens: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:
        name = Path(error.filename).name if error.filename else ""
        print(f"goldenlens: error: {name + ': ' if name else ''}{error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (Cancelled, KeyboardInterrupt):
        print(
            "goldenlens: cancelled; finished rows are saved (run 'goldenlens resume PROJECT').",
            file=sys.stderr,
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())

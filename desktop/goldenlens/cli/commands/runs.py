"""``goldenlens runs`` and ``goldenlens compare``: a project's scoring runs and what changed
between two of them.

A thin front end over :mod:`goldenlens.jobs.reporting.run_history`. ``runs`` prints a table (or JSON
with ``--json``); ``compare`` prints per pipeline and metric the improved / regressed /
unchanged counts and the mean before → after, or writes the whole comparison with ``-o``
(``.json``, ``.xlsx``, ``.csv``). A run is its id, ``latest`` or ``previous``. An unknown run,
a project with one run, or runs of two kinds is one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.cli.command_output import table_lines
from goldenlens.cli.output import json_text
from goldenlens.cli.project_argument import add_project_argument

if TYPE_CHECKING:  # the jobs (and the store behind them) load only when a command runs
    from goldenlens.jobs.reporting.run_history import RunListing, RunPairComparison


def add_runs_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``runs`` and ``compare`` sub-commands (run by :func:`cmd_runs`, :func:`cmd_compare`)."""
    runs = sub.add_parser(
        "runs", help="list a project's scoring runs: options, golden version, input fingerprint"
    )
    add_project_argument(runs)
    runs.add_argument("--json", action="store_true", help="print JSON instead of the table")

    compare = sub.add_parser(
        "compare", help="compare two runs: per question and pipeline, improved / regressed / unchanged"
    )
    add_project_argument(compare)
    compare.add_argument(
        "--base",
        default="previous",
        metavar="RUN",
        help="the run before: an id, latest or previous (default)",
    )
    compare.add_argument(
        "--head", default="latest", metavar="RUN", help="the run after: an id, latest (default) or previous"
    )
    compare.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the comparison: .json, .xlsx or .csv"
    )


def cmd_runs(args: argparse.Namespace) -> int:
    """``goldenlens runs``: every run of the project, oldest first."""
    from goldenlens.jobs import open_project
    from goldenlens.jobs.reporting.run_history import list_runs

    with open_project(args.project) as project:
        runs = list_runs(project)
    if args.json:
        data = {"project": str(args.project), "runs": [run.as_dict() for run in runs]}
        sys.stdout.write(json_text(data))
    else:
        print(format_runs(runs))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """``goldenlens compare``: run ``--head`` against run ``--base``."""
    from goldenlens.io.reports.run_comparison_file import check_comparison_output, write_comparison
    from goldenlens.jobs import open_project
    from goldenlens.jobs.reporting.run_history import compare_project_runs

    if args.output is not None:
        check_comparison_output(args.output)
    # A RunReferenceError (unknown run, one run only, two kinds) is main's one-line exit 2.
    with open_project(args.project) as project:
        compared = compare_project_runs(project, args.base, args.head)
    if args.output is not None:
        write_comparison(args.output, compared.as_dict(), list(compared.comparison.cells))
        print(
            f"Wrote the comparison of run {compared.head.id} with run {compared.base.id} to {args.output}",
            file=sys.stderr,
        )
    else:
        print(format_comparison(compared))
    return 0


def format_runs(runs: list[RunListing]) -> str:
    """The runs as a table: id, kind, started, finished, status, rows, options, golden version,
    fingerprint (first 12 hex digits)."""
    from goldenlens.core.golden.versions import short_time

    if not runs:
        return "No runs yet: score the project first."
    header = ["run", "kind", "started", "finished", "status", "rows", "options", "golden", "fingerprint"]
    rows = [
        [
            str(run.id),
            run.kind,
            short_time(run.started_at),
            short_time(run.finished_at) if run.finished_at else "-",
            run.status,
            f"{run.rows:,}",
            run.options_summary,
            run.golden_version,
            run.fingerprint_short,
        ]
        for run in runs
    ]
    return "\n".join([f"Runs: {len(runs)}", *table_lines(header, rows)])


def format_comparison(compared: RunPairComparison) -> str:
    """Per pipeline and metric: improved / regressed / unchanged (and not scored) counts, and
    the mean before → after over the questions both runs scored."""
    from goldenlens.core.golden.versions import short_time
    from goldenlens.core.view.metric_names import metric_short

    base, head, comparison = compared.base, compared.head, compared.comparison
    lines = [
        f"Run {head.id} ({short_time(head.started_at)}, golden {head.golden_version}) compared with "
        f"run {base.id} ({short_time(base.started_at)}, golden {base.golden_version})",
        f"{len(comparison.questions)} questions, {len(comparison.pipelines)} pipelines in both runs",
    ]
    lines += [f"note: {note}" for note in compared.notes]
    for label, only in (("base", comparison.only_in_base), ("head", comparison.only_in_head)):
        for what, names in (
            ("questions", only.questions),
            ("pipelines", only.pipelines),
            ("metrics", only.metrics),
        ):
            if names:
                lines.append(f"only in the {label} run ({what}): {', '.join(names)}")
    header = [
        "pipeline",
        "metric",
        "improved",
        "regressed",
        "unchanged",
        "not scored",
        "mean before → after",
    ]
    rows = [
        [
            item.pipeline,
            metric_short(item.metric),
            str(item.improved),
            str(item.regressed),
            str(item.unchanged),
            str(item.not_scored),
            item.means_text(),
        ]
        for item in comparison.summary
    ]
    lines.append("")
    lines += table_lines(header, rows)
    return "\n".join(lines)

"""The CI gate of ``goldenlens score`` (issue #10): ``--fail-under [PIPELINE.]METRIC=VALUE``,
``--fail-on-regression`` and ``--fail-on-input-errors``. Parsing and printing only; the decisions are
:mod:`goldenlens.core.stats.gates`. The report is written before the gate decides, so a failing
build still has it to look at.

Exit codes: 0 every check passed, 1 a check failed (one ``FAIL``/``REGRESSION`` line each on
stderr), 2 bad input (as every command).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from goldenlens.core.errors import EXIT_BAD_INPUT
from goldenlens.core.problems import Problem, Severity
from goldenlens.core.view.wording import plural

if TYPE_CHECKING:  # the gate's decisions load when an option asks for a check
    from goldenlens.core.project_handle import ProjectHandle
    from goldenlens.core.stats.gates import MinimumMean

EXIT_GATE_FAILED = 1


def _minimum(text: str) -> MinimumMean:
    from goldenlens.core.stats.gates import MinimumMean

    try:
        return MinimumMean.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_gate_options(parser: argparse.ArgumentParser, *, regression: bool = True) -> None:
    """``--fail-under`` (repeatable) and, with ``regression``, ``--fail-on-regression`` and
    ``--fail-on-input-errors`` (on ``score``; ``report`` has the first only)."""
    group = parser.add_argument_group("CI gate (exit 1 when a check fails; the report is written first)")
    group.add_argument(
        "--fail-under",
        action="append",
        default=[],
        type=_minimum,
        metavar="[PIPELINE.]METRIC=VALUE",
        help="fail when a pipeline's mean of METRIC is under VALUE (every pipeline, or PIPELINE only); "
        "METRIC as in the JSON report (factual_knowledge, f1_score, recall_over_words, ...) or its "
        "label (f1, recall, fk, exact_match), or calibrated: the lower end of the 95%% interval of the "
        "share a reviewer would judge correct (a project with labels); repeatable",
    )
    if not regression:
        return
    group.add_argument(
        "--fail-on-regression",
        action="store_true",
        help="with --project: fail when a pipeline's mean fell significantly since the project's previous "
        "scoring run (the paired 95%% bootstrap interval of the difference lies entirely below 0)",
    )
    group.add_argument(
        "--fail-on-input-errors",
        action="store_true",
        help="fail when reading the inputs met an error (a row skipped, a cell that could not be read, "
        "a fact that cannot be scored): the means then cover less than the files hold",
    )


def add_baseline_option(parser: argparse.ArgumentParser) -> None:
    """``--baseline PIPELINE``: beyond ten pipelines, every pipeline is also compared with it."""
    parser.add_argument(
        "--baseline",
        metavar="PIPELINE",
        help="beyond ten pipelines, where each is compared with the leader rather than with every other, "
        "compare each with PIPELINE too (the one in production, say); up to ten, every pair is compared",
    )


def gate_usage_error(args: argparse.Namespace) -> str | None:
    """What is wrong with the gate options before anything is scored (``None``: nothing)."""
    if getattr(args, "fail_on_regression", False) and args.project is None:
        return "--fail-on-regression needs --project (the previous run it compares with is kept there)"
    return None


def unknown_pipeline_exit(pipelines: Collection[str], minimums: Sequence[MinimumMean]) -> int:
    """Before a report is written: exit 2 with the reason when ``--fail-under`` names a pipeline
    the inputs do not have (a typo must not look like a passing gate, nor leave a report
    behind as if the command had worked); 0 otherwise."""
    from goldenlens.core.stats.gates import UnknownPipelineError, check_pipelines

    try:
        check_pipelines(pipelines, minimums)
    except UnknownPipelineError as error:
        return refuse_unknown_pipeline(error)
    return 0


def refuse_unknown_pipeline(error: ValueError) -> int:
    """Exit 2 with why: ``--fail-under`` names a pipeline the inputs lack (checked before a
    report is written, or before an import is written and scored)."""
    print(f"goldenlens: error: {error}; no report was written", file=sys.stderr)
    return EXIT_BAD_INPUT


def minimums_exit(summary: Mapping[str, Mapping[str, float | None]], minimums: Sequence[MinimumMean]) -> int:
    """Check ``--fail-under`` against the report's means: print a line per failure."""
    if not minimums:
        return 0
    from goldenlens.core.stats.gates import UnknownPipelineError, failing_minimums

    try:
        failures = failing_minimums(summary, minimums)
    except UnknownPipelineError as error:
        print(f"goldenlens: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for failure in failures:
        print(failure.line(), file=sys.stderr)
    return EXIT_GATE_FAILED if failures else 0


def regression_exit(project: ProjectHandle, head: int) -> int:
    """Check ``--fail-on-regression``: run ``head`` against the project's previous run."""
    from goldenlens.jobs.reporting.run_regression import check_regression

    check = check_regression(project, head)
    if check.previous is None:
        print(
            f"goldenlens: run {head} is the project's first scoring run: no regression to check",
            file=sys.stderr,
        )
        return 0
    for found in check.found:
        print(found.line(f"run {head}", f"run {check.previous}"), file=sys.stderr)
    return EXIT_GATE_FAILED if check.found else 0


def input_errors_exit(problems: Sequence[Problem], enabled: bool) -> int:
    """Check ``--fail-on-input-errors``: one ``FAIL`` line counting the errors met reading the
    inputs (each was printed already); 0 when there is none or the check is off. Warnings and
    notes never fail it: their rows are scored as they are."""
    if not enabled:
        return 0
    errors = [problem for problem in problems if problem.severity is Severity.ERROR]
    if not errors:
        return 0
    print(
        f"FAIL inputs: {plural(len(errors), 'error')} reading the input files (listed above): "
        "rows left out or values not scored",
        file=sys.stderr,
    )
    return EXIT_GATE_FAILED


def combined(*codes: int) -> int:
    """The gate's exit code from its checks: bad input first, then a failure."""
    return max(codes, default=0)

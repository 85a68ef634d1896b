"""``goldenlens override`` and ``goldenlens review``: scripted review of a project.

Both go through :mod:`goldenlens.jobs.curation.review_job` (and so the same curation functions as the
desktop app). Bad input — an unknown question, pipeline, metric or status, a value out of
range — is one line on stderr naming the valid choices, exit code 2, nothing written.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.cli.project_argument import add_project_argument
from goldenlens.cli.reviewer_option import add_reviewer_option, reviewer_of
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.reviewer_decisions import REVIEW_ORDER

if TYPE_CHECKING:  # the jobs (and the store behind them) load when a review command runs
    from goldenlens.core.project_handle import ProjectHandle


def add_review_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``override`` and ``review`` sub-commands (run by :func:`cmd_override` and
    :func:`cmd_review`)."""
    override = sub.add_parser(
        "override",
        help="override one score of a project (reports then use the new value and show the original)",
    )
    add_project_argument(override, scored=True)
    override.add_argument("question_id")
    override.add_argument("pipeline")
    override.add_argument(
        "metric", help="e.g. factual_knowledge, f1_score (or FK, F1), or a judge metric of the project"
    )
    override.add_argument(
        "value",
        nargs="?",
        help="the new value: 0 to 1; for pass/fail metrics (factual_knowledge, exact_match, …) "
        "0, 1, pass or fail",
    )
    override.add_argument("--note", default="", help="why (required; shown in every report)")
    add_reviewer_option(override)
    override.add_argument(
        "--withdraw", action="store_true", help="withdraw the override in force instead (give no VALUE)"
    )

    review = sub.add_parser("review", help="set the review state of a golden question")
    add_project_argument(review)
    review.add_argument("question_id")
    # Checked by the job rather than by argparse ``choices``: a wrong status is then one line
    # naming the statuses, like every other refused review input.
    review.add_argument("status", metavar="{" + ",".join(REVIEW_ORDER) + "}")
    review.add_argument("--note", default="", help="the review note (shown in every report)")
    add_reviewer_option(review)


@contextmanager
def _checked(path: Path) -> Iterator[ProjectHandle]:
    """The open project; a refused input becomes the CLI's one-line error naming the file."""
    from goldenlens.jobs import open_project
    from goldenlens.jobs.curation.review_job import ReviewInputError

    with open_project(path) as project:
        try:
            yield project
        except ReviewInputError as error:
            raise InputError.fatal(path.name, str(error)) from None


def _shown(value: float | None) -> str:
    return "not scored" if value is None else f"{value:g}"


def cmd_override(args: argparse.Namespace) -> int:
    """``goldenlens override``: save (or ``--withdraw``) one score override."""
    if args.withdraw == (args.value is not None):
        raise InputError(
            Problem(
                args.project.name, "give either VALUE or --withdraw (not both, not neither)", Severity.FATAL
            )
        )
    from goldenlens.jobs.curation.review_job import override_score, withdraw_override

    with _checked(args.project) as project:
        where = f"{args.question_id} / {args.pipeline}"
        if args.withdraw:
            metric = withdraw_override(
                project,
                args.question_id,
                args.pipeline,
                args.metric,
                note=args.note,
                reviewer=reviewer_of(args),
            )
            print(f"Withdrew the override of {metric} for {where}; the stored score counts again.")
            return 0
        saved = override_score(
            project,
            args.question_id,
            args.pipeline,
            args.metric,
            args.value,
            note=args.note,
            reviewer=reviewer_of(args),
        )
        o = saved.override
        print(
            f"Overrode {o.metric} for {where}: {_shown(o.effective_value)} "
            f"(stored score {_shown(saved.original)}) by {o.reviewer}"
        )
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    """``goldenlens review``: save one question's review state and note."""
    from goldenlens.jobs.curation.review_job import review_question

    with _checked(args.project) as project:
        review = review_question(
            project, args.question_id, args.status, note=args.note, reviewer=reviewer_of(args)
        )
    by = f" by {review.reviewer}" if review.reviewer else ""
    print(f"{review.question_id}: {review.status}{by}")
    return 0

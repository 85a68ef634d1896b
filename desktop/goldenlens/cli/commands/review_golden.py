"""``goldenlens review-golden``: the judge rates every golden triplet on the curation criteria.

A thin front end over :func:`goldenlens.jobs.judging.golden_review_job.review_golden_set` and
:func:`goldenlens.queries.golden_review.load_golden_review`. It resumes an interrupted review
with the same options by itself (run it again). Output: a table of verdicts on stdout with
the failing and unsure ones explained, or JSON with ``--json`` (stdout) or ``-o FILE.json``
(written whole or not at all). The store, the judge and llama.cpp load only when it runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goldenlens.cli.judge_options import add_engine_arguments, engine_spec_from_args, resume_newest
from goldenlens.cli.output import StderrProgress, check_json_output, print_result
from goldenlens.cli.project_argument import add_project_argument
from goldenlens.core.problems import InputError

if TYPE_CHECKING:
    from goldenlens.core.project_handle import ProjectHandle
    from goldenlens.jobs.judging.golden_review_job import GoldenReviewOptions
    from goldenlens.queries.golden_review import GoldenReview

#: One letter per verdict in the table; ``-`` for a criterion the judge could not rate.
_MARKS = {"pass": "P", "fail": "F", "unsure": "?"}
EXIT_CANCELLED = 130


def add_golden_review_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``review-golden`` sub-command (run by :func:`cmd_review_golden`)."""
    parser = sub.add_parser(
        "review-golden",
        help="the judge rates each golden triplet: unambiguous question, answer consistent with the fact, "
        "fact minimal, LLM-agnostic wording, verbosity (suggestions for the reviewer)",
    )
    add_project_argument(parser)
    parser.add_argument(
        "--criteria",
        metavar="NAME,...",
        help="criteria to rate (default: all): unambiguous_question, answer_consistent_with_fact, "
        "fact_minimal, llm_agnostic_wording, verbosity_within_guardrail",
    )
    parser.add_argument(
        "--max-words",
        type=int,
        metavar="N",
        help="verbosity guardrail: most words a golden answer may have (default: the advisor's, 40)",
    )
    parser.add_argument(
        "--reason-chars", type=int, metavar="N", help="longest reason the judge may give (default 160)"
    )
    add_engine_arguments(parser.add_argument_group("judge (runs offline on this machine unless --judge-url)"))
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON instead of the table")
    output.add_argument("-o", "--output", type=Path, metavar="FILE.json", help="write JSON to FILE.json")


def review_options(args: argparse.Namespace) -> GoldenReviewOptions:
    """The options the command line asks for; bad values are bad input (exit 2)."""
    from goldenlens.core.golden.criteria import criterion_from_name
    from goldenlens.jobs.judging.golden_review_job import GoldenReviewOptions

    engine = engine_spec_from_args(args, "review-golden")
    chosen: dict[str, Any] = {}
    if args.max_words is not None:
        chosen["max_answer_words"] = args.max_words
    if args.reason_chars is not None:
        chosen["reason_chars"] = args.reason_chars
    try:
        if args.criteria:
            chosen["criteria"] = tuple(
                criterion_from_name(name.strip()) for name in args.criteria.split(",") if name.strip()
            )
        return GoldenReviewOptions(engine=engine, **chosen)
    except ValueError as error:
        raise InputError.fatal("review-golden", str(error)) from error


def cmd_review_golden(args: argparse.Namespace) -> int:
    """``goldenlens review-golden``: review (or resume the review of) the golden set, then
    print or write the verdicts and the judge-reviewer agreement."""
    check_json_output(args.output, "review file")
    options = review_options(args)
    from goldenlens.jobs import open_project
    from goldenlens.jobs.judging.golden_review_job import review_golden_set
    from goldenlens.jobs.progress import Cancelled
    from goldenlens.queries.project import ProjectQueries

    progress = StderrProgress(quiet=args.quiet)
    with open_project(args.project) as store:
        try:
            run_id = review_golden_set(store, options, progress=progress)
        except (Cancelled, KeyboardInterrupt):
            progress.finish()
            print(
                "goldenlens: cancelled; finished golden rows are saved (run the same review-golden command "
                "again to resume).",
                file=sys.stderr,
            )
            return EXIT_CANCELLED
        progress.finish()
        review = ProjectQueries(store).golden_review(run_id)
    data = {"project": str(args.project), **review.as_dict()}
    print_result(
        data,
        lambda: format_review(review),
        output=args.output,
        as_json=args.json,
        wrote=f"Wrote the review of {len(review.rows)} golden rows",
    )
    return 0


def resume_golden_review(store: ProjectHandle, *, quiet: bool) -> int | None:
    """Finish the newest interrupted golden review of ``store`` with its own options (for
    ``goldenlens resume``); ``None`` when there is none. A judge model file of the run that no
    longer exists is bad input."""
    from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN
    from goldenlens.jobs.judging.golden_review_job import GoldenReviewOptions, review_golden_set

    return resume_newest(
        store, GOLDEN_REVIEW_RUN, GoldenReviewOptions.from_params, review_golden_set, quiet=quiet
    )


def format_review(review: GoldenReview) -> str:
    """The verdicts as a table (P pass, F fail, ? unsure, - not rated), then every fail and
    unsure with its reason, then the judge-reviewer agreement."""
    from goldenlens.core.golden.criteria import CRITERION_INFO

    run = review.run
    lines = [f"Golden review (run {run.id if run else '-'}): {len(review.rows)} golden rows"]
    header = ["id", *(str(n) for n in range(1, len(review.criteria) + 1))]
    width = max([len(header[0]), *(len(row.item.id) for row in review.rows)])
    lines.append("  ".join([header[0].ljust(width), *header[1:]]))
    for row in review.rows:
        marks = [_MARKS.get(v.verdict.value, "?") if v.verdict else "-" for v in row.verdicts]
        lines.append("  ".join([row.item.id.ljust(width), *marks]))
    lines.append("")
    counts = review.counts()
    for n, criterion in enumerate(review.criteria, start=1):
        tally = counts[criterion]
        source = "" if CRITERION_INFO[criterion].judged else " (counted, not judged)"
        lines.append(
            f"{n}  {CRITERION_INFO[criterion].label}{source}: {tally['pass']} pass, {tally['fail']} fail, "
            f"{tally['unsure']} unsure, {tally['not_rated']} not rated"
        )
    notes = [
        f"  {row.item.id} {v.criterion.value}: {v.verdict.value if v.verdict else 'not rated'} — "
        f"{v.reason or '(no reason given)'}"
        for row in review.rows
        for v in row.verdicts
        if v.verdict is None or v.verdict.value != "pass"
    ]
    if notes:
        lines += ["", "To look at (suggestions: accept or dismiss them in the app):", *notes]
    overall = review.agreement.overall
    if overall.n:
        kappa = "undefined" if overall.kappa is None else f"{overall.kappa:.2f}"
        rate = overall.rate or 0.0
        lines += [
            "",
            f"Judge and reviewer agree on {overall.agreed} of {overall.n} decided verdicts "
            f"({rate:.0%}); Cohen's kappa {kappa}",
        ]
    return "\n".join(lines)

"""``--reviewer NAME``: who made a decision, label or draft review on the command line
(default: the name saved in the app's preferences, else the user name)."""

from __future__ import annotations

import argparse


def add_reviewer_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--reviewer`` to a sub-command."""
    parser.add_argument(
        "--reviewer", help="who (default: the name saved in the app's preferences, else your user name)"
    )


def reviewer_of(args: argparse.Namespace) -> str:
    """The reviewer named by ``--reviewer``, else the default one."""
    from goldenlens.jobs.curation.review_job import default_reviewer  # preferences: on use only

    return str(args.reviewer) if args.reviewer is not None else default_reviewer()

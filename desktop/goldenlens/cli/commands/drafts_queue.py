"""``goldenlens drafts``: the drafts review queue of a project from the command line — list
it, accept a draft (as drafted, or edited with ``--question``/``--answer``/``--fact``) into
the golden set, or reject one.

The same functions as the desktop app's queue (:mod:`goldenlens.jobs.drafting.draft_review`,
:mod:`goldenlens.queries.drafts`). A refused decision — an unknown or already decided draft,
an empty field, a flagged draft without ``--accept-flagged``, a taken id — is one line on
stderr, exit code 2, nothing written.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from goldenlens.cli.output import json_text
from goldenlens.cli.project_argument import add_project_argument
from goldenlens.cli.reviewer_option import add_reviewer_option, reviewer_of
from goldenlens.core.golden.draft_values import DraftStatus
from goldenlens.core.problems import InputError

if TYPE_CHECKING:  # the store loads when the command runs, not for every command line
    from goldenlens.core.project_handle import ProjectHandle


def add_drafts_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``drafts`` sub-command (run by :func:`cmd_drafts`)."""
    drafts = sub.add_parser(
        "drafts",
        help="list a project's drafts review queue, or accept or reject a draft",
    )
    add_project_argument(drafts)
    action = drafts.add_mutually_exclusive_group()
    action.add_argument("--accept", type=int, metavar="ID", help="accept draft ID into the golden set")
    action.add_argument("--reject", type=int, metavar="ID", help="reject draft ID")
    drafts.add_argument(
        "--status", choices=[s.value for s in DraftStatus], help="list only the drafts in this state"
    )
    drafts.add_argument("--question", help="with --accept: the question as edited")
    drafts.add_argument("--answer", help="with --accept: the answer as edited")
    drafts.add_argument("--fact", help="with --accept: the fact as edited")
    drafts.add_argument(
        "--variant",
        action="append",
        metavar="TEXT",
        help="with --accept: an <OR> alternative to add to the fact (repeatable; default: the "
        "proposed variants without a false-match risk)",
    )
    drafts.add_argument("--no-variants", action="store_true", help="with --accept: add no variant")
    drafts.add_argument(
        "--id", dest="item_id", metavar="ID", help="with --accept: the golden id (default draft-N)"
    )
    drafts.add_argument(
        "--accept-flagged", action="store_true", help="with --accept: accept a flagged draft deliberately"
    )
    drafts.add_argument("--note", default="", help="with --reject: why")
    add_reviewer_option(drafts)
    drafts.add_argument("--json", action="store_true", help="print the queue as JSON")


def cmd_drafts(args: argparse.Namespace) -> int:
    """``goldenlens drafts``: list the queue, or save one decision."""
    from goldenlens.jobs import open_project

    accept_only = (args.question, args.answer, args.fact, args.variant, args.item_id)
    if args.accept is None and (
        any(v is not None for v in accept_only) or args.no_variants or args.accept_flagged
    ):
        options = "--question, --answer, --fact, --variant, --no-variants, --id and --accept-flagged"
        message = f"{options} go with --accept"
        raise InputError.fatal("drafts", message)
    with open_project(args.project) as store:
        if args.accept is not None:
            return _accept(store, args)
        if args.reject is not None:
            return _reject(store, args)
        return _list(store, args)


def _accept(store: ProjectHandle, args: argparse.Namespace) -> int:
    from goldenlens.core.golden.drafts import DraftText
    from goldenlens.jobs.drafting.draft_review import DraftReviewError, accept_draft
    from goldenlens.queries.project import ProjectQueries

    draft = ProjectQueries(store).draft(args.accept)
    edit = None
    if draft is not None and any(v is not None for v in (args.question, args.answer, args.fact)):
        edit = DraftText(
            args.question if args.question is not None else draft.text.question,
            args.answer if args.answer is not None else draft.text.answer,
            args.fact if args.fact is not None else draft.text.fact,
        )
    variants = [] if args.no_variants else args.variant
    try:
        accepted = accept_draft(
            store,
            args.accept,
            reviewer=reviewer_of(args),
            edit=edit,
            variants=variants,
            item_id=args.item_id,
            accept_flagged=args.accept_flagged,
        )
    except DraftReviewError as error:
        raise InputError.fatal(args.project.name, str(error)) from None
    item = accepted.item
    print(f"{args.project.name}: draft {args.accept} is now golden item {item.id} (fact {item.fact!r})")
    for problem in accepted.problems:
        print(f"  accepted as flagged: {problem.message}")
    return 0


def _reject(store: ProjectHandle, args: argparse.Namespace) -> int:
    from goldenlens.jobs.drafting.draft_review import DraftReviewError, reject_draft

    try:
        reject_draft(store, args.reject, reviewer=reviewer_of(args), note=args.note)
    except DraftReviewError as error:
        raise InputError.fatal(args.project.name, str(error)) from None
    print(f"{args.project.name}: draft {args.reject} rejected")
    return 0


def _list(store: ProjectHandle, args: argparse.Namespace) -> int:
    from goldenlens.cli.commands.draft_from_sources import format_draft
    from goldenlens.queries.project import ProjectQueries

    queue = ProjectQueries(store).draft_queue(None if args.status is None else DraftStatus(args.status))
    if args.json:
        sys.stdout.write(json_text(queue.as_dict()))
        return 0
    lines = [f"{args.project.name}: {queue.progress()}"]
    for draft in queue.drafts:
        state = draft.status.value + (f" as {draft.golden_id}" if draft.golden_id else "")
        lines += ["", f"{format_draft(draft)}", f"  status:   {state}"]
    print("\n".join(lines))
    return 0

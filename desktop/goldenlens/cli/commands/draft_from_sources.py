"""``goldenlens draft``: let the judge draft golden items from source documents into a
project's review queue.

A thin front end over :func:`goldenlens.io.importing.source_documents.read_sources` and
:func:`goldenlens.jobs.drafting.draft_job.draft_chunks`. The drafts are printed (or written as JSON
with ``--json`` / ``-o FILE.json``); none enters the golden set: a reviewer accepts them in
the review queue (``goldenlens drafts PROJECT --accept ID``, :mod:`goldenlens.queries.drafts`). The
store, the readers and the judge are imported inside the command, so other commands start
without them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goldenlens.cli.judge_options import add_engine_arguments, engine_spec_from_args
from goldenlens.cli.output import (
    StderrProgress,
    check_json_output,
    counting_number,
    print_problems,
    print_result,
    project_file,
)
from goldenlens.core.golden.draft_values import DEFAULT_CHUNK_WORDS, DEFAULT_MAX_ANSWER_WORDS
from goldenlens.core.problems import InputError

if TYPE_CHECKING:
    from goldenlens.core.golden.drafts import Draft
    from goldenlens.jobs.drafting.draft_job import DraftOptions


#: Variants of a fact printed per draft (``--json`` has them all).
_SHOWN_VARIANTS = 4


_count = counting_number("a count")


def add_draft_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``draft`` sub-command (run by :func:`cmd_draft`)."""
    draft = sub.add_parser(
        "draft",
        help="let the judge draft question, answer and fact per chunk of source documents (PDF, TXT, "
        "Markdown, or a CSV of chunks) into the project's review queue",
    )
    draft.add_argument("sources", type=Path, nargs="+", help=".pdf .txt .md files, or .csv/.tsv chunk files")
    draft.add_argument(
        "--project", type=project_file, required=True, help="the .goldenlens project (made if missing)"
    )
    draft.add_argument("--limit", type=_count, metavar="N", help="draft at most N new chunks in this call")
    draft.add_argument(
        "--max-answer-words",
        type=_count,
        default=DEFAULT_MAX_ANSWER_WORDS,
        metavar="N",
        help="the answer guardrail: longer answers are flagged (default %(default)s, the advisor's)",
    )
    draft.add_argument(
        "--chunk-words",
        type=_count,
        default=DEFAULT_CHUNK_WORDS,
        metavar="N",
        help="words per chunk of a PDF or text file (CSV chunks are used as they are; default %(default)s)",
    )
    add_engine_arguments(draft.add_argument_group("judge (runs offline on this machine unless --judge-url)"))
    output = draft.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the new drafts as JSON")
    output.add_argument("-o", "--output", type=Path, metavar="FILE.json", help="write the new drafts as JSON")
    draft.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def _options(args: argparse.Namespace) -> DraftOptions:
    from goldenlens.jobs.drafting.draft_job import DraftOptions

    engine = engine_spec_from_args(args, "draft")
    try:
        return DraftOptions(engine=engine, max_answer_words=args.max_answer_words, limit=args.limit)
    except ValueError as error:
        raise InputError.fatal("draft", str(error)) from None


def cmd_draft(args: argparse.Namespace) -> int:
    """``goldenlens draft``: read the sources, draft the new chunks, print what was drafted."""
    check_json_output(args.output, "drafts file")
    options = _options(args)
    from goldenlens.io.importing.source_documents import read_sources
    from goldenlens.jobs import open_project
    from goldenlens.jobs.drafting.draft_job import draft_chunks
    from goldenlens.queries.drafts import draft_as_dict
    from goldenlens.queries.project import ProjectQueries

    documents = read_sources(args.sources, max_words=args.chunk_words)
    for document in documents:
        print_problems(document.problems)
    chunks = [chunk for document in documents for chunk in document.chunks]
    if not chunks:
        raise InputError.fatal(", ".join(a.name for a in args.sources), "no text to draft from")
    progress = StderrProgress(quiet=args.quiet)
    with open_project(args.project, create=True) as store:
        result = draft_chunks(store, chunks, options, progress=progress)
        progress.finish()
        queries = ProjectQueries(store)
        drafts = [d for d in (queries.draft(i) for i in result.draft_ids) if d is not None]
        counts = queries.draft_counts()
    summary = (
        f"{args.project.name}: drafted {len(drafts)} of {len(chunks)} chunks"
        + (f"; {result.already_drafted} drafted before" if result.already_drafted else "")
        + (f"; {result.left} left (run again to continue)" if result.left else "")
        + ". Review queue: "
        + ", ".join(f"{n} {status.value}" for status, n in counts.items())
    )
    data: dict[str, Any] = {
        "project": str(args.project),
        "run_id": result.run_id,
        "chunks": len(chunks),
        "already_drafted": result.already_drafted,
        "left": result.left,
        "drafts": [draft_as_dict(d) for d in drafts],
    }
    print_result(
        data,
        lambda: "\n\n".join(format_draft(d) for d in drafts) + ("\n" if drafts else ""),
        output=args.output,
        as_json=args.json,
        wrote=f"Wrote {len(drafts)} drafts",
    )
    print(summary, file=sys.stderr)
    return 0


def format_draft(draft: Draft) -> str:
    """One draft as a few lines: provenance, question, answer, fact, variants, problems."""
    lines = [
        f"#{draft.id} {draft.provenance()}",
        f"  question: {draft.text.question}",
        f"  answer:   {draft.text.answer}",
        f"  fact:     {draft.text.fact}",
    ]
    if draft.variants:
        shown = [str(v["text"]) for v in draft.variants[:_SHOWN_VARIANTS]]
        more = len(draft.variants) - len(shown)
        lines.append(
            "  variants: " + " | ".join(shown) + (f" | … {more} more (--json lists all)" if more else "")
        )
    lines += [f"  flagged:  {p.message}" for p in draft.problems]
    return "\n".join(lines)

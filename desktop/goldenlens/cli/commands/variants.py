"""``goldenlens variants``: fact-variant suggestions and, with a project, their flip preview.

A thin front end over :func:`goldenlens.core.variants.generator.suggest_variants` and
:func:`goldenlens.jobs.curation.variant_preview.preview_fact_variants`. Output is a table on stdout,
or JSON with ``--json`` (stdout) or ``-o FILE.json`` (written whole or not at all). Bad
input — an unknown question, ``--project`` without ``--question`` — is one line on stderr,
exit code 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goldenlens.cli.command_output import emit, table_lines
from goldenlens.cli.output import check_json_output
from goldenlens.core.problems import InputError
from goldenlens.core.variants.flip_preview_sizes import ELSEWHERE_EXAMPLES

if TYPE_CHECKING:  # the variant generators load when the command runs, not for every command line
    from goldenlens.core.variants.flip_preview import QuestionPreview
    from goldenlens.core.variants.generator import FactVariant, VariantSuggestions

_SHORT_CHANGES = {"factual_knowledge": "exact", "factual_knowledge_quasi_exact": "quasi"}


def add_curation_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``variants`` sub-command (run by :func:`cmd_variants`)."""
    variants = sub.add_parser(
        "variants",
        help="suggest other spellings of a fact (same value: scales, grouping, dates, percent, number words, "
        "abbreviations); with --project and --question, which responses each would flip",
    )
    variants.add_argument(
        "fact", nargs="?", help="the fact (may hold <OR>/<AND>); default with --question: the question's fact"
    )
    variants.add_argument("--project", type=Path, help="a .goldenlens project: preview the flips in it")
    variants.add_argument(
        "--question", metavar="ID", help="the golden question the variants would be added to"
    )
    variants.add_argument(
        "--examples",
        type=int,
        default=ELSEWHERE_EXAMPLES,
        metavar="N",
        help="responses of other questions shown per variant (all are counted; default %(default)s)",
    )
    output = variants.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON instead of the table")
    output.add_argument("-o", "--output", type=Path, metavar="FILE.json", help="write JSON to FILE.json")


def cmd_variants(args: argparse.Namespace) -> int:
    """``goldenlens variants``: print or write the suggestions (and preview)."""
    if (args.project is None) != (args.question is None):
        raise InputError.fatal("variants", "give --project and --question together (or neither)")
    if args.fact is None and args.question is None:
        raise InputError.fatal("variants", "give a FACT, or --project and --question")
    check_json_output(args.output, "variants file")
    data: dict[str, Any]
    if args.project is not None:
        from goldenlens.jobs import open_project
        from goldenlens.jobs.curation.variant_preview import UnknownQuestionError, preview_fact_variants

        with open_project(args.project) as project:
            try:
                preview = preview_fact_variants(
                    project, args.question, args.fact, examples=max(0, args.examples)
                )
            except UnknownQuestionError as error:
                raise InputError.fatal(args.project.name, str(error)) from None
        data = {"project": str(args.project), **preview.as_dict()}
        text = format_preview(preview)
    else:
        from goldenlens.core.variants.generator import suggest_variants

        suggestions = suggest_variants(args.fact)
        data = suggestions.as_dict()
        text = format_suggestions(suggestions)
    emit(args, data, text, f"{len(data.get('variants', data.get('previews', [])))} variants")
    return 0


def _changes(variant: FactVariant) -> str:
    return "+".join(_SHORT_CHANGES[c] for c in variant.changes)


def _risk(variant: FactVariant) -> str:
    return "; ".join(variant.risks) or "-"


def format_suggestions(suggestions: VariantSuggestions) -> str:
    """The suggestions as a fixed-width table: kind, variant, scores it can change, risk."""
    lines = [f"Variants of {suggestions.fact!r}: {len(suggestions.variants)}"]
    if suggestions.variants:
        rows = [
            [str(n), v.kind.value, v.text, _changes(v), _risk(v)]
            for n, v in enumerate(suggestions.variants, start=1)
        ]
        lines += table_lines(["#", "kind", "variant", "changes", "risk"], rows)
    lines += [f"note: {note}" for note in suggestions.notes]
    return "\n".join(lines)


def format_preview(preview: QuestionPreview) -> str:
    """Each suggestion with its flips (question, pipeline, before → after, snippet) and the
    responses of other questions that contain it."""
    from goldenlens.core.variants.flip_preview import RowKind

    source = "" if preview.suggestions.fact == preview.fact else f" from {preview.suggestions.fact!r}"
    lines = [f"Variants for {preview.question_id} (fact {preview.fact!r}){source}: {len(preview.previews)}"]
    rows = [
        [
            str(n),
            p.variant.kind.value,
            p.variant.text,
            _changes(p.variant),
            f"{p.flips_up} up, {p.flips_down} down",
            str(p.elsewhere_count),
            _risk(p.variant),
        ]
        for n, p in enumerate(preview.previews, start=1)
    ]
    if rows:
        lines += table_lines(["#", "kind", "variant", "changes", "flips", "elsewhere", "risk"], rows)
    for n, p in enumerate(preview.previews, start=1):
        if not p.rows:
            continue
        lines.append(f"\n#{n} {p.variant.text!r}: {p.note}")
        for row in p.rows:
            where = f"{row.question_id} {row.pipeline}"
            if row.kind is RowKind.FLIP:
                stale = f" (stored {row.stored}: the run is out of date)" if row.stored else ""
                lines.append(f"  flip       {where}: {row.change()}{stale}  {row.snippet}")
            else:
                lines.append(f"  elsewhere  {where}: {row.snippet}  ({row.risk})")
        shown = sum(1 for r in p.rows if r.kind is RowKind.ELSEWHERE)
        if p.elsewhere_count > shown:
            lines.append(f"  … and {p.elsewhere_count - shown} more responses of other questions contain it")
    lines += [f"note: {note}" for note in preview.suggestions.notes]
    return "\n".join(lines)

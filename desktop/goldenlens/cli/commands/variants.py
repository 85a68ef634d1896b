"""``goldenlens variants``: fact-variant suggestions and, with a project, their flip preview.

A thin front end over :func:`goldenlens.core.variants.generator.suggest_variants` and
:func:`goldenlens.jobs.curation.variant_preview.preview_fact_variants`. Output is a table on stdout,
or JSON with ``--json`` (stdout) or ``-o FILE.json`` (written whole or not at all). Bad
input — an unknown question, ``--project`` without ``--question`` — is one line on stderr,
exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.variants.flip_preview_sizes import ELSEWHERE_EXAMPLES
from goldenlens.io.atomic_files import write_atomically

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
        raise InputError(
            Problem("variants", "give --project and --question together (or neither)", Severity.FATAL)
        )
    if args.fact is None and args.question is None:
        raise InputError(Problem("variants", "give a FACT, or --project and --question", Severity.FATAL))
    if args.output is not None and args.output.suffix.lower() != ".json":
        raise InputError(Problem(args.output.name, "the variants file must be .json", Severity.FATAL))
    data: dict[str, Any]
    if args.project is not None:
        from goldenlens.jobs.curation.variant_preview import UnknownQuestionError, preview_fact_variants
        from goldenlens.store.project import ProjectStore

        with ProjectStore.open(args.project) as store:
            try:
                preview = preview_fact_variants(
                    store, args.question, args.fact, examples=max(0, args.examples)
                )
            except UnknownQuestionError as error:
                raise InputError(Problem(args.project.name, str(error), Severity.FATAL)) from None
        data = {"project": str(args.project), **preview.as_dict()}
        text = format_preview(preview)
    else:
        from goldenlens.core.variants.generator import suggest_variants

        suggestions = suggest_variants(args.fact)
        data = suggestions.as_dict()
        text = format_suggestions(suggestions)
    if args.output is not None:
        write_atomically(args.output, lambda path: _write_json(path, data))
        print(
            f"Wrote {len(data.get('variants', data.get('previews', [])))} variants to {args.output}",
            file=sys.stderr,
        )
    elif args.json:
        sys.stdout.write(_dumps(data))
    else:
        print(text)
    return 0


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(_dumps(data), encoding="utf-8")


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _changes(variant: FactVariant) -> str:
    return "+".join(_SHORT_CHANGES[c] for c in variant.changes)


def _risk(variant: FactVariant) -> str:
    return "; ".join(variant.risks) or "-"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("-" * len(lines[0]))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return lines


def format_suggestions(suggestions: VariantSuggestions) -> str:
    """The suggestions as a fixed-width table: kind, variant, scores it can change, risk."""
    lines = [f"Variants of {suggestions.fact!r}: {len(suggestions.variants)}"]
    if suggestions.variants:
        rows = [
            [str(n), v.kind.value, v.text, _changes(v), _risk(v)]
            for n, v in enumerate(suggestions.variants, start=1)
        ]
        lines += _table(["#", "kind", "variant", "changes", "risk"], rows)
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
        lines += _table(["#", "kind", "variant", "changes", "flips", "elsewhere", "risk"], rows)
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

"""``goldenlens advise PROJECT``: the curation advisor's diagnoses per golden row.

Human-readable text by default; ``--json`` prints the advice as JSON, ``-o`` writes it to a
``.json`` file or an ``.xlsx`` workbook (the report's Advice sheet alone). ``--threshold
NAME=VALUE`` changes one threshold for this advice (the run's scores are not touched).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.cli.lazy_help import LazyHelpFormatter
from goldenlens.cli.output import working
from goldenlens.cli.project_argument import add_project_argument
from goldenlens.core.problems import InputError
from goldenlens.core.view.wording import plural

if TYPE_CHECKING:  # the advisor's values load when advice is asked for, not for every command line
    from goldenlens.core.advice.values import ProjectAdvice

_WIDTH = 100

#: Stands for the threshold names in the ``--threshold`` help, filled in by
#: :class:`AdviseHelpFormatter` only when help is shown: listing them imports the advisor.
THRESHOLD_NAMES_PLACEHOLDER = "{threshold names}"


class AdviseHelpFormatter(LazyHelpFormatter):
    """Fills in the advisor's threshold names when ``--help`` is printed (and only then)."""

    placeholder = THRESHOLD_NAMES_PLACEHOLDER

    def fill(self) -> str:
        from goldenlens.core.advice.values import AdviceThresholds

        return ", ".join(AdviceThresholds().as_dict())


def add_advise_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``advise`` sub-command (run by :func:`cmd_advise`)."""
    advise = sub.add_parser(
        "advise",
        help="diagnose every golden row from the scores of all pipelines (curation advice)",
        formatter_class=AdviseHelpFormatter,
    )
    add_project_argument(advise, scored=True)
    advise.add_argument("-o", "--output", type=Path, help="write the advice to FILE.json or FILE.xlsx")
    advise.add_argument("--json", action="store_true", help="print the advice as JSON instead of text")
    advise.add_argument(
        "--threshold",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"change one threshold for this advice; repeatable; names: {THRESHOLD_NAMES_PLACEHOLDER}",
    )


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _changes(pairs: list[str]) -> dict[str, float]:
    from goldenlens.core.advice.values import AdviceThresholds

    changes: dict[str, float] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        number = _float(value) if sep else None
        if number is None:
            raise InputError.fatal("--threshold", f"expected NAME=NUMBER, got {pair!r}")
        changes[name.strip()] = number
    try:
        AdviceThresholds().with_values(changes)
    except ValueError as error:
        raise InputError.fatal("--threshold", str(error)) from None
    return changes


def _wrapped(text: str, indent: str) -> str:
    return "\n".join(
        textwrap.fill(line, _WIDTH, initial_indent=indent, subsequent_indent=indent + "  ")
        for line in text.split("\n")
    )


def format_advice(advice: ProjectAdvice, project: str) -> str:
    """The advice as text: per question with diagnoses, each with its explanation, evidence,
    suggested action and fix; then the counts."""
    from goldenlens.core.advice.values import ADVICE_LABELS, CODE_ORDER
    from goldenlens.io.reports.xlsx.advice_sheet import evidence_lines, fix_text  # openpyxl: on use only

    similarity = advice.similarity_source or "not measured"
    lines = [f"Advice for {project} ({len(advice.pipelines)} pipelines; semantic similarity: {similarity})"]
    diagnosed = [q for q in advice.questions if q.diagnoses]
    for question in diagnosed:
        lines += ["", f"{question.question_id}  {question.question}"]
        for d in question.diagnoses:
            who = f" — {d.pipeline}" if d.pipeline else ""
            held = advice.check_note(d.code.value)
            lines.append(f"  [{d.severity.value}] {d.label}{who}" + (f"  ({held})" if held else ""))
            if d.reviewer:
                lines.append(_wrapped(d.reviewer, "      "))
            lines.append(_wrapped(d.explanation, "      "))
            lines += [_wrapped(line, "      ") for line in evidence_lines(d)]
            lines.append(_wrapped(f"→ {d.action}", "      "))
            if d.fix is not None:
                lines.append(_wrapped(f"fix: {fix_text(d)}".replace("\n", " "), "      "))
    counts = advice.counts()
    total = sum(counts.values())
    lines.append("")
    if not total:
        lines.append(f"No diagnosis on any of the {len(advice.questions)} questions.")
    else:
        by_code = ", ".join(f"{ADVICE_LABELS[c]} {counts[c.value]}" for c in CODE_ORDER if c.value in counts)
        refuted = sum(1 for d in advice.diagnoses if d.refuted)
        lines.append(
            f"{plural(total, 'diagnosis', 'diagnoses')} on {len(diagnosed)} of "
            f"{len(advice.questions)} questions: {by_code}."
            + (f" The reviewer's verdict refutes {refuted} of them." if refuted else "")
        )
    checked = advice.check_lines()
    if checked:
        lines += ["", "Checked against the reviewer's labels:"]
        lines += [_wrapped(line, "  ") for line in checked]
    return "\n".join(lines)


def cmd_advise(args: argparse.Namespace) -> int:
    """``goldenlens advise``: print or write the project's curation advice."""
    changes = _changes(args.threshold)
    out: Path | None = args.output
    if out is not None and out.suffix.lower() not in (".json", ".xlsx"):
        raise InputError.fatal(out.name, "the advice must be written to .json or .xlsx")
    from goldenlens.io.reports.xlsx.advice_sheet import write_advice_json, write_advice_workbook
    from goldenlens.jobs import open_project
    from goldenlens.jobs.curation.advice_job import build_advice

    with open_project(args.project) as project, working("working out the advice"):
        advice = build_advice(project, changes)
    if out is not None:
        if out.suffix.lower() == ".json":
            write_advice_json(advice, out)
        else:
            write_advice_workbook(advice, out)
        print(f"Wrote {len(advice.diagnoses)} diagnoses to {out}", file=sys.stderr)
    if args.json:
        print(json.dumps(advice.as_dict(), indent=2, ensure_ascii=False))
    elif out is None:
        print(format_advice(advice, args.project.name))
    return 0

"""``goldenlens label`` and ``goldenlens plan-labels``: a reviewer's verdicts on responses, and
the sample GoldenLens chooses for them (issue 21).

``plan-labels`` draws the next round and writes it (CSV or XLSX with an empty ``verdict``
column to fill, or JSON); ``label`` records one verdict, or every verdict of a file (a filled
plan, the report workbook's Scores sheet, any sheet with question id, pipeline and verdict
columns) all or nothing. Bad input is one line naming the file, row and column, exit code 2.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.cli.lazy_help import LazyHelpFormatter
from goldenlens.cli.output import check_not_read, counting_number, json_text
from goldenlens.cli.project_argument import add_project_argument
from goldenlens.cli.reviewer_option import add_reviewer_option, reviewer_of
from goldenlens.core.problems import InputError
from goldenlens.core.view.wording import one_line, plural

if TYPE_CHECKING:
    from goldenlens.core.calibration.human_calibrated import HumanCalibrated
    from goldenlens.core.calibration.label_plan import LabelPlan
    from goldenlens.jobs.labelling.label_edits import LabelOutcome, LabelsImport


def _plan_seed(text: str) -> int:
    """``--seed`` of ``plan-labels``, refused as the plan would refuse it (a usage error, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number as the seed, got {text!r}") from None
    from goldenlens.core.calibration.sampling_plan import check_seed  # numpy: only for this command

    try:
        check_seed(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return value


#: Stands for the verdict spellings in the ``verdict`` help, filled in by
#: :class:`LabelHelpFormatter` only when help is shown (the table's module imports numpy).
SPELLINGS_PLACEHOLDER = "{verdict spellings}"


class LabelHelpFormatter(LazyHelpFormatter):
    """Fills in every verdict spelling the labels read when ``--help`` is printed."""

    placeholder = SPELLINGS_PLACEHOLDER

    def fill(self) -> str:
        from goldenlens.core.calibration.labels import verdict_spellings

        return verdict_spellings()


def add_label_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``label`` and ``plan-labels`` sub-commands."""
    label = sub.add_parser(
        "label",
        formatter_class=LabelHelpFormatter,
        help="record a reviewer's verdict on a response (correct, incorrect or unsure), or those of a file",
        description="Record what a reviewer judged. A verdict holds for every response to the same "
        "question with the same answer. With --from, every row of the file is written, or none.",
    )
    add_project_argument(label, scored=True)
    label.add_argument("question_id", nargs="?")
    label.add_argument("pipeline", nargs="?")
    label.add_argument(
        "verdict",
        nargs="?",
        help=f"the verdict, in any of these spellings: {SPELLINGS_PLACEHOLDER}",
    )
    label.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="FILE",
        help="CSV or workbook with question id, pipeline and verdict columns (a filled plan, the report's "
        "Scores sheet); empty verdicts are skipped",
    )
    label.add_argument(
        "--sheet", help="the sheet of --from (default: Scores where there is one, else the first)"
    )
    label.add_argument("--note", default="", help="why (shown with the label)")
    add_reviewer_option(label)
    action = label.add_mutually_exclusive_group()
    action.add_argument("--clear", action="store_true", help="withdraw the response's verdict instead")
    action.add_argument(
        "--detach", action="store_true", help="stop taking the verdict given to the same answer elsewhere"
    )
    action.add_argument("--attach", action="store_true", help="take the same answer's verdict again")
    action.add_argument(
        "--confirm-stale",
        action="store_true",
        help="give every stale label made before its golden item changed again as it was (a label "
        "given on an answer that changed since is never confirmed: label the new answer)",
    )

    plan = sub.add_parser(
        "plan-labels",
        help="choose the next responses for a reviewer to label (a stratified sample, kept in the project)",
        description="Draw the next round of labels: distinct answers with no verdict yet, chosen so the "
        "pipelines' intervals shrink fastest, reproducible by --seed. Label them, then plan the next round.",
    )
    add_project_argument(plan, scored=True)
    plan.add_argument(
        "--budget", required=True, type=counting_number("a number of labels"), help="labels to ask for"
    )
    plan.add_argument("--seed", type=_plan_seed, default=0, help="the sample's seed (default 0)")
    plan.add_argument(
        "--by",
        choices=("response", "question"),
        default="response",
        help="response: distinct answers anywhere; question: whole questions, every answer in each",
    )
    plan.add_argument(
        "--replace",
        action="store_true",
        help="draw the newest round anew while none of its answers is labelled (its earlier list is void)",
    )
    out = plan.add_mutually_exclusive_group()
    out.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the plan to FILE.csv or FILE.xlsx"
    )
    out.add_argument("--json", action="store_true", help="print the plan as JSON")
    plan.add_argument(
        "-q", "--quiet", action="store_true", help="print no summary of the round on stderr (errors only)"
    )


def cmd_label(args: argparse.Namespace) -> int:
    """``goldenlens label``: one verdict, a file of them, or an undo."""
    from goldenlens.jobs import open_project
    from goldenlens.jobs.labelling import label_edits

    given = [a for a in (args.question_id, args.pipeline, args.verdict) if a is not None]
    name = args.project.name
    if args.source is not None or args.confirm_stale:
        if given:
            raise InputError.fatal(
                name, "give either QUESTION_ID PIPELINE VERDICT or --from FILE / --confirm-stale, not both"
            )
    elif args.clear or args.detach or args.attach:
        if len(given) != 2:
            raise InputError.fatal(
                name, "--clear, --detach and --attach take QUESTION_ID PIPELINE (no verdict)"
            )
    elif len(given) != 3:
        raise InputError.fatal(name, "give QUESTION_ID PIPELINE VERDICT, or --from FILE")
    with open_project(args.project) as project:
        try:
            if args.source is not None:
                done = label_edits.labels_from_file(
                    project, args.source, sheet=args.sheet, reviewer=reviewer_of(args)
                )
                _print_file_labels(name, done)
            elif args.confirm_stale:
                confirmed = label_edits.confirm_stale(project, reviewer=reviewer_of(args))
                print(f"{name}: {plural(confirmed, 'stale label')} confirmed")
            elif args.clear:
                label_edits.clear_label(project, args.question_id, args.pipeline, reviewer=reviewer_of(args))
                print(f"{args.question_id} / {args.pipeline}: verdict withdrawn")
            elif args.detach or args.attach:
                label_edits.detach_response(project, args.question_id, args.pipeline, attach=args.attach)
                what = "takes the same answer's verdict again" if args.attach else "is now judged on its own"
                print(f"{args.question_id} / {args.pipeline} {what}")
            else:
                outcome = label_edits.label_response(
                    project,
                    args.question_id,
                    args.pipeline,
                    args.verdict,
                    note=args.note,
                    reviewer=reviewer_of(args),
                    source="command line",
                )
                _print_outcome(outcome)
        except label_edits.LabelError as error:
            raise InputError.fatal(name, str(error)) from None
    return 0


def _print_file_labels(name: str, done: LabelsImport) -> None:
    """What ``label --from`` wrote, and what it left to settle."""
    notes = [f"{plural(done.skipped, 'row')} without a verdict skipped"] if done.skipped else []
    notes += [f"{done.unchanged} already in force"] if done.unchanged else []
    notes += [_replaced_note(done.replaced)] if done.replaced else []
    notes += [f"{done.repeated} repeat an earlier row"] if done.repeated else []
    shown = f" ({'; '.join(notes)})" if notes else ""
    print(f"{name}: {plural(done.written, 'label')} from {done.file}{shown}")
    if done.by_same_answer:
        print(
            f"{done.in_force} responses now have a verdict: {done.by_same_answer} of them "
            "hold it because another pipeline gave the same answer to the question"
        )
    if done.outside_round:
        print(_outside_round_line(done.outside_round, done.rounds))
    if done.disagreeing:
        question, pipeline, verdict, other, theirs = done.disagreeing[0]
        count = _answers_of(done.disagreeing)
        print(
            f"{plural(count, 'answer')} given by several pipelines now {'has' if count == 1 else 'have'} "
            f"two verdicts, each response keeping its own (e.g. {question}: {pipeline} {verdict}, {other} "
            f"{theirs}): {_SETTLE.format(it='one of them', one='one')}"
        )


#: Replaced verdicts a summary names; it counts the rest.
_REPLACED_SHOWN = 3


def _replaced_note(replaced: Sequence[tuple[str, str, str, str]]) -> str:
    """``2 replace an earlier verdict: q03/Pipeline2 correct → incorrect, …``: the first few named."""
    shown = ", ".join(f"{q}/{p} {before} → {now}" for q, p, before, now in replaced[:_REPLACED_SHOWN])
    more = len(replaced) - _REPLACED_SHOWN
    return f"{len(replaced)} replace an earlier verdict: {shown}" + (f" and {more} more" if more > 0 else "")


def _outside_round_line(outside: Sequence[tuple[int, int]], rounds: int) -> str:
    """What the rows whose round does not sample their response count as, and the likely cause:
    a round the project does not have, or one drawn anew after the file was written."""
    row, number = outside[0]
    count = len(outside)
    one = count == 1
    where = f"row {row}" if one else f"the first: row {row}"
    if not 1 <= number <= rounds:
        cause = f"the project has {'no round' if rounds == 0 else plural(rounds, 'round')}"
        what = f"names round {number}" if one else f"name rounds it does not sample (e.g. round {number})"
    else:
        cause = "was the round drawn anew after the file was written?"
        what = (
            f"{'names' if one else 'name'} round {number} but {'is' if one else 'are'} not in its sample now"
        )
    counts = "its verdict counts as a label" if one else "their verdicts count as labels"
    return (
        f"{plural(count, 'row')} ({where}) {what} ({cause}): {counts} outside the plans until a round "
        "planned after them"
    )


#: How to settle two verdicts on one answer (each response keeps its own until then).
_SETTLE = "label {it} again so the verdicts agree, or --detach {one} if the answers differ"


def _answers_of(disagreeing: Sequence[tuple[str, str, str, str, str]]) -> int:
    """How many answers the disagreeing pairs are about: the pipelines of one question linked by
    a pair gave one answer (a pair is two responses with the same answer)."""
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def root(node: tuple[str, str]) -> tuple[str, str]:
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for question, pipeline, _verdict, other, _theirs in disagreeing:
        parent[root((question, pipeline))] = root((question, other))
    return len({root(node) for node in list(parent)})


def _print_outcome(outcome: LabelOutcome) -> None:
    """The verdict given, the pipelines whose same answer took it, and those that keep another."""
    also = f" (and {', '.join(outcome.same_answer)}: the same answer)" if outcome.same_answer else ""
    verdict = outcome.verdict.value if outcome.verdict else ""
    print(f"{outcome.question_id} / {outcome.pipeline}: {verdict}{also}")
    for other, theirs in outcome.disagreeing:
        print(
            f"{other} gave the same answer and keeps its own verdict, {theirs}: "
            + _SETTLE.format(it="it", one="it")
        )


def cmd_plan_labels(args: argparse.Namespace) -> int:
    """``goldenlens plan-labels``: draw, keep and write the next round."""
    from goldenlens.io.reports.label_plan import check_plan_path, plan_to_dict, write_plan
    from goldenlens.jobs import open_project
    from goldenlens.jobs.labelling.calibration import calibrate
    from goldenlens.jobs.labelling.plan import plan_labels

    if args.output is not None and not args.json:  # before the round is drawn and kept
        check_plan_path(args.output)
        check_not_read(args.output, (("project", args.project),))
    with open_project(args.project) as project:
        plan = plan_labels(project, budget=args.budget, seed=args.seed, mode=args.by, replace=args.replace)
        calibrated = None if args.quiet else calibrate(project, with_diagnoses=False)
    if args.json:
        print(json_text(plan_to_dict(plan)))
    elif args.output is not None:
        write_plan(plan, args.output)
    else:
        _print_plan(plan)
    if calibrated is not None:  # not --quiet
        print(_plan_summary(plan, calibrated, args.project, args.output), file=sys.stderr)
    return 0


def _print_plan(plan: LabelPlan) -> None:
    for row in plan.rows:
        also = f" (also {', '.join(row.same_answer)})" if row.same_answer else ""
        print(f"{row.order:>4}  {row.question_id}  {row.pipeline}{also}: {one_line(row.response, 70)}")


def _plan_summary(plan: LabelPlan, calibrated: HumanCalibrated, project: Path, output: Path | None) -> str:
    where = f" written to {output}" if output is not None else ""
    lines = [
        f"Round {plan.round_number}: {len(plan.rows)} answers to label{where} "
        f"({plan.unlabelled_answers} distinct answers of {plan.unlabelled} responses have no verdict yet).",
    ]
    if len(plan.rows) > plan.budget and not plan.listed_again:
        lines.append(
            f"More than the budget of {plan.budget}: a round takes at least two answers from each part "
            "it samples, so that its labels measure their own spread."
        )
    if plan.listed_again:
        lines.append(
            f"Round {plan.round_number} was planned earlier and has no label yet: listed again, nothing new "
            "drawn (--replace draws it anew)."
        )
    filled = shlex.quote(str(output)) if output is not None else "FILE"
    lines.append(
        "Label them (fill the verdict column: correct / incorrect / unsure), then: "
        f"goldenlens label {shlex.quote(str(project))} --from {filled}"
    )
    lines.append(calibrated.headline())
    return "\n".join(lines)

"""A round of labels to collect (:class:`~goldenlens.core.calibration.label_plan.LabelPlan`),
written for a reviewer: CSV, or a workbook whose verdict column is a drop-down (correct /
incorrect / unsure); either comes back through ``goldenlens label PROJECT --from FILE``. Also
the plan as JSON.

The first columns are what ``label --from`` reads (``question_id``, ``pipeline``, ``verdict``,
``note``), kept exactly as stored; then what the reviewer reads (the response, the question,
the golden answer and fact, the pipelines the same answer covers) and how the row was drawn.
In the CSV a text cell that a spreadsheet would take for a formula (``=``, ``+``, ``-``, ``@``,
tab, carriage return) gets a leading apostrophe (:mod:`~goldenlens.io.reports.csv_cells`); the
key columns are written exactly as they are, because ``label --from`` matches them.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, Final

from openpyxl import Workbook
from openpyxl.worksheet.datavalidation import DataValidation

from goldenlens.core.calibration.label_plan import LabelPlan, PlanRow
from goldenlens.io.atomic_files import ExportError, write_atomically
from goldenlens.io.reports.csv_cells import neutralised
from goldenlens.io.reports.xlsx.cells import RowRef, save_atomically, text_cell

HEADER: Final = (
    "question_id",
    "pipeline",
    "verdict",
    "note",
    "response",
    "question",
    "golden_answer",
    "fact",
    "same_answer_as",
    "round",
    "order",
    "stratum",
    "inclusion_probability",
)
#: The columns a reviewer's spreadsheet must keep exactly (``label --from`` matches them).
_KEYS: Final = frozenset({"question_id", "pipeline"})
VERDICTS: Final = ("correct", "incorrect", "unsure")


def _values(plan: LabelPlan, row: PlanRow) -> tuple[str, ...]:
    return (
        row.question_id,
        row.pipeline,
        "",
        "",
        row.response,
        row.question,
        row.golden_answer,
        row.fact,
        "; ".join(row.same_answer),
        str(plan.round_number),
        str(row.order),
        str(row.stratum),
        f"{row.inclusion_probability:.6g}",
    )


def plan_to_dict(plan: LabelPlan) -> dict[str, Any]:
    """The plan as JSON-ready data."""
    return {
        "round": plan.round_number,
        "mode": plan.mode,
        "seed": plan.seed,
        "budget": plan.budget,
        "unlabelled_responses": plan.unlabelled,
        "unlabelled_answers": plan.unlabelled_answers,
        "rows": [
            {
                "question_id": r.question_id,
                "pipeline": r.pipeline,
                "same_answer_as": list(r.same_answer),
                "order": r.order,
                "stratum": r.stratum,
                "inclusion_probability": r.inclusion_probability,
                "question": r.question,
                "golden_answer": r.golden_answer,
                "fact": r.fact,
                "response": r.response,
            }
            for r in plan.rows
        ],
    }


def check_plan_path(path: Path) -> None:
    """Refuse a plan file name of no plan format (:class:`ExportError`): checked before the round
    is drawn and kept, so a typo in ``-o`` changes nothing in the project."""
    if path.suffix.lower() not in (".csv", ".xlsx"):
        raise ExportError(f"Cannot write {path}: a plan is written as .csv or .xlsx")


def write_plan(plan: LabelPlan, path: Path) -> None:
    """Write ``plan`` to ``path`` (``.csv`` or ``.xlsx``), whole or not at all."""
    check_plan_path(path)
    if path.suffix.lower() == ".csv":
        write_atomically(path, lambda temporary: _write_csv(plan, temporary))
    else:
        save_atomically(_workbook(plan), path)


def _write_csv(plan: LabelPlan, path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for row in plan.rows:
            values = _values(plan, row)
            writer.writerow(
                [v if name in _KEYS else neutralised(v) for name, v in zip(HEADER, values, strict=True)]
            )


def _workbook(plan: LabelPlan) -> Workbook:
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Plan")
    sheet.freeze_panes = "C2"
    for letter, width in zip("ABCDEFGHIJKLM", (12, 14, 11, 20, 60, 40, 30, 24, 16, 7, 7, 8, 10), strict=True):
        sheet.column_dimensions[letter].width = width
    choices = DataValidation(
        type="list",
        formula1='"' + ",".join(VERDICTS) + '"',
        allow_blank=True,
        showErrorMessage=True,
        errorTitle="Verdict",
        error="Choose correct, incorrect or unsure (or leave it empty).",
    )
    sheet.data_validations.append(choices)
    if plan.rows:
        choices.add(f"C2:C{len(plan.rows) + 1}")
    sheet.append(list(HEADER))
    for n, row in enumerate(plan.rows, start=2):
        where = RowRef("Plan", n, HEADER, row.question_id, row.pipeline)
        values = _values(plan, row)
        sheet.append([text_cell(sheet, value, where, col) for col, value in enumerate(values, start=1)])
    return book

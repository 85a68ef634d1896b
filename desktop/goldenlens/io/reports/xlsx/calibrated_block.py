"""The top of the Decision sheet when a reviewer labelled a sample: each pipeline's share of
responses a reviewer would judge correct with its 95% interval and Factual Knowledge beside it,
the verdicts on that share, and how far the metrics agree with the labels. The FMEval table
follows it. Without labels, one line says the metric has not been checked against a reviewer
and how many labels would do.
"""

from __future__ import annotations

from typing import Final

from openpyxl.styles import Alignment, Font
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.calibration.human_calibrated import HumanCalibrated, pair_verdict
from goldenlens.core.scored_rows import Report
from goldenlens.io.reports.calibrated_text import (
    TITLE,
    agreement_sentence,
    diagnosis_sentences,
    ordered_pairs,
)
from goldenlens.io.reports.decision_tables import reviewer_rows
from goldenlens.io.reports.xlsx.cells import RowRef, number_cell, text_cell
from goldenlens.io.reports.xlsx.row_heights import append_across, append_fitted
from goldenlens.io.reports.xlsx.style import (
    BOLD,
    BOLD_WRAP,
    HEADER,
    NOTE,
    SCORE,
    WRAP,
    WRAPPED_NOTE,
    CellStyle,
)

#: Verdicts on the reviewer's view listed on the page (all of them are on the Comparisons sheet).
MAX_VERDICTS: Final = 6
_HEADERS: Final = ("Pipeline", "Judged correct", "95% CI", "Labelled", "Factual Knowledge")
_CI: Final = CellStyle(font=Font(size=9, color="FF404040"), alignment=Alignment(horizontal="right"))


def block_rows(found: HumanCalibrated | None) -> int:
    """How many sheet rows :func:`write_calibrated_block` writes (0: nothing to show)."""
    if found is None or not found.checked:
        return 0
    verdicts = min(MAX_VERDICTS, len(found.pairs)) + (len(found.pairs) > MAX_VERDICTS)
    notes = len(diagnosis_sentences(dict(found.diagnoses))) + len(found.notes) + 1  # + agreement
    return 2 + len(found.estimates) + verdicts + notes + 1  # title, header, ..., blank


def write_calibrated_block(
    ws: WriteOnlyWorksheet, report: Report, found: HumanCalibrated, *, first_row: int, width: int
) -> None:
    """Write the block from ``first_row`` on (``width``: the printed columns, which the title,
    verdicts and notes span, wrapped)."""
    row = first_row
    append_across(ws, RowRef("Decision", row), f"{TITLE}: {found.headline()}", BOLD_WRAP, last_col=width)
    row += 1
    where = RowRef("Decision", row, _HEADERS)
    append_fitted(ws, row, [text_cell(ws, h, where, c, HEADER) for c, h in enumerate(_HEADERS, start=1)])
    row += 1
    for found_row in reviewer_rows(report, found):
        where = RowRef("Decision", row, _HEADERS, pipeline=found_row.pipeline)
        ws.append(
            [
                text_cell(ws, found_row.pipeline, where, 1, BOLD),
                number_cell(ws, found_row.share, where, 2, SCORE),
                text_cell(ws, found_row.interval, where, 3, _CI),
                text_cell(ws, found_row.labelled, where, 4, _CI),
                number_cell(ws, found_row.factual_knowledge, where, 5, SCORE),
            ]
        )
        row += 1
    ordered = ordered_pairs(found.pairs)
    lines = [pair_verdict(p, found.level) for p in ordered[:MAX_VERDICTS]]
    rest = ordered[MAX_VERDICTS:]
    more = (
        [
            f"… and {len(rest)} more pair(s) on the Comparisons sheet ("
            f"{sum(1 for p in rest if p.better is None)} of them not confirmed)."
        ]
        if rest
        else []
    )
    agreement = agreement_sentence(found)
    notes = [f"{agreement}." if agreement else "", *diagnosis_sentences(dict(found.diagnoses)), *found.notes]
    for text, style in [*((v, WRAP) for v in lines), *((n, WRAPPED_NOTE) for n in [*more, *notes])]:
        append_across(ws, RowRef("Decision", row), text, style, last_col=width)
        row += 1
    ws.append([text_cell(ws, "FMEval's metrics, as scored:", RowRef("Decision", row), 1, NOTE)])

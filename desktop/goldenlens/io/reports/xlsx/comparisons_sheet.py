"""The workbook's "Comparisons" sheet: every paired comparison of the decision, one per row
(metric, the two pipelines, the mean difference and its interval, McNemar's p, the discordant
questions, the verdict and its caveat). The Decision sheet lists the first few verdicts.

When a reviewer labelled a sample, the pairs on the share of responses a reviewer would judge
correct come first: McNemar's columns stay empty, and each verdict gives its p, Holm-adjusted
over those pairs (from the calibrated estimator)."""

from __future__ import annotations

from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.calibration.estimator import PairEstimate
from goldenlens.core.calibration.human_calibrated import HumanCalibrated, pair_verdict
from goldenlens.core.stats.decision import Decision
from goldenlens.core.view.metric_names import metric_label
from goldenlens.io.reports.calibrated_text import ordered_pairs
from goldenlens.io.reports.xlsx.cells import RowRef, number_cell, text_cell
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import SCORE, TOP, WRAP, CellStyle
from goldenlens.io.reports.xlsx.table_layout import append_header, lay_out_table

COMPARISONS_SHEET = "Comparisons"
COMPARISON_COLUMNS: tuple[str, ...] = (
    "Metric",
    "Pipeline A",
    "Pipeline B",
    "Questions",
    "Difference (A - B)",
    "95% CI low",
    "95% CI high",
    "McNemar p",
    "A only",
    "B only",
    "Better",
    "Verdict",
    "Caveat",
)
#: Numbers at the top of their (tall, wrapped) rows, beside the first line of the verdict.
_DIFFERENCE = CellStyle(number_format=SCORE.number_format, alignment=TOP.alignment)
_P_VALUE = CellStyle(number_format="0.000", alignment=TOP.alignment)


#: The metric column of the reviewer's-view pairs.
REVIEWER_METRIC = "Judged correct (reviewer's view)"


def write_comparisons_sheet(
    ws: WriteOnlyWorksheet, decision: Decision | None, calibrated: HumanCalibrated | None = None
) -> None:
    """One row per comparison, filterable, the header repeated on printed pages."""
    widths = {1: 22, 2: 14, 3: 14, 4: 10, 5: 12, 6: 10, 7: 10, 8: 10, 9: 7, 10: 7, 11: 14, 12: 70, 13: 40}
    found = calibrated if calibrated is not None and calibrated.checked else None
    reviewer = ordered_pairs(found.pairs) if found is not None else []
    comparisons = decision.comparisons if decision is not None else ()
    rows = len(reviewer) + len(comparisons)
    lay_out_table(ws, COMPARISON_COLUMNS, rows=rows, widths=widths, freeze="D2", header_height=32)
    append_header(ws, COMPARISONS_SHEET, COMPARISON_COLUMNS)
    if found is not None:
        for excel_row, pair in enumerate(reviewer, start=2):
            _reviewer_row(ws, excel_row, pair, found)
    for excel_row, c in enumerate(comparisons, start=2 + len(reviewer)):
        where = RowRef(COMPARISONS_SHEET, excel_row, COMPARISON_COLUMNS)
        append_fitted(
            ws,
            excel_row,
            [
                text_cell(ws, metric_label(c.metric), where, 1, WRAP),
                text_cell(ws, c.a, where, 2, WRAP),
                text_cell(ws, c.b, where, 3, WRAP),
                number_cell(ws, c.n, where, 4, TOP),
                number_cell(ws, c.difference, where, 5, _DIFFERENCE),
                number_cell(ws, c.low, where, 6, _DIFFERENCE),
                number_cell(ws, c.high, where, 7, _DIFFERENCE),
                number_cell(ws, c.p_value, where, 8, _P_VALUE),
                number_cell(ws, c.a_only, where, 9, TOP),
                number_cell(ws, c.b_only, where, 10, TOP),
                text_cell(ws, c.better or "cannot tell", where, 11, WRAP),
                text_cell(ws, c.verdict, where, 12, WRAP),
                text_cell(ws, c.caveat, where, 13, WRAP),
            ],
        )


def _reviewer_row(ws: WriteOnlyWorksheet, excel_row: int, pair: PairEstimate, found: HumanCalibrated) -> None:
    where = RowRef(COMPARISONS_SHEET, excel_row, COMPARISON_COLUMNS)
    interval = pair.interval
    caveat = (
        f"Estimated from {found.labelled:,} labelled responses; a verdict's p is Holm-adjusted over the "
        f"{len(found.pairs)} pair(s) compared on this view."
    )
    append_fitted(
        ws,
        excel_row,
        [
            text_cell(ws, REVIEWER_METRIC, where, 1, WRAP),
            text_cell(ws, pair.a, where, 2, WRAP),
            text_cell(ws, pair.b, where, 3, WRAP),
            text_cell(ws, "", where, 4, TOP),
            number_cell(ws, interval.estimate, where, 5, _DIFFERENCE),
            number_cell(ws, interval.low, where, 6, _DIFFERENCE),
            number_cell(ws, interval.high, where, 7, _DIFFERENCE),
            text_cell(ws, "", where, 8, TOP),  # not McNemar's: the Holm-adjusted p is in the verdict
            text_cell(ws, "", where, 9, TOP),
            text_cell(ws, "", where, 10, TOP),
            text_cell(ws, pair.better or "cannot tell", where, 11, WRAP),
            text_cell(ws, pair_verdict(pair, found.level), where, 12, WRAP),
            text_cell(ws, caveat, where, 13, WRAP),
        ],
    )

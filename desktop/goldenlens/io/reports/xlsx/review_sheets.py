"""Reviewer decisions in the report workbook: overridden cells marked, the Overrides and
Review sheets, and the overridden-values table of the Summary sheet.

An overridden score shows the effective value (what the means count) in bold italic with a
trailing ``*`` — as the app's grid shows ``1*`` — and a cell comment saying who overrode it,
when, why and what the original score was. The number stays a number (the ``*`` is only its
number format), so sorting, filtering and formulas keep working. The Overrides sheet lists
every override in force, one per row; the Review sheet every question's review state.
"""

from __future__ import annotations

from collections.abc import Sequence

from openpyxl.cell.cell import Cell
from openpyxl.comments import Comment
from openpyxl.styles import Font
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.reviewer_decisions import AppliedOverride
from goldenlens.core.scored_rows import Report, ScoredRow
from goldenlens.core.view.metric_names import metric_short
from goldenlens.io.reports.row_fields import ordered_overrides, override_verdict, utc_time
from goldenlens.io.reports.xlsx.cells import RowRef, check_text, number_cell, text_cell
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import (
    BOLD,
    SCORE,
    TOP,
    WRAP,
    CellStyle,
    parts,
)
from goldenlens.io.reports.xlsx.table_layout import ROW_KEY_COLUMNS, append_header, lay_out_table

OVERRIDES_SHEET = "Overrides"
REVIEW_SHEET = "Review"
OVERRIDE_COLUMNS: tuple[str, ...] = (
    *ROW_KEY_COLUMNS,
    "metric",
    "original",
    "overridden value",
    "verdict",
    "reviewer",
    "overridden at (UTC)",
    "note",
)
REVIEW_COLUMNS: tuple[str, ...] = (
    "question_id",
    "question",
    "review status",
    "review note",
    "reviewer",
    "reviewed at (UTC)",
)
#: Scores a reviewer overrode: the value with a ``*``, as the app shows it.
OVERRIDDEN_SCORE = CellStyle(font=Font(bold=True, italic=True), number_format='0.000"*"')
#: An overridden 0/1 cell of the Factual Knowledge Report.
OVERRIDDEN_FLAG = CellStyle(font=Font(bold=True, italic=True), number_format='0"*"')
#: What the ``*`` means, for the notes above or below the marked tables.
MARK_NOTE = "* = overridden by a reviewer (hover the cell for who, when, why and the original score)"
_COMMENT_WIDTH = 320
_COMMENT_HEIGHT = 110


def mark_override(
    cell: Cell, override: AppliedOverride, where: RowRef, col: int, *, style: CellStyle
) -> Cell:
    """Give an overridden score cell its look and a comment with the override's details."""
    text = override.describe()
    check_text(text, where, col)
    comment = Comment(text, override.reviewer or "GoldenLens")
    comment.width = _COMMENT_WIDTH
    comment.height = _COMMENT_HEIGHT
    cell.comment = comment
    style.apply(cell)
    return cell


#: What a not-scored value reads in a sheet.
NOT_SCORED_TEXT = "not scored"


def score_cell(
    ws: WriteOnlyWorksheet,
    value: float | None,
    where: RowRef,
    col: int,
    *,
    override: AppliedOverride | None,
    style: CellStyle = SCORE,
    marked: CellStyle = OVERRIDDEN_SCORE,
    not_scored: bool = False,
) -> Cell:
    """A score cell: ``value`` in ``style``, or — with the ``override`` in force on it —
    marked as overridden (``value`` is then already the effective value). With ``not_scored``
    a ``None`` value reads "not scored" (a blank would look like a missing response)."""
    if value is None and not_scored and override is None:
        return text_cell(ws, NOT_SCORED_TEXT, where, col, style)
    cell = number_cell(ws, value, where, col, style)
    if override is not None:
        mark_override(cell, override, where, col, style=marked)
    return cell


def override_summary(row: ScoredRow) -> str:
    """The Scores sheet's "overrides" cell: ``FK 0 → 1 by Ann: note`` per overridden metric,
    joined by ``; `` (short enough to read in the column; the time is in the cell comment and
    on the Overrides sheet)."""
    parts = []
    for metric, o in row.overrides.items():
        was = "not scored" if o.original is None else f"{o.original:.3g}"
        parts.append(f"{metric_short(metric)} {was} → {o.value:.3g} by {o.reviewer}: {o.note}")
    return "; ".join(parts)


def write_overrides_sheet(ws: WriteOnlyWorksheet, rows: Sequence[ScoredRow]) -> None:
    """One row per override in force: keys, metric, original and effective value, verdict,
    reviewer, time and note."""
    overrides = ordered_overrides(rows)
    widths = {1: 12, 2: 40, 3: 14, 4: 22, 5: 11, 6: 11, 7: 9, 8: 16, 9: 20, 10: 60}
    # A header 30 high: "overridden value" wraps to two lines.
    lay_out_table(ws, OVERRIDE_COLUMNS, rows=len(overrides), widths=widths, header_height=30)
    append_header(ws, OVERRIDES_SHEET, OVERRIDE_COLUMNS)
    for excel_row, (row, o) in enumerate(overrides, start=2):
        where = RowRef(OVERRIDES_SHEET, excel_row, OVERRIDE_COLUMNS, row.item.id, row.response.pipeline)
        append_fitted(
            ws,
            excel_row,
            [
                text_cell(ws, row.item.id, where, 1, TOP),
                text_cell(ws, row.item.question, where, 2, WRAP),
                text_cell(ws, row.response.pipeline, where, 3, TOP),
                text_cell(ws, o.metric, where, 4, WRAP),
                # Blank original: the score was not scored (or the judge never reached the row).
                number_cell(ws, o.original, where, 5, SCORE),
                number_cell(ws, o.value, where, 6, SCORE),
                text_cell(ws, override_verdict(o.passed), where, 7, TOP),
                text_cell(ws, o.reviewer, where, 8, TOP),
                text_cell(ws, utc_time(o.created_at), where, 9, TOP),
                text_cell(ws, o.note, where, 10, WRAP),
            ],
        )


def write_review_sheet(ws: WriteOnlyWorksheet, report: Report) -> None:
    """Every golden question of the report with its review status, note, reviewer and time."""
    widths = {1: 12, 2: 50, 3: 16, 4: 60, 5: 16, 6: 20}
    lay_out_table(ws, REVIEW_COLUMNS, rows=len(report.golden), widths=widths)
    append_header(ws, REVIEW_SHEET, REVIEW_COLUMNS)
    for excel_row, item in enumerate(report.golden, start=2):
        review = report.review(item.id)
        where = RowRef(REVIEW_SHEET, excel_row, REVIEW_COLUMNS, item.id)
        append_fitted(
            ws,
            excel_row,
            [
                text_cell(ws, item.id, where, 1, TOP),
                text_cell(ws, item.question, where, 2, WRAP),
                text_cell(ws, review.status, where, 3, TOP),
                text_cell(ws, review.note, where, 4, WRAP),
                text_cell(ws, review.reviewer, where, 5, TOP),
                text_cell(ws, utc_time(review.updated_at), where, 6, TOP),
            ],
        )


def write_override_counts(ws: WriteOnlyWorksheet, *, sheet: str, report: Report, first_row: int) -> int:
    """The Summary sheet's table of overridden values per pipeline and metric (heading,
    header, one row per pipeline) from ``first_row``; returns the number of rows written."""
    counts = report.override_counts()
    metrics = [m for m in LEXICAL_SCORE_NAMES if any(m in c for c in counts.values())]
    metrics += list(dict.fromkeys(m for c in counts.values() for m in c if m not in LEXICAL_SCORE_NAMES))
    headers = ("pipeline", *metrics, "total")
    title = (
        "Values overridden by reviewers (the means above count the overridden values; "
        "see the Overrides sheet)"
    )
    ws.append([text_cell(ws, title, RowRef(sheet, first_row), 1, BOLD)])
    header_row = first_row + 1
    parts(ws).row_dimensions[header_row].height = 36
    append_header(ws, sheet, headers, header_row)
    for excel_row, pipeline in enumerate(report.pipelines, start=header_row + 1):
        where = RowRef(sheet, excel_row, headers, pipeline=pipeline)
        by_metric = counts.get(pipeline, {})
        cells = [text_cell(ws, pipeline, where, 1, BOLD)]
        cells += [number_cell(ws, by_metric.get(m, 0), where, col) for col, m in enumerate(metrics, start=2)]
        cells.append(number_cell(ws, sum(by_metric.values()), where, len(headers), BOLD))
        ws.append(cells)
    return 2 + len(report.pipelines)

"""The local judge's part of the report workbook: the Judge sheet, the judge means on the
Summary sheet and the judge lines of its About block.

Written only when the project has a judge run: a report without one is unchanged. The judge
scores come as :data:`~goldenlens.io.reports.row_fields.JudgeScores`, the same mapping the JSON
and CSV reports read, and rows follow the report's own rows (so a filtered export holds only
the judge scores of the questions it kept).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.scored_rows import ScoredRow
from goldenlens.core.scores import ScoreRecord
from goldenlens.io.reports.judge_summary import JUDGE_CAVEAT, judge_means, judge_models, judge_signature_lines
from goldenlens.io.reports.row_fields import JudgeScores, judge_metric_names
from goldenlens.io.reports.xlsx.cells import RowRef, number_cell, text_cell
from goldenlens.io.reports.xlsx.review_sheets import score_cell
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import (
    BOLD,
    SCORE,
    TOP,
    WRAP,
    CellStyle,
    area,
    parts,
    score_scale,
)
from goldenlens.io.reports.xlsx.table_layout import ROW_KEY_COLUMNS, append_header, lay_out_table

JUDGE_SHEET = "Judge"
NOT_SCORED_COLUMN = "not scored"
#: Written in the "not scored" column for a metric the judge run holds no record of (a run
#: cancelled before it reached the row, or a row imported after it).
NOT_JUDGED = "not judged in this run"
_FIRST_METRIC_COL = len(ROW_KEY_COLUMNS) + 1
#: (label, value, label style) rows of the Summary sheet's About block.
AboutEntry = tuple[str, str | float | None, CellStyle]


def judge_columns(judge: JudgeScores) -> tuple[str, ...]:
    """The Judge sheet's header: keys, one column per judge metric, then "not scored"."""
    return (*ROW_KEY_COLUMNS, *judge_metric_names(judge), NOT_SCORED_COLUMN)


def not_scored_text(by_metric: Mapping[str, ScoreRecord] | None, metrics: Sequence[str]) -> str:
    """``metric: reason`` for each metric of the row without a value, one per line."""
    found = by_metric or {}
    lines = []
    for name in metrics:
        record = found.get(name)
        if record is None:
            lines.append(f"{name}: {NOT_JUDGED}")
        elif record.value is None:
            lines.append(f"{name}: {record.reason or 'no reason recorded'}")
    return "\n".join(lines)


def write_judge_sheet(ws: WriteOnlyWorksheet, rows: Sequence[ScoredRow], judge: JudgeScores) -> None:
    """One row per (question, pipeline): keys, each judge metric's value (blank when not
    scored) and why the blank cells were not scored."""
    metrics = judge_metric_names(judge)
    headers = judge_columns(judge)
    last_metric_col = _FIRST_METRIC_COL + len(metrics) - 1
    reason_col = last_metric_col + 1
    widths = {1: 12, 2: 40, 3: 14, reason_col: 60}
    widths.update(dict.fromkeys(range(_FIRST_METRIC_COL, last_metric_col + 1), 13))
    sheet = lay_out_table(ws, headers, rows=len(rows), widths=widths, freeze="D2", header_height=36)
    if rows and metrics:
        scores = area(_FIRST_METRIC_COL, 2, last_metric_col, len(rows) + 1)
        sheet.conditional_formatting.add(scores, score_scale())

    append_header(ws, JUDGE_SHEET, headers)
    for excel_row, row in enumerate(rows, start=2):
        where = RowRef(JUDGE_SHEET, excel_row, headers, row.item.id, row.response.pipeline)
        by_metric = judge.get(row.key, {})
        cells = [
            text_cell(ws, row.item.id, where, 1, TOP),
            text_cell(ws, row.item.question, where, 2, WRAP),
            text_cell(ws, row.response.pipeline, where, 3, TOP),
        ]
        for col, name in enumerate(metrics, start=_FIRST_METRIC_COL):
            record = by_metric.get(name)
            # An overridden metric's record already holds the effective value.
            value = None if record is None else record.value
            cells.append(score_cell(ws, value, where, col, override=row.overrides.get(name)))
        cells.append(text_cell(ws, not_scored_text(by_metric, metrics), where, reason_col, WRAP))
        append_fitted(ws, excel_row, cells)


def write_judge_means(
    ws: WriteOnlyWorksheet,
    *,
    sheet: str,
    rows: Sequence[ScoredRow],
    pipelines: Sequence[str],
    judge: JudgeScores,
    first_row: int,
) -> int:
    """The Summary sheet's second table (heading, header, one row per pipeline) starting at
    ``first_row``; returns the number of rows written."""
    metrics = judge_metric_names(judge)
    headers = ("pipeline", *metrics, NOT_SCORED_COLUMN)
    ws.append([text_cell(ws, "Judge metrics: mean of the scored rows", RowRef(sheet, first_row), 1, BOLD)])
    header_row = first_row + 1
    parts(ws).row_dimensions[header_row].height = 36
    append_header(ws, sheet, headers, header_row)
    means = judge_means(rows, pipelines, judge)
    for excel_row, pipeline in enumerate(pipelines, start=header_row + 1):
        where = RowRef(sheet, excel_row, headers, pipeline=pipeline)
        by_metric, missing = means.get(pipeline, ({}, 0))
        cells = [text_cell(ws, pipeline, where, 1, BOLD)]
        cells += [
            number_cell(ws, by_metric.get(name), where, col, SCORE)
            for col, name in enumerate(metrics, start=2)
        ]
        cells.append(number_cell(ws, missing, where, len(headers)))
        ws.append(cells)
    if pipelines and metrics:
        parts(ws).conditional_formatting.add(
            area(2, header_row + 1, 1 + len(metrics), header_row + len(pipelines)), score_scale()
        )
    return 2 + len(pipelines)


def judge_about_entries(judge: JudgeScores) -> list[AboutEntry]:
    """The About block's judge lines: the judge and embedding models, then each judge
    metric's signature."""
    entries: list[AboutEntry] = [("", None, BOLD), ("Local judge", None, BOLD)]
    for label, key in (("Judge model", "judge_model"), ("Embedding model", "embedding_model")):
        names = judge_models(judge).get(key, []) or ["(none)"]
        entries += [(label if i == 0 else "", name, TOP) for i, name in enumerate(names)]
    entries += [("Caveat", JUDGE_CAVEAT, TOP)]
    entries += [("", None, BOLD), ("Judge signatures", None, BOLD)]
    entries += [(name, text, TOP) for name, text in judge_signature_lines(judge).items()]
    return entries

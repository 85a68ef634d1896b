"""The workbook's first sheet, "Decision": one printed landscape page for a decision-maker.

Per pipeline: each metric's mean with its 95% confidence interval beneath it, the pass rates at
the report's thresholds, the verdicts of the pairwise comparisons (the ones that can tell two
pipelines apart first), and a bar chart of the means with the intervals as error bars, in the
app's pipeline colours. Metrics carry their human labels. What produced the numbers (files,
signatures, thresholds) is on the About sheet; every comparison is on the Comparisons sheet.

Without a :class:`~goldenlens.core.stats.decision.Decision` the sheet still shows the means and says
that intervals are not available: never an interval that was not computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openpyxl.cell.cell import Cell
from openpyxl.chart import BarChart, Reference
from openpyxl.chart.data_source import AxDataSource, NumDataSource, NumRef, StrRef
from openpyxl.chart.error_bar import ErrorBars
from openpyxl.chart.shapes import GraphicalProperties
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.scored_rows import Report
from goldenlens.core.stats.decision import Decision, MetricEstimate
from goldenlens.core.view.grid_state import SHOWN_PIPELINES
from goldenlens.core.view.metric_names import metric_label
from goldenlens.core.view.pipeline_colours import pipeline_colour
from goldenlens.core.view.wording import interval_text
from goldenlens.io.reports.decision_tables import PassRateTable, means_rows, pass_rate_table
from goldenlens.io.reports.decision_text import (
    NO_INTERVALS,
    ordered_verdicts,
    ranked_pipelines,
    verdict_line,
)
from goldenlens.io.reports.xlsx.calibrated_block import block_rows, write_calibrated_block
from goldenlens.io.reports.xlsx.cells import RowRef, number_cell, text_cell
from goldenlens.io.reports.xlsx.row_heights import append_across, append_fitted
from goldenlens.io.reports.xlsx.style import (
    BOLD,
    BOLD_WRAP,
    HEADER,
    SCORE,
    TITLE,
    WRAP,
    WRAPPED_NOTE,
    CellStyle,
    parts,
    set_widths,
)

DECISION_SHEET = "Decision"
#: Verdicts listed on the page; the rest are on the Comparisons sheet (one page stays one page).
MAX_VERDICTS = 10
DECISION_HEADER_ROW = 4
#: Hidden columns holding the error-bar lengths the chart reads (right of the printed table).
_ERROR_FIRST_COL = 12
_LAST_PRINTED_COL = 1 + len(LEXICAL_SCORE_NAMES) + 1
_CI = CellStyle(font=Font(size=9, color="FF404040"), alignment=Alignment(horizontal="right"))
#: A pass rate's count and interval: wrapped (a count of thousands does not fit on one line) and
#: kept right of its label, never run into it.
_CI_WRAPPED = CellStyle(
    font=_CI.font, alignment=Alignment(horizontal="right", vertical="top", wrap_text=True)
)
_CAVEAT = CellStyle(font=Font(italic=True, size=9, color="FF595959"), alignment=WRAP.alignment)
_RATE = CellStyle(number_format="0%")
_METRIC_WIDTH = 15


def decision_header_row(report: Report) -> int:
    """The row of the metrics table's header: row 4, below the reviewer's view when labels
    give one (:mod:`~goldenlens.io.reports.xlsx.calibrated_block`)."""
    return DECISION_HEADER_ROW + block_rows(report.human_calibrated)


@dataclass(frozen=True)
class _Layout:
    pipelines: tuple[str, ...]
    header_row: int = DECISION_HEADER_ROW

    def mean_row(self, index: int) -> int:
        return self.header_row + 1 + 2 * index

    @property
    def after_means(self) -> int:
        return self.header_row + 1 + 2 * len(self.pipelines)


def write_decision_sheet(
    ws: WriteOnlyWorksheet,
    report: Report,
    decision: Decision | None,
    *,
    generated: str,
) -> None:
    """Fill the Decision sheet (``generated``: when, as the About sheet words it). Beyond ten
    pipelines the table lists them by rank on factual knowledge and the chart draws the first
    ten, saying how many more the table holds."""
    pipelines = ranked_pipelines(decision, report.pipelines)
    layout = _Layout(pipelines, decision_header_row(report))
    widths = {
        1: 24,
        **dict.fromkeys(range(2, 2 + len(LEXICAL_SCORE_NAMES)), _METRIC_WIDTH),
        _LAST_PRINTED_COL: 11,
    }
    widths |= dict.fromkeys(range(_ERROR_FIRST_COL, _ERROR_FIRST_COL + len(LEXICAL_SCORE_NAMES)), 6)
    set_widths(ws, widths)
    dims = parts(ws).column_dimensions
    for col in range(_ERROR_FIRST_COL, _ERROR_FIRST_COL + len(LEXICAL_SCORE_NAMES)):
        dims[get_column_letter(col)].hidden = True
    _write_heading(ws, report, decision, generated)

    headers = ("Pipeline", *(metric_label(m) for m in LEXICAL_SCORE_NAMES), "Responses")
    where = RowRef(DECISION_SHEET, layout.header_row, headers)
    append_fitted(
        ws, layout.header_row, [text_cell(ws, h, where, c, HEADER) for c, h in enumerate(headers, start=1)]
    )

    for index, row in enumerate(means_rows(report, decision)):
        excel_row = layout.mean_row(index)
        where = RowRef(DECISION_SHEET, excel_row, headers, pipeline=row.pipeline)
        shown, estimates = row.means, row.estimates
        cells: list[Cell | None] = [text_cell(ws, row.pipeline, where, 1, BOLD)]
        cells += [
            number_cell(ws, shown[m], where, c, SCORE) for c, m in enumerate(LEXICAL_SCORE_NAMES, start=2)
        ]
        cells.append(number_cell(ws, row.responses, where, _LAST_PRINTED_COL))
        cells += [None] * (_ERROR_FIRST_COL - _LAST_PRINTED_COL - 1)
        # Error-bar lengths for the chart: above the mean on this row, below it on the next.
        cells += [
            _error(ws, estimates[m], shown[m], where, c, up=True)
            for c, m in enumerate(LEXICAL_SCORE_NAMES, start=_ERROR_FIRST_COL)
        ]
        ws.append(cells)
        where = RowRef(DECISION_SHEET, excel_row + 1, headers, pipeline=row.pipeline)
        ci_cells: list[Cell | None] = [text_cell(ws, "95% CI" if decision is not None else "", where, 1, _CI)]
        ci_cells += [
            text_cell(
                ws,
                interval_text(e.low, e.high) if e is not None else ("n/a" if decision else ""),
                where,
                c,
                _CI,
            )
            for c, e in enumerate(estimates.values(), start=2)
        ]
        ci_cells += [None] * (_ERROR_FIRST_COL - len(ci_cells) - 1)
        ci_cells += [
            _error(ws, estimates[m], shown[m], where, c, up=False)
            for c, m in enumerate(LEXICAL_SCORE_NAMES, start=_ERROR_FIRST_COL)
        ]
        ws.append(ci_cells)

    next_row = layout.after_means
    if decision is not None and decision.pass_rates:
        next_row = _write_pass_rates(ws, pass_rate_table(decision, pipelines), next_row)
    if decision is not None and decision.comparisons:
        next_row = _write_verdicts(ws, decision, next_row)
    if pipelines and report.rows:
        ws.append([])
        next_row += 1
        chart = _means_chart(ws, layout, report.pipelines, with_errors=decision is not None)
        parts(ws).add_chart(chart, f"A{next_row}")
        next_row += _CHART_ROWS
        if len(pipelines) > SHOWN_PIPELINES:
            more = len(pipelines) - SHOWN_PIPELINES
            note = (
                f"The chart draws the {SHOWN_PIPELINES} leading pipelines by factual knowledge; the table "
                f"above lists all {len(pipelines)} by rank ({more} more), the JSON report their rank "
                "intervals."
            )
            append_across(ws, RowRef(DECISION_SHEET, next_row), note, _CAVEAT, last_col=_LAST_PRINTED_COL)
            next_row += 1
    ws.print_area = f"A1:{get_column_letter(_LAST_PRINTED_COL)}{next_row}"


def _write_heading(ws: WriteOnlyWorksheet, report: Report, decision: Decision | None, generated: str) -> None:
    """The title, what the numbers rest on, and the reviewer's view when labels give one."""
    pipelines = report.pipelines
    questions = len(report.golden)
    ws.append(
        [
            text_cell(
                ws,
                "Which pipeline? Mean scores with 95% confidence intervals",
                RowRef(DECISION_SHEET, 1),
                1,
                TITLE,
            )
        ]
    )
    facts = (
        f"{questions} question{'s' * (questions != 1)} · {len(pipelines)} "
        f"pipeline{'s' * (len(pipelines) != 1)} · generated {generated}"
    )
    if decision is not None:
        facts += (
            f" · intervals: seeded bootstrap over questions ({decision.resamples:,} resamples, seed "
            f"{decision.seed}, {decision.level:.0%} level)"
        )
    append_across(ws, RowRef(DECISION_SHEET, 2), facts, WRAPPED_NOTE, last_col=_LAST_PRINTED_COL)
    found = report.human_calibrated
    third = "" if decision is not None else NO_INTERVALS
    if found is not None and not found.checked:  # no labels yet: one line says so
        third = " ".join(filter(None, (third, found.headline())))
    append_across(ws, RowRef(DECISION_SHEET, 3), third, BOLD_WRAP, last_col=_LAST_PRINTED_COL)
    if found is not None and found.checked:
        write_calibrated_block(ws, report, found, first_row=DECISION_HEADER_ROW, width=_LAST_PRINTED_COL)


def _error(
    ws: WriteOnlyWorksheet,
    estimate: MetricEstimate | None,
    mean: float | None,
    where: RowRef,
    col: int,
    *,
    up: bool,
) -> Cell:
    if estimate is None or mean is None or estimate.low is None or estimate.high is None:
        return number_cell(ws, 0.0, where, col)
    return number_cell(ws, max(0.0, (estimate.high - mean) if up else (mean - estimate.low)), where, col)


def _write_pass_rates(ws: WriteOnlyWorksheet, table: PassRateTable, first_row: int) -> int:
    """Pass rates: one column per (metric, threshold), the rate over its CI and count."""
    ws.append([])
    headers = ("Pass rate", *table.labels)
    row = first_row + 1
    where = RowRef(DECISION_SHEET, row, headers)
    append_fitted(ws, row, [text_cell(ws, h, where, c, HEADER) for c, h in enumerate(headers, start=1)])
    row += 1
    for pipeline, found in table.rows:
        where = RowRef(DECISION_SHEET, row, headers, pipeline=pipeline)
        cells = [text_cell(ws, pipeline, where, 1, BOLD)]
        cells += [
            number_cell(ws, r.rate if r else None, where, c, _RATE) for c, r in enumerate(found, start=2)
        ]
        ws.append(cells)
        where = RowRef(DECISION_SHEET, row + 1, headers, pipeline=pipeline)
        detail = [text_cell(ws, "passed, 95% CI", where, 1, _CI_WRAPPED)]
        detail += [
            text_cell(
                ws,
                f"{r.passed}/{r.n} {interval_text(r.low, r.high, percent=True)}" if r else "",
                where,
                c,
                _CI_WRAPPED,
            )
            for c, r in enumerate(found, start=2)
        ]
        append_fitted(ws, row + 1, detail)
        row += 2
    return row


def _write_verdicts(ws: WriteOnlyWorksheet, decision: Decision, first_row: int) -> int:
    """The verdicts, each in a cell merged across the table (wrapped), the decided ones first."""
    ws.append([])
    row = first_row + 1
    ws.append(
        [text_cell(ws, "Verdicts", RowRef(DECISION_SHEET, row), 1, HEADER)]
        + [text_cell(ws, "", RowRef(DECISION_SHEET, row), c, HEADER) for c in range(2, _LAST_PRINTED_COL + 1)]
    )
    row += 1
    ordered = ordered_verdicts(decision)
    shown, rest = ordered[:MAX_VERDICTS], ordered[MAX_VERDICTS:]
    for comparison in shown:
        append_across(
            ws, RowRef(DECISION_SHEET, row), verdict_line(comparison), WRAP, last_col=_LAST_PRINTED_COL
        )
        row += 1
    if rest:
        undecided = sum(1 for c in rest if c.better is None)
        note = (
            f"… and {len(rest)} more comparison(s) on the Comparisons sheet ({undecided} of them "
            "cannot tell the pipelines apart)."
        )
        append_across(ws, RowRef(DECISION_SHEET, row), note, _CAVEAT, last_col=_LAST_PRINTED_COL)
        row += 1
    return row


_CHART_ROWS = 18


def _means_chart(
    ws: WriteOnlyWorksheet, layout: _Layout, project_order: Sequence[str], *, with_errors: bool
) -> BarChart:
    """Clusters by metric, one bar per pipeline (the table's first ten) in the app's colour (by
    its place in ``project_order``), the 95% intervals as error bars."""
    chart = BarChart()
    chart.type = "col"
    chart.grouping = "clustered"
    chart.title = "Mean score per pipeline" + (" with 95% intervals" if with_errors else "")
    chart.y_axis.title = "Mean score"
    chart.y_axis.scaling.min = 0
    chart.y_axis.scaling.max = 1
    chart.y_axis.number_format = "0.0"
    chart.x_axis.delete = False  # openpyxl 3.1 hides axes by default
    chart.y_axis.delete = False
    chart.width = 25
    chart.height = 8.5
    # The error-bar lengths sit in hidden columns; a chart drawing visible cells only would drop them.
    chart.visible_cells_only = False
    last_score_col = 1 + len(LEXICAL_SCORE_NAMES)
    header = Reference(
        ws, min_col=2, max_col=last_score_col, min_row=layout.header_row, max_row=layout.header_row
    )
    title = ws.title
    for index, pipeline in enumerate(layout.pipelines[:SHOWN_PIPELINES]):
        row = layout.mean_row(index)
        chart.add_data(
            Reference(ws, min_col=1, max_col=last_score_col, min_row=row, max_row=row),
            from_rows=True,
            titles_from_data=True,
        )
        series = chart.series[-1]
        series.cat = AxDataSource(strRef=StrRef(f=str(header)))
        colour = pipeline_colour(project_order.index(pipeline)).removeprefix("#")
        series.graphicalProperties = GraphicalProperties(solidFill=colour)
        series.graphicalProperties.line.solidFill = colour
        if with_errors:
            last = get_column_letter(_ERROR_FIRST_COL + len(LEXICAL_SCORE_NAMES) - 1)
            first = get_column_letter(_ERROR_FIRST_COL)
            plus = f"'{title}'!${first}${row}:${last}${row}"
            minus = f"'{title}'!${first}${row + 1}:${last}${row + 1}"
            series.errBars = ErrorBars(
                errDir="y",
                errBarType="both",
                errValType="cust",
                noEndCap=False,
                plus=NumDataSource(numRef=NumRef(f=plus)),
                minus=NumDataSource(numRef=NumRef(f=minus)),
            )
    return chart

"""Export a scored :class:`~goldenlens.core.scored_rows.Report` as a reviewable Excel workbook.

Sheets, in order: Decision (one printed page for a decision-maker: means with 95% confidence
intervals, pass rates, verdicts, the chart; :mod:`goldenlens.io.reports.xlsx.decision_sheet`), Summary
(per-pipeline means and counts, a bar chart), Scores, — when judge scores are given — Judge,
Factual Knowledge Report, Highlights (rich text), Flags, Advice (the curation advisor's
diagnoses per question, :mod:`goldenlens.io.reports.xlsx.advice_sheet`), — when a reviewer overrode a
score — Overrides, — when a question was reviewed — Review, — when the inputs had any —
Problems, — with a decision — Comparisons (every paired comparison), and About (when, which
files, thresholds, bootstrap settings, score signatures). Judge scores also add a table of
per-pipeline judge means to the Summary and the judge models and signatures to About. Every
sheet prints landscape, one page wide, its header row repeated, with page numbers in the footer.

Every number is the effective value: a score a reviewer overrode counts with the reviewer's
value in every table and mean, is marked ``*`` with a comment naming the reviewer, time,
note and original score (:mod:`goldenlens.io.reports.xlsx.review_sheets`), and is counted on the Summary.

The workbook is streamed (openpyxl write-only mode): memory stays flat for 100k-row reports,
and rich text, conditional formats, frozen panes, filters and charts all work in that mode.
Every text cell goes through :mod:`goldenlens.io.reports.xlsx.cells`, so a response that cannot be
stored exactly stops the export with its sheet, row and column, and the target file is
written only as a whole (temporary file, then rename).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import cast

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.chart.data_source import AxDataSource, StrRef
from openpyxl.chart.shapes import GraphicalProperties
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.advice.advisor import SEMANTIC_SIMILARITY, advise, similarity_from_records
from goldenlens.core.advice.values import ProjectAdvice
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.scored_rows import Report, ScoredRow
from goldenlens.core.stats.decision_source import decision_for
from goldenlens.core.view.metric_names import metric_label
from goldenlens.core.view.pipeline_colours import pipeline_colour
from goldenlens.core.view.wording import time_text
from goldenlens.io.atomic_files import ExportError, streaming_failure
from goldenlens.io.reports.row_fields import JudgeScores
from goldenlens.io.reports.xlsx.about_sheet import (
    ABOUT_HEADER_ROW,
    ABOUT_SHEET,
    about_entries,
    write_about_sheet,
)
from goldenlens.io.reports.xlsx.advice_sheet import ADVICE_SHEET, write_advice_sheet
from goldenlens.io.reports.xlsx.cells import (
    RowRef,
    discard_streams,
    number_cell,
    save_atomically,
    text_cell,
)
from goldenlens.io.reports.xlsx.comparisons_sheet import COMPARISONS_SHEET, write_comparisons_sheet
from goldenlens.io.reports.xlsx.decision_sheet import (
    DECISION_SHEET,
    decision_header_row,
    write_decision_sheet,
)
from goldenlens.io.reports.xlsx.highlights_sheet import (
    HIGHLIGHTS_HEADER_ROW,
    HIGHLIGHTS_SHEET,
    write_highlights_sheet,
)
from goldenlens.io.reports.xlsx.judge_sheet import (
    JUDGE_SHEET,
    judge_about_entries,
    write_judge_means,
    write_judge_sheet,
)
from goldenlens.io.reports.xlsx.review_sheets import (
    OVERRIDES_SHEET,
    REVIEW_SHEET,
    write_override_counts,
    write_overrides_sheet,
    write_review_sheet,
)
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import (
    BOLD,
    HEADER,
    SCORE,
    TITLE,
    WRAPPED_NOTE,
    area,
    parts,
    print_landscape_fit_width,
    score_scale,
    set_widths,
)
from goldenlens.io.reports.xlsx.table_sheets import (
    FK_SHEET,
    FLAGS_SHEET,
    PROBLEMS_SHEET,
    SCORES_SHEET,
    ordered_rows,
    write_fact_report_sheet,
    write_flags_sheet,
    write_problems_sheet,
    write_scores_sheet,
)

__all__ = [
    "ABOUT_SHEET",
    "ADVICE_SHEET",
    "COMPARISONS_SHEET",
    "DECISION_SHEET",
    "FK_SHEET",
    "FLAGS_SHEET",
    "HIGHLIGHTS_SHEET",
    "JUDGE_SHEET",
    "OVERRIDES_SHEET",
    "PROBLEMS_SHEET",
    "REVIEW_SHEET",
    "SCORES_SHEET",
    "SUMMARY_COLUMNS",
    "SUMMARY_HEADERS",
    "SUMMARY_SHEET",
    "ExportError",
    "ProgressFn",
    "write_report_workbook",
]

SUMMARY_SHEET = "Summary"
SUMMARY_COLUMNS: tuple[str, ...] = ("pipeline", *LEXICAL_SCORE_NAMES, "responses", "flagged", "overridden")
#: The Summary's header row as printed: the metrics under their human labels.
SUMMARY_HEADERS: tuple[str, ...] = (
    "pipeline",
    *(metric_label(m) for m in LEXICAL_SCORE_NAMES),
    "responses",
    "flagged",
    "overridden",
)
SUMMARY_HEADER_ROW = 3
ProgressFn = Callable[[int, int], None]
_PROGRESS_EVERY = 500


def write_report_workbook(
    report: Report,
    path: Path,
    *,
    sources: Sequence[str] = (),
    generated_at: datetime | None = None,
    progress: ProgressFn | None = None,
    judge: JudgeScores | None = None,
    advice: ProjectAdvice | None = None,
) -> None:
    """Write the report workbook to ``path``.

    ``sources`` names the input files for the About block; ``generated_at`` defaults to now.
    ``progress(done, total)`` is called every few hundred rows (``total`` counts the rows of
    the Scores and Highlights sheets); to cancel, raise from it — nothing is written then.
    ``judge`` (the judge run's scores by row and metric) adds the Judge sheet and the judge
    parts of the Summary; empty or ``None`` leaves the workbook as without a judge run.
    ``advice`` fills the Advice sheet; by default it is worked out from ``report`` (with the
    judge's semantic similarity when ``judge`` holds it).

    Raises :class:`ExportError` (the target file untouched) when a text cannot be stored
    exactly: longer than 32,767 characters, or holding a control character.
    """
    rows = ordered_rows(report)
    tick = _Ticker(progress, 2 * len(rows)) if progress is not None else None
    generated = time_text(generated_at)
    decision = decision_for(report)
    workbook = Workbook(write_only=True)
    try:
        write_decision_sheet(
            _sheet(workbook, DECISION_SHEET, header_row=decision_header_row(report), one_page=True),
            report,
            decision,
            generated=generated,
        )
        _write_summary_sheet(
            _sheet(workbook, SUMMARY_SHEET, header_row=SUMMARY_HEADER_ROW), report, rows, judge=judge or {}
        )
        write_scores_sheet(
            _sheet(workbook, SCORES_SHEET), rows, tick, reviews=report.reviews, labels=report.labels
        )
        if judge:
            write_judge_sheet(_sheet(workbook, JUDGE_SHEET), rows, judge)
        write_fact_report_sheet(_sheet(workbook, FK_SHEET), report)
        write_highlights_sheet(
            _sheet(workbook, HIGHLIGHTS_SHEET, header_row=HIGHLIGHTS_HEADER_ROW), rows, tick
        )
        write_flags_sheet(_sheet(workbook, FLAGS_SHEET), report, rows)
        write_advice_sheet(_sheet(workbook, ADVICE_SHEET), advice or report_advice(report, judge))
        if any(row.overrides for row in rows):
            write_overrides_sheet(_sheet(workbook, OVERRIDES_SHEET), rows)
        if report.reviews:
            write_review_sheet(_sheet(workbook, REVIEW_SHEET), report)
        if report.problems:
            write_problems_sheet(_sheet(workbook, PROBLEMS_SHEET), report.problems)
        calibrated = report.human_calibrated
        reviewer_pairs = calibrated.pairs if calibrated is not None and calibrated.checked else ()
        if (decision is not None and decision.comparisons) or reviewer_pairs:
            write_comparisons_sheet(_sheet(workbook, COMPARISONS_SHEET), decision, calibrated)
        entries = about_entries(report, rows, sources=sources, generated=generated, decision=decision)
        entries += judge_about_entries(judge) if judge else []
        write_about_sheet(_sheet(workbook, ABOUT_SHEET, header_row=ABOUT_HEADER_ROW), entries)
        save_atomically(workbook, path)
    except OSError as error:  # openpyxl streams write-only rows to the temporary folder
        discard_streams(workbook)
        raise streaming_failure(path, error) from error
    except BaseException:
        discard_streams(workbook)
        raise
    if tick is not None:
        tick.finish()


def report_advice(report: Report, judge: JudgeScores | None = None) -> ProjectAdvice:
    """The advice of a report, with the semantic similarity of ``judge`` when it holds any."""
    records = [r for by_metric in (judge or {}).values() for r in by_metric.values()]
    similarity = similarity_from_records(records)
    return advise(report, similarity=similarity, similarity_source=SEMANTIC_SIMILARITY if similarity else "")


def _sheet(
    workbook: Workbook, title: str, *, header_row: int = 1, one_page: bool = False
) -> WriteOnlyWorksheet:
    """A new report sheet, set up to print legibly, its header row ``header_row`` repeated on
    every printed page."""
    ws = cast(WriteOnlyWorksheet, workbook.create_sheet(title))
    print_landscape_fit_width(ws, header_row=header_row, one_page=one_page)
    return ws


class _Ticker:
    """Turns one call per row into a progress call every ``_PROGRESS_EVERY`` rows."""

    def __init__(self, progress: ProgressFn, total: int) -> None:
        self.progress = progress
        self.total = total
        self.done = 0

    def __call__(self) -> None:
        self.done += 1
        if self.done % _PROGRESS_EVERY == 0:
            self.progress(self.done, self.total)

    def finish(self) -> None:
        self.progress(self.total, self.total)


def _write_summary_sheet(
    ws: WriteOnlyWorksheet,
    report: Report,
    rows: Sequence[ScoredRow],
    *,
    judge: JudgeScores,
) -> None:
    """Per-pipeline means and counts, a clustered bar chart of the means (in the app's pipeline
    colours), the judge means (with judge scores) and the reviewers' override counts."""
    headers = SUMMARY_COLUMNS
    set_widths(ws, {1: 24, **dict.fromkeys(range(2, 9), 13), 9: 11, 10: 10, 11: 11})
    parts(ws).row_dimensions[SUMMARY_HEADER_ROW].height = 48

    ws.append(
        [text_cell(ws, "GoldenLens report: lexical scores per pipeline", RowRef(SUMMARY_SHEET, 1), 1, TITLE)]
    )
    note = (
        "Means over each pipeline's responses (FMEval 1.2.3 lexical metrics); values not scored "
        "(an empty fact) are left out of their mean. "
        "flagged = responses with at least one interpretation flag (see the Flags sheet). "
        "overridden = scores a reviewer overrode; the means count the reviewer's value (marked *)."
    )
    # Wrapped across the table: a note running on to the right widens the printed page.
    parts(ws).merged_cells.add(f"A2:{get_column_letter(len(SUMMARY_COLUMNS))}2")
    parts(ws).row_dimensions[2].height = 45
    append_fitted(ws, 2, [text_cell(ws, note, RowRef(SUMMARY_SHEET, 2), 1, WRAPPED_NOTE)])
    header_ref = RowRef(SUMMARY_SHEET, SUMMARY_HEADER_ROW, headers)
    ws.append(
        [text_cell(ws, name, header_ref, col, HEADER) for col, name in enumerate(SUMMARY_HEADERS, start=1)]
    )

    means = report.summary()
    counts = report.response_counts()
    flagged = dict.fromkeys(report.pipelines, 0)
    overridden = {p: sum(by_metric.values()) for p, by_metric in report.override_counts().items()}
    for row in rows:
        pipeline = row.response.pipeline
        flagged[pipeline] = flagged.get(pipeline, 0) + bool(row.flags)
    for excel_row, pipeline in enumerate(report.pipelines, start=SUMMARY_HEADER_ROW + 1):
        where = RowRef(SUMMARY_SHEET, excel_row, headers, pipeline=pipeline)
        answered = counts[pipeline] > 0
        cells = [text_cell(ws, pipeline, where, 1, BOLD)]
        # A pipeline with no responses has no mean: blank, not a misleading 0.000.
        cells += [
            number_cell(ws, means[pipeline][name] if answered else None, where, col, SCORE)
            for col, name in enumerate(LEXICAL_SCORE_NAMES, start=2)
        ]
        cells += [
            number_cell(ws, counts[pipeline], where, 9),
            number_cell(ws, flagged[pipeline], where, 10),
            number_cell(ws, overridden.get(pipeline, 0), where, 11),
        ]
        ws.append(cells)
    if report.pipelines:
        last_row = SUMMARY_HEADER_ROW + len(report.pipelines)
        parts(ws).conditional_formatting.add(
            area(2, SUMMARY_HEADER_ROW + 1, 1 + len(LEXICAL_SCORE_NAMES), last_row), score_scale()
        )
    ws.append([])
    next_row = SUMMARY_HEADER_ROW + len(report.pipelines) + 2
    if judge:
        next_row += write_judge_means(
            ws, sheet=SUMMARY_SHEET, rows=rows, pipelines=report.pipelines, judge=judge, first_row=next_row
        )
        ws.append([])
        next_row += 1
    if any(overridden.values()):
        next_row += write_override_counts(ws, sheet=SUMMARY_SHEET, report=report, first_row=next_row)
        ws.append([])
        next_row += 1
    # Below the tables, not beside them: beside, the page is twice as wide and prints half size.
    if report.pipelines and rows:
        parts(ws).add_chart(_means_chart(ws, len(report.pipelines)), f"A{next_row}")


def _means_chart(ws: WriteOnlyWorksheet, pipelines: int) -> BarChart:
    """Clusters by metric, one bar (series) per pipeline: pipelines compare side by side."""
    first, last = SUMMARY_HEADER_ROW + 1, SUMMARY_HEADER_ROW + pipelines
    last_score_col = 1 + len(LEXICAL_SCORE_NAMES)
    chart = BarChart()
    chart.type = "col"
    chart.grouping = "clustered"
    chart.title = "Mean lexical scores per pipeline"
    chart.y_axis.title = "Mean score"
    chart.x_axis.title = "Metric"
    chart.y_axis.scaling.min = 0
    chart.y_axis.scaling.max = 1
    chart.y_axis.number_format = "0.0"
    # openpyxl 3.1 marks axes deleted by default; recent Excel then draws no axis labels.
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.width = 26
    chart.height = 11
    data = Reference(ws, min_col=1, max_col=last_score_col, min_row=first, max_row=last)
    chart.add_data(data, from_rows=True, titles_from_data=True)
    # Metric names are text: a string reference (set_categories would write a numeric one)
    # is what Excel and LibreOffice expect for category labels.
    labels = Reference(
        ws, min_col=2, max_col=last_score_col, min_row=SUMMARY_HEADER_ROW, max_row=SUMMARY_HEADER_ROW
    )
    for index, series in enumerate(chart.series):
        series.cat = AxDataSource(strRef=StrRef(f=str(labels)))
        colour = pipeline_colour(index).removeprefix("#")
        series.graphicalProperties = GraphicalProperties(solidFill=colour)
        series.graphicalProperties.line.solidFill = colour
    return chart

"""The table sheets of the report workbook: Scores, Factual Knowledge Report, Flags, Problems.

Colours on scores are conditional formats, not fills, so they follow the values when an
analyst sorts, filters or edits the sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from openpyxl.styles import Alignment
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.datavalidation import DataValidation

from goldenlens.core.lexical.flags import FLAG_LABELS, Flag, explain
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.problems import Problem
from goldenlens.core.reviewer_decisions import REVIEW_UNREVIEWED, QuestionReview
from goldenlens.core.scored_rows import Report, ScoredRow
from goldenlens.io.reports.calibrated_text import report_flag_checks
from goldenlens.io.reports.xlsx.cells import RowRef, number_cell, text_cell
from goldenlens.io.reports.xlsx.review_sheets import MARK_NOTE, OVERRIDDEN_FLAG, override_summary, score_cell
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import (
    BOLD,
    BOLD_SCORE,
    LIGHT_GREEN,
    LIGHT_RED,
    TOP,
    WRAP,
    WRAPPED_NOTE,
    CellStyle,
    area,
    formula_fill,
    score_scale,
)
from goldenlens.io.reports.xlsx.table_layout import ROW_KEY_COLUMNS, append_header, lay_out_table

SCORES_SHEET = "Scores"
FK_SHEET = "Factual Knowledge Report"
FLAGS_SHEET = "Flags"
PROBLEMS_SHEET = "Problems"

SCORE_COLUMNS: tuple[str, ...] = (
    *ROW_KEY_COLUMNS,
    *LEXICAL_SCORE_NAMES,
    "flags",
    "response",
    "golden answer",
    "fact",
    "matched fact part",
    "overrides",
    "review status",
    "review note",
    "label",
    "label note",
)
#: The reviewer's verdict (a drop-down): fill it in Excel, then ``goldenlens label PROJECT --from
#: report.xlsx`` reads it back; the verdicts in force are filled in already.
LABEL_COL = SCORE_COLUMNS.index("label") + 1
_FIRST_SCORE_COL = 4
_LAST_SCORE_COL = _FIRST_SCORE_COL + len(LEXICAL_SCORE_NAMES) - 1
FLAG_COLUMNS: tuple[str, ...] = (
    "level",
    "question_id",
    "pipeline",
    "flag",
    "flag_code",
    "explanation",
    "reviewer_verdict",
)
PROBLEM_COLUMNS: tuple[str, ...] = ("file", "sheet", "row", "column", "severity", "message")
GOLDEN_LEVEL = "golden row"
RESPONSE_LEVEL = "response"
DARK_GREEN_TEXT = "FF006100"
DARK_RED_TEXT = "FF9C0006"
#: The Scores sheet's printed texts wrap, at the bottom of the row like its numbers.
_WRAPPED_ROW = CellStyle(alignment=Alignment(wrap_text=True))


def ordered_rows(report: Report) -> list[ScoredRow]:
    """Rows in golden order, then pipeline order: every per-row sheet lists them alike."""
    question = {item.id: i for i, item in enumerate(report.golden)}
    pipeline = {name: i for i, name in enumerate(report.pipelines)}
    return sorted(
        report.rows,
        key=lambda r: (
            question.get(r.item.id, len(question)),
            pipeline.get(r.response.pipeline, len(pipeline)),
        ),
    )


def write_scores_sheet(
    ws: WriteOnlyWorksheet,
    rows: Sequence[ScoredRow],
    tick: Callable[[], None] | None = None,
    *,
    reviews: Mapping[str, QuestionReview] | None = None,
    labels: Mapping[tuple[str, str], str] | None = None,
) -> None:
    """One row per (question, pipeline): keys, the seven effective scores (overridden ones
    marked), flags, the texts, the row's overrides, the question's review, and the reviewer's
    verdict in force (``labels``) in a drop-down to fill."""
    reviews = reviews or {}
    labels = labels or {}
    widths = {
        1: 12,
        2: 40,
        3: 14,
        11: 28,
        12: 60,
        13: 50,
        14: 30,
        15: 24,
        16: 50,
        17: 16,
        18: 40,
        19: 12,
        20: 30,
    }
    widths.update(dict.fromkeys(range(_FIRST_SCORE_COL, _LAST_SCORE_COL + 1), 12))
    # Score names are long; a tall wrapped header keeps the score columns narrow.
    sheet = lay_out_table(ws, SCORE_COLUMNS, rows=len(rows), widths=widths, freeze="D2", header_height=48)
    last_row = len(rows) + 1
    # On paper the scores and flags only: the texts are on the Highlights sheet, the reviewers'
    # decisions on the Overrides and Review sheets, each printed legibly there.
    ws.print_area = area(1, 1, _LAST_SCORE_COL + 1, last_row)
    if rows:
        sheet.conditional_formatting.add(area(_FIRST_SCORE_COL, 2, _LAST_SCORE_COL, last_row), score_scale())
        verdicts = DataValidation(
            type="list",
            formula1='"correct,incorrect,unsure"',
            allow_blank=True,
            showErrorMessage=True,
            errorTitle="Label",
            error="Choose correct, incorrect or unsure (or leave it empty).",
        )
        verdicts.add(area(LABEL_COL, 2, LABEL_COL, last_row))
        sheet.data_validations.append(verdicts)

    append_header(ws, SCORES_SHEET, SCORE_COLUMNS)
    for excel_row, row in enumerate(rows, start=2):
        where = RowRef(SCORES_SHEET, excel_row, SCORE_COLUMNS, row.item.id, row.response.pipeline)
        scores = row.scores
        cells = [
            text_cell(ws, row.item.id, where, 1),
            text_cell(ws, row.item.question, where, 2, _WRAPPED_ROW),
            text_cell(ws, row.response.pipeline, where, 3),
        ]
        cells += [
            score_cell(ws, scores[name], where, col, override=row.overrides.get(name), not_scored=True)
            for col, name in enumerate(LEXICAL_SCORE_NAMES, start=_FIRST_SCORE_COL)
        ]
        review = reviews.get(row.item.id)
        cells += [
            text_cell(ws, "; ".join(FLAG_LABELS[f] for f in row.flags), where, 11, _WRAPPED_ROW),
            text_cell(ws, row.response.response, where, 12),
            text_cell(ws, row.item.answer, where, 13),
            text_cell(ws, row.item.fact, where, 14),
            text_cell(ws, row.explained.fact.matched_part, where, 15),
            text_cell(ws, override_summary(row), where, 16),
            text_cell(ws, review.status if review else REVIEW_UNREVIEWED, where, 17),
            text_cell(ws, review.note if review else "", where, 18),
            text_cell(ws, labels.get(row.key, ""), where, LABEL_COL),
            text_cell(ws, "", where, LABEL_COL + 1),
        ]
        # The printed columns wrap (question, flags): each row as tall as they need.
        append_fitted(ws, excel_row, cells)
        if tick is not None:
            tick()


def write_fact_report_sheet(ws: WriteOnlyWorksheet, report: Report) -> None:
    """Questions by pipelines: exact Factual Knowledge (0/1), then each pipeline's mean.

    A question a pipeline did not answer is blank, not 0, and is left out of the mean; one
    whose fact is empty reads "not scored" and is left out of the mean too.
    """
    pipelines = report.pipelines
    headers = ("id", "question", *pipelines)
    last_col = len(headers)
    questions = len(report.golden)
    widths = {1: 10, 2: 50, **dict.fromkeys(range(3, last_col + 1), 14)}
    # The filter stops above the mean row, so sorting the questions never moves it.
    sheet = lay_out_table(ws, headers, rows=questions, widths=widths, freeze="C2")
    if pipelines and questions:
        answers = area(3, 2, last_col, questions + 1)
        # Formula rules rather than "cell equals": Excel treats a blank as 0 there, and a
        # missing response must not look like a wrong one.
        sheet.conditional_formatting.add(
            answers, formula_fill("AND(ISNUMBER(C2),C2=1)", LIGHT_GREEN, DARK_GREEN_TEXT)
        )
        sheet.conditional_formatting.add(
            answers, formula_fill("AND(ISNUMBER(C2),C2=0)", LIGHT_RED, DARK_RED_TEXT)
        )
    if pipelines:
        sheet.conditional_formatting.add(area(3, questions + 2, last_col, questions + 2), score_scale())

    append_header(ws, FK_SHEET, headers)
    matrix = report.fact_matrix()
    overridden = {
        r.key: r.overrides[FACTUAL_KNOWLEDGE] for r in report.rows if r.is_overridden(FACTUAL_KNOWLEDGE)
    }
    answered = {row.key for row in report.rows}
    found: dict[str, list[float]] = {p: [] for p in pipelines}
    for excel_row, item in enumerate(report.golden, start=2):
        where = RowRef(FK_SHEET, excel_row, headers, item.id)
        cells = [text_cell(ws, item.id, where, 1, TOP), text_cell(ws, item.question, where, 2, WRAP)]
        for col, pipeline in enumerate(pipelines, start=3):
            value = matrix[item.id].get(pipeline)
            if value is not None:
                found[pipeline].append(value)
            number = None if value is None else int(value)
            override = overridden.get((item.id, pipeline))
            # None: "not scored" for a question the pipeline answered, blank for one it did not.
            cells.append(
                score_cell(
                    ws,
                    number,
                    where,
                    col,
                    override=override,
                    style=TOP,
                    marked=OVERRIDDEN_FLAG,
                    not_scored=(item.id, pipeline) in answered,
                )
            )
        append_fitted(ws, excel_row, cells)

    where = RowRef(FK_SHEET, questions + 2, headers)
    mean_row = [
        text_cell(ws, "Mean", where, 1, BOLD),
        text_cell(ws, _fk_mean_note(bool(overridden)), where, 2, WRAPPED_NOTE),
    ]
    for col, pipeline in enumerate(pipelines, start=3):
        values = found[pipeline]
        mean_row.append(
            number_cell(ws, sum(values) / len(values) if values else None, where, col, BOLD_SCORE)
        )
    append_fitted(ws, questions + 2, mean_row)


def _fk_mean_note(any_overridden: bool) -> str:
    note = "exact Factual Knowledge, mean over the questions answered and scored"
    return f"{note}; {MARK_NOTE}" if any_overridden else note


def write_flags_sheet(ws: WriteOnlyWorksheet, report: Report, rows: Sequence[ScoredRow]) -> None:
    """One row per flag occurrence, grouped by question: its golden-row flags, then its responses'."""
    by_question: dict[str, list[ScoredRow]] = {}
    for row in rows:
        by_question.setdefault(row.item.id, []).append(row)
    occurrences: list[tuple[str, str, str, Flag]] = []
    for item in report.golden:
        occurrences += [(GOLDEN_LEVEL, item.id, "", f) for f in report.golden_flags.get(item.id, ())]
        for row in by_question.get(item.id, ()):
            occurrences += [(RESPONSE_LEVEL, item.id, row.response.pipeline, f) for f in row.flags]
    widths = {1: 12, 2: 12, 3: 14, 4: 28, 5: 28, 6: 100, 7: 17}
    lay_out_table(ws, FLAG_COLUMNS, rows=len(occurrences), widths=widths)
    append_header(ws, FLAGS_SHEET, FLAG_COLUMNS)
    checks = report_flag_checks(report)
    explanations = {
        flag: explain(flag, report.thresholds)
        + (
            f"\nThis flag against the reviewer's labels: {checks[flag.value].note()}."
            if flag.value in checks
            else ""
        )
        for flag in Flag
    }
    for excel_row, (level, question_id, pipeline, flag) in enumerate(occurrences, start=2):
        verdict = report.labels.get((question_id, pipeline), "") if pipeline else ""
        where = RowRef(FLAGS_SHEET, excel_row, FLAG_COLUMNS, question_id, pipeline)
        append_fitted(
            ws,
            excel_row,
            [
                text_cell(ws, level, where, 1, TOP),
                text_cell(ws, question_id, where, 2, TOP),
                text_cell(ws, pipeline, where, 3, TOP),
                text_cell(ws, FLAG_LABELS[flag], where, 4, TOP),
                text_cell(ws, flag.value, where, 5, TOP),
                text_cell(ws, explanations[flag], where, 6, WRAP),
                text_cell(ws, verdict, where, 7, TOP),
            ],
        )


def write_problems_sheet(ws: WriteOnlyWorksheet, problems: Sequence[Problem]) -> None:
    """The input problems found while reading, located as the analyst sees them in Excel."""
    widths = {1: 30, 2: 16, 3: 8, 4: 18, 5: 10, 6: 90}
    lay_out_table(ws, PROBLEM_COLUMNS, rows=len(problems), widths=widths)
    append_header(ws, PROBLEMS_SHEET, PROBLEM_COLUMNS)
    for excel_row, problem in enumerate(problems, start=2):
        where = RowRef(PROBLEMS_SHEET, excel_row, PROBLEM_COLUMNS)
        append_fitted(
            ws,
            excel_row,
            [
                text_cell(ws, problem.file, where, 1, WRAP),
                text_cell(ws, problem.sheet or "", where, 2, TOP),
                number_cell(ws, problem.row, where, 3, TOP),
                text_cell(ws, problem.column or "", where, 4, TOP),
                text_cell(ws, problem.severity.value, where, 5, TOP),
                text_cell(ws, problem.message, where, 6, WRAP),
            ],
        )

"""The curation advice on paper and on disk: the report workbook's Advice sheet, a workbook
of the advice alone, and the advice as JSON.

The sheet lists every golden question as a bold group row (id, question and how many
diagnoses), then one row per diagnosis: pipeline, severity, diagnosis, the explanation with
its evidence underneath (each pipeline's answer side by side for an ambiguous question, the
false matches, the trimmed-answer scores, the words), the suggested action, the one-click fix
and the numbers that triggered it. Columns wrap and rows are sized to their text, so the sheet
prints legibly (landscape, one page wide).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.advice.values import Diagnosis, ProjectAdvice
from goldenlens.core.view.wording import one_line, plural, short_number
from goldenlens.io.atomic_files import streaming_failure, write_atomically
from goldenlens.io.reports.xlsx.cells import RowRef, discard_streams, save_atomically, text_cell
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import (
    WRAP,
    WRAPPED_NOTE,
    CellStyle,
    area,
    print_landscape_fit_width,
    solid,
)
from goldenlens.io.reports.xlsx.table_layout import append_header, lay_out_table

ADVICE_SHEET = "Advice"
ADVICE_COLUMNS: tuple[str, ...] = (
    "question",
    "pipeline",
    "severity",
    "diagnosis",
    "explanation and evidence",
    "suggested action",
    "one-click fix",
    "numbers",
)
_WIDTHS = {1: 10, 2: 11, 3: 8, 4: 16, 5: 68, 6: 36, 7: 24, 8: 31}
QUESTION_ROW = CellStyle(
    font=Font(bold=True),
    fill=solid("FFEEF2F7"),
    alignment=Alignment(wrap_text=True, vertical="top"),
)
_SEVERITY_FONTS = {
    "high": CellStyle(font=Font(bold=True, color="FF9C0006"), alignment=Alignment(vertical="top")),
    "medium": CellStyle(font=Font(bold=True, color="FF9C5700"), alignment=Alignment(vertical="top")),
    "low": CellStyle(font=Font(color="FF595959"), alignment=Alignment(vertical="top")),
}


def numbers_text(diagnosis: Diagnosis) -> str:
    """``name = value`` per number, one a line."""
    return "\n".join(f"{name} = {short_number(value)}" for name, value in diagnosis.numbers.items())


def _score(value: float | None) -> str:
    return "not scored" if value is None else f"{value:g}"


#: Characters of a response shown in the evidence (the whole text is on the Scores sheet and
#: in the JSON): three long responses side by side would pass Excel's 32,767-character cell.
EVIDENCE_CHARS = 600
#: False matches listed in the evidence (a fact such as "yes" can be in thousands).
EVIDENCE_MATCHES = 20


def evidence_lines(diagnosis: Diagnosis, *, limit: int = EVIDENCE_CHARS) -> list[str]:
    """The evidence under a diagnosis's explanation, one line per item; each response cut to
    ``limit`` characters."""
    lines = []
    for a in diagnosis.answers:
        similarity = "" if a.similarity is None else f", similarity {a.similarity:.3f}"
        reading = f", {a.reading.replace('_', ' ')}" if a.reading else ""
        lines.append(
            f"• {a.pipeline} (FK {_score(a.factual_knowledge)}, recall {a.recall:.3f}{similarity}{reading}): "
            f"{one_line(a.response, limit)}"
        )
    shown = diagnosis.false_matches[:EVIDENCE_MATCHES]
    lines += [f"• {m.question_id}/{m.pipeline}: “{m.excerpt}”" for m in shown]
    if diagnosis.false_match_count > len(shown):
        listed = len(diagnosis.false_matches)
        lines.append(
            f"• … and {diagnosis.false_match_count - len(shown)} more"
            + (f" (the JSON advice lists {listed})" if listed > len(shown) else "")
        )
    lines += [
        f"• {s.pipeline}: precision {s.precision:.3f} → {s.precision_trimmed:.3f}, "
        f"recall {s.recall:.3f} → {s.recall_trimmed:.3f}, F1 {s.f1:.3f} → {s.f1_trimmed:.3f}"
        for s in diagnosis.trimmed
    ]
    return lines


def fix_text(diagnosis: Diagnosis) -> str:
    """The fix's label, with its proposed value when it has one."""
    fix = diagnosis.fix
    if fix is None:
        return ""
    return f"{fix.label}:\n{fix.value}" if fix.value and fix.value not in fix.label else fix.label


def write_advice_sheet(ws: WriteOnlyWorksheet, advice: ProjectAdvice) -> None:
    """The Advice sheet (see the module docstring); the advisor's thresholds at the end."""
    rows = sum(1 + len(q.diagnoses) for q in advice.questions)
    lay_out_table(ws, ADVICE_COLUMNS, rows=rows, widths=_WIDTHS, header_height=30)
    append_header(ws, ADVICE_SHEET, ADVICE_COLUMNS)
    excel_row = 1
    for question in advice.questions:
        excel_row += 1
        count = len(question.diagnoses)
        summary = (
            f"{question.question}  ({plural(count, 'diagnosis', 'diagnoses')})"
            if count
            else (f"{question.question}  (no diagnosis)")
        )
        where = RowRef(ADVICE_SHEET, excel_row, ADVICE_COLUMNS, question.question_id)
        append_fitted(
            ws,
            excel_row,
            [text_cell(ws, question.question_id, where, 1, QUESTION_ROW)]
            + [text_cell(ws, "", where, col, QUESTION_ROW) for col in range(2, 5)]
            + [text_cell(ws, summary, where, 5, QUESTION_ROW)]
            + [text_cell(ws, "", where, col, QUESTION_ROW) for col in range(6, len(ADVICE_COLUMNS) + 1)],
        )
        for d in question.diagnoses:
            excel_row += 1
            where = RowRef(ADVICE_SHEET, excel_row, ADVICE_COLUMNS, question.question_id, d.pipeline)
            reviewer = [d.reviewer] if d.reviewer else []
            explanation = "\n".join([*reviewer, d.explanation, *evidence_lines(d)])
            held = advice.check_note(d.code.value)
            label = f"{d.label}\n({held})" if held else d.label
            append_fitted(
                ws,
                excel_row,
                [
                    text_cell(ws, question.question_id, where, 1, WRAP),
                    text_cell(ws, d.pipeline, where, 2, WRAP),
                    text_cell(ws, d.severity.value, where, 3, _SEVERITY_FONTS[d.severity.value]),
                    text_cell(ws, label, where, 4, WRAP),
                    text_cell(ws, explanation, where, 5, WRAP),
                    text_cell(ws, d.action, where, 6, WRAP),
                    text_cell(ws, fix_text(d), where, 7, WRAP),
                    text_cell(ws, numbers_text(d), where, 8, WRAP),
                ],
            )
    ws.append([])
    notes = [
        (
            "Thresholds",
            ", ".join(f"{name} {short_number(v)}" for name, v in advice.thresholds.as_dict().items()),
        ),
        (
            "Similarity",
            advice.similarity_source or "not measured (run the judge's semantic_similarity to use it)",
        ),
    ]
    if advice.checks:
        notes.append(("Labels", "Checked against the reviewer's labels:\n" + "\n".join(advice.check_lines())))
    # The notes wrap inside the explanation column: a long line in column A would run past the
    # table and make the printed page shrink to fit it.
    for n, (label, note) in enumerate(notes, start=excel_row + 2):
        where = RowRef(ADVICE_SHEET, n)
        label_cell, note_cell = (
            text_cell(ws, label, where, 1, WRAPPED_NOTE),
            text_cell(ws, note, where, 5, WRAPPED_NOTE),
        )
        append_fitted(ws, n, [label_cell, None, None, None, note_cell])
    ws.print_area = area(1, 1, len(ADVICE_COLUMNS), excel_row + 1 + len(notes))


def write_advice_workbook(advice: ProjectAdvice, path: Path) -> None:
    """A workbook holding the Advice sheet alone, written whole or not at all."""
    workbook = Workbook(write_only=True)
    try:
        ws = cast(WriteOnlyWorksheet, workbook.create_sheet(ADVICE_SHEET))
        print_landscape_fit_width(ws)
        write_advice_sheet(ws, advice)
        save_atomically(workbook, path)
    except OSError as error:
        discard_streams(workbook)
        raise streaming_failure(path, error) from error
    except BaseException:
        discard_streams(workbook)
        raise


def write_advice_json(advice: ProjectAdvice, path: Path) -> None:
    """The advice as one JSON document (:meth:`ProjectAdvice.as_dict`), written whole or
    not at all."""
    text = json.dumps(advice.as_dict(), indent=2, ensure_ascii=False) + "\n"

    def write(temporary: Path) -> None:
        temporary.write_text(text, encoding="utf-8")

    write_atomically(path, write)

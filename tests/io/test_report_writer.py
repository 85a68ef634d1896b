"""Report workbook written from the scored sample project, read back with openpyxl and calamine."""

from __future__ import annotations

import csv
import json
import re
import zipfile
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.chart import BarChart
from openpyxl.worksheet.worksheet import Worksheet

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.flags import FLAG_LABELS, Flag, explain
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES, WordKind, WordSpan
from goldenlens.core.problems import Problem, Severity
from goldenlens.core.scored_rows import Report, score_all
from goldenlens.io.reports.xlsx.highlights_sheet import Segment, segments
from goldenlens.io.reports.xlsx.style import EXTRA_TEXT, MATCHED_TEXT, MISSED_TEXT
from goldenlens.io.reports.xlsx.table_sheets import SCORE_COLUMNS
from goldenlens.io.reports.xlsx.workbook import SUMMARY_HEADERS, ExportError, write_report_workbook
from sample_expectations import FK_REPORT, PIPELINES, REPORT_SHEETS

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"
SHEETS = REPORT_SHEETS


def _sample() -> tuple[list[GoldenItem], list[PipelineResponse]]:
    with (SAMPLE / "golden.csv").open(newline="", encoding="utf-8") as f:
        golden = [GoldenItem(r["id"], r["question"], r["answer"], r["fact"]) for r in csv.DictReader(f)]
    with (SAMPLE / "responses.csv").open(newline="", encoding="utf-8") as f:
        responses = [
            PipelineResponse(r["question_id"], r["pipeline"], r["response"], tuple(json.loads(r["contexts"])))
            for r in csv.DictReader(f)
        ]
    return golden, responses


def _report(*, with_alignment: bool = True) -> Report:
    golden, responses = _sample()
    return score_all(golden, responses, PIPELINES, with_alignment=with_alignment)


@pytest.fixture(scope="module")
def report() -> Report:
    return _report()


@pytest.fixture(scope="module")
def book_path(tmp_path_factory: pytest.TempPathFactory, report: Report) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.xlsx"
    write_report_workbook(
        report, path, sources=["golden.csv", "responses.csv"], generated_at=datetime(2024, 5, 1, 9, 30)
    )
    return path


@pytest.fixture(scope="module")
def book(book_path: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(book_path, rich_text=True)


def _rows(ws: Worksheet, first: int = 1) -> list[tuple[object, ...]]:
    return list(ws.iter_rows(min_row=first, values_only=True))


def test_sheets_in_order(book: openpyxl.Workbook) -> None:
    assert book.sheetnames == SHEETS


def test_every_run_keeps_its_spaces(book_path: Path) -> None:
    # A run of just " " between two coloured words needs xml:space="preserve", or Excel shows
    # "AndrewR.Jassy"; openpyxl's own writer leaves it out for whitespace-only text.
    with zipfile.ZipFile(book_path) as archive:
        xml = archive.read("xl/worksheets/sheet5.xml").decode("utf-8")  # Highlights: the fifth sheet
    assert '<r><t xml:space="preserve"> </t></r>' in xml
    assert re.findall(r"<t>(\s[^<]*|[^<]*\s)</t>", xml) == []


def test_no_formula_anywhere(book_path: Path) -> None:
    with zipfile.ZipFile(book_path) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/sheet")]
        assert len(sheets) == len(SHEETS)
        for name in sheets:
            xml = archive.read(name).decode("utf-8")
            assert "<f>" not in xml
            assert "<f " not in xml


# --- Scores ---------------------------------------------------------------------------------


def test_scores_layout(book: openpyxl.Workbook) -> None:
    ws = book["Scores"]
    assert [c.value for c in ws[1]] == list(SCORE_COLUMNS)
    assert ws.max_row == 31  # header + 10 questions x 3 pipelines
    assert ws.freeze_panes == "D2"
    assert ws.auto_filter.ref == "A1:T31"
    # The reviewer's verdict: a drop-down on every row's label cell (S).
    (validation,) = ws.data_validations.dataValidation
    assert (str(validation.sqref), validation.formula1) == ("S2:S31", '"correct,incorrect,unsure"')
    formats = {str(cf.sqref): cf.rules for cf in ws.conditional_formatting}
    assert list(formats) == ["D2:J31"]
    (rule,) = formats["D2:J31"]
    assert rule.type == "colorScale"
    assert [float(v.val) for v in rule.colorScale.cfvo] == [0.0, 0.5, 1.0]
    assert [c.rgb for c in rule.colorScale.color] == ["FFF8696B", "FFFFEB84", "FF63BE7B"]
    # Colours come from the rule, not from static fills.
    assert all(c.fill.fill_type is None for c in ws["D"][1:])
    assert ws["D2"].number_format == "0.000"


def test_scores_values(book: openpyxl.Workbook, report: Report) -> None:
    rows = {(r[0], r[2]): r for r in _rows(book["Scores"], 2)}
    assert len(rows) == 30
    for scored in report.rows:
        row = rows[scored.key]
        assert row[1] == scored.item.question
        assert list(row[3:10]) == [scored.scores[n] for n in LEXICAL_SCORE_NAMES]
        assert row[11] == scored.response.response
        assert row[12] == scored.item.answer
        assert row[13] == scored.item.fact
        assert (row[14] or "") == scored.result.fact.matched_part
    assert rows["q02", "Pipeline2"][10] == "Likely hallucination"
    assert rows["q10", "Pipeline1"][6] == pytest.approx(0.238, abs=5e-4)
    assert rows["q10", "Pipeline2"][14] == "10,317,750,796"


def test_scores_rows_follow_golden_then_pipeline_order(book: openpyxl.Workbook) -> None:
    keys = [(r[0], r[2]) for r in _rows(book["Scores"], 2)]
    assert keys == [(q, p) for q in FK_REPORT for p in PIPELINES]


def test_scores_read_with_calamine(book_path: Path) -> None:
    frame = pd.read_excel(book_path, sheet_name="Scores", engine="calamine", dtype=object)
    assert list(frame.columns) == list(SCORE_COLUMNS)
    assert len(frame) == 30


# --- Factual Knowledge Report ---------------------------------------------------------------


def test_fact_report_reproduces_the_sample_table(book: openpyxl.Workbook) -> None:
    ws = book["Factual Knowledge Report"]
    rows = _rows(ws)
    assert rows[0] == ("id", "question", *PIPELINES)
    table = {r[0]: tuple(r[2:]) for r in rows[1:11]}
    assert table == FK_REPORT
    assert all(isinstance(v, int) for r in table.values() for v in r)
    mean = rows[11]
    assert mean[0] == "Mean"
    expected = [sum(v[i] for v in FK_REPORT.values()) / 10 for i in range(3)]
    assert list(mean[2:]) == pytest.approx(expected)
    assert ws.freeze_panes == "C2"
    formats = {str(cf.sqref): [r.type for r in cf.rules] for cf in ws.conditional_formatting}
    assert formats == {"C2:E11": ["expression", "expression"], "C12:E12": ["colorScale"]}
    rules = next(iter(ws.conditional_formatting)).rules
    assert [r.formula for r in rules] == [["AND(ISNUMBER(C2),C2=1)"], ["AND(ISNUMBER(C2),C2=0)"]]


def test_fact_report_leaves_a_missing_response_blank(tmp_path: Path) -> None:
    golden, responses = _sample()
    kept = [r for r in responses if (r.question_id, r.pipeline) != ("q02", "Pipeline1")]
    path = tmp_path / "missing.xlsx"
    write_report_workbook(score_all(golden, kept, PIPELINES), path)
    rows = _rows(openpyxl.load_workbook(path)["Factual Knowledge Report"])
    assert rows[2][:3] == ("q02", golden[1].question, None)
    assert rows[11][2] == pytest.approx(7 / 9)


# --- Summary --------------------------------------------------------------------------------


def test_summary_table(book: openpyxl.Workbook, report: Report) -> None:
    ws = book["Summary"]
    rows = _rows(ws)
    assert rows[2] == (
        "pipeline", "Factual knowledge", "Factual knowledge (quasi-exact)", "F1", "Precision", "Recall",
        "Exact match", "Quasi-exact match", "responses", "flagged", "overridden",
    )  # fmt: skip
    assert rows[2] == SUMMARY_HEADERS
    means = report.summary()
    flagged = {p: sum(1 for r in report.rows if r.response.pipeline == p and r.flags) for p in PIPELINES}
    for offset, pipeline in enumerate(PIPELINES):
        row = rows[3 + offset]
        assert row[0] == pipeline
        assert list(row[1:8]) == [means[pipeline][n] for n in LEXICAL_SCORE_NAMES]
        assert row[8:10] == (10, flagged[pipeline])
        assert ws.cell(4 + offset, 2).number_format == "0.000"
    assert rows[3][1] == pytest.approx(0.8)  # Pipeline1 factual_knowledge: 8 of 10 in the README table


def test_summary_chart(book: openpyxl.Workbook) -> None:
    ws = book["Summary"]
    assert len(ws._charts) == 1
    chart = ws._charts[0]
    assert isinstance(chart, BarChart)
    assert chart.type == "col"
    assert chart.grouping == "clustered"
    assert len(chart.series) == 3
    for offset, series in enumerate(chart.series):
        row = 4 + offset
        # openpyxl writes a series title reference without "$"; both forms point at the same cell.
        assert series.tx.strRef.f.replace("$", "") == f"'Summary'!A{row}"
        assert series.val.numRef.f == f"'Summary'!$B${row}:$H${row}"
        assert series.cat.strRef.f == "'Summary'!$B$3:$H$3"
    assert (chart.y_axis.scaling.min, chart.y_axis.scaling.max) == (0, 1)
    assert chart.title is not None
    assert chart.x_axis.title is not None
    assert chart.y_axis.title is not None


def test_summary_about_block(book: openpyxl.Workbook, report: Report) -> None:
    about = {row[0]: row[1] for row in _rows(book["About"], 3) if row[0]}
    assert about["Generated at"] == "2024-05-01 09:30:00"
    assert about["Source files"] == "golden.csv"
    assert "responses.csv" in [row[1] for row in _rows(book["About"], 3)]
    assert (about["Golden questions"], about["Pipelines"], about["Responses scored"]) == (10, 3, 30)
    assert about["hallucination_recall"] == report.thresholds.hallucination_recall
    for name, signature in report.signatures.items():
        assert about[name] == signature.short()


def test_summary_colour_scale(book: openpyxl.Workbook) -> None:
    formats = {str(cf.sqref): [r.type for r in cf.rules] for cf in book["Summary"].conditional_formatting}
    assert formats == {"B4:H6": ["colorScale"]}


# --- Highlights -----------------------------------------------------------------------------


def _runs(value: object) -> list[tuple[str, object]]:
    """(text, font or None) for every run of a rich-text cell read back by openpyxl."""
    assert isinstance(value, CellRichText)
    return [(b.text, b.font) if isinstance(b, TextBlock) else (b, None) for b in value]


def _colour(font: object) -> str | None:
    colour = getattr(font, "color", None)
    return None if colour is None else str(colour.rgb)


def _highlight_row(book: openpyxl.Workbook, question_id: str, pipeline: str) -> tuple[object, ...]:
    for row in _rows(book["Highlights"], 5):
        if row[:2] == (question_id, pipeline):
            return row
    raise AssertionError(f"no Highlights row for {question_id}/{pipeline}")


def test_highlights_layout(book: openpyxl.Workbook) -> None:
    ws = book["Highlights"]
    assert ws.cell(4, 1).value == "question_id"
    assert ws.max_row == 4 + 30
    assert ws.freeze_panes == "C5"
    legend = "".join(t for t, _ in _runs(ws.cell(2, 3).value))
    assert "matched word" in legend
    assert "extra word" in legend
    assert "fact part found" in legend
    assert "missed word" in "".join(t for t, _ in _runs(ws.cell(2, 4).value))


def test_highlights_q10_pipeline1(book: openpyxl.Workbook, report: Report) -> None:
    scored = report.row("q10", "Pipeline1")
    assert scored is not None
    assert scored.result.alignment is not None
    response = scored.response.response
    row = _highlight_row(book, "q10", "Pipeline1")
    runs = _runs(row[2])
    assert "".join(t for t, _ in runs) == response

    matched = [
        response[s.start : s.end] for s in scored.result.alignment.response if s.kind is WordKind.MATCHED
    ]
    extra = [response[s.start : s.end] for s in scored.result.alignment.response if s.kind is WordKind.EXTRA]
    assert [t for t, f in runs if _colour(f) == MATCHED_TEXT] == matched
    assert [t for t, f in runs if _colour(f) == EXTRA_TEXT] == extra

    fact_runs = [(t, f) for t, f in runs if getattr(f, "b", False)]
    assert [t for t, _ in fact_runs] == ["10,317,750,796"]
    (font,) = [f for _, f in fact_runs]
    assert getattr(font, "u", None) == "single"
    assert _colour(font) == MATCHED_TEXT  # the fact is also a matched word: both looks show

    answer_runs = _runs(row[3])
    answer = scored.item.answer
    assert "".join(t for t, _ in answer_runs) == answer
    golden_matched = [
        answer[s.start : s.end] for s in scored.result.alignment.answer if s.kind is WordKind.MATCHED
    ]
    golden_missed = [
        answer[s.start : s.end] for s in scored.result.alignment.answer if s.kind is WordKind.MISSED
    ]
    assert [t for t, f in answer_runs if _colour(f) == MATCHED_TEXT] == golden_matched
    assert [t for t, f in answer_runs if _colour(f) == MISSED_TEXT] == golden_missed


def test_highlights_every_row_rebuilds_its_texts(book: openpyxl.Workbook, report: Report) -> None:
    for scored in report.rows:
        row = _highlight_row(book, *scored.key)
        assert "".join(t for t, _ in _runs(row[2])) == scored.response.response
        assert "".join(t for t, _ in _runs(row[3])) == scored.item.answer
        assert row[4] == scored.item.fact
        bold = "".join(t for t, f in _runs(row[2]) if getattr(f, "b", False))
        assert bold.replace(" ", "") == "".join(m.part for m in scored.result.fact.matches).replace(" ", "")


def test_highlights_read_with_calamine_keep_every_space(book_path: Path, report: Report) -> None:
    # calamine, like Excel, honours xml:space: a bare " " run would come back as "AndrewR.Jassy".
    frame = pd.read_excel(book_path, sheet_name="Highlights", engine="calamine", dtype=object, header=3)
    texts = {
        (q, p): (r, a)
        for q, p, r, a in frame[["question_id", "pipeline", "response", "golden answer"]].to_numpy()
    }
    for scored in report.rows:
        assert texts[scored.key] == (scored.response.response, scored.item.answer)


def test_highlights_of_rows_scored_without_spans_are_derived_when_written(
    tmp_path: Path, book: openpyxl.Workbook
) -> None:
    """Spans are derived data: a report whose rows carry none (as a stored run's do) gets the
    same coloured cells as one scored with the alignment."""
    report = _report(with_alignment=False)
    assert all(row.result.alignment is None for row in report.rows)
    path = tmp_path / "derived.xlsx"
    write_report_workbook(report, path)
    derived = openpyxl.load_workbook(path, rich_text=True)
    for key in (("q10", "Pipeline1"), ("q02", "Pipeline2"), ("q05", "Pipeline3")):
        got, want = _highlight_row(derived, *key), _highlight_row(book, *key)
        assert [_looks(got[2]), _looks(got[3])] == [_looks(want[2]), _looks(want[3])]
    assert any(colour for _text, colour, _b, _u in _looks(_highlight_row(derived, "q10", "Pipeline1")[2]))


def _looks(value: object) -> list[tuple[str, str | None, object, object]]:
    return [
        (text, _colour(font), getattr(font, "b", None), getattr(font, "u", None))
        for text, font in _runs(value)
    ]


W = WordKind


@pytest.mark.parametrize(
    ("text", "words", "facts", "expected"),
    [
        ("", [], [], []),
        ("abc def", [], [], [Segment("abc def", None, False)]),
        (
            "abc def",
            [WordSpan(0, 3, "abc", W.MATCHED), WordSpan(4, 7, "def", W.EXTRA)],
            [],
            [Segment("abc", W.MATCHED, False), Segment(" ", None, False), Segment("def", W.EXTRA, False)],
        ),
        (
            # a fact span across two words keeps each word's colour and bolds the overlap
            "abc def",
            [WordSpan(0, 3, "abc", W.MATCHED), WordSpan(4, 7, "def", W.EXTRA)],
            [(2, 5)],
            [
                Segment("ab", W.MATCHED, False),
                Segment("c", W.MATCHED, True),
                Segment(" ", None, True),
                Segment("d", W.EXTRA, True),
                Segment("ef", W.EXTRA, False),
            ],
        ),
        (
            # overlapping fact parts merge into one bold stretch; stale spans are clamped
            "$10,317 x",
            [WordSpan(1, 7, "10317", W.MATCHED), WordSpan(8, 99, "x", W.EXTRA)],
            [(1, 4), (3, 7), (5, 5)],
            [
                Segment("$", None, False),
                Segment("10,317", W.MATCHED, True),
                Segment(" ", None, False),
                Segment("x", W.EXTRA, False),
            ],
        ),
    ],
)
def test_segments(
    text: str, words: list[WordSpan], facts: list[tuple[int, int]], expected: list[Segment]
) -> None:
    assert segments(text, words, facts) == expected


# --- Flags and Problems ---------------------------------------------------------------------


def test_flags_sheet(book: openpyxl.Workbook, report: Report) -> None:
    ws = book["Flags"]
    rows = _rows(ws)
    assert rows[0] == (
        "level", "question_id", "pipeline", "flag", "flag_code", "explanation", "reviewer_verdict"
    )  # fmt: skip
    hallucination = Flag.LIKELY_HALLUCINATION
    assert (
        "response",
        "q02",
        "Pipeline2",
        FLAG_LABELS[hallucination],
        "likely_hallucination",
        explain(hallucination, report.thresholds),
        None,  # no label: no verdict, and no check against the labels in the explanation
    ) in rows
    ambiguous = Flag.AMBIGUOUS_QUESTION
    assert (
        "golden row",
        "q03",
        None,
        FLAG_LABELS[ambiguous],
        "ambiguous_question",
        explain(ambiguous, report.thresholds),
        None,
    ) in rows
    expected = sum(len(r.flags) for r in report.rows) + sum(len(f) for f in report.golden_flags.values())
    assert len(rows) - 1 == expected
    assert ws.auto_filter.ref == f"A1:G{expected + 1}"


def test_problems_sheet_only_when_there_are_problems(tmp_path: Path, report: Report) -> None:
    problem = Problem(
        "responses.xlsx", "=bad id", Severity.WARNING, sheet="Long", row=7, column="question_id"
    )
    path = tmp_path / "problems.xlsx"
    write_report_workbook(replace(report, problems=(problem,)), path)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == [*SHEETS[:-2], "Problems", "Comparisons", "About"]
    assert _rows(book["Problems"]) == [
        ("file", "sheet", "row", "column", "severity", "message"),
        ("responses.xlsx", "Long", 7, "question_id", "warning", "=bad id"),
    ]


# --- Safety, atomicity, progress ------------------------------------------------------------


def _with_response(report: Report, question_id: str, pipeline: str, text: str) -> Report:
    golden = list(report.golden)
    _, responses = _sample()
    changed = [
        replace(r, response=text) if (r.question_id, r.pipeline) == (question_id, pipeline) else r
        for r in responses
    ]
    return score_all(golden, changed, PIPELINES)


def test_formula_like_response_is_text(tmp_path: Path, report: Report) -> None:
    text = "=cmd|' /C calc'!A0 and 10,317,750,796"
    path = tmp_path / "formula.xlsx"
    write_report_workbook(_with_response(report, "q10", "Pipeline1", text), path)
    rows = {(r[0], r[2]): r for r in _rows(openpyxl.load_workbook(path)["Scores"], 2)}
    assert rows["q10", "Pipeline1"][11] == text
    with zipfile.ZipFile(path) as archive:
        assert all(
            b"<f>" not in archive.read(n) for n in archive.namelist() if n.startswith("xl/worksheets/")
        )


def test_control_character_in_a_response_is_refused(tmp_path: Path, report: Report) -> None:
    path = tmp_path / "report.xlsx"
    path.write_bytes(b"last week's report")
    bad = _with_response(report, "q03", "Pipeline2", "Seattle\x1b[0m, WA")
    with pytest.raises(ExportError) as caught:
        write_report_workbook(bad, path)
    message = str(caught.value)
    assert "sheet 'Scores', row 9" in message
    assert "id 'q03'" in message
    assert "pipeline 'Pipeline2'" in message
    assert "column 'response' (L)" in message
    assert "U+001B" in message
    assert path.read_bytes() == b"last week's report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.xlsx"]


def test_too_long_response_is_refused(tmp_path: Path, report: Report) -> None:
    path = tmp_path / "report.xlsx"
    with pytest.raises(ExportError, match="32,768 characters"):
        write_report_workbook(_with_response(report, "q01", "Pipeline1", "y" * 32_768), path)
    assert not path.exists()


def test_progress_reaches_the_total(tmp_path: Path, report: Report) -> None:
    calls: list[tuple[int, int]] = []
    write_report_workbook(
        report, tmp_path / "p.xlsx", progress=lambda done, total: calls.append((done, total))
    )
    assert calls[-1] == (60, 60)


def test_raising_from_progress_cancels_without_writing(tmp_path: Path) -> None:
    golden, responses = _sample()
    many = [replace(r, question_id=r.question_id) for r in responses] * 20  # 600 rows: progress fires
    report = score_all(golden, many, PIPELINES)

    class CancelledError(Exception):
        pass

    def cancel(done: int, total: int) -> None:
        raise CancelledError

    path = tmp_path / "cancelled.xlsx"
    with pytest.raises(CancelledError):
        write_report_workbook(report, path, progress=cancel)
    assert list(tmp_path.iterdir()) == []


def test_every_sheet_prints_landscape_one_page_wide(book: openpyxl.Workbook) -> None:
    """Printed or turned into a PDF, a sheet is one page wide with its header on every page; the
    Scores sheet prints the scores and flags (its long texts are on the Highlights sheet)."""
    for ws in book.worksheets:
        assert ws.page_setup.orientation == "landscape", ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert ws.page_setup.fitToWidth == 1, ws.title
        assert ws.page_setup.fitToHeight == (1 if ws.title == "Decision" else 0), ws.title
        header = {"Decision": 4, "Summary": 3, "Highlights": 4, "About": 2}.get(ws.title, 1)
        assert ws.print_title_rows == f"${header}:${header}", ws.title
    scores = book["Scores"]
    assert scores.print_area == f"'Scores'!$A$1:$K${scores.max_row}"
    assert scores["K1"].value == "flags"

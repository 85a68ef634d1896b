"""The workbook's Decision, Comparisons and About sheets, the page setup of every sheet and the
highlights that read without colour, read back with openpyxl from a written workbook."""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime

import openpyxl
import pytest
from decisions import HALF_WIDTH, DecidedReport, comparison, hand_decision
from openpyxl.cell.rich_text import CellRichText, TextBlock
from test_report_writer import _report

from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES, WordKind
from goldenlens.core.scored_rows import Report
from goldenlens.io.reports.decision_text import NO_INTERVALS
from goldenlens.io.reports.xlsx.style import MATCHED_TEXT, MISSED_TEXT
from goldenlens.io.reports.xlsx.workbook import write_report_workbook

LABELS = [
    "Factual knowledge",
    "Factual knowledge (quasi-exact)",
    "F1",
    "Precision",
    "Recall",
    "Exact match",
    "Quasi-exact match",
]
COMPARISONS = (
    comparison("Pipeline1", "Pipeline2", FACTUAL_KNOWLEDGE, 0.4, better="Pipeline1", p=0.03),
    comparison("Pipeline2", "Pipeline3", F1_SCORE, 0.06, better=None),
)


def _decided(report: Report, *, with_decision: bool = True) -> DecidedReport:
    """``report`` with the hand-made decision, or with none (``decision()`` returns ``None``,
    as for a report whose statistics cannot be computed)."""
    values = {f.name: getattr(report, f.name) for f in fields(Report)}
    return DecidedReport(**values, given=hand_decision(report, COMPARISONS) if with_decision else None)


@pytest.fixture(scope="module")
def report() -> Report:
    return _report()


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory, report: Report) -> openpyxl.Workbook:
    path = tmp_path_factory.mktemp("decision") / "report.xlsx"
    write_report_workbook(
        _decided(report),
        path,
        sources=["golden.csv", "responses.csv"],
        generated_at=datetime(2024, 5, 1, 9, 30),
    )
    return openpyxl.load_workbook(path, rich_text=True)


@pytest.fixture(scope="module")
def plain_book(tmp_path_factory: pytest.TempPathFactory, report: Report) -> openpyxl.Workbook:
    path = tmp_path_factory.mktemp("plain") / "report.xlsx"
    write_report_workbook(
        _decided(report, with_decision=False), path, generated_at=datetime(2024, 5, 1, 9, 30)
    )
    return openpyxl.load_workbook(path, rich_text=True)


def test_sheet_order(book: openpyxl.Workbook, plain_book: openpyxl.Workbook) -> None:
    middle = ["Summary", "Scores", "Factual Knowledge Report", "Highlights", "Flags", "Advice"]
    assert book.sheetnames == ["Decision", *middle, "Comparisons", "About"]
    assert plain_book.sheetnames == ["Decision", *middle, "About"]


def test_every_sheet_prints_landscape_fit_to_width_with_its_header_repeated(book: openpyxl.Workbook) -> None:
    headers = {"Decision": 4, "Summary": 3, "Highlights": 4, "About": 2}
    for ws in book.worksheets:
        row = headers.get(ws.title, 1)
        assert ws.page_setup.orientation == "landscape", ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert ws.page_setup.fitToWidth == 1, ws.title
        assert ws.page_setup.fitToHeight == (1 if ws.title == "Decision" else 0), ws.title
        assert ws.print_title_rows == f"${row}:${row}", ws.title
        assert ws.page_margins.left == pytest.approx(0.5), ws.title
        assert ws.oddFooter.center.text == "Page &P of &N", ws.title
        assert ws.oddFooter.left.text == "&A", ws.title


def _rows(ws: openpyxl.worksheet.worksheet.Worksheet) -> list[tuple[object, ...]]:
    return list(ws.iter_rows(values_only=True))


def test_decision_sheet_means_with_intervals(book: openpyxl.Workbook, report: Report) -> None:
    ws = book["Decision"]
    rows = _rows(ws)
    assert rows[3][:9] == ("Pipeline", *LABELS, "Responses")
    means = report.summary()
    for index, pipeline in enumerate(report.pipelines):
        mean_row, ci_row = rows[4 + 2 * index], rows[5 + 2 * index]
        assert mean_row[0] == pipeline
        assert list(mean_row[1:8]) == [means[pipeline][m] for m in LEXICAL_SCORE_NAMES]
        assert mean_row[8] == 10
        assert ci_row[0] == "95% CI"
        for col, metric in enumerate(LEXICAL_SCORE_NAMES, start=1):
            mean = means[pipeline][metric]
            assert mean is not None
            low, high = max(0.0, mean - HALF_WIDTH), min(1.0, mean + HALF_WIDTH)
            assert ci_row[col] == f"[{low:.2f}, {high:.2f}]"
    # Pipeline1's factual knowledge: 8 of 10 found, so [0.68, 0.93].
    assert rows[5][1] == "[0.68, 0.93]"
    assert "10,000 resamples, seed 12345" in str(rows[1][0])


def test_decision_sheet_pass_rates_and_verdicts(book: openpyxl.Workbook) -> None:
    cells = [str(v) for row in _rows(book["Decision"]) for v in row if v is not None]
    assert "Factual knowledge = 1" in cells
    assert "Recall ≥ 0.5" in cells
    assert "8/10 [60%, 100%]" in cells  # Pipeline1: FK found on 8 of 10
    verdicts = [c for c in cells if " beats " in c or "cannot be told apart" in c]
    assert verdicts[0] == COMPARISONS[0].verdict
    assert verdicts[1] == f"{COMPARISONS[1].verdict} (too few questions to tell)"


def test_decision_chart_has_error_bars_in_the_app_colours(book: openpyxl.Workbook) -> None:
    (chart,) = book["Decision"]._charts
    assert [s.graphicalProperties.solidFill.srgbClr for s in chart.series] == ["0072B2", "E69F00", "009E73"]
    for series in chart.series:
        assert series.errBars is not None
        assert series.errBars.errValType == "cust"
    plus = book["Decision"]
    # Pipeline1 FK: 0.8 + 0.125 up, 0.125 down (hidden columns L.. beside its two rows).
    assert plus.cell(5, 12).value == pytest.approx(HALF_WIDTH)
    assert plus.cell(6, 12).value == pytest.approx(HALF_WIDTH)
    assert plus.column_dimensions["L"].hidden


def test_without_a_decision_the_sheet_says_intervals_are_not_available(plain_book: openpyxl.Workbook) -> None:
    rows = _rows(plain_book["Decision"])
    assert rows[2][0] == NO_INTERVALS
    assert all(v in (None, "") for v in rows[5][:8])  # no interval text under the means
    (chart,) = plain_book["Decision"]._charts
    assert all(s.errBars is None for s in chart.series)


def test_comparisons_sheet(book: openpyxl.Workbook) -> None:
    rows = _rows(book["Comparisons"])
    assert rows[1][:5] == ("Factual knowledge", "Pipeline1", "Pipeline2", 10, pytest.approx(0.4))
    assert rows[1][7] == pytest.approx(0.03)
    assert rows[2][10] == "cannot tell"


def test_about_sheet(book: openpyxl.Workbook, report: Report) -> None:
    about = {row[0]: row[1] for row in _rows(book["About"]) if row[0]}
    assert about["Generated at"] == "2024-05-01 09:30:00"
    assert about["Source files"] == "golden.csv"
    assert (about["Resamples"], about["Seed"], about["Level"]) == (10_000, 12345, 0.95)
    assert about["Pass threshold: Factual knowledge"] == 1
    assert about["hallucination_recall"] == report.thresholds.hallucination_recall
    for name, signature in report.signatures.items():
        assert about[name] == signature.short()
    summary = [row[0] for row in _rows(book["Summary"])]
    assert "Generated at" not in summary  # not filling the summary
    assert "f1_score" not in summary


def _runs(value: object) -> list[tuple[str, object]]:
    assert isinstance(value, CellRichText)
    return [(b.text, b.font) if isinstance(b, TextBlock) else (b, None) for b in value]


def test_highlights_read_without_colour(book: openpyxl.Workbook, report: Report) -> None:
    scored = report.row("q10", "Pipeline1")
    assert scored is not None
    assert scored.result.alignment is not None
    row = next(
        r for r in book["Highlights"].iter_rows(min_row=5, values_only=True) if r[:2] == ("q10", "Pipeline1")
    )
    response, answer = scored.response.response, scored.item.answer
    matched = [
        response[s.start : s.end] for s in scored.result.alignment.response if s.kind is WordKind.MATCHED
    ]
    extra = [response[s.start : s.end] for s in scored.result.alignment.response if s.kind is WordKind.EXTRA]
    runs = _runs(row[2])
    assert [t for t, f in runs if getattr(f, "u", None) == "single"] == matched
    assert [t for t, f in runs if getattr(f, "i", None)] == extra
    for _text, font in runs:
        if getattr(font, "u", None) == "single":
            assert str(font.color.rgb) == MATCHED_TEXT  # the colours stay
    missed = [answer[s.start : s.end] for s in scored.result.alignment.answer if s.kind is WordKind.MISSED]
    answer_runs = _runs(row[3])
    assert missed  # q10's golden answer has words the response lacks
    assert [t for t, f in answer_runs if getattr(f, "strike", None)] == missed
    assert all(str(f.color.rgb) == MISSED_TEXT for _t, f in answer_runs if getattr(f, "strike", None))
    legend = "".join(t for t, _ in _runs(book["Highlights"].cell(2, 4).value))
    assert "struck through" in legend

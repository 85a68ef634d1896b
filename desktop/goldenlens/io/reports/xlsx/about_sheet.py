"""The workbook's "About" sheet: what produced the numbers — when, from which files, the
golden-set version, the counts, the flag and pass thresholds, the bootstrap settings of the
intervals, and every score signature (then the judge models and signatures).

Kept off the Decision and Summary sheets so those print as the tables a reader needs; one fact
per row, so the sheet reads (and prints) as a two-column list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from openpyxl.styles import Alignment
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.reviewer_decisions import review_counts
from goldenlens.core.scored_rows import Report, ScoredRow
from goldenlens.core.stats.decision import Decision
from goldenlens.core.view.metric_names import metric_label
from goldenlens.io.reports.xlsx.cells import RowRef, number_cell, text_cell
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import BOLD, HEADER, TITLE, TOP, WRAP, CellStyle, set_widths

ABOUT_SHEET = "About"
ABOUT_HEADER_ROW = 2
#: Numbers beside their labels, not across the page from them.
_LEFT = CellStyle(alignment=Alignment(horizontal="left"))

#: (label, value, label style); a ``None`` value makes a heading, an empty label a blank row.
AboutEntry = tuple[str, str | float | None, CellStyle]


def about_entries(
    report: Report,
    rows: Sequence[ScoredRow],
    *,
    sources: Sequence[str],
    generated: str,
    decision: Decision | None,
) -> list[AboutEntry]:
    """The About sheet's entries, before the judge's."""
    names = [n for n in LEXICAL_SCORE_NAMES if n in report.signatures]
    names += [n for n in report.signatures if n not in LEXICAL_SCORE_NAMES]
    entries: list[AboutEntry] = [("Generated at", generated, BOLD)]
    entries += [
        ("Source files" if i == 0 else "", name, BOLD) for i, name in enumerate(sources or ["(not recorded)"])
    ]
    if report.golden_version:
        entries.append(("Golden-set version", report.golden_version, BOLD))
    entries += [
        ("Golden questions", len(report.golden), BOLD),
        ("Pipelines", len(report.pipelines), BOLD),
        ("Responses scored", len(rows), BOLD),
        ("Scores overridden", sum(len(row.overrides) for row in rows), BOLD),
    ]
    review = review_counts(report.review(item.id) for item in report.golden)
    entries += [(f"Review: {status.replace('_', ' ')}", count, BOLD) for status, count in review.items()]
    entries += [("", None, BOLD), ("Confidence intervals", None, BOLD)]
    if decision is None:
        entries.append(("Intervals", "not available for this report", TOP))
    else:
        entries += [
            ("Level", decision.level, TOP),
            ("Method", "percentile bootstrap over questions (paired for comparisons)", TOP),
            ("Resamples", decision.resamples, TOP),
            ("Seed", decision.seed, TOP),
        ]
        entries += [
            (f"Pass threshold: {metric_label(metric)}", threshold, TOP)
            for metric, threshold in decision.thresholds.items()
        ]
    entries += [("", None, BOLD), ("Flag thresholds", None, BOLD)]
    entries += [(name, value, TOP) for name, value in report.thresholds.as_dict().items()]
    entries += [("", None, BOLD), ("Score signatures", None, BOLD)]
    entries += [(name, report.signatures[name].short(), TOP) for name in names]
    return entries


def write_about_sheet(ws: WriteOnlyWorksheet, entries: Sequence[AboutEntry]) -> None:
    """A title, a header row (repeated on printed pages), then one entry per row."""
    set_widths(ws, {1: 34, 2: 110})
    ws.append([text_cell(ws, "About this report", RowRef(ABOUT_SHEET, 1), 1, TITLE)])
    where = RowRef(ABOUT_SHEET, ABOUT_HEADER_ROW, ("item", "value"))
    ws.append([text_cell(ws, "Item", where, 1, HEADER), text_cell(ws, "Value", where, 2, HEADER)])
    for excel_row, (label, value, style) in enumerate(entries, start=ABOUT_HEADER_ROW + 1):
        where = RowRef(ABOUT_SHEET, excel_row)
        # A long label wraps in its column rather than being cut off by the value beside it.
        cells = [text_cell(ws, label, where, 1, replace(style, alignment=WRAP.alignment))]
        if isinstance(value, str):
            cells.append(text_cell(ws, value, where, 2, WRAP))
        elif value is not None:
            cells.append(number_cell(ws, value, where, 2, _LEFT))
        append_fitted(ws, excel_row, cells)

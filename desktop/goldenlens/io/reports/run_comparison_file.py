"""A comparison of two runs written out: JSON, CSV (one row per cell) or an XLSX workbook.

The workbook's "Summary" sheet names both runs (id, started, golden version, fingerprint),
the notes on what makes them less comparable, and per pipeline and metric the counts of
improved / regressed / unchanged / not-scored cells with the means before and after; "Changes"
has one row per question and pipeline with, per metric, the score before, after and the change
(improved cells green, regressed red, each also spelled out in words for readers who cannot
tell the colours apart); "Only in one run" lists the questions, pipelines and metrics that
only one of them holds. Every file is written whole or not at all (:func:`write_atomically`).
In the CSV, ids and pipeline names that begin like a formula get a leading apostrophe
(:mod:`~goldenlens.io.reports.csv_cells`): nothing reads the file back, spreadsheets open it.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from openpyxl import Workbook
from openpyxl.cell import Cell
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.golden.versions import short_time
from goldenlens.core.problems import InputError
from goldenlens.core.runs.run_comparison import IMPROVED, NOT_SCORED, REGRESSED, CellChange
from goldenlens.core.view.metric_names import metric_label
from goldenlens.io.atomic_files import write_atomically
from goldenlens.io.reports.csv_cells import neutralised
from goldenlens.io.reports.xlsx.cells import RowRef, number_cell, save_atomically, text_cell
from goldenlens.io.reports.xlsx.style import (
    BOLD,
    HEADER,
    LIGHT_GREEN,
    LIGHT_RED,
    SCORE,
    TITLE,
    CellStyle,
    print_landscape_fit_width,
    set_widths,
    solid,
)

#: Output suffixes :func:`write_comparison` knows.
COMPARISON_SUFFIXES: Final = (".json", ".xlsx", ".csv")
CSV_COLUMNS: Final = ("question_id", "pipeline", "metric", "before", "after", "delta", "change")

_WORDS: Final = {
    IMPROVED: "improved",
    REGRESSED: "regressed",
    "unchanged": "unchanged",
    NOT_SCORED: "not scored",
}
_FILLS: Final = {IMPROVED: CellStyle(fill=solid(LIGHT_GREEN)), REGRESSED: CellStyle(fill=solid(LIGHT_RED))}
_SCORE_FILLS: Final = {
    change: CellStyle(fill=style.fill, number_format=SCORE.number_format) for change, style in _FILLS.items()
}
_SIGNED: Final = CellStyle(number_format="+0.000;-0.000;0.000")


def check_comparison_output(path: Path) -> None:
    """Refuse an output name whose suffix is not one we write, before any work is done."""
    if path.suffix.lower() not in COMPARISON_SUFFIXES:
        raise InputError.fatal(path.name, "the comparison file must be .json, .xlsx or .csv")


def write_comparison(path: Path, data: dict[str, Any], cells: list[CellChange]) -> None:
    """Write ``data`` (a :class:`~goldenlens.jobs.reporting.run_history.RunPairComparison`'s
    ``as_dict()``) to ``path``, chosen by its suffix; ``cells`` are its cells as objects."""
    check_comparison_output(path)
    suffix = path.suffix.lower()
    if suffix == ".json":

        def write_json(out: Path) -> None:
            out.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

        write_atomically(path, write_json)
    elif suffix == ".csv":
        write_atomically(path, lambda out: _write_csv(out, cells))
    else:
        _write_xlsx(path, data, cells)


def _number(value: float | None) -> str:
    return "" if value is None else repr(value)


def _write_csv(path: Path, cells: list[CellChange]) -> None:
    # utf-8-sig: Excel reads the question ids and pipeline names as UTF-8.
    with path.open("w", encoding="utf-8-sig", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(CSV_COLUMNS)
        for c in cells:
            writer.writerow(
                [
                    neutralised(c.question_id),
                    neutralised(c.pipeline),
                    c.metric,
                    _number(c.before),
                    _number(c.after),
                    _number(c.delta),
                    c.change,
                ]
            )


class _Sheet:
    """A write-only sheet filled row by row through the report's checked cells: texts are
    escaped (a pipeline named ``=SUM(A1)`` stays text), floats keep all 17 digits."""

    def __init__(self, ws: WriteOnlyWorksheet, name: str) -> None:
        self.ws = ws
        self.name = name
        self.row = 0
        self.headers: tuple[str, ...] = ()

    def header(self, names: Sequence[str]) -> None:
        self.headers = tuple(names)
        self.append([(name, HEADER) for name in names])

    def append(self, values: Sequence[object | tuple[object, CellStyle | None]]) -> None:
        self.row += 1
        where = RowRef(self.name, self.row, self.headers)
        cells: list[Cell] = []
        for col, entry in enumerate(values, 1):
            value, style = entry if isinstance(entry, tuple) else (entry, None)
            if value is None or (isinstance(value, int | float) and not isinstance(value, bool)):
                cells.append(number_cell(self.ws, value, where, col, style))
            else:
                cells.append(text_cell(self.ws, str(value), where, col, style))
        self.ws.append(cells)


def _run_line(label: str, run: dict[str, Any]) -> list[object]:
    return [
        label,
        run["id"],
        short_time(run["started_at"]),
        run["golden_version"],
        run["fingerprint"] or "unknown",
        run["options_summary"],
    ]


def _write_xlsx(path: Path, data: dict[str, Any], cells: list[CellChange]) -> None:
    book = Workbook(write_only=True)
    _summary_sheet(_Sheet(book.create_sheet("Summary"), "Summary"), data)
    _changes_sheet(_Sheet(book.create_sheet("Changes"), "Changes"), data, cells)
    _only_sheet(_Sheet(book.create_sheet("Only in one run"), "Only in one run"), data)
    save_atomically(book, path)


def _summary_sheet(sheet: _Sheet, data: dict[str, Any]) -> None:
    ws = sheet.ws
    set_widths(ws, {1: 16, 2: 22, 3: 22, 4: 11, 5: 11, 6: 11, 7: 11, 8: 11, 9: 12, 10: 12})
    print_landscape_fit_width(ws)
    base, head = data["base"], data["head"]
    sheet.append([(f"Run {head['id']} compared with run {base['id']}", TITLE)])
    sheet.append([])
    sheet.header(("", "Run", "Started", "Golden version", "Fingerprint", "Options"))
    sheet.append(_run_line("Base (before)", base))
    sheet.append(_run_line("Head (after)", head))
    sheet.append([])
    for note in data["notes"]:
        sheet.append([("Note", BOLD), note])
    sheet.append([])
    sheet.header(
        (
            "Pipeline",
            "Metric",
            "Improved",
            "Regressed",
            "Unchanged",
            "Not scored",
            "Paired questions",
            "Mean before",
            "Mean after",
            "Mean change",
        )
    )
    for item in data["summary"]:
        sheet.append(
            [
                item["pipeline"],
                metric_label(item["metric"]),
                item["improved"],
                item["regressed"],
                item["unchanged"],
                item["not_scored"],
                item["paired_questions"],
                (item["mean_before"], SCORE),
                (item["mean_after"], SCORE),
                (item["mean_change"], _SIGNED),
            ]
        )


def _changes_sheet(sheet: _Sheet, data: dict[str, Any], cells: list[CellChange]) -> None:
    metrics: list[str] = data["metrics"]
    ws = sheet.ws
    set_widths(ws, {1: 12, 2: 14, **{3 + i: 11 for i in range(3 * len(metrics))}})
    print_landscape_fit_width(ws)
    header = ["Question", "Pipeline"]
    for metric in metrics:
        label = metric_label(metric)
        header += [f"{label} before", f"{label} after", f"{label} change"]
    sheet.header(header)
    by_row: dict[tuple[str, str], dict[str, CellChange]] = {}
    for c in cells:
        by_row.setdefault((c.question_id, c.pipeline), {})[c.metric] = c
    for (question, pipeline), found in by_row.items():
        row: list[object | tuple[object, CellStyle | None]] = [question, pipeline]
        for metric in metrics:
            change = found.get(metric)
            if change is None:
                row += [None, None, None]
                continue
            fill = _FILLS.get(change.change)
            score = SCORE if fill is None else _SCORE_FILLS[change.change]
            row += [(change.before, score), (change.after, score), (_WORDS[change.change], fill)]
        sheet.append(row)


def _only_sheet(sheet: _Sheet, data: dict[str, Any]) -> None:
    set_widths(sheet.ws, {1: 18, 2: 14, 3: 60})
    sheet.header(("Only in run", "What", "Names"))
    for key, label in (("only_in_base", data["base"]["id"]), ("only_in_head", data["head"]["id"])):
        for what, names in data[key].items():
            if names:
                sheet.append([label, what, ", ".join(names)])

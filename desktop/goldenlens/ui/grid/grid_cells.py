"""What the score grid's cells say: the fixed columns' headers, texts and tooltips, and the
score cells' texts and tooltips (no colours: :mod:`goldenlens.ui.grid.colour_scale`).

The functions take the Qt item role as an ``int`` and return ``None`` for a role the cell does
not answer, as :meth:`QAbstractItemModel.data` does.
"""

from __future__ import annotations

import html
import math
from typing import Any

from PySide6.QtCore import Qt

from goldenlens.core.lexical.flags import FLAG_LABELS
from goldenlens.core.view.grid_state import (
    FLAGS_COLUMN,
    ID_COLUMN,
    QUESTION_COLUMN,
    REVIEW_COLUMN,
    GridColumn,
)
from goldenlens.core.view.metric_names import BINARY_METRICS, metric_header, metric_title
from goldenlens.core.view.pass_fail import FK_FOUND_AT
from goldenlens.queries.grid import GridData, flags_in

DISPLAY = int(Qt.ItemDataRole.DisplayRole)
TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
USER = int(Qt.ItemDataRole.UserRole)

#: Header text and tooltip of each fixed column.
FIXED_HEADERS = {
    ID_COLUMN: ("ID", "Golden question id"),
    QUESTION_COLUMN: ("Question", "The golden question (hover a cell for answer and fact)"),
    REVIEW_COLUMN: ("Review", "Review status of the question"),
    FLAGS_COLUMN: ("Flags", "How many interpretation flags the row and its responses raised"),
}
REVIEW_LABELS = {"unreviewed": "", "accepted": "✓ Accepted", "needs_curation": "✎ Needs curation"}


def one_line(text: object) -> str:
    """A question on one line: newlines would be lost in a grid cell anyway."""
    return " ".join(str(text).split())


def flag_label(count: int) -> str:
    return f"⚑ {count}" if count else ""


def score_text(value: float, metric: str, *, binary: bool, report_mode: bool) -> str:
    """A score as the grid shows it: ✓/✗ in the pass/fail report, ``0``/``1`` for a metric whose
    values are only 0 and 1 (``binary``: a judge metric found so), else two decimals."""
    if report_mode:
        return "✓" if value >= FK_FOUND_AT else "✗"
    if (metric in BINARY_METRICS or binary) and value in (0.0, 1.0):
        return f"{value:.0f}"
    return f"{value:.2f}"


def question_cell(grid: GridData, row: int, role: int) -> Any:
    if role == DISPLAY:
        return one_line(grid.questions[row])
    if role == TOOLTIP:
        return _question_tip(grid, row)
    return grid.questions[row] if role == USER else None


def review_cell(status: str, role: int) -> Any:
    if role == DISPLAY:
        return REVIEW_LABELS.get(status, status)
    if role == TOOLTIP:
        return REVIEW_LABELS.get(status, status) or "Not reviewed"
    return status if role == USER else None


def _question_tip(grid: GridData, row: int) -> str:
    def part(title: str, text: object, limit: int = 600) -> str:
        body = str(text)
        body = body if len(body) <= limit else body[:limit] + "…"
        return f"<b>{title}</b><br>{html.escape(body)}"

    parts = [part("Question", grid.questions[row]), part("Answer", grid.answers[row])]
    parts.append(part("Fact", grid.facts[row], 200))
    return "<br><br>".join(parts)


def flags_tip(grid: GridData, row: int) -> str:
    """The flags of a question's row and of each of its responses, one per line."""
    lines = [f"Question: {FLAG_LABELS[flag]}" for flag in flags_in(int(grid.golden_flags[row]))]
    for col, pipeline in enumerate(grid.pipelines):
        lines += [f"{pipeline}: {FLAG_LABELS[flag]}" for flag in flags_in(int(grid.flags[row, col]))]
    return "\n".join(lines)


def score_tip(grid: GridData, value: float, column: GridColumn, row: int, *, not_loaded: bool) -> str:
    """A score cell's tooltip: pipeline, metric and value (or why there is none), the flags
    raised on the response and the override, if any."""
    metric, col = str(column.metric), column.pipeline_index
    shown = grid.missing_reason(row, col, metric) if math.isnan(value) else f"{value:.4g}"
    if not_loaded:
        shown = "not loaded yet"
    lines = [f"{column.pipeline} · {metric_title(metric)}: {shown}"]
    lines += [f"⚑ {FLAG_LABELS[flag]}" for flag in flags_in(int(grid.flags[row, col]))]
    note = grid.override_note(row, col, metric)
    if note is not None:
        lines.append(note.describe())
    return "\n".join(lines)


def header_text(column: GridColumn, grid: GridData, role: int) -> str | None:
    """A column header's text (``DISPLAY``) or tooltip (``TOOLTIP``)."""
    if column.metric is None:
        label, tip = FIXED_HEADERS[column.key]
        return label if role == DISPLAY else tip
    if role == DISPLAY:
        return f"{column.pipeline}\n{metric_header(column.metric)}"
    if column.metric in grid.judge_metrics:
        return f"{column.pipeline} — judge metric {column.metric} (judge run {grid.judge_run_id})"
    return f"{column.pipeline} — {metric_title(column.metric)} ({column.metric})"

"""Table model of the score grid: a view onto :class:`GridData` column arrays.

The model holds the arrays, the :class:`GridState` and the visible row order (an index
array computed in numpy by :func:`goldenlens.core.view.grid_state.visible_rows`). ``data()`` indexes
into the arrays and formats only the cells Qt asks for, so 100,000 rows cost no more than
the screenful being painted. Sorting and filtering replace the order array and reset the
model; there is no proxy model and no item per cell.

The view paints through :meth:`ScoreTableModel.column_cells` (one call per column per
paint, see :mod:`goldenlens.ui.grid.score_table_view`) rather than ``data()``: Qt's own painting
asks ``data()`` seven times per cell plus ``flags()`` and ``index()``, and those ~4,000
Python calls from C++ per screenful were most of an 80 ms repaint. Both paths format with
the same functions, so the grid shows what ``data()`` reports.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPalette

from goldenlens.core.lexical.flags import FLAG_LABELS
from goldenlens.core.lexical.scorer import (
    EXACT_MATCH,
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    PRECISION,
    QUASI_EXACT_MATCH,
    RECALL,
)
from goldenlens.core.view.grid_state import (
    FK_FOUND_AT,
    FLAGS_COLUMN,
    ID_COLUMN,
    QUESTION_COLUMN,
    REVIEW_COLUMN,
    BoolArray,
    GridColumn,
    GridState,
    IntArray,
    flag_counts,
    grid_columns,
    parse_threshold,
    pass_fail_metrics,
    visible_rows,
)
from goldenlens.queries.grid import GridData, flags_in

#: Role giving the question id of any cell's row.
QUESTION_ID_ROLE = int(Qt.ItemDataRole.UserRole) + 1

_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_USER = int(Qt.ItemDataRole.UserRole)
# One flags value for every cell: enum arithmetic per call costs microseconds each.
_CELL_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_CENTER = Qt.AlignmentFlag.AlignCenter
_Index = QModelIndex | QPersistentModelIndex

_SHORT = {
    FACTUAL_KNOWLEDGE: "FK",
    FACTUAL_KNOWLEDGE_QUASI_EXACT: "FK quasi",
    F1_SCORE: "F1",
    PRECISION: "Precision",
    RECALL: "Recall",
    EXACT_MATCH: "EM",
    QUASI_EXACT_MATCH: "QEM",
}
_TITLES = {
    FACTUAL_KNOWLEDGE: "Factual Knowledge (fact found, exact inclusion)",
    FACTUAL_KNOWLEDGE_QUASI_EXACT: "Factual Knowledge (fact found after normalisation)",
    F1_SCORE: "F1 score over words",
    PRECISION: "Precision over words",
    RECALL: "Recall over words",
    EXACT_MATCH: "Exact match",
    QUASI_EXACT_MATCH: "Quasi-exact match (after normalisation)",
}
_FIXED_HEADERS = {
    ID_COLUMN: ("ID", "Golden question id"),
    QUESTION_COLUMN: ("Question", "The golden question (hover a cell for answer and fact)"),
    REVIEW_COLUMN: ("Review", "Review status of the question"),
    FLAGS_COLUMN: ("Flags", "How many interpretation flags the row and its responses raised"),
}
#: Metrics that are 0 or 1 by nature: shown as 0/1 rather than with decimals.
BINARY_METRICS = frozenset({FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT, EXACT_MATCH, QUASI_EXACT_MATCH})
_REVIEW_LABELS = {"unreviewed": "", "accepted": "✓ Accepted", "needs_curation": "✎ Needs curation"}
# Red -> yellow -> green, as spreadsheet colour scales draw it; darker twins for dark palettes.
_LIGHT_STOPS = ((248, 105, 107), (255, 235, 132), (99, 190, 123))
_DARK_STOPS = ((140, 42, 46), (128, 108, 24), (32, 112, 58))
_STEPS = 100
_PARTIAL_TIP = "The first {:,} questions while the rest load: filters and sorting cover them until then"
_WIDTHS_VERSION = 1


def metric_short(metric: str) -> str:
    """Header name of a metric: ``F1``, ``Recall``, ``FK``; a judge metric's own name, the one
    threshold expressions take (``faithfulness``)."""
    return _SHORT.get(metric, metric)


def metric_title(metric: str) -> str:
    """Full name of a metric for tooltips: ``F1 score over words``; ``judge: faithfulness``."""
    return _TITLES.get(metric) or f"judge: {metric}"


def is_dark(palette: QPalette) -> bool:
    """True when ``palette`` draws light text on a dark base."""
    return palette.color(QPalette.ColorRole.Base).lightnessF() < 0.5


def encode_widths(widths: dict[str, int]) -> bytes:
    """Column widths by column key, as saved in the settings (:func:`decode_widths`)."""
    return json.dumps({"version": _WIDTHS_VERSION, "widths": widths}).encode()


def decode_widths(state: bytes) -> dict[str, int] | None:
    """Widths saved by :func:`encode_widths`; ``None`` when unreadable or of another version."""
    try:
        saved = json.loads(bytes(state).decode())
        widths = {str(k): int(v) for k, v in saved["widths"].items() if int(v) > 0}
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return widths if saved.get("version") == _WIDTHS_VERSION else None


def colour_scale(dark: bool) -> tuple[list[QColor], QColor]:
    """101 background colours for scores 0.00..1.00, and the text colour readable on all."""
    stops = _DARK_STOPS if dark else _LIGHT_STOPS
    colours = []
    for step in range(_STEPS + 1):
        t = 2 * step / _STEPS
        low, high = (stops[0], stops[1]) if t <= 1 else (stops[1], stops[2])
        f = t if t <= 1 else t - 1
        colours.append(QColor(*(round(a + (b - a) * f) for a, b in zip(low, high, strict=True))))
    return colours, QColor(240, 240, 240) if dark else QColor(20, 20, 20)


@dataclass(frozen=True)
class ColumnCells:
    """What one column shows in a run of visible rows, for the painter: the display texts,
    per cell the background colour (``None``: the view's own), whether the text is italic
    (``None``: no cell is), the text colour on a coloured cell and the alignment. Each entry
    equals what ``data()`` returns for that cell and role. ``repeats`` is False for columns
    whose texts are one of a kind (ids, questions): not worth keeping laid out."""

    texts: list[str]
    backgrounds: list[QColor | None] | None
    italic: list[bool] | None
    foreground: QColor
    alignment: Qt.AlignmentFlag
    repeats: bool = True
    #: Per cell, whether it satisfies the threshold filter (``None``: none does).
    marked: list[bool] | None = None


class ScoreTableModel(QAbstractTableModel):
    """Rows are the visible golden questions, columns are fixed ones then pipeline x metric.

    ``state_changed(GridState)`` is emitted when the state changes, including by a header
    click (:meth:`sort`).
    """

    state_changed = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._grid = GridData.empty()
        self._state = GridState()
        self._rows: IntArray = np.arange(0, dtype=np.int64)
        self._where: IntArray | None = None
        self._columns = grid_columns(self._state, ())
        self._counts: IntArray | None = None
        self._marked: dict[str, BoolArray] | None = None
        self._binary: frozenset[str] = frozenset()  # judge metrics whose values are only 0/1
        self._italic = QFont()
        self._italic.setItalic(True)
        self._scale, self._text = colour_scale(False)

    # -- public API -----------------------------------------------------------------

    def grid(self) -> GridData:
        return self._grid

    def state(self) -> GridState:
        return self._state

    def columns(self) -> tuple[GridColumn, ...]:
        return self._columns

    def visible_rows(self) -> IntArray:
        """Data rows in display order (read-only)."""
        rows = self._rows.view()
        rows.flags.writeable = False
        return rows

    def set_data(self, grid: GridData) -> None:
        """Show ``grid`` under the current state; filters the new data cannot evaluate (a
        threshold naming a pipeline that is gone) are dropped."""
        state = self._state
        if state.report_metric not in (FACTUAL_KNOWLEDGE, *grid.available_metrics):
            state = replace(state, report_metric=FACTUAL_KNOWLEDGE)  # a judge run without it
        try:
            rows = visible_rows(grid, state)
        except ValueError:
            state = replace(state, threshold="", flag=None, text="" if state.regex else state.text)
            rows = visible_rows(grid, state)
        self._apply(grid, state, rows)

    def set_state(self, state: GridState) -> None:
        """Apply ``state``; raises ``ValueError`` (nothing changes) for a bad regex or threshold."""
        if state != self._state:
            self._apply(self._grid, state, visible_rows(self._grid, state))

    def set_dark(self, dark: bool) -> None:
        """Switch the colour scale to suit a dark (or light) palette."""
        self._scale, self._text = colour_scale(dark)
        if self._rows.size and self._columns:
            last = self.index(len(self._rows) - 1, len(self._columns) - 1)
            self.dataChanged.emit(self.index(0, 0), last, [_BACKGROUND, _FOREGROUND])

    def default_widths(self, metrics: QFontMetrics) -> list[int]:
        """A starting width for each column, in pixels, for text drawn with ``metrics``."""
        longest = max((metrics.horizontalAdvance(str(q)) for q in self._grid.question_ids[:500]), default=0)
        fixed = {
            ID_COLUMN: min(max(longest + 20, 48), 160),
            QUESTION_COLUMN: 260,
            REVIEW_COLUMN: metrics.horizontalAdvance(_REVIEW_LABELS["needs_curation"]) + 16,
            FLAGS_COLUMN: metrics.horizontalAdvance("⚑ 99") + 24,
        }
        scores = (max(str(c.pipeline), "0.00*", key=metrics.horizontalAdvance) for c in self._columns)
        return [
            fixed.get(c.key) or metrics.horizontalAdvance(text) + 28
            for c, text in zip(self._columns, scores, strict=True)
        ]

    def count_label(self) -> tuple[str, str]:
        """Row-count label and its tooltip: ``12 of 1,000 questions``; while only the first
        rows are loaded, ``Loading 100,000 questions…`` (after how many the filters keep)."""
        grid, shown = self._grid, len(self._rows)
        if grid.complete:
            return f"{shown:,} of {len(grid):,} questions", ""
        loading = f"Loading {grid.total:,} questions…"
        text = loading if shown == len(grid) else f"{shown:,} of the first {len(grid):,} · {loading}"
        return text, _PARTIAL_TIP.format(len(grid))

    def pass_fail_metrics(self) -> tuple[str, ...]:
        """The metrics the pass/fail report can show: Factual Knowledge and the judge metrics
        whose values are only 0 and 1 (:func:`goldenlens.core.view.grid_state.pass_fail_metrics`)."""
        return (FACTUAL_KNOWLEDGE, *(m for m in self._grid.judge_metrics if m in self._binary))

    def row_of(self, question_id: str) -> int:
        """Visible row of a question, -1 when it is filtered out or unknown."""
        row = self._grid.index_of(question_id)
        if row is None:
            return -1
        if self._where is None:
            self._where = np.full(len(self._grid), -1, dtype=np.int64)
            self._where[self._rows] = np.arange(len(self._rows), dtype=np.int64)
        return int(self._where[row])

    def question_id(self, row: int) -> str | None:
        """Question id shown in visible ``row``; ``None`` outside the rows."""
        if 0 <= row < len(self._rows):
            return str(self._grid.question_ids[self._rows[row]])
        return None

    def column_cells(self, column: int, first: int, last: int) -> ColumnCells:
        """The cells of ``column`` in visible rows ``first..last`` (inclusive), as painted."""
        rows = self._rows[max(first, 0) : last + 1]
        spec = self._columns[column]
        if spec.metric is None:
            align = _CENTER if spec.key == FLAGS_COLUMN else _LEFT
            unique = spec.key in (ID_COLUMN, QUESTION_COLUMN)
            return ColumnCells(self._fixed_texts(rows, spec.key), None, None, self._text, align, not unique)
        align = _CENTER if self._state.fk_report_mode else _RIGHT
        matrix = self._grid.values.get(spec.metric)
        if matrix is None:
            return ColumnCells(["—"] * len(rows), None, None, self._text, align)
        shown = matrix[rows, spec.pipeline_index]
        values: list[float] = shown.tolist()
        metric, display, colour, isnan = spec.metric, self._display, self._colour, math.isnan
        texts = ["—" if isnan(v) else display(v, metric) for v in values]
        backgrounds = [None if isnan(v) else colour(v) for v in values]
        marks = self._grid.overridden.get(metric)
        italic: list[bool] | None = None
        if marks is not None and marks[rows, spec.pipeline_index].any():
            # As data(): a missing score is "—" whatever its mark.
            italic = (marks[rows, spec.pipeline_index] & ~np.isnan(shown)).tolist()
            texts = [t + "*" if i else t for t, i in zip(texts, italic, strict=True)]
        hits = self._threshold_cells().get(metric)
        marked = hits[rows, spec.pipeline_index].tolist() if hits is not None else None
        return ColumnCells(texts, backgrounds, italic, self._text, align, marked=marked)

    def _threshold_cells(self) -> dict[str, BoolArray]:
        """Per metric, the cells the threshold filter matched (computed once per state)."""
        if self._marked is None:
            self._marked = {}
            if self._state.threshold:
                try:
                    parsed = parse_threshold(
                        self._state.threshold, tuple(self._grid.values), self._grid.pipelines
                    )
                except ValueError:
                    parsed = None  # the state holds only thresholds that parsed; a reload may drop one
                if parsed is not None:
                    self._marked = parsed.matching_cells(self._grid)
        return self._marked

    def threshold_matches(self, row: int, column: int) -> bool:
        """Whether the cell at visible ``row``, ``column`` satisfies the threshold filter."""
        if not 0 <= row < len(self._rows) or not 0 <= column < len(self._columns):
            return False
        spec = self._columns[column]
        hits = self._threshold_cells().get(spec.metric) if spec.metric is not None else None
        return bool(hits[self._rows[row], spec.pipeline_index]) if hits is not None else False

    def _fixed_texts(self, rows: IntArray, key: str) -> list[str]:
        grid = self._grid
        if key == ID_COLUMN:
            return [str(q) for q in grid.question_ids[rows]]
        if key == QUESTION_COLUMN:
            return [_one_line(q) for q in grid.questions[rows]]
        if key == REVIEW_COLUMN:
            return [_REVIEW_LABELS.get(s, s) for s in map(str, grid.review[rows])]
        if self._counts is None:
            self._counts = flag_counts(grid)
        return [_flag_label(n) for n in self._counts[rows].tolist()]

    def _apply(self, grid: GridData, state: GridState, rows: IntArray) -> None:
        changed = state != self._state
        self.beginResetModel()
        if grid is not self._grid:
            self._counts = None
            self._binary = frozenset(pass_fail_metrics(grid, grid.judge_metrics)[1:])
        self._grid, self._state, self._rows, self._where = grid, state, rows, None
        self._marked = None
        self._columns = grid_columns(state, grid.pipelines)
        self.endResetModel()
        if changed:
            self.state_changed.emit(state)

    # -- Qt model interface ---------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        return _CELL_FLAGS if index.isValid() else _NO_FLAGS

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order rows by ``column`` (numpy, stable; missing scores last); -1 restores set order."""
        key = self._columns[column].key if 0 <= column < len(self._columns) else None
        descending = order == Qt.SortOrder.DescendingOrder and key is not None
        self.set_state(replace(self._state, sort_column=key, sort_descending=descending))

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1) if role == _DISPLAY and 0 <= section < len(self._rows) else None
        if not 0 <= section < len(self._columns) or role not in (_DISPLAY, _TOOLTIP):
            return None
        column = self._columns[section]
        if column.metric is None:
            label, tip = _FIXED_HEADERS[column.key]
            return label if role == _DISPLAY else tip
        if role == _DISPLAY:
            return f"{column.pipeline}\n{metric_short(column.metric)}"
        if column.metric in self._grid.judge_metrics:
            return f"{column.pipeline} — judge metric {column.metric} (judge run {self._grid.judge_run_id})"
        return f"{column.pipeline} — {metric_title(column.metric)} ({column.metric})"

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if not (0 <= r < len(self._rows) and 0 <= c < len(self._columns)):
            return None
        row = int(self._rows[r])
        if role == QUESTION_ID_ROLE:
            return self._grid.question_ids[row]
        column = self._columns[c]
        if column.metric is None:
            return self._fixed(row, column.key, role)
        return self._score(row, column, role)

    # -- cells ----------------------------------------------------------------------

    def _flag_count(self, row: int) -> int:
        if self._counts is None:
            self._counts = flag_counts(self._grid)
        return int(self._counts[row])

    def _fixed(self, row: int, key: str, role: int) -> Any:
        grid = self._grid
        if role == _ALIGN:
            return _CENTER if key == FLAGS_COLUMN else _LEFT
        if key == ID_COLUMN:
            return grid.question_ids[row] if role in (_DISPLAY, _USER, _TOOLTIP) else None
        if key == QUESTION_COLUMN:
            return _question_cell(grid, row, role)
        if key == REVIEW_COLUMN:
            return _review_cell(str(grid.review[row]), role)
        count = self._flag_count(row)
        if role == _TOOLTIP:
            return _flags_tip(grid, row) if count else None
        return _flag_label(count) if role == _DISPLAY else count if role == _USER else None

    def _score(self, row: int, column: GridColumn, role: int) -> Any:
        metric, col = str(column.metric), column.pipeline_index
        matrix = self._grid.values.get(metric)
        value = math.nan if matrix is None else float(matrix[row, col])
        if role == _ALIGN:
            return _CENTER if self._state.fk_report_mode else _RIGHT
        if role == _TOOLTIP:
            return self._score_tip(value, column, row, matrix is None)
        if math.isnan(value):
            return "—" if role == _DISPLAY else None
        if role in (_BACKGROUND, _FOREGROUND):
            return self._colour(value) if role == _BACKGROUND else self._text
        if role in (_DISPLAY, _FONT):
            return self._text_cell(value, metric, row, col, role)
        return value if role == _USER else None

    def _text_cell(self, value: float, metric: str, row: int, col: int, role: int) -> Any:
        overridden = self._overridden(metric, row, col)
        if role == _FONT:
            return self._italic if overridden else None
        return self._display(value, metric) + ("*" if overridden else "")

    def _colour(self, value: float) -> QColor:
        if self._state.fk_report_mode:
            return self._scale[_STEPS if value >= 0.5 else 0]
        return self._scale[round(min(max(value, 0.0), 1.0) * _STEPS)]

    def _overridden(self, metric: str, row: int, col: int) -> bool:
        marks = self._grid.overridden.get(metric)
        return marks is not None and bool(marks[row, col])

    def _display(self, value: float, metric: str) -> str:
        if self._state.fk_report_mode:
            return "✓" if value >= FK_FOUND_AT else "✗"
        if (metric in BINARY_METRICS or metric in self._binary) and value in (0.0, 1.0):
            return f"{value:.0f}"
        return f"{value:.2f}"

    def _score_tip(self, value: float, column: GridColumn, row: int, not_loaded: bool) -> str:
        metric, col = str(column.metric), column.pipeline_index
        shown = self._grid.missing_reason(row, col, metric) if math.isnan(value) else f"{value:.4g}"
        if not_loaded:
            shown = "not loaded yet"
        lines = [f"{column.pipeline} · {metric_title(metric)}: {shown}"]
        lines += [f"⚑ {FLAG_LABELS[flag]}" for flag in flags_in(int(self._grid.flags[row, col]))]
        note = self._grid.override_note(row, col, metric)
        if note is not None:
            lines.append(note.describe())
        return "\n".join(lines)


def _one_line(text: object) -> str:
    """A question on one line: newlines would be lost in a grid cell anyway."""
    return " ".join(str(text).split())


def _flag_label(count: int) -> str:
    return f"⚑ {count}" if count else ""


def _question_cell(grid: GridData, row: int, role: int) -> Any:
    if role == _DISPLAY:
        return _one_line(grid.questions[row])
    if role == _TOOLTIP:
        return _question_tip(grid, row)
    return grid.questions[row] if role == _USER else None


def _review_cell(status: str, role: int) -> Any:
    if role == _DISPLAY:
        return _REVIEW_LABELS.get(status, status)
    if role == _TOOLTIP:
        return _REVIEW_LABELS.get(status, status) or "Not reviewed"
    return status if role == _USER else None


def _question_tip(grid: GridData, row: int) -> str:
    def part(title: str, text: object, limit: int = 600) -> str:
        body = str(text)
        body = body if len(body) <= limit else body[:limit] + "…"
        return f"<b>{title}</b><br>{html.escape(body)}"

    parts = [part("Question", grid.questions[row]), part("Answer", grid.answers[row])]
    parts.append(part("Fact", grid.facts[row], 200))
    return "<br><br>".join(parts)


def _flags_tip(grid: GridData, row: int) -> str:
    lines = [f"Question: {FLAG_LABELS[flag]}" for flag in flags_in(int(grid.golden_flags[row]))]
    for col, pipeline in enumerate(grid.pipelines):
        lines += [f"{pipeline}: {FLAG_LABELS[flag]}" for flag in flags_in(int(grid.flags[row, col]))]
    return "\n".join(lines)

"""Table model of the score grid: a view onto :class:`GridData` column arrays.

The model holds the arrays, the :class:`GridState` and the visible row order (an index
array computed in numpy by :func:`goldenlens.core.view.grid_rows.visible_rows`). ``data()`` indexes
into the arrays and formats only the cells Qt asks for, so 100,000 rows cost no more than
the screenful being painted. Sorting and filtering replace the order array and reset the
model; there is no proxy model and no item per cell.

The view paints through :meth:`ScoreTableModel.column_cells` (one call per column per
paint, see :mod:`goldenlens.ui.grid.score_table_view`) rather than ``data()``: Qt's own painting
asks ``data()`` seven times per cell plus ``flags()`` and ``index()``, and those ~4,000
Python calls from C++ per screenful were most of an 80 ms repaint. Both paths format with
the same functions (:mod:`goldenlens.ui.grid.grid_cells`, colours from
:mod:`goldenlens.ui.grid.colour_scale`), so the grid shows what ``data()`` reports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.view.grid_rows import flag_counts, visible_rows
from goldenlens.core.view.grid_state import (
    FLAGS_COLUMN,
    ID_COLUMN,
    QUESTION_COLUMN,
    REVIEW_COLUMN,
    BoolArray,
    GridColumn,
    GridState,
    IntArray,
    grid_columns,
)
from goldenlens.core.view.pass_fail import pass_fail_metrics
from goldenlens.core.view.threshold import parse_threshold
from goldenlens.queries.grid import GridData
from goldenlens.ui.grid.colour_scale import STEPS, colour_scale
from goldenlens.ui.grid.grid_cells import (
    DISPLAY,
    REVIEW_LABELS,
    TOOLTIP,
    USER,
    flag_label,
    flags_tip,
    header_text,
    one_line,
    question_cell,
    review_cell,
    score_text,
    score_tip,
)

#: Role giving the question id of any cell's row.
QUESTION_ID_ROLE = int(Qt.ItemDataRole.UserRole) + 1

_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
# One flags value for every cell: enum arithmetic per call costs microseconds each.
_CELL_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_CENTER = Qt.AlignmentFlag.AlignCenter
_Index = QModelIndex | QPersistentModelIndex
_PARTIAL_TIP = "The first {:,} questions while the rest load: filters and sorting cover them until then"


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
            REVIEW_COLUMN: metrics.horizontalAdvance(REVIEW_LABELS["needs_curation"]) + 16,
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
        whose values are only 0 and 1 (:func:`goldenlens.core.view.pass_fail.pass_fail_metrics`)."""
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
            return [one_line(q) for q in grid.questions[rows]]
        if key == REVIEW_COLUMN:
            return [REVIEW_LABELS.get(s, s) for s in map(str, grid.review[rows])]
        if self._counts is None:
            self._counts = flag_counts(grid)
        return [flag_label(n) for n in self._counts[rows].tolist()]

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

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1) if role == DISPLAY and 0 <= section < len(self._rows) else None
        if not 0 <= section < len(self._columns) or role not in (DISPLAY, TOOLTIP):
            return None
        return header_text(self._columns[section], self._grid, role)

    def data(self, index: _Index, role: int = DISPLAY) -> Any:
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
            return grid.question_ids[row] if role in (DISPLAY, USER, TOOLTIP) else None
        if key == QUESTION_COLUMN:
            return question_cell(grid, row, role)
        if key == REVIEW_COLUMN:
            return review_cell(str(grid.review[row]), role)
        count = self._flag_count(row)
        if role == TOOLTIP:
            return flags_tip(grid, row) if count else None
        return flag_label(count) if role == DISPLAY else count if role == USER else None

    def _score(self, row: int, column: GridColumn, role: int) -> Any:
        metric, col = str(column.metric), column.pipeline_index
        matrix = self._grid.values.get(metric)
        value = math.nan if matrix is None else float(matrix[row, col])
        if role == _ALIGN:
            return _CENTER if self._state.fk_report_mode else _RIGHT
        if role == TOOLTIP:
            return score_tip(self._grid, value, column, row, not_loaded=matrix is None)
        if math.isnan(value):
            return "—" if role == DISPLAY else None
        if role in (_BACKGROUND, _FOREGROUND):
            return self._colour(value) if role == _BACKGROUND else self._text
        if role in (DISPLAY, _FONT):
            return self._text_cell(value, metric, row, col, role)
        return value if role == USER else None

    def _text_cell(self, value: float, metric: str, row: int, col: int, role: int) -> Any:
        overridden = self._overridden(metric, row, col)
        if role == _FONT:
            return self._italic if overridden else None
        return self._display(value, metric) + ("*" if overridden else "")

    def _colour(self, value: float) -> QColor:
        if self._state.fk_report_mode:
            return self._scale[STEPS if value >= 0.5 else 0]
        return self._scale[round(min(max(value, 0.0), 1.0) * STEPS)]

    def _overridden(self, metric: str, row: int, col: int) -> bool:
        marks = self._grid.overridden.get(metric)
        return marks is not None and bool(marks[row, col])

    def _display(self, value: float, metric: str) -> str:
        return score_text(
            value, metric, binary=metric in self._binary, report_mode=self._state.fk_report_mode
        )

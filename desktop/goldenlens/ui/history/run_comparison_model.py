"""Table models of the Run History dialog: the runs, and two runs compared for one metric.

:class:`ComparisonTableModel` has one row per question and one column per pipeline. A cell
shows the score before → after with ▲ (improved) or ▼ (regressed), so the change reads
without colour too; improved cells are green, regressed red, unchanged plain (the same tints
as the comparison workbook). ``CHANGE_ROLE`` gives the change word for tests and delegates.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from goldenlens.core.golden.versions import short_time
from goldenlens.core.runs.run_comparison import IMPROVED, NOT_SCORED, REGRESSED, CellChange, RunComparison
from goldenlens.core.view.metric_names import metric_label
from goldenlens.jobs.reporting.run_history import RunListing
from goldenlens.ui.widgets.row_table_model import RowTableModel

_Index = QModelIndex | QPersistentModelIndex

#: The change word (``improved``, ``regressed``, ``unchanged``, ``not_scored``) of a cell.
CHANGE_ROLE: Final = int(Qt.ItemDataRole.UserRole) + 1

#: Excel's "good" and "bad" cell styles: light fills with dark text, readable on any palette.
IMPROVED_BACKGROUND: Final = QColor("#C6EFCE")
IMPROVED_TEXT: Final = QColor("#006100")
REGRESSED_BACKGROUND: Final = QColor("#FFC7CE")
REGRESSED_TEXT: Final = QColor("#9C0006")
_MARKS: Final = {IMPROVED: " ▲", REGRESSED: " ▼"}
_WORDS: Final = {
    IMPROVED: "improved",
    REGRESSED: "regressed",
    "unchanged": "unchanged",
    NOT_SCORED: "not scored",
}

_BACKGROUNDS: Final = {IMPROVED: IMPROVED_BACKGROUND, REGRESSED: REGRESSED_BACKGROUND}
_FOREGROUNDS: Final = {IMPROVED: IMPROVED_TEXT, REGRESSED: REGRESSED_TEXT}

RUN_COLUMNS: Final = ("Run", "Kind", "Started", "Status", "Rows", "Options", "Golden version", "Fingerprint")


def _score(value: float | None) -> str:
    return "n/s" if value is None else f"{value:.3f}"


def _cell_text(cell: CellChange) -> str:
    """``0.462 → 0.000 ▼`` for a change (``n/s``: not scored), the score alone when unchanged."""
    if cell.change in _MARKS:
        return f"{_score(cell.before)} → {_score(cell.after)}{_MARKS[cell.change]}"
    if cell.change == NOT_SCORED:
        return f"{_score(cell.before)} → {_score(cell.after)}"
    return _score(cell.after)


class RunListModel(RowTableModel):
    """The project's runs, newest first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(RUN_COLUMNS, parent)

    def set_runs(self, runs: list[RunListing]) -> None:
        self.replace_rows(sorted(runs, key=lambda run: run.id, reverse=True))

    def run_at(self, row: int) -> RunListing | None:
        run: RunListing | None = self.row_at(row)
        return run

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        run = self.run_at(index.row()) if index.isValid() else None
        if run is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            values = (
                str(run.id),
                run.kind,
                short_time(run.started_at),
                run.status,
                f"{run.rows:,}",
                run.options_summary,
                run.golden_version,
                run.fingerprint_short,
            )
            return values[index.column()] if 0 <= index.column() < len(values) else None
        if role == Qt.ItemDataRole.ToolTipRole:
            finished = short_time(run.finished_at) if run.finished_at else "not finished"
            return (
                f"Run {run.id} ({run.kind}), {run.status}; finished {finished}\n"
                f"Input fingerprint (SHA-256): {run.fingerprint or 'unknown (not recorded)'}"
            )
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (0, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class ComparisonTableModel(QAbstractTableModel):
    """Questions by pipelines of one metric of a :class:`RunComparison`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._comparison: RunComparison | None = None
        self._metric = ""
        self._cells: dict[tuple[str, str], CellChange] = {}

    @property
    def comparison(self) -> RunComparison | None:
        return self._comparison

    @property
    def metric(self) -> str:
        return self._metric

    def set_comparison(self, comparison: RunComparison | None, metric: str = "") -> None:
        self.beginResetModel()
        self._comparison = comparison
        metrics = comparison.metrics if comparison is not None else ()
        self._metric = metric if metric in metrics else (metrics[0] if metrics else "")
        self._index()
        self.endResetModel()

    def set_metric(self, metric: str) -> None:
        self.beginResetModel()
        self._metric = metric
        self._index()
        self.endResetModel()

    def _index(self) -> None:
        cells = () if self._comparison is None else self._comparison.cells
        self._cells = {(c.question_id, c.pipeline): c for c in cells if c.metric == self._metric}

    def _questions(self) -> tuple[str, ...]:
        return () if self._comparison is None else self._comparison.questions

    def _pipelines(self) -> tuple[str, ...]:
        return () if self._comparison is None else self._comparison.pipelines

    def cell_at(self, row: int, column: int) -> CellChange | None:
        questions, pipelines = self._questions(), self._pipelines()
        if not (0 <= row < len(questions) and 0 <= column < len(pipelines)):
            return None
        return self._cells.get((questions[row], pipelines[column]))

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._questions())

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._pipelines())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        names = self._pipelines() if orientation == Qt.Orientation.Horizontal else self._questions()
        return names[section] if 0 <= section < len(names) else None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        cell = self.cell_at(index.row(), index.column()) if index.isValid() else None
        if cell is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return _cell_text(cell)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(cell)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        roles: dict[int, object] = {
            CHANGE_ROLE: cell.change,
            Qt.ItemDataRole.BackgroundRole: _BACKGROUNDS.get(cell.change),
            Qt.ItemDataRole.ForegroundRole: _FOREGROUNDS.get(cell.change),
        }
        return roles.get(role)

    def _tooltip(self, cell: CellChange) -> str:
        comparison = self._comparison
        base, head = (0, 0) if comparison is None else (comparison.base_run, comparison.head_run)
        delta = "" if cell.delta is None else f" ({cell.delta:+.3f})"
        return (
            f"{cell.question_id} · {cell.pipeline} · {metric_label(cell.metric)}\n"
            f"run {base} (before): {_score(cell.before)}\nrun {head} (after): {_score(cell.after)}\n"
            f"{_WORDS[cell.change]}{delta}"
        )

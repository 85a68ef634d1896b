"""The scores table of a response card: seven lexical scores, overrides marked.

A tiny :class:`QAbstractTableModel` (house style: no ``QTableWidget`` for data) over one
:class:`~goldenlens.queries.detail.PipelineDetail`. Colours come from the value in force.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.project_records import Override
from goldenlens.core.view.metric_names import METRIC_LABELS
from goldenlens.core.view.score_colours import CARD_SCORE_STOPS, score_rgb
from goldenlens.queries.detail import PipelineDetail

# The chips are pastel (CARD_SCORE_STOPS) under dark text, which reads on any palette.
_SCORE_TEXT = QColor("#111111")


def score_colour(value: float) -> QColor:
    """Red (0) through amber (0.5) to green (1): light enough for dark text on any palette."""
    return QColor(*score_rgb(value, CARD_SCORE_STOPS))


def _override_text(override: Override, original: float | None) -> str:
    parts = ["Overridden"]
    if override.reviewer:
        parts.append(f"by {override.reviewer}")
    if override.created_at:
        parts.append(f"on {override.created_at[:16].replace('T', ' ')}")
    lines = [" ".join(parts)]
    if override.passed is not None:
        lines.append("Verdict: " + ("pass" if override.passed else "fail"))
    if original is not None:
        lines.append(f"Original score: {original:.3f}")
    if override.note:
        lines.append(f"Note: {override.note}")
    return "\n".join(lines)


class ScoresModel(QAbstractTableModel):
    """The seven lexical scores of one response: metric, value in force, original if overridden."""

    HEADERS = ("Score", "Value", "Original")

    def __init__(self, detail: PipelineDetail, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._detail = detail
        self.metrics: tuple[str, ...] = LEXICAL_SCORE_NAMES

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        """Seven rows, one per lexical score."""
        return 0 if parent.isValid() else len(self.metrics)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        """Metric, value, original."""
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        """Column titles."""
        if orientation is Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        """Formatted values (3 decimals), colours from the value, override details as tooltip."""
        if not index.isValid() or not 0 <= index.row() < len(self.metrics):
            return None
        metric = self.metrics[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(metric, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(metric)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter) if column > 0 else None
        return self._colour(metric, column, role)

    def _colour(self, metric: str, column: int, role: int) -> QColor | None:
        value = self._detail.effective_score(metric)
        if column != 1 or value is None:
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            return score_colour(value)
        return _SCORE_TEXT if role == Qt.ItemDataRole.ForegroundRole else None

    def _tooltip(self, metric: str) -> str:
        tip = f"{metric}\n{self._detail.signature}".strip()
        reason = self._detail.reasons.get(metric)
        if reason:
            tip = f"{tip}\n\nNot scored: {reason}"
        override = self._detail.overrides.get(metric)
        if override is None:
            return tip
        return f"{tip}\n\n{_override_text(override, self._detail.scores.get(metric))}"

    def _display(self, metric: str, column: int) -> str:
        value = self._detail.effective_score(metric)
        original = self._detail.scores.get(metric)
        override = self._detail.overrides.get(metric)
        if column == 0:
            return METRIC_LABELS.get(metric, metric)
        if column == 1:
            shown = (
                ("not scored" if metric in self._detail.reasons else "—") if value is None else f"{value:.3f}"
            )
            if override is None:
                return shown
            verdict = {True: " ✓", False: " ✗", None: ""}[override.passed]
            return f"✎ {shown}{verdict}"
        return f"{original:.3f}" if override is not None and original is not None else ""

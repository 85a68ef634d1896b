"""The drafts review queue as Qt sees it: the status filter and the list model of drafts.

"Flagged" is not a stored state: it is a pending draft with problems
(:attr:`goldenlens.core.golden.drafts.Draft.problems`), so the filter counts it from the pending
drafts the query returns; the other counts are the query's own
(:attr:`goldenlens.queries.drafts.DraftQueue.counts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from goldenlens.queries.drafts import Draft, DraftQueue, DraftStatus

__all__ = ["DRAFT_ID_ROLE", "DraftFilter", "DraftListModel", "FilterCount", "filter_counts", "is_flagged"]

#: The draft id of a row (``int``).
DRAFT_ID_ROLE = Qt.ItemDataRole.UserRole + 1

_Index = QModelIndex | QPersistentModelIndex


class DraftFilter(StrEnum):
    """What the queue shows."""

    ALL = "all"
    PENDING = "pending"
    FLAGGED = "flagged"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


_LABELS = {
    DraftFilter.ALL: "All",
    DraftFilter.PENDING: "Pending",
    DraftFilter.FLAGGED: "Flagged (pending)",
    DraftFilter.ACCEPTED: "Accepted",
    DraftFilter.REJECTED: "Rejected",
}

# Text colours that read on light and dark palettes alike (as in the score grid).
_STATUS_COLOURS = {
    DraftStatus.ACCEPTED: "#1e7b34",
    DraftStatus.REJECTED: "#7a7f87",
}
_FLAGGED_COLOUR = "#b3261e"


def is_flagged(draft: Draft) -> bool:
    """A pending draft with problems: accepted only deliberately."""
    return draft.status is DraftStatus.PENDING and bool(draft.problems)


@dataclass(frozen=True)
class FilterCount:
    """One entry of the status filter: what it selects, its label and how many drafts."""

    filter: DraftFilter
    count: int

    @property
    def label(self) -> str:
        return f"{_LABELS[self.filter]} ({self.count})"


def filter_counts(queue: DraftQueue, pending: Sequence[Draft]) -> list[FilterCount]:
    """The filter's entries from the query's counts; ``pending`` are the pending drafts (for
    the flagged count)."""
    counts = queue.counts
    return [
        FilterCount(DraftFilter.ALL, queue.total),
        FilterCount(DraftFilter.PENDING, counts[DraftStatus.PENDING]),
        FilterCount(DraftFilter.FLAGGED, sum(1 for d in pending if is_flagged(d))),
        FilterCount(DraftFilter.ACCEPTED, counts[DraftStatus.ACCEPTED]),
        FilterCount(DraftFilter.REJECTED, counts[DraftStatus.REJECTED]),
    ]


def select(drafts: Sequence[Draft], chosen: DraftFilter) -> list[Draft]:
    """The drafts ``chosen`` shows, in queue order."""
    if chosen is DraftFilter.ALL:
        return list(drafts)
    if chosen is DraftFilter.FLAGGED:
        return [d for d in drafts if is_flagged(d)]
    return [d for d in drafts if d.status.value == chosen.value]


def status_text(draft: Draft) -> str:
    """``pending``, ``flagged``, ``accepted as draft-3`` or ``rejected``."""
    if is_flagged(draft):
        return "flagged"
    if draft.status is DraftStatus.ACCEPTED and draft.golden_id:
        return f"accepted as {draft.golden_id}"
    return draft.status.value


class DraftListModel(QAbstractListModel):
    """One row per draft: number, state and provenance on the first line, the question below."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._drafts: list[Draft] = []

    def set_drafts(self, drafts: Sequence[Draft]) -> None:
        self.beginResetModel()
        self._drafts = list(drafts)
        self.endResetModel()

    def drafts(self) -> list[Draft]:
        return list(self._drafts)

    def draft_at(self, row: int) -> Draft | None:
        return self._drafts[row] if 0 <= row < len(self._drafts) else None

    def row_of(self, draft_id: int) -> int | None:
        return next((row for row, d in enumerate(self._drafts) if d.id == draft_id), None)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._drafts)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        draft = self.draft_at(index.row()) if index.isValid() else None
        if draft is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            mark = "⚠ " if is_flagged(draft) else ""
            question = draft.text.question or "(no question drafted)"
            return f"{mark}#{draft.id} · {status_text(draft)} · {draft.provenance()}\n{question}"
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [draft.provenance(), *(f"⚠ {p.message}" for p in draft.problems)]
            if draft.note:
                lines.append(f"note: {draft.note}")
            return "\n".join(lines)
        if role == Qt.ItemDataRole.ForegroundRole:
            colour = _FLAGGED_COLOUR if is_flagged(draft) else _STATUS_COLOURS.get(draft.status)
            return None if colour is None else QBrush(QColor(colour))
        if role == DRAFT_ID_ROLE:
            return draft.id
        return None

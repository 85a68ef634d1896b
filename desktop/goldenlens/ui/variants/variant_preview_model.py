"""Table models of the variant dialog: the suggestions (grouped by kind, checkable) and the
preview rows (this question's flips, other questions' responses that contain a variant).

Both hold the core's frozen values (:class:`~goldenlens.core.variants.flip_preview.VariantPreview`,
:class:`~goldenlens.core.variants.flip_preview.PreviewRow`) and only format them: every number,
flip and risk comes from :mod:`goldenlens.core.variants.flip_preview`, nothing is re-scored here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT
from goldenlens.core.variants.flip_preview import PreviewRow, RowKind, VariantPreview
from goldenlens.core.variants.generator import RISK_DIGITS, RISK_SHORT, RISK_YEAR
from goldenlens.core.variants.kinds import VariantKind
from goldenlens.core.view.wording import plural
from goldenlens.ui.widgets.highlight_html import snippet_html
from goldenlens.ui.widgets.row_table_model import Index, RowTableModel

#: Role of a suggestion row's :class:`VariantPreview` (``None`` on a kind header row).
PREVIEW_ROLE = Qt.ItemDataRole.UserRole + 1
#: Role of a preview row's snippet as rich text (the matched text highlighted).
HTML_ROLE = Qt.ItemDataRole.UserRole + 2

#: How each kind is named in its group header, in display order.
KIND_LABELS: dict[VariantKind, str] = {
    VariantKind.SCALE: "Scale and unit",
    VariantKind.GROUPING: "Digit grouping",
    VariantKind.DATE: "Date",
    VariantKind.PERCENT: "Percent",
    VariantKind.NUMBER_WORD: "Number word",
    VariantKind.ABBREVIATION: "Abbreviation",
}

_RISK_BADGES = {RISK_SHORT: "short", RISK_YEAR: "a year", RISK_DIGITS: "digit string"}
_RISK_COLOURS = (QColor("#ffe1a8"), QColor("#4d2d00"))
_FLIP_COLOURS = (QColor("#c8efd2"), QColor("#0b3a1c"))
_HEADER_COLOURS = (QColor("#e4e7ec"), QColor("#1f2430"))


def risk_badge(risk: str) -> str:
    """The one- or two-word badge of a false-match risk (its tooltip gives the explanation)."""
    if risk in _RISK_BADGES:
        return _RISK_BADGES[risk]
    if risk.startswith("numeric date"):
        return "ambiguous date"
    return risk.split(":", 1)[0][:24]


def changes_text(preview: VariantPreview) -> str:
    """Which Factual Knowledge scores the suggestion can change: ``exact + quasi``."""
    names = {FACTUAL_KNOWLEDGE: "exact", FACTUAL_KNOWLEDGE_QUASI_EXACT: "quasi"}
    return " + ".join(names.get(c, c) for c in preview.variant.changes)


def flipped_pipelines(preview: VariantPreview) -> list[str]:
    """The pipelines of this question whose score the suggestion raises, in order."""
    return list(dict.fromkeys(r.pipeline for r in preview.flips))


class SuggestionTableModel(RowTableModel):
    """The suggestions grouped by kind: a header row per kind, then its suggestions, each
    with a check box (the ones "Add" adds). A header's check box checks its whole kind."""

    COLUMNS = ("Variant", "Why the same", "Can change", "Flips here", "Elsewhere", "Risk")
    checked_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(self.COLUMNS, parent, tips=dict(zip(self.COLUMNS, _COLUMN_TIPS, strict=True)))
        self._checked: set[int] = set()  # row numbers of checked suggestions

    def set_previews(self, previews: Sequence[VariantPreview]) -> None:
        """Show ``previews`` grouped by kind (the core's order inside a kind); none checked."""
        rows: list[VariantKind | VariantPreview] = []
        for kind in KIND_LABELS:
            of_kind = [p for p in previews if p.variant.kind is kind]
            if of_kind:
                rows.append(kind)
                rows.extend(of_kind)
        self._checked = set()
        self.replace_rows(rows)
        self.checked_changed.emit()

    def previews(self) -> list[VariantPreview]:
        """Every suggestion, in display order."""
        return [r for r in self._rows if isinstance(r, VariantPreview)]

    def checked(self) -> list[VariantPreview]:
        """The checked suggestions, in display order."""
        return [r for i, r in enumerate(self._rows) if isinstance(r, VariantPreview) and i in self._checked]

    def preview_at(self, row: int) -> VariantPreview | None:
        """The suggestion of ``row`` (``None`` for a kind header)."""
        entry = self._rows[row] if 0 <= row < len(self._rows) else None
        return entry if isinstance(entry, VariantPreview) else None

    def is_header(self, row: int) -> bool:
        return 0 <= row < len(self._rows) and isinstance(self._rows[row], VariantKind)

    def row_of(self, text: str) -> int:
        """The row of the suggestion whose text is ``text`` (-1: none)."""
        return next(
            (i for i, r in enumerate(self._rows) if isinstance(r, VariantPreview) and r.variant.text == text),
            -1,
        )

    def set_checked(self, row: int, checked: bool) -> None:
        """Check or uncheck one suggestion (or, on a header row, every suggestion of its kind)."""
        rows = self._kind_rows(row) if self.is_header(row) else [row]
        rows = [r for r in rows if self.preview_at(r) is not None]
        if not rows:
            return
        for r in rows:
            if checked:
                self._checked.add(r)
            else:
                self._checked.discard(r)
        first, last = min(rows), max(rows)
        header = self._header_of(first)
        top = self.index(header if header >= 0 else first, 0)
        self.dataChanged.emit(top, self.index(last, 0), [Qt.ItemDataRole.CheckStateRole])
        self.checked_changed.emit()

    def _kind_rows(self, header: int) -> list[int]:
        rows = []
        for r in range(header + 1, len(self._rows)):
            if self.is_header(r):
                break
            rows.append(r)
        return rows

    def _header_of(self, row: int) -> int:
        return next((r for r in range(row, -1, -1) if self.is_header(r)), -1)

    # -- Qt model API ---------------------------------------------------------------------

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == 0:
            base |= Qt.ItemFlag.ItemIsUserCheckable
        return base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or index.column() != 0 or role != Qt.ItemDataRole.CheckStateRole:
            return False
        state = value if isinstance(value, Qt.CheckState) else Qt.CheckState(int(value))
        self.set_checked(index.row(), state == Qt.CheckState.Checked)
        return True

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        entry = self._rows[index.row()]
        if isinstance(entry, VariantKind):
            return self._header_data(index.row(), entry, index.column(), role)
        return self._suggestion_data(index.row(), entry, index.column(), role)

    def _header_data(self, row: int, kind: VariantKind, column: int, role: int) -> Any:
        styled: dict[int, Any] = {
            Qt.ItemDataRole.FontRole: _BOLD,
            Qt.ItemDataRole.BackgroundRole: QBrush(_HEADER_COLOURS[0]),
            Qt.ItemDataRole.ForegroundRole: QBrush(_HEADER_COLOURS[1]),
            Qt.ItemDataRole.ToolTipRole: f"Check to add every {KIND_LABELS[kind].lower()} variant",
        }
        if column != 0:
            return styled.get(role)
        rows = self._kind_rows(row)
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{KIND_LABELS[kind]} ({len(rows)})"
        if role == Qt.ItemDataRole.CheckStateRole:
            count = sum(1 for r in rows if r in self._checked)
            if count == 0:
                return Qt.CheckState.Unchecked
            return Qt.CheckState.Checked if count == len(rows) else Qt.CheckState.PartiallyChecked
        return styled.get(role)

    def _suggestion_data(self, row: int, preview: VariantPreview, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.CheckStateRole:
            checked = Qt.CheckState.Checked if row in self._checked else Qt.CheckState.Unchecked
            return checked if column == 0 else None
        colours = _cell_colours(preview, column)
        by_role: dict[int, Any] = {
            PREVIEW_ROLE: lambda: preview,
            Qt.ItemDataRole.DisplayRole: lambda: _suggestion_texts(preview)[column],
            Qt.ItemDataRole.AccessibleTextRole: lambda: _suggestion_texts(preview)[column],
            Qt.ItemDataRole.ToolTipRole: lambda: _suggestion_tips(preview)[column],
            Qt.ItemDataRole.BackgroundRole: lambda: QBrush(colours[0]) if colours else None,
            Qt.ItemDataRole.ForegroundRole: lambda: QBrush(colours[1]) if colours else None,
        }
        value = by_role.get(role)
        return value() if value is not None else None


def _bold() -> QFont:
    font = QFont()
    font.setBold(True)
    return font


_BOLD = _bold()


def _cell_colours(preview: VariantPreview, column: int) -> tuple[QColor, QColor] | None:
    """Amber for a risk (a known one, or matches in other questions), green for flips."""
    if (column == 5 and preview.variant.risky) or (column == 4 and preview.elsewhere_count > 0):
        return _RISK_COLOURS
    if column == 3 and preview.flips_up > 0:
        return _FLIP_COLOURS
    return None


def _suggestion_texts(preview: VariantPreview) -> tuple[str, ...]:
    """The displayed cells of one suggestion row, by column."""
    variant = preview.variant
    pipelines = flipped_pipelines(preview)
    return (
        variant.text,
        variant.note,
        changes_text(preview),
        f"0 → 1: {', '.join(pipelines)}" if pipelines else "none",
        str(preview.elsewhere_count) if preview.elsewhere_count else "—",
        ("⚠ " + ", ".join(risk_badge(r) for r in variant.risks)) if variant.risks else "—",
    )


def _suggestion_tips(preview: VariantPreview) -> tuple[str, ...]:
    """The tooltips of one suggestion row, by column: each explains its cell."""
    variant = preview.variant
    same = f"{variant.note}." if variant.note else ""
    group = " An <AND> alternative: a response must contain every part." if variant.and_group else ""
    what = f"{same} Respells “{variant.source}”.{group}".strip()
    flips = (
        f"{plural(preview.flips_up, 'response')} to this question would go from 0 to 1."
        if preview.flips_up
        else "No response to this question would change: no pipeline writes it so here."
    )
    elsewhere = (
        f"{plural(preview.elsewhere_count, 'response')} to other questions contain this "
        "variant: it is not specific to this fact."
        if preview.elsewhere_count
        else "No response to another question contains this variant."
    )
    risks = "\n".join(f"⚠ {r}" for r in variant.risks) or "No known false-match risk."
    changes = "Which Factual Knowledge score this variant can raise: exact and/or quasi-exact."
    return (what, what, changes, flips, elsewhere, risks)


_COLUMN_TIPS = (
    "The alternative to add to the fact (<OR>); check the ones to add",
    "Why it stands for exactly the same value (never a rounding)",
    "Which Factual Knowledge scores it can change (exact, quasi-exact)",
    "Pipelines of this question whose score it raises from 0 to 1",
    "Responses to other questions that contain it (would match there: a false-match risk)",
    "Why it may match text that is not the fact",
)


class PreviewRowsModel(RowTableModel):
    """Preview rows of one kind for the variants shown: flips of this question
    (variant, pipeline, before → after, snippet) or responses of other questions
    (variant, question, pipeline, snippet)."""

    def __init__(self, kind: RowKind, parent: QObject | None = None) -> None:
        columns = (
            ("Variant", "Pipeline", "Before → after", "Response")
            if kind is RowKind.FLIP
            else ("Variant", "Question", "Pipeline", "Response")
        )
        super().__init__(columns, parent)
        self.kind = kind

    def set_previews(self, previews: Sequence[VariantPreview]) -> None:
        """Show the rows of ``kind`` of every preview in ``previews``."""
        self.replace_rows((p, r) for p in previews for r in p.rows if r.kind is self.kind)

    def row(self, row: int) -> PreviewRow:
        shown: PreviewRow = self._rows[row][1]
        return shown

    @property
    def snippet_column(self) -> int:
        return len(self.columns) - 1

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        preview, row = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(preview, row, column)
        if role == HTML_ROLE:
            return snippet_html(row.snippet) if column == self.snippet_column else None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        return None

    def _tooltip(self, row: PreviewRow, column: int) -> str | None:
        if column == self.snippet_column:
            return row.snippet.replace("[[", "«").replace("]]", "»")
        if self.kind is RowKind.FLIP and column == 2 and row.stored is not None:
            return "The run's stored score differs from the current fact's: rescore the project."
        return row.risk or None

    def _display(self, preview: VariantPreview, row: PreviewRow, column: int) -> str:
        if column == 0:
            return preview.variant.text
        if column == self.snippet_column:
            return row.snippet.replace("[[", "").replace("]]", "")
        if self.kind is RowKind.FLIP:
            return row.pipeline if column == 1 else row.change()
        return row.question_id if column == 1 else row.pipeline

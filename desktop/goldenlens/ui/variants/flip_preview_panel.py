"""The flip preview of the variant dialog: for the suggestions shown, the responses of this
question that would flip 0 → 1 (the matched text highlighted) and the risk list — responses of
other questions that contain a variant (it would match there too).

Only shows :class:`~goldenlens.core.variants.flip_preview.VariantPreview` rows the job computed.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QAbstractItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.variants.flip_preview import RowKind, VariantPreview
from goldenlens.core.view.wording import plural
from goldenlens.ui.variants.variant_preview_model import HTML_ROLE, PreviewRowsModel
from goldenlens.ui.widgets.rich_text_delegate import RichTextDelegate

#: Rows a preview table shows before it scrolls.
VISIBLE_ROWS = 5
_RISK_COLOUR = "color: #7a4b00;"


def plain_table(model: QAbstractItemModel, parent: QWidget) -> QTableView:
    """A read-only table of whole-row selection, arrows inside it and Tab out of it."""
    view = QTableView(parent)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 10)
    view.setTabKeyNavigation(False)
    return view


class FlipPreviewPanel(QWidget):
    """Captions and two tables, each as tall as its rows (hidden when it has none)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.flips = PreviewRowsModel(RowKind.FLIP, self)
        self.elsewhere = PreviewRowsModel(RowKind.ELSEWHERE, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        self.caption = QLabel(self)
        self.caption.setWordWrap(True)
        layout.addWidget(self.caption)
        self.flip_view = self._rows_view(self.flips, "Responses of this question that would flip")
        layout.addWidget(self.flip_view)
        self.elsewhere_caption = QLabel(self)
        self.elsewhere_caption.setWordWrap(True)
        layout.addWidget(self.elsewhere_caption)
        self.elsewhere_view = self._rows_view(
            self.elsewhere, "Responses of other questions that contain the variant"
        )
        layout.addWidget(self.elsewhere_view)
        # As tall as its contents: the room left over stays below it, not between its rows.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

    def _rows_view(self, model: PreviewRowsModel, name: str) -> QTableView:
        view = plain_table(model, self)
        view.setAccessibleName(name)
        view.setItemDelegateForColumn(model.snippet_column, RichTextDelegate(HTML_ROLE, view))
        header = view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        # Two lines per row: the snippet wraps instead of hiding the text after the match.
        view.setWordWrap(True)
        view.verticalHeader().setDefaultSectionSize(2 * view.fontMetrics().lineSpacing() + 10)
        return view

    @staticmethod
    def _fit_rows(view: QTableView, rows: int) -> None:
        view.setVisible(rows > 0)
        shown = min(rows, VISIBLE_ROWS)
        frame = 2 * view.frameWidth()
        header = view.horizontalHeader().sizeHint().height()
        view.setFixedHeight(frame + header + shown * view.verticalHeader().defaultSectionSize() + 2)

    def show_previews(self, question_id: str, shown: Sequence[VariantPreview], *, checked: bool) -> list[str]:
        """Show ``shown`` (the checked suggestions, or the current one when ``checked`` is
        false); returns the pipelines of ``question_id`` whose score they raise, in order."""
        self.flips.set_previews(shown)
        self.elsewhere.set_previews(shown)
        flips = self.flips.rowCount()
        self._fit_rows(self.flip_view, flips)
        self._fit_rows(self.elsewhere_view, self.elsewhere.rowCount())
        if not shown:
            self.caption.setText("")
            self.elsewhere_caption.setText("")
            return []
        qid = html.escape(question_id)
        if checked:
            what = f"the {plural(len(shown), 'checked variant')}"
        else:
            what = f"“{html.escape(shown[0].variant.text)}” (not checked)"
        change = (
            f"{plural(flips, 'response')} of {qid} would go from 0 to 1"
            if flips
            else f"no response of {qid} would change"
        )
        self.caption.setText(f"<b>Flip preview</b> of {what}: {change}")
        total = sum(p.elsewhere_count for p in shown)
        if total:
            listed = self.elsewhere.rowCount()
            more = f" (first {listed} shown)" if listed < total else ""
            verb = "contains" if total == 1 else "contain"
            which = "it" if len(shown) == 1 else "a variant shown"
            self.elsewhere_caption.setText(
                f"<b>⚠ False-match risk:</b> {plural(total, 'response')} to other questions "
                f"{verb} {which}{more} — not specific to this fact"
            )
            self.elsewhere_caption.setStyleSheet(_RISK_COLOUR)
        else:
            self.elsewhere_caption.setText("<b>Risk list:</b> no response to another question contains it")
            self.elsewhere_caption.setStyleSheet("")
        return list(dict.fromkeys(self.flips.row(r).pipeline for r in range(flips)))

"""A table delegate that draws a cell's rich text (a highlighted response snippet).

The model hands the HTML in a role of its choice (built by :mod:`goldenlens.ui.widgets.highlight_html`
from the core's spans); the delegate only lays it out in the cell, elided to the cell's
width (wrapped at word boundaries, clipped to the cell: the view sets the row height), with
the selection colours when the row is selected.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QRectF, QSize
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QTextDocument, QTextOption
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

Index = QModelIndex | QPersistentModelIndex


class RichTextDelegate(QStyledItemDelegate):
    """Draws ``index.data(role)`` as rich text; falls back to the plain display text."""

    def __init__(self, role: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._role = role

    def _document(
        self, option: QStyleOptionViewItem, index: Index, width: float = -1
    ) -> QTextDocument | None:
        rich = index.data(self._role)
        if not isinstance(rich, str):
            return None
        document = QTextDocument()
        document.setDocumentMargin(2)
        document.setDefaultFont(option.font)
        text_option = QTextOption()
        text_option.setWrapMode(
            QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere if width > 0 else QTextOption.WrapMode.NoWrap
        )
        document.setDefaultTextOption(text_option)
        document.setHtml(rich)
        document.setTextWidth(width)
        return document

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        if not isinstance(index.data(self._role), str):
            super().paint(painter, option, index)
            return
        self.initStyleOption(option, index)
        style = option.widget.style() if option.widget is not None else QApplication.style()
        option.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, option.widget)
        document = self._document(option, index, rect.width())
        if document is None:
            return
        context = QAbstractTextDocumentLayout.PaintContext()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        group = QPalette.ColorGroup.Normal
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, option.palette.color(group, role))
        painter.save()
        top = rect.top() + max(0, (rect.height() - int(document.size().height())) // 2)
        painter.translate(rect.left(), top)
        clip = QRectF(0, 0, rect.width(), rect.height())
        painter.setClipRect(clip)
        context.clip = clip
        document.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        document = self._document(option, index)
        if document is None:
            return super().sizeHint(option, index)
        size = document.size()
        return QSize(int(size.width()), int(size.height()))

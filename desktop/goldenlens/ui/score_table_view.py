"""The score grid's table view: paints the visible cells in one pass from the model's arrays.

Why not ``QTableView``'s own painting: for every visible cell it calls the model's
``index()`` (which calls ``rowCount()`` and ``columnCount()``), ``flags()`` and, through the
delegate, ``data()`` for seven roles, then lays the text out with ``QTextLayout``. With a
Python model that is ~5,000 calls from C++ into Python per screenful (13 columns x 36 rows),
measured at 75-105 ms per random scroll jump on 100,000 questions: five frames. Here a
repaint asks the model once per visible column (:meth:`ScoreTableModel.column_cells`, a
numpy slice of the visible rows) and draws each cell with a fill and a cached
``QStaticText``: a few milliseconds.

What Qt would draw is kept: alternating row colours, the score colour scale, the selected
row in the palette's highlight colours, italics for overrides, elided text, grid lines and
the focus frame of the current cell. Anything this painter does not handle (moved or hidden
columns, rows of different heights, another model) falls back to ``QTableView``'s painting.
"""

from __future__ import annotations

from PySide6.QtCore import QLine, QModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPalette, QPen, QStaticText
from PySide6.QtWidgets import QHeaderView, QStyle, QStyleOptionFocusRect, QStyleOptionViewItem, QTableView, QWidget

from goldenlens.ui.score_table_model import ColumnCells, ScoreTableModel

#: Distinct texts kept laid out per font: scores have few (0.00..1.00, ✓, ✗, —, with *).
_STATIC_LIMIT = 4096
#: Longer texts (questions) are drawn directly: each is seen once per scroll, not worth a layout.
_STATIC_LENGTH = 40
# Plain ints: arithmetic on PySide enums costs microseconds per operation.
_H_ALIGN = Qt.AlignmentFlag.AlignHorizontal_Mask
_RIGHT, _HCENTER = int(Qt.AlignmentFlag.AlignRight), int(Qt.AlignmentFlag.AlignHCenter)
_LEFT_MIDDLE = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_ELIDE = Qt.TextElideMode.ElideRight


class ScoreTableView(QTableView):
    """A ``QTableView`` for :class:`ScoreTableModel` that paints without per-cell model calls."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._static: dict[tuple[str, bool], tuple[QStaticText, float]] = {}
        self._static_font: QFont | None = None

    def paintEvent(self, event: QPaintEvent) -> None:
        model = self.model()
        if not isinstance(model, ScoreTableModel) or not self._simple_layout():
            super().paintEvent(event)
            return
        area = event.rect()
        rows, columns = model.rowCount(), model.columnCount()
        first, last = self.rowAt(area.top()), self.rowAt(area.bottom())
        left, right = self.columnAt(area.left()), self.columnAt(area.right())
        if rows == 0 or columns == 0 or first < 0 or left < 0:
            return  # only empty space is exposed: the viewport's own background fills it
        last = rows - 1 if last < 0 else last
        right = columns - 1 if right < 0 else right
        height = self.rowHeight(first)
        top = self.rowViewportPosition(first)
        if self.rowViewportPosition(last) != top + (last - first) * height:
            super().paintEvent(event)  # rows of different heights: Qt lays them out
            return
        painter = QPainter(self.viewport())
        try:
            self._paint_cells(painter, model, (first, last, left, right), top, height)
        finally:
            painter.end()

    def _simple_layout(self) -> bool:
        """True when visual and logical sections coincide (nothing moved, hidden or spanned)."""
        columns, rows = self.horizontalHeader(), self.verticalHeader()
        return (
            not columns.sectionsMoved()
            and not columns.sectionsHidden()
            and not rows.sectionsHidden()
            and rows.sectionResizeMode(0) == QHeaderView.ResizeMode.Fixed
            and self.rowSpan(0, 0) == 1
        )

    def _paint_cells(
        self, painter: QPainter, model: ScoreTableModel, extent: tuple[int, int, int, int], top: int, height: int
    ) -> None:
        first, last, left, right = extent
        palette = self.palette()
        group = QPalette.ColorGroup.Active if self.isActiveWindow() else QPalette.ColorGroup.Inactive
        if not self.isEnabled():
            group = QPalette.ColorGroup.Disabled
        base, alternate = palette.color(group, QPalette.ColorRole.Base), palette.color(group, QPalette.ColorRole.AlternateBase)
        highlight = palette.color(group, QPalette.ColorRole.Highlight)
        highlighted_text = palette.color(group, QPalette.ColorRole.HighlightedText)
        text = palette.color(group, QPalette.ColorRole.Text)
        grid = 1 if self.showGrid() else 0
        margin = self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self) + 1
        font, italic = self.font(), QFont(self.font())
        italic.setItalic(True)
        metrics = (QFontMetrics(font), QFontMetrics(italic))
        if self._static_font != font or len(self._static) > _STATIC_LIMIT:
            self._static, self._static_font = {}, QFont(font)
        alternating = self.alternatingRowColors()
        selection = self.selectionModel()
        root = QModelIndex()
        selected = [selection is not None and selection.isRowSelected(r, root) for r in range(first, last + 1)]
        xs = [(self.columnViewportPosition(c), self.columnWidth(c)) for c in range(left, right + 1)]
        x0, x1 = xs[0][0], xs[-1][0] + xs[-1][1]

        # Row backgrounds first: a full-width band per row, as the delegate's row panel.
        for i, on in enumerate(selected):
            r = first + i
            colour = highlight if on else alternate if alternating and r % 2 else base
            painter.fillRect(QRect(x0, top + i * height, x1 - x0, height), colour)

        painter.setFont(font)
        fonts, pen, line_height = (font, italic), None, metrics[0].height()
        for (x, width), column in zip(xs, range(left, right + 1), strict=True):
            cells: ColumnCells = model.column_cells(column, first, last)
            box = (x + margin, width - grid - 2 * margin, (height - grid - line_height) // 2)
            align = int(cells.alignment & _H_ALIGN)
            placed: dict[tuple[str, bool], tuple[QStaticText, int] | None] = {}  # per column: few texts
            slanted_now = False
            for i, shown in enumerate(cells.texts):
                if not shown:
                    if cells.backgrounds is not None and cells.backgrounds[i] is not None and not selected[i]:
                        painter.fillRect(x, top + i * height, width - grid, height - grid, cells.backgrounds[i])
                    continue
                y, on = top + i * height, selected[i]
                background = None if cells.backgrounds is None else cells.backgrounds[i]
                if background is not None and not on:
                    painter.fillRect(x, y, width - grid, height - grid, background)
                colour = highlighted_text if on else cells.foreground if background is not None else text
                if colour is not pen:
                    painter.setPen(colour)
                    pen = colour
                slanted = cells.italic is not None and cells.italic[i]
                if slanted != slanted_now:
                    painter.setFont(fonts[slanted])
                    slanted_now = slanted
                key = (shown, slanted)
                if key not in placed:
                    placed[key] = self._place(shown, slanted, metrics[slanted], box, align)
                spot = placed[key]
                if spot is None:  # too wide or one of a kind: laid out here, elided to fit
                    elided = metrics[slanted].elidedText(shown, _ELIDE, max(box[1], 0))
                    painter.drawText(box[0], y, max(box[1], 0), height - grid, _LEFT_MIDDLE, elided)
                else:
                    painter.drawStaticText(spot[1], y + box[2], spot[0])
            if slanted_now:
                painter.setFont(font)

        if grid:
            hint = self.style().styleHint(QStyle.StyleHint.SH_Table_GridLineColor, self._item_option(), self)
            colour = QColor.fromRgba(hint & 0xFFFFFFFF)  # an ARGB value returned as a signed int
            painter.setPen(QPen(colour, 0, self.gridStyle()))
            bottom = top + (last - first + 1) * height - 1
            lines = [QLine(x0, y - 1, x1 - 1, y - 1) for y in range(top + height, bottom + 2, height)]
            lines += [QLine(x + width - 1, top, x + width - 1, bottom) for x, width in xs]
            painter.drawLines(lines)  # one call: ~50 separate ones cost a millisecond
        self._paint_focus(painter, (first, last, left, right), top, height, grid)

    def _place(
        self, shown: str, slanted: bool, metrics: QFontMetrics, box: tuple[int, int, int], align: int
    ) -> tuple[QStaticText, int] | None:
        """A cached layout of ``shown`` and its left edge in ``box`` (x, width, top margin);
        ``None`` when it must be elided or is too long to be worth caching (questions)."""
        if len(shown) > _STATIC_LENGTH:
            return None
        laid = self._static.get((shown, slanted))
        if laid is None:
            static = QStaticText(shown)
            static.setTextFormat(Qt.TextFormat.PlainText)
            laid = self._static[(shown, slanted)] = (static, metrics.horizontalAdvance(shown))
        static, advance = laid
        x, width, _top = box
        if advance > width:
            return None
        if align == _RIGHT:
            return static, x + width - advance
        return static, x + (width - advance) // 2 if align == _HCENTER else x

    def _paint_focus(self, painter: QPainter, extent: tuple[int, int, int, int], top: int, height: int, grid: int) -> None:
        current = self.currentIndex()
        first, last, left, right = extent
        if not (self.hasFocus() and current.isValid() and first <= current.row() <= last and left <= current.column() <= right):
            return
        option = QStyleOptionFocusRect()
        option.initFrom(self)
        x = self.columnViewportPosition(current.column())
        option.rect = QRect(x, top + (current.row() - first) * height, self.columnWidth(current.column()) - grid, height - grid)
        option.backgroundColor = self.palette().color(QPalette.ColorRole.Highlight)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_FrameFocusRect, option, painter, self)

    def _item_option(self) -> QStyleOptionViewItem:
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        return option

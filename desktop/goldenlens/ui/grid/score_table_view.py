"""The score grid's table view: paints the visible cells in one pass from the model's arrays.

Why not ``QTableView``'s own painting: for every visible cell it calls the model's
``index()`` (which calls ``rowCount()`` and ``columnCount()``), ``flags()`` and, through the
delegate, ``data()`` for seven roles, then lays the text out with ``QTextLayout``. With a
Python model that is ~5,000 calls from C++ into Python per screenful (13 columns x 36 rows),
measured at 75-105 ms per random scroll jump on 100,000 questions: five frames. Here a
repaint asks the model once per visible column (:meth:`ScoreTableModel.column_cells`, a
numpy slice of the visible rows) and draws each cell with a fill and a cached
``QStaticText``: a few milliseconds.

What Qt would draw is kept: alternating row colours, the score colour scale, italics for
overrides, elided text, grid lines and the focus frame of the current cell. The selected row
is not filled with the highlight colour, which would hide its score colours: a translucent
wash of it and an outline mark the row and the scale shows through (:data:`SELECTION_ALPHA`).
Anything this painter does not handle (moved or hidden columns, rows of different heights,
another model) falls back to ``QTableView``'s painting.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QLine, QModelIndex, QPoint, QRect, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygon,
    QStaticText,
)
from PySide6.QtWidgets import (
    QHeaderView,
    QStyle,
    QStyleOptionFocusRect,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from goldenlens.ui.grid.score_table_model import ColumnCells, ScoreTableModel

#: Laid-out texts kept per font: scores have few (0.00..1.00, ✓, ✗, —, with *) per width.
_PLACED_LIMIT = 20_000
#: Longer texts are drawn directly: not worth keeping laid out.
_STATIC_LENGTH = 40
# Plain ints: arithmetic on PySide enums costs microseconds per operation.
_H_ALIGN = Qt.AlignmentFlag.AlignHorizontal_Mask
_RIGHT, _HCENTER = int(Qt.AlignmentFlag.AlignRight), int(Qt.AlignmentFlag.AlignHCenter)
_ELIDE = Qt.TextElideMode.ElideRight
_Placed = tuple[QStaticText, int] | None


@dataclass(frozen=True)
class _Frame:
    """What one repaint draws with: the visible rows, their geometry, colours and fonts."""

    first: int
    last: int
    top: int
    height: int
    grid: int  # 1 with grid lines: cells leave their last pixel row and column to them
    margin: int
    selected: list[bool]
    text: QColor
    highlighted_text: QColor
    fonts: tuple[QFont, QFont]  # plain, italic
    metrics: tuple[QFontMetrics, QFontMetrics]


#: Opacity of the highlight colour washed over the selected row: enough to see the row, little
#: enough that its red-to-green score colours still read as the scale.
SELECTION_ALPHA = 56
SELECTION_OUTLINE = 2
#: The corner mark of a cell that satisfies the threshold filter (dark on every score colour).
THRESHOLD_MARK = QColor("#1f2430")


def selected_cell_colour(background: QColor, highlight: QColor) -> QColor:
    """The colour a cell of ``background`` is drawn with on the selected row."""
    a = SELECTION_ALPHA / 255
    return QColor(
        round(background.red() * (1 - a) + highlight.red() * a),
        round(background.green() * (1 - a) + highlight.green() * a),
        round(background.blue() * (1 - a) + highlight.blue() * a),
    )


class ScoreTableView(QTableView):
    """A ``QTableView`` for :class:`ScoreTableModel` that paints without per-cell model calls."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Laid-out texts by (text, italic, cell width, alignment): scores repeat, so a jump
        # anywhere finds nearly all of them laid out already.
        self._placed: dict[tuple[str, bool, int, int], _Placed] = {}
        self._placed_font: QFont | None = None

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
        height, top = self.rowHeight(first), self.rowViewportPosition(first)
        if self.rowViewportPosition(last) != top + (last - first) * height:
            super().paintEvent(event)  # rows of different heights: Qt lays them out
            return
        painter = QPainter(self.viewport())
        try:
            frame = self._frame(first, last, top, height)
            xs = [(self.columnViewportPosition(c), self.columnWidth(c)) for c in range(left, right + 1)]
            self._paint_rows(painter, frame, xs[0][0], xs[-1][0] + xs[-1][1])
            painter.setFont(frame.fonts[0])
            for (x, width), column in zip(xs, range(left, right + 1), strict=True):
                self._paint_column(painter, frame, x, width, model.column_cells(column, first, last))
            if frame.grid:
                self._paint_grid(painter, frame, xs)
            self._paint_selection(painter, frame, xs[0][0], xs[-1][0] + xs[-1][1])
            self._paint_focus(painter, frame, (left, right))
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

    def _group(self) -> QPalette.ColorGroup:
        if not self.isEnabled():
            return QPalette.ColorGroup.Disabled
        return QPalette.ColorGroup.Active if self.isActiveWindow() else QPalette.ColorGroup.Inactive

    def _frame(self, first: int, last: int, top: int, height: int) -> _Frame:
        palette, group = self.palette(), self._group()
        font, italic = self.font(), QFont(self.font())
        italic.setItalic(True)
        if self._placed_font != font or len(self._placed) > _PLACED_LIMIT:
            self._placed, self._placed_font = {}, QFont(font)
        selection, root = self.selectionModel(), QModelIndex()
        rows = range(first, last + 1)
        selected = [selection.isRowSelected(r, root) for r in rows] if selection else [False] * len(rows)
        return _Frame(
            first,
            last,
            top,
            height,
            grid=1 if self.showGrid() else 0,
            margin=self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self) + 1,
            selected=selected,
            text=palette.color(group, QPalette.ColorRole.Text),
            highlighted_text=palette.color(group, QPalette.ColorRole.HighlightedText),
            fonts=(font, italic),
            metrics=(QFontMetrics(font), QFontMetrics(italic)),
        )

    def _paint_rows(self, painter: QPainter, frame: _Frame, x0: int, x1: int) -> None:
        """A full-width band per row, as the delegate's row panel: base or alternate (the
        selection is washed over the cells afterwards)."""
        palette, group = self.palette(), self._group()
        base = palette.color(group, QPalette.ColorRole.Base)
        alternate = palette.color(group, QPalette.ColorRole.AlternateBase)
        alternating = self.alternatingRowColors()
        for i in range(len(frame.selected)):
            colour = alternate if alternating and (frame.first + i) % 2 else base
            painter.fillRect(x0, frame.top + i * frame.height, x1 - x0, frame.height, colour)

    def _paint_selection(self, painter: QPainter, frame: _Frame, x0: int, x1: int) -> None:
        """The selected row: a translucent wash of the highlight colour and an outline, so its
        score colours stay readable."""
        highlight = self.palette().color(self._group(), QPalette.ColorRole.Highlight)
        wash = QColor(highlight)
        wash.setAlpha(SELECTION_ALPHA)
        pen = QPen(highlight, SELECTION_OUTLINE)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        for i, on in enumerate(frame.selected):
            if not on:
                continue
            y = frame.top + i * frame.height
            painter.fillRect(x0, y, x1 - x0, frame.height - frame.grid, wash)
            painter.setPen(pen)
            half = SELECTION_OUTLINE // 2
            inner = frame.height - SELECTION_OUTLINE
            painter.drawRect(x0 + half, y + half, x1 - x0 - SELECTION_OUTLINE, inner)

    def _paint_column(self, painter: QPainter, frame: _Frame, x: int, width: int, cells: ColumnCells) -> None:
        """One column's cells: score colour, then the text."""
        height, grid = frame.height, frame.grid
        inner, dy = width - grid - 2 * frame.margin, (height - grid - frame.metrics[0].height()) // 2
        left, baseline = x + frame.margin, dy + frame.metrics[0].ascent()
        align, pen, slanted_now = int(cells.alignment & _H_ALIGN), QColor(), False
        placed = self._placed
        backgrounds = cells.backgrounds or [None] * len(cells.texts)
        italic = cells.italic or [False] * len(cells.texts)
        marks = cells.marked
        for i, (shown, background, slanted) in enumerate(zip(cells.texts, backgrounds, italic, strict=True)):
            y = frame.top + i * height
            if background is not None:
                painter.fillRect(x, y, width - grid, height - grid, background)
            if marks is not None and marks[i]:
                self._paint_mark(painter, x, y, height - grid)
            if not shown:
                continue
            colour = cells.foreground if background is not None else frame.text
            if colour is not pen:
                painter.setPen(colour)
                pen = colour
            if slanted != slanted_now:
                painter.setFont(frame.fonts[slanted])
                slanted_now = slanted
            key = (shown, slanted, inner, align)
            if not cells.repeats:
                spot = None
            elif key in placed:
                spot = placed[key]
            else:
                spot = placed[key] = self._place(shown, frame.metrics[slanted], inner, align)
            if spot is None:  # one of a kind (an id, a question) or too wide: elided to fit
                painter.drawText(left, y + baseline, _elided(frame.metrics[slanted], shown, inner))
            else:
                painter.drawStaticText(left + spot[1], y + dy, spot[0])
        if slanted_now:
            painter.setFont(frame.fonts[0])

    @staticmethod
    def _paint_mark(painter: QPainter, x: int, y: int, height: int) -> None:
        """A dark corner triangle: this cell satisfies the threshold filter."""
        size = max(6, height // 2)
        corner = QPolygon([QPoint(x, y), QPoint(x + size, y), QPoint(x, y + size)])
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(THRESHOLD_MARK)
        painter.drawPolygon(corner)
        painter.restore()

    def _place(self, shown: str, metrics: QFontMetrics, width: int, align: int) -> _Placed:
        """A laid-out ``shown`` and its offset in a cell ``width`` wide; ``None`` when it must
        be elided or is too long to be worth keeping (questions: each seen once per jump)."""
        if len(shown) > _STATIC_LENGTH:
            return None
        advance = metrics.horizontalAdvance(shown)
        if advance > width:
            return None
        static = QStaticText(shown)
        static.setTextFormat(Qt.TextFormat.PlainText)
        if align == _RIGHT:
            return static, width - advance
        return static, (width - advance) // 2 if align == _HCENTER else 0

    def _paint_grid(self, painter: QPainter, frame: _Frame, xs: list[tuple[int, int]]) -> None:
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        hint = self.style().styleHint(QStyle.StyleHint.SH_Table_GridLineColor, option, self)
        painter.setPen(QPen(QColor.fromRgba(hint & 0xFFFFFFFF), 0, self.gridStyle()))  # ARGB as a signed int
        x0, x1 = xs[0][0], xs[-1][0] + xs[-1][1] - 1
        top, height, bottom = (
            frame.top,
            frame.height,
            frame.top + (frame.last - frame.first + 1) * frame.height - 1,
        )
        lines = [QLine(x0, y - 1, x1, y - 1) for y in range(top + height, bottom + 2, height)]
        lines += [QLine(x + width - 1, top, x + width - 1, bottom) for x, width in xs]
        painter.drawLines(lines)  # one call: ~50 separate ones cost a millisecond

    def _paint_focus(self, painter: QPainter, frame: _Frame, columns: tuple[int, int]) -> None:
        """The focus frame of the current cell, as Qt draws it when the view has the focus."""
        current = self.currentIndex()
        row, column = current.row(), current.column()
        visible = frame.first <= row <= frame.last and columns[0] <= column <= columns[1]
        if not (self.hasFocus() and current.isValid() and visible):
            return
        option = QStyleOptionFocusRect()
        option.initFrom(self)
        y = frame.top + (row - frame.first) * frame.height
        width = self.columnWidth(column) - frame.grid
        option.rect = QRect(self.columnViewportPosition(column), y, width, frame.height - frame.grid)
        option.backgroundColor = self.palette().color(QPalette.ColorRole.Highlight)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_FrameFocusRect, option, painter, self)


def _elided(metrics: QFontMetrics, text: str, width: int) -> str:
    """``text`` elided on the right to ``width`` pixels, as ``QTableView`` shows it.

    Eliding measures the whole string, and a question can be a paragraph. A glyph is at
    least 2 px wide, so no more than ``width // 2`` characters fit: elide that prefix, and
    the whole text only when the prefix fits whole (then the cut would not show).
    """
    width = max(width, 0)
    cut = width // 2 + 2
    if len(text) <= cut:
        return metrics.elidedText(text, _ELIDE, width)
    elided = metrics.elidedText(text[:cut], _ELIDE, width)
    return metrics.elidedText(text, _ELIDE, width) if elided == text[:cut] else elided

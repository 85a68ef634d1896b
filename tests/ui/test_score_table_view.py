"""The score grid's painter: what it draws agrees with the model's ``data()``, cell by cell and
pixel by pixel, and a repaint makes no per-cell calls into the model."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPalette
from pytestqt.qtbot import QtBot

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, RECALL
from goldenlens.core.view.grid_state import FLAGS_COLUMN, score_column
from goldenlens.queries.grid_data import GridData
from goldenlens.queries.grid_loading import load_grid
from goldenlens.store.project import ProjectStore
from goldenlens.ui.grid.score_grid import ScoreGrid
from goldenlens.ui.grid.score_table_model import ScoreTableModel
from goldenlens.ui.grid.score_table_view import ScoreTableView, _elided, selected_cell_colour

ROLES = Qt.ItemDataRole


@pytest.fixture
def grid_data(scored_project: Path) -> GridData:
    with ProjectStore.open(scored_project) as store:
        store.reviews.set_override(
            "q05", "Pipeline2", FACTUAL_KNOWLEDGE, value=None, passed=True, note="variant"
        )
        store.reviews.set_override("q03", "Pipeline1", RECALL, value=0.25, passed=None, note="partial")
        store.reviews.set("q01", "accepted")
        run = store.runs.latest()
        assert run is not None
        return load_grid(store, run.id)


@pytest.fixture
def widget(qtbot: QtBot, grid_data: GridData) -> ScoreGrid:
    widget = ScoreGrid()
    qtbot.addWidget(widget)
    widget.set_data(grid_data)
    widget.resize(1400, 500)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _column(model: ScoreTableModel, metric: str, pipeline: str) -> int:
    return [c.key for c in model.columns()].index(score_column(metric, pipeline))


def _assert_cells_match_data(model: ScoreTableModel) -> int:
    """Every cell ``column_cells`` gives the painter equals ``data()`` for its roles."""
    checked = 0
    last = model.rowCount() - 1
    for column in range(model.columnCount()):
        cells = model.column_cells(column, 0, last)
        assert len(cells.texts) == model.rowCount()
        for row, text in enumerate(cells.texts):
            index = model.index(row, column)
            assert text == (model.data(index) or ""), (row, column)
            background = model.data(index, ROLES.BackgroundRole)
            assert (None if cells.backgrounds is None else cells.backgrounds[row]) == background
            if background is not None:
                assert cells.foreground == model.data(index, ROLES.ForegroundRole)
            font = model.data(index, ROLES.FontRole)
            italic = cells.italic is not None and cells.italic[row]
            assert italic == (isinstance(font, QFont) and font.italic()), (row, column)
            assert cells.alignment == model.data(index, ROLES.TextAlignmentRole)
            checked += 1
    return checked


def test_painted_cells_equal_the_models_data(grid_data: GridData) -> None:
    model = ScoreTableModel()
    model.set_data(grid_data)
    assert _assert_cells_match_data(model) == 10 * (4 + 3 * 3)
    fk2, recall1 = _column(model, FACTUAL_KNOWLEDGE, "Pipeline2"), _column(model, RECALL, "Pipeline1")
    overridden = model.column_cells(fk2, model.row_of("q05"), model.row_of("q05"))
    assert (overridden.texts, overridden.italic) == (["1*"], [True])
    partial = model.column_cells(recall1, model.row_of("q03"), model.row_of("q03"))
    assert partial.texts == ["0.25*"]
    flags = model.column_cells(4 - 1, 0, 9)  # the flags column: q03 raised two flags
    assert model.columns()[3].key == FLAGS_COLUMN
    assert flags.texts[model.row_of("q03")].startswith("⚑ ")
    # Sorted, filtered, in FK report mode and with the dark scale: still the same as data().
    model.sort(recall1, Qt.SortOrder.DescendingOrder)
    model.set_dark(True)
    assert _assert_cells_match_data(model) == 10 * (4 + 3 * 3)
    model.set_state(replace(model.state(), fk_report_mode=True, threshold="Pipeline1.f1 > 0.5"))
    assert 0 < model.rowCount() < 10
    assert _assert_cells_match_data(model) == model.rowCount() * (4 + 3)
    assert model.column_cells(4, 0, -1).texts == []  # an empty run of rows


def test_not_loaded_metric_is_a_dash(grid_data: GridData) -> None:
    model = ScoreTableModel()
    model.set_data(replace(grid_data, values={m: v for m, v in grid_data.values.items() if m != RECALL}))
    recall1 = _column(model, RECALL, "Pipeline1")
    assert model.column_cells(recall1, 0, 9).texts == ["—"] * 10
    assert _assert_cells_match_data(model) == 10 * (4 + 3 * 3)


def _pixel(image: QImage, view: ScoreTableView, row: int, column: int, dx: int = 3) -> QColor:
    """Colour near the left edge of a cell (left of right-aligned text), in viewport pixels."""
    rect = view.visualRect(view.model().index(row, column))
    ratio = image.devicePixelRatio()
    return image.pixelColor(int((rect.left() + dx) * ratio), int(rect.center().y() * ratio))


def test_the_grid_is_painted_with_the_models_colours(qtbot: QtBot, widget: ScoreGrid) -> None:
    view, model = widget.table_view(), widget.model()
    assert isinstance(view, ScoreTableView)
    fk1 = _column(model, FACTUAL_KNOWLEDGE, "Pipeline1")
    image = view.viewport().grab().toImage()
    for row in range(model.rowCount()):
        for column in range(fk1, model.columnCount()):
            expected = model.data(model.index(row, column), ROLES.BackgroundRole)
            assert isinstance(expected, QColor)
            assert _pixel(image, view, row, column).rgb() == expected.rgb(), (row, column)
    # Text is drawn: a right-aligned score leaves darker pixels in the right half of its cell.
    rect = view.visualRect(model.index(0, fk1))
    background = model.data(model.index(0, fk1), ROLES.BackgroundRole)
    assert isinstance(background, QColor)
    inked = {
        image.pixelColor(x, y).rgb()
        for x in range(rect.center().x(), rect.right() - 1)
        for y in range(rect.top() + 2, rect.bottom() - 2)
    }
    assert inked - {background.rgb()}
    # Fixed columns take the view's alternating row colours; the selected row the highlight.
    palette = view.palette()
    assert _pixel(image, view, 0, 2, 60).rgb() != palette.color(QPalette.ColorRole.Highlight).rgb()
    base, alternate = (
        palette.color(QPalette.ColorRole.Base),
        palette.color(QPalette.ColorRole.AlternateBase),
    )
    assert _pixel(image, view, 1, 3, 1).rgb() == alternate.rgb()  # q02 has no flags: an empty cell
    widget.select_question("q04")
    image = view.viewport().grab().toImage()
    row = model.row_of("q04")
    highlight = palette.color(palette.currentColorGroup(), QPalette.ColorRole.Highlight)
    # The selected row keeps its score colours under a translucent wash of the highlight
    # (a solid highlight hid the scale): each cell is its own colour blended, not one blue.
    shown_on_row = set()
    for column in range(fk1, model.columnCount()):
        own = model.data(model.index(row, column), ROLES.BackgroundRole)
        assert isinstance(own, QColor)
        pixel = _pixel(image, view, row, column, 6)
        expected = selected_cell_colour(own, highlight)
        assert max(
            abs(pixel.red() - expected.red()), abs(pixel.green() - expected.green()),
            abs(pixel.blue() - expected.blue()),
        ) <= 2, (column, pixel.name(), expected.name())  # fmt: skip
        assert pixel.rgb() != highlight.rgb()
        shown_on_row.add(own.rgb())
    assert len(shown_on_row) > 1  # q04 has different scores across the row: the scale shows
    assert (
        _pixel(image, view, row + 1, fk1).rgb()
        == model.data(model.index(row + 1, fk1), ROLES.BackgroundRole).rgb()
    )  # type: ignore[union-attr]
    assert base.rgb() != alternate.rgb()


def test_dark_palette_repaints_the_scale(qtbot: QtBot, widget: ScoreGrid) -> None:
    view, model = widget.table_view(), widget.model()
    fk1 = _column(model, FACTUAL_KNOWLEDGE, "Pipeline1")
    light = _pixel(view.viewport().grab().toImage(), view, 0, fk1)
    palette = QPalette(widget.palette())
    palette.setColor(QPalette.ColorRole.Base, QColor(30, 30, 30))
    palette.setColor(QPalette.ColorRole.AlternateBase, QColor(40, 40, 40))
    widget.setPalette(palette)
    image = view.viewport().grab().toImage()
    dark = _pixel(image, view, 0, fk1)
    expected = model.data(model.index(0, fk1), ROLES.BackgroundRole)
    assert isinstance(expected, QColor)
    assert dark.rgb() == expected.rgb()
    assert dark.lightness() < light.lightness()
    assert _pixel(image, view, 1, 3, 1).rgb() == QColor(40, 40, 40).rgb()


def test_a_hidden_column_falls_back_to_qts_painting(qtbot: QtBot, widget: ScoreGrid) -> None:
    view, model = widget.table_view(), widget.model()
    fk1 = _column(model, FACTUAL_KNOWLEDGE, "Pipeline1")
    view.setColumnHidden(1, True)
    image = view.viewport().grab().toImage()
    expected = model.data(model.index(2, fk1), ROLES.BackgroundRole)
    assert isinstance(expected, QColor)
    assert _pixel(image, view, 2, fk1).rgb() == expected.rgb()


class _CountingModel(ScoreTableModel):
    """Counts the calls Qt's per-cell painting would make."""

    calls = 0

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = 0) -> Any:
        _CountingModel.calls += 1
        return super().data(index, role)

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        _CountingModel.calls += 1
        return super().flags(index)


def test_a_repaint_makes_no_per_cell_model_calls(qtbot: QtBot, grid_data: GridData) -> None:
    model = _CountingModel()
    model.set_data(grid_data)
    view = ScoreTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.verticalHeader().setSectionResizeMode(view.verticalHeader().ResizeMode.Fixed)
    view.resize(1400, 500)
    view.show()
    qtbot.waitExposed(view)
    _CountingModel.calls = 0
    view.viewport().grab()  # a full paint of the visible rows
    assert _CountingModel.calls <= model.rowCount()  # at most one selection check per row
    view.verticalHeader().setSectionResizeMode(view.verticalHeader().ResizeMode.Interactive)
    view.viewport().grab()  # rows may differ in height: Qt's painting, cell by cell
    assert _CountingModel.calls >= model.rowCount() * model.columnCount()


def test_long_texts_are_elided_as_qt_elides_them(qtbot: QtBot) -> None:
    metrics = QFontMetrics(QFont())
    texts = [
        "",
        "Short?",
        "What was the net sales increase of the North America segment in the third quarter? " * 4,
        "i" * 400,  # narrow glyphs: the prefix fits whole, the whole text decides
        "W" * 400,
        "l i " * 90,
    ]
    for text in texts:
        for width in (0, 5, 40, 260, 900):
            assert _elided(metrics, text, width) == metrics.elidedText(
                text, Qt.TextElideMode.ElideRight, width
            )

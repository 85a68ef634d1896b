"""Score grid: the table model (qtmodeltester + direct data calls) and the widget driven with qtbot."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QColor, QFont, QPalette
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, PRECISION, RECALL
from goldenlens.core.view.grid_rows import visible_rows
from goldenlens.core.view.grid_state import ID_COLUMN, GridState, score_column
from goldenlens.queries.grid_data import GridData
from goldenlens.queries.grid_loading import add_metrics, load_grid
from goldenlens.store.project import ProjectStore
from goldenlens.ui.grid.score_grid import ScoreGrid
from goldenlens.ui.grid.score_table_model import QUESTION_ID_ROLE, ScoreTableModel

PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")
USER = Qt.ItemDataRole.UserRole
DISPLAY = Qt.ItemDataRole.DisplayRole


@pytest.fixture
def grid_data(scored_project: Path) -> GridData:
    with ProjectStore.open(scored_project) as store:
        why = {"note": "date variant", "reviewer": "Ann"}
        store.reviews.set_override("q05", "Pipeline2", FACTUAL_KNOWLEDGE, value=None, passed=True, **why)
        store.reviews.set("q01", "accepted")
        run = store.runs.latest()
        assert run is not None
        return load_grid(store, run.id)


@pytest.fixture
def model(grid_data: GridData) -> ScoreTableModel:
    model = ScoreTableModel()
    model.set_data(grid_data)
    return model


@pytest.fixture
def widget(qtbot: QtBot, grid_data: GridData) -> ScoreGrid:
    widget = ScoreGrid()
    qtbot.addWidget(widget)
    widget.set_data(grid_data)
    widget.resize(1400, 500)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def column_of(model: ScoreTableModel, metric: str, pipeline: str) -> int:
    return [c.key for c in model.columns()].index(score_column(metric, pipeline))


def cell(model: ScoreTableModel, question_id: str, column: int, role: Qt.ItemDataRole = DISPLAY) -> object:
    return model.data(model.index(model.row_of(question_id), column), role)


# -- model ------------------------------------------------------------------------------


def test_model_passes_the_model_tester(qtmodeltester: ModelTester, model: ScoreTableModel) -> None:
    qtmodeltester.check(model)
    model.set_state(replace(model.state(), fk_report_mode=True, sort_column=ID_COLUMN, sort_descending=True))
    qtmodeltester.check(model)


def test_empty_model_passes_the_model_tester(qtmodeltester: ModelTester) -> None:
    model = ScoreTableModel()
    model.set_data(GridData.empty(PIPELINES))
    qtmodeltester.check(model)
    assert (model.rowCount(), model.columnCount()) == (0, 4 + 9)
    assert model.data(model.index(0, 0)) is None


def test_shape_headers_and_display(model: ScoreTableModel, grid_data: GridData) -> None:
    assert (model.rowCount(), model.columnCount()) == (10, 4 + 3 * 3)
    assert model.rowCount(model.index(0, 0)) == 0
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers[:4] == ["ID", "Question", "Review", "Flags"]
    assert headers[4:7] == ["Pipeline1\nFK", "Pipeline2\nFK", "Pipeline3\nFK"]
    assert headers[7] == "Pipeline1\nF1"
    tip = model.headerData(7, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip == "Pipeline1 — F1 score over words (f1_score)"
    f1 = column_of(model, F1_SCORE, "Pipeline2")
    assert cell(model, "q02", 0) == "q02"
    assert cell(model, "q02", 1) == str(grid_data.questions[1])
    assert cell(model, "q01", 2) == "✓ Accepted"
    assert cell(model, "q03", 3) == "⚑ 3"
    flags_tip = str(cell(model, "q03", 3, Qt.ItemDataRole.ToolTipRole))
    assert "Question: Ambiguous question" in flags_tip
    assert "Pipeline1: Possibly correct, rephrased" in flags_tip
    assert cell(model, "q02", column_of(model, FACTUAL_KNOWLEDGE, "Pipeline2")) == "0"
    value = float(grid_data.values[F1_SCORE][1, 1])
    assert cell(model, "q02", f1) == f"{value:.2f}"
    assert cell(model, "q02", f1, USER) == value
    assert cell(model, "q02", f1, QUESTION_ID_ROLE) == "q02"
    assert cell(model, "q02", 1, QUESTION_ID_ROLE) == "q02"
    fk2 = column_of(model, FACTUAL_KNOWLEDGE, "Pipeline2")
    score_tip = str(cell(model, "q02", fk2, Qt.ItemDataRole.ToolTipRole))
    assert "Likely hallucination" in score_tip
    assert model.data(QModelIndex()) is None
    assert model.data(model.index(0, 99)) is None


def test_colours_follow_values(model: ScoreTableModel) -> None:
    fk2 = column_of(model, FACTUAL_KNOWLEDGE, "Pipeline2")
    fail = cell(model, "q02", fk2, Qt.ItemDataRole.BackgroundRole)
    pass_ = cell(model, "q01", fk2, Qt.ItemDataRole.BackgroundRole)
    assert isinstance(fail, QColor)
    assert isinstance(pass_, QColor)
    assert fail != pass_
    assert fail.red() > fail.green()
    assert pass_.green() > pass_.red()
    text = cell(model, "q01", fk2, Qt.ItemDataRole.ForegroundRole)
    assert isinstance(text, QColor)
    assert cell(model, "q01", 0, Qt.ItemDataRole.BackgroundRole) is None
    model.set_dark(True)
    dark = cell(model, "q01", fk2, Qt.ItemDataRole.BackgroundRole)
    dark_text = cell(model, "q01", fk2, Qt.ItemDataRole.ForegroundRole)
    assert isinstance(dark, QColor)
    assert isinstance(dark_text, QColor)
    assert dark.lightness() < pass_.lightness()
    assert dark_text.lightness() > text.lightness()


def test_override_is_shown_italic_with_who_and_why(model: ScoreTableModel) -> None:
    fk2 = column_of(model, FACTUAL_KNOWLEDGE, "Pipeline2")
    font = cell(model, "q05", fk2, Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont)
    assert font.italic()
    assert cell(model, "q05", fk2) == "1*"
    assert cell(model, "q05", fk2, USER) == 1.0
    tip = str(cell(model, "q05", fk2, Qt.ItemDataRole.ToolTipRole))
    assert "overridden by Ann: date variant; original 0" in tip
    assert cell(model, "q04", fk2, Qt.ItemDataRole.FontRole) is None


def test_fk_report_mode(model: ScoreTableModel) -> None:
    model.set_state(replace(model.state(), fk_report_mode=True))
    assert model.columnCount() == 4 + 3
    assert [cell(model, "q02", c) for c in range(4, 7)] == ["✓", "✗", "✗"]
    assert [cell(model, "q03", c) for c in range(4, 7)] == ["✗", "✗", "✗"]
    assert cell(model, "q05", 5) == "✓*"
    background = Qt.ItemDataRole.BackgroundRole
    assert cell(model, "q02", 4, background) != cell(model, "q02", 5, background)


def test_sort_and_rows(model: ScoreTableModel, grid_data: GridData) -> None:
    recall = column_of(model, RECALL, "Pipeline2")
    model.sort(recall, Qt.SortOrder.DescendingOrder)
    values = [model.data(model.index(r, recall), USER) for r in range(model.rowCount())]
    assert values == sorted(values, reverse=True)
    assert model.state().sort_column == score_column(RECALL, "Pipeline2")
    expected = visible_rows(grid_data, model.state())
    assert [model.question_id(r) for r in range(10)] == [str(grid_data.question_ids[i]) for i in expected]
    assert model.row_of(str(grid_data.question_ids[expected[3]])) == 3
    assert model.row_of("nope") == -1
    assert model.question_id(10) is None
    model.sort(-1)
    assert model.question_id(0) == "q01"
    with pytest.raises(ValueError, match="unknown metric"):
        model.set_state(replace(model.state(), threshold="nope < 1"))


# -- widget -----------------------------------------------------------------------------


def test_threshold_filter_and_inline_error(qtbot: QtBot, widget: ScoreGrid, grid_data: GridData) -> None:
    threshold = widget.filter_bar.threshold
    qtbot.keyClicks(threshold, "recall < 0.5")
    expected = visible_rows(grid_data, GridState(threshold="recall < 0.5"))
    qtbot.waitUntil(lambda: widget.model().rowCount() == len(expected))
    assert 0 < len(expected) < 10
    assert widget.visible_question_ids() == [str(grid_data.question_ids[r]) for r in expected]
    assert widget.filter_bar.count.text() == f"{len(expected)} of 10 questions"
    assert not widget.filter_bar.error.isVisible()
    threshold.clear()
    qtbot.keyClicks(threshold, "recal < 0.5")
    qtbot.keyClick(threshold, Qt.Key.Key_Return)
    assert widget.filter_bar.error.isVisible()
    assert "unknown metric 'recal'" in widget.filter_bar.error.text()
    assert widget.model().rowCount() == len(expected)  # rows unchanged
    assert widget.state().threshold == "recall < 0.5"
    threshold.setText("Pipeline2.recall < 0.5")
    qtbot.keyClick(threshold, Qt.Key.Key_Return)
    assert not widget.filter_bar.error.isVisible()
    rows = widget.model().rowCount()
    threshold.setText("Pipeline2.recall <")
    qtbot.keyClick(threshold, Qt.Key.Key_Return)
    assert widget.filter_bar.error.isVisible()
    assert widget.model().rowCount() == rows
    assert widget.state().threshold == "Pipeline2.recall < 0.5"


def test_text_regex_flag_and_disagreement_filters(qtbot: QtBot, widget: ScoreGrid) -> None:
    qtbot.keyClicks(widget.filter_bar.search, "ONE MEDICAL")
    qtbot.waitUntil(lambda: widget.model().rowCount() == 1)
    assert widget.visible_question_ids() == ["q05"]
    widget.filter_bar.search.setText(r"terry av(enue|e\.)")
    widget.filter_bar.regex.setChecked(True)
    assert widget.visible_question_ids() == ["q03"]
    widget.filter_bar.search.setText("(unclosed")
    qtbot.keyClick(widget.filter_bar.search, Qt.Key.Key_Return)
    assert "invalid regular expression" in widget.filter_bar.error.text()
    assert widget.visible_question_ids() == ["q03"]
    widget.filter_bar.regex.setChecked(False)  # "(unclosed" as plain text matches nothing
    assert widget.visible_question_ids() == []
    widget.filter_bar.search.clear()
    qtbot.keyClick(widget.filter_bar.search, Qt.Key.Key_Return)
    widget.filter_bar.flag.setCurrentIndex(widget.filter_bar.flag.findData("ambiguous_question"))
    assert widget.visible_question_ids() == ["q03", "q06"]
    widget.filter_bar.flag.setCurrentIndex(0)
    widget.filter_bar.disagree.setChecked(True)
    assert widget.visible_question_ids() == ["q02", "q07", "q08"]  # q05 agrees once overridden
    assert widget.state().disagree_only


def test_fk_report_toggle_and_metrics_menu(qtbot: QtBot, widget: ScoreGrid, grid_data: GridData) -> None:
    with qtbot.waitSignal(widget.state_changed) as changed:
        widget.filter_bar.fk.setChecked(True)
    assert changed.args[0].fk_report_mode
    assert widget.model().columnCount() == 7
    assert not widget.filter_bar.metrics.isEnabled()
    widget.filter_bar.fk.setChecked(False)
    actions = {a.data(): a for a in widget.filter_bar.metrics_menu.actions()}
    assert [m for m, a in actions.items() if a.isChecked()] == [FACTUAL_KNOWLEDGE, F1_SCORE, RECALL]
    actions[PRECISION].trigger()
    assert widget.state().metrics == (FACTUAL_KNOWLEDGE, F1_SCORE, PRECISION, RECALL)
    assert widget.model().columnCount() == 4 + 4 * 3
    actions[FACTUAL_KNOWLEDGE].trigger()
    assert widget.state().metrics == (F1_SCORE, PRECISION, RECALL)


def test_metrics_not_loaded_are_requested(qtbot: QtBot, widget: ScoreGrid, scored_project: Path) -> None:
    with ProjectStore.open(scored_project) as store:
        small = load_grid(store, 1, [F1_SCORE])
        with qtbot.waitSignal(widget.metrics_requested) as shown:
            widget.set_data(small)
        assert shown.args == [(FACTUAL_KNOWLEDGE, RECALL)]
        action = next(a for a in widget.filter_bar.metrics_menu.actions() if a.data() == PRECISION)
        with qtbot.waitSignal(widget.metrics_requested) as requested:
            action.trigger()
        assert set(requested.args[0]) == {PRECISION, FACTUAL_KNOWLEDGE, RECALL}
        column = [c.key for c in widget.model().columns()].index(score_column(PRECISION, "Pipeline1"))
        assert widget.model().data(widget.model().index(0, column)) == "—"
        widget.set_data(add_metrics(small, store, requested.args[0]))
    assert widget.model().data(widget.model().index(0, column)) != "—"


def test_sort_by_clicking_a_header(qtbot: QtBot, widget: ScoreGrid) -> None:
    model, header = widget.model(), widget.table_view().horizontalHeader()
    f1 = column_of(model, F1_SCORE, "Pipeline3")
    point = QPoint(header.sectionViewportPosition(f1) + header.sectionSize(f1) // 2, header.height() // 2)
    with qtbot.waitSignal(widget.state_changed):
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=point)
    values = [model.data(model.index(r, f1), USER) for r in range(model.rowCount())]
    assert model.state().sort_column == score_column(F1_SCORE, "Pipeline3")
    ascending = values == sorted(values)
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=point)
    again = [model.data(model.index(r, f1), USER) for r in range(model.rowCount())]
    assert again == sorted(values, reverse=ascending)
    assert header.sortIndicatorSection() == f1


def test_current_question_follows_selection_and_keys(qtbot: QtBot, widget: ScoreGrid) -> None:
    with qtbot.waitSignal(widget.current_question_changed) as selected:
        assert widget.select_question("q03")
    assert selected.args == ["q03"]
    view = widget.table_view()
    view.setFocus()
    with qtbot.waitSignal(widget.current_question_changed) as moved:
        qtbot.keyClick(view, Qt.Key.Key_Down)
    assert moved.args == ["q04"]
    assert widget.select_question("nope") is False
    # Sorting keeps the current question and its row follows it.
    widget.model().sort(column_of(widget.model(), RECALL, "Pipeline1"), Qt.SortOrder.DescendingOrder)
    assert widget.current_question() == "q04"
    assert widget.model().question_id(view.currentIndex().row()) == "q04"


def test_next_and_previous_move_within_the_visible_order(qtbot: QtBot, widget: ScoreGrid) -> None:
    widget.set_state(replace(widget.state(), disagree_only=True))
    order = widget.visible_question_ids()
    with qtbot.waitSignal(widget.current_question_changed) as first:
        assert widget.next_question()
    assert first.args == [order[0]]
    seen = [order[0]]
    while widget.next_question():
        seen.append(str(widget.current_question()))
    assert seen == order
    assert widget.previous_question()
    assert widget.current_question() == order[-2]
    while widget.previous_question():
        pass
    assert widget.current_question() == order[0]


def test_state_round_trip_and_header_widths(qtbot: QtBot, widget: ScoreGrid, grid_data: GridData) -> None:
    state = GridState(
        metrics=(F1_SCORE,), threshold="f1 > 0.5", text="amazon", flag="*",
        sort_column=score_column(F1_SCORE, "Pipeline2"), sort_descending=True,
    )  # fmt: skip
    widget.set_state(state)
    assert widget.state() == state
    assert widget.filter_bar.threshold.text() == "f1 > 0.5"
    assert widget.filter_bar.flag.currentData() == "*"
    assert widget.visible_rows().tolist() == visible_rows(grid_data, state).tolist()
    widget.table_view().setColumnWidth(1, 222)
    saved = widget.header_state()
    other = ScoreGrid()
    qtbot.addWidget(other)
    other.set_data(grid_data)
    assert other.restore_header_state(saved)
    assert other.table_view().columnWidth(1) == 222
    other.set_state(replace(other.state(), fk_report_mode=True))  # a reset keeps the width
    assert other.table_view().columnWidth(1) == 222
    assert not other.restore_header_state(b"not json")
    assert other.grid() is grid_data
    assert ScoreGrid().grid() is None


def test_focus_filter_and_dark_palette(qtbot: QtBot, widget: ScoreGrid) -> None:
    widget.activateWindow()
    widget.focus_filter()
    qtbot.waitUntil(widget.filter_bar.search.hasFocus)
    model = widget.model()
    fk1 = column_of(model, FACTUAL_KNOWLEDGE, "Pipeline1")
    light = model.data(model.index(0, fk1), Qt.ItemDataRole.BackgroundRole)
    palette = QPalette(widget.palette())
    palette.setColor(QPalette.ColorRole.Base, QColor(30, 30, 30))
    palette.setColor(QPalette.ColorRole.Text, QColor(230, 230, 230))
    widget.setPalette(palette)
    dark = model.data(model.index(0, fk1), Qt.ItemDataRole.BackgroundRole)
    assert isinstance(light, QColor)
    assert isinstance(dark, QColor)
    assert dark.lightness() < light.lightness()
    assert np.isfinite(model.data(model.index(0, fk1), USER))


def test_a_bare_threshold_says_any_pipeline_and_marks_the_matching_cells(
    qtbot: QtBot, widget: ScoreGrid, grid_data: GridData
) -> None:
    widget.set_state(replace(widget.state(), threshold="recall < 0.5"))
    assert widget.filter_bar.threshold_meaning.isVisible()
    assert widget.filter_bar.threshold_meaning.text().startswith(
        "Showing rows where any pipeline's Recall < 0.5"
    )
    model = widget.model()
    recall = grid_data.values[RECALL]
    marked_any = False
    for row in range(model.rowCount()):
        question = model.question_id(row)
        index = list(grid_data.question_ids).index(question)
        for p, pipeline in enumerate(grid_data.pipelines):
            value = float(recall[index, p])
            expected = not np.isnan(value) and value < 0.5
            assert model.threshold_matches(row, column_of(model, RECALL, pipeline)) == expected
            assert not model.threshold_matches(row, column_of(model, FACTUAL_KNOWLEDGE, pipeline))
            marked_any |= expected
    assert marked_any

    # Naming a pipeline marks only its cells.
    widget.set_state(replace(widget.state(), threshold="Pipeline2.recall < 0.5"))
    assert "Pipeline2's Recall < 0.5" in widget.filter_bar.threshold_meaning.text()
    for row in range(model.rowCount()):
        assert not model.threshold_matches(row, column_of(model, RECALL, "Pipeline1"))
    widget.set_state(replace(widget.state(), threshold=""))
    assert widget.filter_bar.threshold_meaning.isHidden()


def test_a_matching_cell_is_drawn_with_a_corner_mark(qtbot: QtBot, widget: ScoreGrid) -> None:
    from goldenlens.ui.grid.score_table_view import THRESHOLD_MARK

    widget.set_state(replace(widget.state(), threshold="Pipeline2.recall < 0.5"))
    view, model = widget.table_view(), widget.model()
    column = column_of(model, RECALL, "Pipeline2")
    other = column_of(model, RECALL, "Pipeline1")
    view.scrollTo(model.index(0, column))
    image = view.viewport().grab().toImage()
    ratio = image.devicePixelRatio()

    def corner(row: int, col: int) -> QColor:
        rect = view.visualRect(model.index(row, col))
        return image.pixelColor(int((rect.left() + 1) * ratio), int((rect.top() + 1) * ratio))

    rows = [r for r in range(model.rowCount()) if model.threshold_matches(r, column)]
    assert rows
    for row in rows:
        assert corner(row, column).rgb() == THRESHOLD_MARK.rgb()
        assert corner(row, other).rgb() != THRESHOLD_MARK.rgb()


def test_the_flag_filter_shows_how_many_questions_each_choice_keeps(
    widget: ScoreGrid, grid_data: GridData
) -> None:
    combo = widget.filter_bar.flag
    texts = [combo.itemText(i) for i in range(combo.count())]
    assert texts[0] == f"All rows ({len(grid_data.question_ids)})"
    for index in range(combo.count()):
        value = combo.itemData(index)
        if value is None:
            continue
        shown = int(combo.itemText(index).rsplit("(", 1)[1].rstrip(")"))
        # choosing it keeps exactly that many rows
        widget.set_state(replace(widget.state(), flag=value))
        assert widget.model().rowCount() == shown, combo.itemText(index)
    widget.set_state(replace(widget.state(), flag=None))


def test_the_fk_report_has_a_totals_row_per_pipeline(widget: ScoreGrid, grid_data: GridData) -> None:
    widget.set_state(replace(widget.state(), fk_report_mode=True))
    assert widget.fk_totals_label.isVisible()
    text = widget.fk_totals_label.text()
    model = widget.model()
    assert text.startswith(f"Total of the {model.rowCount()} questions shown")
    for pipeline in grid_data.pipelines:
        column = column_of(model, FACTUAL_KNOWLEDGE, pipeline)
        # an overridden cell reads "✓*": it counts with its value in force
        ticks = [
            str(cell(model, str(model.question_id(r)), column)).rstrip("*") for r in range(model.rowCount())
        ]
        found, scored = ticks.count("✓"), ticks.count("✓") + ticks.count("✗")
        assert f"<b>{pipeline}</b> {found}/{scored} ✓" in text
    # totals follow the filter
    widget.set_state(replace(widget.state(), threshold="Pipeline1.fk == 0"))
    assert f"Total of the {model.rowCount()} questions shown" in widget.fk_totals_label.text()
    assert "<b>Pipeline1</b> 0/" in widget.fk_totals_label.text()
    widget.set_state(replace(widget.state(), fk_report_mode=False, threshold=""))
    assert widget.fk_totals_label.isHidden()

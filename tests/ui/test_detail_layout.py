"""The detail pane at 1366x768: every shown card's name and scores are in view, the golden
editor folds away, and the analyst chooses which pipelines are shown side by side."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from goldenlens.ui.main_window import MainWindow

TIMEOUT = 30_000


def _window(qtbot: QtBot, project: Path, width: int, height: int) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    assert window.grid.select_question("q03")
    qtbot.waitUntil(lambda: len(window.detail.cards()) == 3, timeout=TIMEOUT)
    qtbot.wait(50)  # layouts settle
    return window


def _fully_visible(widget: QWidget, area: QWidget) -> bool:
    """Whether ``widget`` is shown and lies entirely inside ``area`` (both on screen)."""
    top_left = widget.mapTo(area.window(), QPoint(0, 0))
    rect = QRect(top_left, widget.size())
    area_rect = QRect(area.mapTo(area.window(), QPoint(0, 0)), area.size())
    return widget.isVisible() and rect.height() > 0 and area_rect.contains(rect)


def test_three_cards_show_names_and_scores_at_1366x768(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project, 1366, 768)
    assert window.size().width() == 1366
    viewport = window.detail.cards_scroll.viewport()
    for card in window.detail.cards():
        assert _fully_visible(card.title, viewport), card.pipeline
        assert _fully_visible(card.scores_view, viewport), card.pipeline
        assert _fully_visible(card.judge_label, viewport), card.pipeline
        # every score row is drawn inside the table, none cut off
        view = card.scores_view
        last = view.visualRect(view.model().index(view.model().rowCount() - 1, 1))
        assert view.viewport().rect().contains(last), card.pipeline
    window.close()


def test_the_golden_editor_folds_away_and_opens_for_an_edit(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project, 1366, 768)
    section = window.editor_section
    section.set_expanded(False)
    assert window.editor is not None
    assert not window.editor.isVisible()
    collapsed_height = window.detail.height()
    section.set_expanded(True)
    qtbot.wait(50)
    assert window.editor.isVisible()
    assert window.detail.height() < collapsed_height
    section.set_expanded(False)
    assert window.editor_to_edit() is window.editor  # the advisor's "Reframe…" opens it
    assert section.is_expanded()
    window.close()


def test_wide_cards_put_the_scores_beside_the_text(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project, 1920, 1080)
    window.detail.set_pipeline_shown("Pipeline3", False)  # two cards share the pane's width
    # The cards re-lay themselves out once the pane's new width reaches them (a later event on
    # a busy machine): wait for it rather than for a fixed time.
    qtbot.waitUntil(
        lambda: all(card.scores_beside_text() for card in window.detail.shown_cards()), timeout=5000
    )
    for card in window.detail.shown_cards():
        assert card.width() >= 500
        assert card.scores_beside_text()
        text, scores = card.response_view, card.scores_view

        # to the right of the text, not below it
        def beside(t: QWidget = text, s: QWidget = scores) -> bool:
            return s.x() > t.x() + t.width() - 1

        qtbot.waitUntil(beside, timeout=2000)
        assert scores.y() < text.y() + text.height()
    window.close()


def test_the_analyst_picks_the_pipelines_shown_side_by_side(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project, 1366, 768)
    pane = window.detail
    assert [a.text() for a in pane.pipelines_menu.actions()] == ["Pipeline1", "Pipeline2", "Pipeline3"]
    pane.pipelines_menu.actions()[1].setChecked(False)
    assert [c.pipeline for c in pane.shown_cards()] == ["Pipeline1", "Pipeline3"]
    assert pane.card("Pipeline2") is not None
    assert not pane.card("Pipeline2").isVisible()  # type: ignore[union-attr]
    assert pane.pipelines_button.text() == "Pipelines (2 of 3)"
    # the choice holds on the next question
    assert window.grid.select_question("q04")
    qtbot.waitUntil(lambda: getattr(pane.detail(), "item", None) is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: pane.detail().item.id == "q04", timeout=TIMEOUT)  # type: ignore[union-attr]
    assert [c.pipeline for c in pane.shown_cards()] == ["Pipeline1", "Pipeline3"]
    # stepping the focus skips the hidden pipeline
    pane.focus_next_pipeline()
    pane.focus_next_pipeline()
    assert pane.focused_pipeline() in {"Pipeline1", "Pipeline3"}
    # the last shown pipeline stays
    pane.set_pipeline_shown("Pipeline1", False)
    pane.set_pipeline_shown("Pipeline3", False)
    assert [c.pipeline for c in pane.shown_cards()] == ["Pipeline3"]
    window.close()

"""The fact-variant dialog on real project files: the scored sample (imported and scored by the
import and score jobs) and the variant test project (a workbook written by the test, imported
and scored by the import-then-score job). Expected values come from the input texts and from
the job the CLI prints (``goldenlens variants --project … --question …``), not the dialog.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from pytestqt.qtbot import QtBot
from tests.variant_project import build_project

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT
from goldenlens.core.variants.generator import RISK_DIGITS
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.curation.variant_preview import preview_fact_variants
from goldenlens.store.project import ProjectStore, store_of
from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.review.undo_commands import curation_messages
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.variants.variant_dialog import EMPTY_TEXT, VariantDialog
from goldenlens.ui.variants.variant_preview_model import HTML_ROLE, PreviewRowsModel, SuggestionTableModel

TIMEOUT = 30_000
Q03_FACT = "410 Terry Avenue North"
Q03_VARIANT = "410 Terry Ave. N."


def _open_session(path: Path) -> ProjectSession:
    opened = ProjectSession(path)
    opened.set_preferences(replace(opened.preferences, reviewer="Ana"))
    return opened


@pytest.fixture
def session(scored_project: Path, qtbot: QtBot) -> Iterator[ProjectSession]:
    opened = _open_session(scored_project)
    yield opened
    opened.close()


@pytest.fixture
def variant_session(tmp_path: Path, qtbot: QtBot) -> Iterator[ProjectSession]:
    opened = _open_session(build_project(tmp_path))
    yield opened
    opened.close()


@pytest.fixture
def stack(qtbot: QtBot) -> QUndoStack:
    return QUndoStack()


def _dialog(qtbot: QtBot, session: ProjectSession, stack: QUndoStack, question_id: str) -> VariantDialog:
    dialog = VariantDialog(session, stack, question_id)
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.loaded, timeout=TIMEOUT):
        dialog.start()
    return dialog


def _fk(session: ProjectSession, question_id: str, pipeline: str, metric: str = FACTUAL_KNOWLEDGE) -> Any:
    run_id = session.run_id
    assert run_id is not None
    return store_of(session.handle).results.score_matrix(run_id, metric)[(question_id, pipeline)]


def _fact(session: ProjectSession, question_id: str) -> str:
    item = session.project.golden_item(question_id)
    assert item is not None
    return item.fact


def _sample_response(question_id: str, pipeline: str) -> str:
    with (sample_dir() / "responses.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return next(r["response"] for r in rows if (r["question_id"], r["pipeline"]) == (question_id, pipeline))


def _job_texts(path: Path, question_id: str) -> list[str]:
    with ProjectStore.open(path) as store:
        return [p.variant.text for p in preview_fact_variants(store, question_id).previews]


# -- listing and previewing ---------------------------------------------------------------------


def test_q03_lists_what_the_job_suggests_grouped_by_kind(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    # From the input: the fact is the long spelling, and only Pipeline3 writes the short one.
    assert _fact(session, "q03") == Q03_FACT
    assert Q03_VARIANT in _sample_response("q03", "Pipeline3")
    assert Q03_FACT.lower() not in _sample_response("q03", "Pipeline3").lower()
    assert _fk(session, "q03", "Pipeline3") == 0.0

    dialog = _dialog(qtbot, session, stack, "q03")
    model = dialog.suggestions
    shown = [p.variant.text for p in model.previews()]
    assert shown == _job_texts(session.path, "q03")  # what `goldenlens variants` prints
    assert Q03_VARIANT in shown
    # One kind, one header row above its suggestions.
    assert model.is_header(0)
    assert model.index(0, 0).data() == f"Abbreviation ({len(shown)})"
    assert model.rowCount() == len(shown) + 1
    row = model.row_of(Q03_VARIANT)
    assert model.index(row, 2).data() == "exact + quasi"
    assert model.index(row, 3).data() == "0 → 1: Pipeline3"
    assert model.index(row, 5).data() == "—"  # no known false-match risk
    assert "Avenue" in model.index(row, 1).data()  # why it is the same spelling


def test_the_current_suggestion_shows_its_flips_with_the_match_highlighted(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    dialog = _dialog(qtbot, session, stack, "q03")
    row = dialog.suggestions.row_of(Q03_VARIANT)
    dialog.suggestion_view.setCurrentIndex(dialog.suggestions.index(row, 0))
    flips = dialog.preview.flips
    assert flips.rowCount() == 1
    assert [flips.index(0, c).data() for c in range(3)] == [
        Q03_VARIANT,
        "Pipeline3",
        "exact 0 → 1, quasi 0 → 1",
    ]
    snippet = flips.index(0, 3).data()
    assert Q03_VARIANT in snippet
    assert "[[" not in snippet
    rich = flips.index(0, 3).data(HTML_ROLE)
    assert f"{Q03_VARIANT}</span>" in rich
    assert "text-decoration:underline" in rich
    assert "not checked" in dialog.preview.caption.text()
    assert not dialog.add_button.isEnabled()  # nothing checked yet
    # A suggestion that flips nothing here shows no rows and says so.
    quiet = next(p for p in dialog.suggestions.previews() if not p.flips)
    dialog.suggestion_view.setCurrentIndex(
        dialog.suggestions.index(dialog.suggestions.row_of(quiet.variant.text), 0)
    )
    assert flips.rowCount() == 0
    assert dialog.preview.flip_view.isHidden()
    assert "no response of q03 would change" in dialog.preview.caption.text()


# -- adding and undoing -------------------------------------------------------------------------


def test_adding_the_checked_variant_changes_the_fact_and_the_score_and_undo_restores_both(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    before_quasi = _fk(session, "q03", "Pipeline3", FACTUAL_KNOWLEDGE_QUASI_EXACT)
    dialog = _dialog(qtbot, session, stack, "q03")
    dialog.check(Q03_VARIANT)
    assert dialog.add_button.text() == "&Add 1 variant"
    assert "Pipeline3" in dialog.summary_label.text()
    with qtbot.waitSignal(curation_messages(session).message) as message:
        qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert _fact(session, "q03") == f"{Q03_FACT}<OR>{Q03_VARIANT}"
    assert _fk(session, "q03", "Pipeline3") == 1.0
    assert _fk(session, "q03", "Pipeline1") == 0.0  # no address in Pipeline1's answer
    assert "Pipeline3 factual knowledge 0 → 1" in message.args[0]
    assert stack.count() == 1
    assert not dialog.isVisible()  # Add closes the dialog

    stack.undo()
    assert _fact(session, "q03") == Q03_FACT
    assert _fk(session, "q03", "Pipeline3") == 0.0
    assert _fk(session, "q03", "Pipeline3", FACTUAL_KNOWLEDGE_QUASI_EXACT) == before_quasi
    stack.redo()
    assert _fact(session, "q03") == f"{Q03_FACT}<OR>{Q03_VARIANT}"
    assert _fk(session, "q03", "Pipeline3") == 1.0


def test_several_checked_variants_are_one_undoable_step(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    dialog = _dialog(qtbot, session, stack, "q03")
    chosen = ["410 Terry Ave N", "410 Terry Ave. N."]
    for text in chosen:
        dialog.check(text)
    in_order = [p.variant.text for p in dialog.suggestions.previews() if p.variant.text in chosen]
    assert [p.variant.text for p in dialog.checked()] == in_order == ["410 Terry Ave. N.", "410 Terry Ave N"]
    assert dialog.preview.flips.rowCount() == 2  # each checked variant's own flip of Pipeline3
    assert dialog.add_checked() == 2
    assert stack.count() == 1
    assert _fact(session, "q03") == f"{Q03_FACT}<OR>410 Terry Ave. N.<OR>410 Terry Ave N"
    assert _fk(session, "q03", "Pipeline3") == 1.0
    stack.undo()
    assert _fact(session, "q03") == Q03_FACT
    assert _fk(session, "q03", "Pipeline3") == 0.0


def test_an_and_variant_is_added_as_a_whole_group(
    qtbot: QtBot, variant_session: ProjectSession, stack: QUndoStack
) -> None:
    # q4's fact is "Amazon<AND>12.5 billion"; only Pipeline1 names Amazon with $12,500 million.
    assert _fk(variant_session, "q4", "Pipeline1") == 0.0
    dialog = _dialog(qtbot, variant_session, stack, "q4")
    dialog.check("Amazon<AND>12,500 million")
    assert dialog.add_checked() == 1
    assert _fact(variant_session, "q4") == "Amazon<AND>12.5 billion<OR>Amazon<AND>12,500 million"
    assert _fk(variant_session, "q4", "Pipeline1") == 1.0
    assert _fk(variant_session, "q4", "Pipeline2") == 0.0  # no "Amazon": still missing
    stack.undo()
    assert _fact(variant_session, "q4") == "Amazon<AND>12.5 billion"
    assert _fk(variant_session, "q4", "Pipeline1") == 0.0


# -- risk, notes, empty state -------------------------------------------------------------------


def test_the_risk_list_shows_responses_of_other_questions_that_contain_the_variant(
    qtbot: QtBot, variant_session: ProjectSession, stack: QUndoStack
) -> None:
    # q5/Pipeline3 was written with q1's figure "$134,400 million".
    dialog = _dialog(qtbot, variant_session, stack, "q1")
    dialog.check("134,400 million")
    model = dialog.preview.elsewhere
    assert model.rowCount() == 1
    assert [model.index(0, c).data() for c in range(3)] == ["134,400 million", "q5", "Pipeline3"]
    assert "134,400 million" in model.index(0, 3).data()
    assert not dialog.preview.elsewhere_view.isHidden()
    assert "1 response to other questions" in dialog.preview.elsewhere_caption.text()
    row = dialog.suggestions.row_of("134,400 million")
    assert dialog.suggestions.index(row, 4).data() == "1"
    # A bare digit string carries its risk badge; the tooltip explains it.
    digits = dialog.suggestions.row_of("134400000000")
    assert dialog.suggestions.index(digits, 5).data() == "⚠ digit string"
    assert RISK_DIGITS in dialog.suggestions.index(digits, 5).data(Qt.ItemDataRole.ToolTipRole)


def test_the_generators_notes_are_shown_above_the_suggestions(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    # q02's alternatives, read from the fact: 134.4 billion, 134,383 million, 134183 million.
    assert _fact(session, "q02").startswith("134.4 billion<OR>134,383 million<OR>134183 million")
    dialog = _dialog(qtbot, session, stack, "q02")
    assert dialog.notes_label.isVisible()
    text = dialog.notes_label.text()
    assert "3 different values" in text
    assert "134,183,000,000" in text
    quiet = _dialog(qtbot, session, stack, "q03")
    assert quiet.notes_label.isHidden()


def test_a_fact_without_other_spellings_shows_the_empty_state(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    assert _job_texts(session.path, "q01") == []  # "CEO of Amazon" … has no respelling
    dialog = _dialog(qtbot, session, stack, "q01")
    empty = [label for label in dialog.findChildren(type(dialog.notes_label)) if label.text() == EMPTY_TEXT]
    assert len(empty) == 1
    assert empty[0].isVisible()
    assert dialog.suggestions.rowCount() == 0
    assert not dialog.add_button.isEnabled()
    assert dialog.add_checked() == 0
    assert stack.count() == 0


# -- keyboard and the main window ----------------------------------------------------------------


def test_space_checks_the_current_suggestion_and_ctrl_enter_adds(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    dialog = _dialog(qtbot, session, stack, "q03")
    view = dialog.suggestion_view
    row = dialog.suggestions.row_of(Q03_VARIANT)
    view.setCurrentIndex(dialog.suggestions.index(row, 3))  # any column
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert [p.variant.text for p in dialog.checked()] == [Q03_VARIANT]
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert dialog.checked() == []
    qtbot.keyClick(view, Qt.Key.Key_Space)
    qtbot.keyClick(dialog, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert stack.count() == 1
    assert _fk(session, "q03", "Pipeline3") == 1.0


def test_a_kind_header_checks_every_suggestion_of_its_kind(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    dialog = _dialog(qtbot, session, stack, "q03")
    model = dialog.suggestions
    assert model.setData(model.index(0, 0), Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert len(dialog.checked()) == len(model.previews())
    model.set_checked(model.row_of(Q03_VARIANT), False)
    assert model.index(0, 0).data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.PartiallyChecked


def test_the_button_next_to_the_fact_opens_the_dialog_and_the_grid_follows_an_add(
    qtbot: QtBot, scored_project: Path
) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.projects.open_project(scored_project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    window.grid.select_question("q03")
    qtbot.waitUntil(lambda: not window.detail.variants_button.isHidden())
    window.detail.variants_button.click()
    dialog = window.review.variant_dialog
    assert dialog is not None
    assert dialog.question_id == "q03"
    qtbot.waitUntil(lambda: dialog.suggestions.rowCount() > 0, timeout=TIMEOUT)
    dialog.check(Q03_VARIANT)
    dialog.add_checked()
    grid = window.grid.grid()
    assert grid is not None
    row = grid.index_of("q03")
    assert row is not None
    assert list(grid.values[FACTUAL_KNOWLEDGE][row]) == [0.0, 0.0, 1.0]
    assert "Pipeline3 factual knowledge 0 → 1" in window.statusBar().currentMessage()
    detail = window.detail.detail()
    assert detail is not None
    assert detail.item.fact == f"{Q03_FACT}<OR>{Q03_VARIANT}"
    window.undo_stack.undo()
    reverted = window.grid.grid()
    assert reverted is not None
    assert list(reverted.values[FACTUAL_KNOWLEDGE][row]) == [0.0, 0.0, 0.0]
    # The V key and the Review menu open it too.
    review_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Review")
    assert "Suggest Fact &Variants…" in [a.text() for a in review_menu.actions()]
    window.grid.table_view().setFocus()
    qtbot.keyClick(window.grid.table_view(), Qt.Key.Key_V)
    second = window.review.variant_dialog
    assert second is not None
    assert second is not dialog
    qtbot.waitUntil(lambda: second.suggestions.rowCount() > 0, timeout=TIMEOUT)
    second.reject()
    window.close()


# -- models -------------------------------------------------------------------------------------


def test_the_models_pass_the_qt_model_tester(
    qtbot: QtBot, qtmodeltester: Any, session: ProjectSession, stack: QUndoStack
) -> None:
    dialog = _dialog(qtbot, session, stack, "q03")
    previews = dialog.suggestions.previews()
    suggestions = SuggestionTableModel()
    suggestions.set_previews(previews)
    qtmodeltester.check(suggestions)
    flips = PreviewRowsModel(dialog.preview.flips.kind)
    flips.set_previews(previews)
    qtmodeltester.check(flips)
    assert flips.rowCount() == sum(len(p.flips) for p in previews)


def test_push_add_fact_variant_takes_an_and_group(variant_session: ProjectSession, stack: QUndoStack) -> None:
    from goldenlens.ui.review.undo_commands import push_add_fact_variant

    with pytest.raises(ValueError, match="cannot contain"):  # a whole group needs and_group
        push_add_fact_variant(stack, variant_session, "q4", "Amazon<AND>12,500 million")
    assert push_add_fact_variant(stack, variant_session, "q4", "Amazon<AND>12,500 million", and_group=True)
    assert _fact(variant_session, "q4") == "Amazon<AND>12.5 billion<OR>Amazon<AND>12,500 million"
    assert _fk(variant_session, "q4", "Pipeline1") == 1.0
    stack.undo()
    assert _fact(variant_session, "q4") == "Amazon<AND>12.5 billion"
    assert _fk(variant_session, "q4", "Pipeline1") == 0.0


def test_a_snippet_marks_only_the_matched_text() -> None:
    from goldenlens.ui.widgets.highlight_html import snippet_html

    rich = snippet_html("…offices are at [[410 Terry Ave. N.]], Seattle…")
    assert ">410 Terry Ave. N.</span>, Seattle…" in rich
    assert "[[" not in rich
    assert "]]" not in rich
    assert "<span" not in snippet_html("no match here")  # plain, nothing marked


def test_closing_while_the_preview_runs_does_not_wait_for_it(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    from PySide6.QtWidgets import QWidget

    from goldenlens.ui.variants.variant_dialog import RUNNER_NAME
    from goldenlens.ui.workers import LatestJobRunner

    host = QWidget()
    qtbot.addWidget(host)
    dialog = VariantDialog(session, stack, "q02", host)
    dialog.start()
    dialog.reject()  # before the worker could report: the job is cancelled, not awaited
    runners = host.findChildren(LatestJobRunner, RUNNER_NAME)
    assert len(runners) == 1  # handed to the window, which the app waits for on quit
    assert dialog.findChildren(LatestJobRunner) == []
    qtbot.waitUntil(lambda: not host.findChildren(LatestJobRunner, RUNNER_NAME), timeout=TIMEOUT)
    assert stack.count() == 0


def test_clicking_the_check_box_checks_the_suggestion(
    qtbot: QtBot, session: ProjectSession, stack: QUndoStack
) -> None:
    from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

    dialog = _dialog(qtbot, session, stack, "q03")
    view = dialog.suggestion_view
    index = dialog.suggestions.index(dialog.suggestions.row_of(Q03_VARIANT), 0)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    option.features |= QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
    box = view.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, option, view)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=box.center())
    assert [p.variant.text for p in dialog.checked()] == [Q03_VARIANT]
    assert dialog.add_button.isEnabled()

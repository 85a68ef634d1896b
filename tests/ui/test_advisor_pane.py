"""The advisor pane in the main window on the scored sample project (a real project file).

Expected diagnoses come from the issue and from reading the sample's responses: q03 and q06
are ambiguous for all three pipelines; Pipeline2's q02 answer ($170.0 billion) is a likely
hallucination; Pipeline3 wrote q03's address as "410 Terry Ave. N.".
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtWidgets import QFrame
from pytestqt.qtbot import QtBot

from goldenlens.core.calibration.labels import Verdict
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.jobs.curation.review_job import override_score
from goldenlens.jobs.importing.sample_project import ensure_sample_project
from goldenlens.jobs.labelling.label_edits import label_response
from goldenlens.store.project import ProjectStore
from goldenlens.ui.advisor.advisor_controller import NO_SCORES_TEXT
from goldenlens.ui.advisor.advisor_pane import DiagnosisCard
from goldenlens.ui.main_window import MainWindow

TIMEOUT = 30_000
PIPELINES = ["Pipeline1", "Pipeline2", "Pipeline3"]


def _window(qtbot: QtBot, project: Path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1500, 950)
    window.show()
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    qtbot.waitUntil(
        lambda: len(window.advisor.index) == 10 and not window.advisor_pane.status.text(), timeout=TIMEOUT
    )
    return window


def _show(qtbot: QtBot, window: MainWindow, question_id: str) -> list[DiagnosisCard]:
    assert window.grid.select_question(question_id)
    qtbot.waitUntil(
        lambda: (
            bool(window.advisor_pane.cards())
            and window.advisor_pane.cards()[0].shown.question_id == question_id
        ),
        timeout=TIMEOUT,
    )
    return window.advisor_pane.cards()


def _keys(cards: list[DiagnosisCard]) -> list[tuple[str, str]]:
    return [(c.shown.diagnosis.code.value, c.shown.diagnosis.pipeline) for c in cards]


def _card(cards: list[DiagnosisCard], code: str, pipeline: str = "") -> DiagnosisCard:
    return next(
        c for c in cards if (c.shown.diagnosis.code.value, c.shown.diagnosis.pipeline) == (code, pipeline)
    )


def _stored(project: Path, question_id: str, pipeline: str) -> tuple[str, float | None]:
    """The stored fact and the latest run's Factual Knowledge, read from the file."""
    with ProjectStore.open(project) as store:
        item = store.golden.item(question_id)
        run = store.runs.latest(LEXICAL_RUN, finished_only=True)
        assert item is not None
        assert run is not None
        scores = store.results.score_matrix(run.id, FACTUAL_KNOWLEDGE)
        return item.fact, scores.get((question_id, pipeline))


def test_ambiguous_questions_show_every_pipelines_answer_side_by_side(
    qtbot: QtBot, scored_project: Path
) -> None:
    window = _window(qtbot, scored_project)
    for question_id in ("q03", "q06"):
        cards = _show(qtbot, window, question_id)
        ambiguous = cards[0]  # the most severe rule comes first
        assert ambiguous.shown.diagnosis.code.value == "ambiguous_question"
        assert ambiguous.badge.text() == "● High"
        assert [box.property("pipeline") for box in ambiguous.answer_boxes] == PIPELINES
        assert "None of the 3 pipelines' responses contains the fact" in ambiguous.explanation.text()
        assert ambiguous.fix_button is not None
        assert ambiguous.fix_button.text() == "Reframe the question…"
    # q06: each pipeline's answer instead of the fact, in its box
    texts = [box.findChildren(type(ambiguous.explanation))[-1].text() for box in ambiguous.answer_boxes]
    assert "currency" in texts[0]
    assert "inflationary" in texts[1]
    assert "AWS" in texts[2]
    assert "q06" in window.advisor_pane.summary.text()
    window.close()


def test_q02_pipeline2_is_a_likely_hallucination_with_its_numbers(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    cards = _show(qtbot, window, "q02")
    assert _keys(cards) == [("likely_hallucination", "Pipeline2")]
    card = cards[0]
    assert "Pipeline2" in card.title.text()
    assert "states '$170.0 billion' where the fact says '134.4 billion'" in card.explanation.text()
    numbers = card.findChild(type(card.explanation), "numbers")
    assert numbers is not None
    assert "recall 0.917" in numbers.text()
    assert "stated 170,000,000,000" in numbers.text()
    # $170.0 billion is another amount, not a spelling of 134.4 billion: no variant to add.
    assert card.shown.proposal is None
    assert card.fix_button is None
    window.close()


def test_one_click_variant_fix_rescores_and_leaves_the_pane_and_undo_brings_it_back(
    qtbot: QtBot, scored_project: Path
) -> None:
    window = _window(qtbot, scored_project)
    before = [
        ("ambiguous_question", ""),
        ("correct_but_rephrased", "Pipeline1"),
        ("correct_but_rephrased", "Pipeline3"),
    ]
    cards = _show(qtbot, window, "q03")
    assert _keys(cards) == before
    fix = _card(cards, "correct_but_rephrased", "Pipeline3")
    assert fix.fix_button is not None
    assert fix.fix_button.text() == "Add “410 Terry Ave. N.” as a fact variant"
    assert _stored(scored_project, "q03", "Pipeline3") == ("410 Terry Avenue North", 0.0)

    qtbot.mouseClick(fix.fix_button, Qt.MouseButton.LeftButton)
    # Until the advice is recomputed, the edited question's fixes are stale: not clickable.
    assert not fix.fix_button.isEnabled()
    qtbot.waitUntil(
        lambda: _keys(window.advisor_pane.cards()) == [("correct_but_rephrased", "Pipeline1")],
        timeout=TIMEOUT,
    )
    assert _stored(scored_project, "q03", "Pipeline3") == ("410 Terry Avenue North<OR>410 Terry Ave. N.", 1.0)
    assert window.undo_stack.undoText() == "Add fact variant “410 Terry Ave. N.” to q03"

    window.undo_stack.undo()
    qtbot.waitUntil(lambda: _keys(window.advisor_pane.cards()) == before, timeout=TIMEOUT)
    assert _stored(scored_project, "q03", "Pipeline3") == ("410 Terry Avenue North", 0.0)
    window.close()


def test_response_wording_fix_on_q06(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    cards = _show(qtbot, window, "q06")
    fix = _card(cards, "correct_but_rephrased", "Pipeline1")
    assert fix.fix_button is not None
    assert fix.fix_button.text() == "Add “foreign currency exchange rates” as a fact variant"
    assert "Pipeline1's own words" in fix.fix_note.text()
    qtbot.mouseClick(fix.fix_button, Qt.MouseButton.LeftButton)
    # Pipeline1 now contains the fact: neither rephrased nor ambiguous any more.
    qtbot.waitUntil(
        lambda: _keys(window.advisor_pane.cards()) == [("llm_specific_wording", "Pipeline1")], timeout=TIMEOUT
    )
    assert _stored(scored_project, "q06", "Pipeline1") == (
        "foreign exchange rates<OR>foreign currency exchange rates",
        1.0,
    )
    window.close()


def test_a_fix_that_needs_the_reviewers_words_opens_the_golden_editor(
    qtbot: QtBot, scored_project: Path
) -> None:
    window = _window(qtbot, scored_project)
    cards = _show(qtbot, window, "q06")
    reframe = _card(cards, "ambiguous_question")
    assert reframe.fix_button is not None
    qtbot.mouseClick(reframe.fix_button, Qt.MouseButton.LeftButton)
    editor = window.editor
    assert editor is not None
    question = editor.fields["question"]
    qtbot.waitUntil(question.hasFocus, timeout=TIMEOUT)
    assert question.toPlainText().startswith("What was a key challenge")
    assert question.textCursor().position() == len(question.toPlainText())
    assert "Reword the question" in window.statusBar().currentMessage()
    assert _stored(scored_project, "q06", "Pipeline1")[0] == "foreign exchange rates"  # nothing written
    window.close()


def test_a_question_without_diagnosis_says_so(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    assert window.grid.select_question("q01")
    qtbot.waitUntil(lambda: "No diagnosis for q01" in window.advisor_pane.message.text(), timeout=TIMEOUT)
    assert window.advisor_pane.cards() == []
    window.close()


def test_an_unscored_project_asks_for_a_scoring_run(qtbot: QtBot, tmp_path: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.projects.open_project(tmp_path / "empty.goldenlens", create=True)
    qtbot.waitUntil(lambda: window.advisor_pane.message.text() == NO_SCORES_TEXT, timeout=TIMEOUT)
    window.close()


def test_the_llm_wording_fix_selects_the_word_in_the_answer(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    cards = _show(qtbot, window, "q06")
    wording = _card(cards, "llm_specific_wording", "Pipeline1")
    assert wording.fix_button is not None
    qtbot.mouseClick(wording.fix_button, Qt.MouseButton.LeftButton)
    editor = window.editor
    assert editor is not None
    answer = editor.fields["answer"]
    qtbot.waitUntil(answer.hasFocus, timeout=TIMEOUT)
    assert answer.textCursor().selectedText() == "segment"
    window.close()


def test_a_response_level_diagnosis_quotes_the_response(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    (card,) = _show(qtbot, window, "q02")
    quote = QTextDocumentFragment.fromHtml(card.quote.text()).toPlainText()
    assert quote == "Amazon's total net sales for the second quarter of 2023 were $170.0 billion."
    # Under an ambiguous question every answer is already side by side: no second quote.
    cards = _show(qtbot, window, "q06")
    rephrased = _card(cards, "correct_but_rephrased", "Pipeline1")
    assert rephrased.findChild(QFrame, "responseQuote") is None
    window.close()


def test_a_diagnosis_says_how_often_it_held_on_the_labels(qtbot: QtBot, scored_project: Path) -> None:
    """q02/Pipeline2 and q07/Pipeline2 labelled incorrect, q08/Pipeline2 correct: the likely
    hallucination rule held on 2 of 3; a card of a rule nobody checked says nothing."""
    with ProjectStore.open(scored_project) as store:
        label_response(store, "q02", "Pipeline2", Verdict.INCORRECT, reviewer="Ana")
        label_response(store, "q07", "Pipeline2", Verdict.INCORRECT, reviewer="Ana")
        label_response(store, "q08", "Pipeline2", Verdict.CORRECT, reviewer="Ana")
    window = _window(qtbot, scored_project)
    card = _show(qtbot, window, "q02")[0]
    assert card.held is not None
    assert card.held.text() == "On the reviewer's labels: right on 2 of 3 labelled"
    ambiguous = _show(qtbot, window, "q06")[0]
    assert ambiguous.held is None
    window.close()


def test_a_diagnosis_the_reviewer_refuted_says_so_on_its_card(qtbot: QtBot, tmp_path: Path) -> None:
    """The reviewer overrides q02/Pipeline2's Factual Knowledge to 1 (a note with markup in
    it): its likely-hallucination card says the reviewer counted the response correct and that
    the diagnosis does not hold, in bold, with the note shown as written."""
    project = ensure_sample_project(tmp_path / "reviewed.goldenlens")
    with ProjectStore.open(project) as store:
        override_score(store, "q02", "Pipeline2", "FK", "1", note="<b>restated</b> & checked", reviewer="Ana")
    window = _window(qtbot, project)
    card = _card(_show(qtbot, window, "q02"), "likely_hallucination", "Pipeline2")
    assert card.reviewer is not None
    shown = QTextDocumentFragment.fromHtml(card.reviewer.text()).toPlainText()
    assert shown == (
        "The reviewer counted this response correct (Factual Knowledge overridden to 1 by Ana: "
        "<b>restated</b> & checked): this diagnosis does not hold here."
    )
    assert "font-weight:600" in card.reviewer.text()
    assert _card(_show(qtbot, window, "q06"), "ambiguous_question").reviewer is None
    window.close()

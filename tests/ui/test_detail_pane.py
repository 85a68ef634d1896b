"""Highlight HTML (pure) and the detail pane on the real scored sample project."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QLabel, QTableView
from pytestqt.qtbot import QtBot

from goldenlens.core.lexical.factual_knowledge import FactPartMatch, FactResult, factual_knowledge
from goldenlens.core.lexical.scorer import F1_SCORE, LexicalScorer, WordKind, score_response
from goldenlens.queries.detail_data import QuestionDetail, load_question_detail
from goldenlens.store.project import ProjectStore
from goldenlens.ui.review.detail_pane import EMPTY_TEXT, DetailPane
from goldenlens.ui.review.response_card import ADD_VARIANT_TEXT, ResponseCard
from goldenlens.ui.widgets.highlight_html import (
    FACT,
    LEGEND,
    STYLES,
    answer_html,
    answer_spans,
    fact_html,
    response_html,
    spans_for_display,
    spans_html,
)

# -- highlight_html (pure) ---------------------------------------------------------------


def _text_of(markup: str) -> str:
    """The visible text of our HTML: tags dropped, <br> as newline, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup.replace("<br>", "\n")))


def test_text_is_escaped_and_survives_unchanged() -> None:
    response = "<script>alert('x')</script> & Q&A \"quoted\" the end"
    result = score_response(response, "Q&A script end", "script")
    markup = response_html(response, result.alignment, result.fact)
    assert "<script" not in markup
    assert "</script" not in markup
    assert "&lt;" in markup
    assert "&gt;" in markup
    assert "&amp;" in markup
    assert "&amp;amp;" not in markup
    assert _text_of(markup) == response


def test_newlines_become_breaks_and_spaces_are_kept() -> None:
    response = "first  line\nsecond\r\nthird\tend"
    result = score_response(response, "first second third", "second")
    markup = response_html(response, result.alignment, result.fact)
    assert "\n" not in markup
    assert markup.count("<br>") == 2
    assert "white-space:pre-wrap" in markup
    assert "first  " in _text_of(markup)  # two spaces kept (pre-wrap)
    assert _text_of(markup) == response.replace("\r\n", "\n")


def test_spans_for_display_are_exactly_the_alignment_spans_plus_the_fact() -> None:
    response = "There were 10,317,750,796 shares outstanding, said the report."
    answer = "There were 10,317,750,796 shares of Amazon's common stock outstanding."
    result = LexicalScorer().score(response, answer, "10,317,750,796")
    assert result.alignment is not None
    spans = spans_for_display(response, result.alignment, result.fact)
    words = [(s, e, k) for s, e, k in spans if k != FACT]
    assert words == [(s.start, s.end, s.kind.value) for s in result.alignment.response]
    assert {k for _, _, k in words} == {"matched", "extra"}
    facts = [(s, e) for s, e, k in spans if k == FACT]
    assert [response[s:e] for s, e in facts] == ["10,317,750,796"]
    assert spans == sorted(spans, key=lambda span: span[0])


def test_overlapping_fact_and_word_spans_both_show() -> None:
    # The fact "art" matches inside the word "Mozart" (plain substring inclusion).
    response = "Mozart wrote it"
    alignment = LexicalScorer().score(response, "Mozart composed", "art").alignment
    fact = factual_knowledge(response, "art")
    assert [(m.start, m.end) for m in fact.matches] == [(3, 6)]
    markup = response_html(response, alignment, fact)
    matched, fact_style = STYLES["matched"], STYLES[FACT]
    # "Moz" green only; "art" green *and* fact-marked; the fact never hides the word colour.
    assert re.search(rf'background-color:{matched.background}; color:{matched.foreground};">Moz<', markup)
    art = re.search(r'<span style="([^"]*)">art</span>', markup)
    assert art is not None
    assert f"background-color:{matched.background}" in art.group(1)
    assert "text-decoration:underline" in art.group(1)
    assert f"color:{fact_style.foreground}" in art.group(1)
    # A fact span across several words and the gap between them.
    spans = [(0, 3, "matched"), (4, 9, "extra"), (2, 7, FACT)]
    markup = spans_html("abc defgh", spans)
    assert _text_of(markup) == "abc defgh"
    pieces = re.findall(r'<span style="([^"]*)">([^<]*)</span>', markup)
    assert [text for _, text in pieces] == ["ab", "c", " ", "def", "gh"]
    assert "underline" not in pieces[0][0]
    assert all("underline" in style for style, _ in pieces[1:4])
    assert f"background-color:{fact_style.background}" in pieces[2][0]  # the gap: fact colour alone
    assert "underline" not in pieces[4][0]


def test_zero_length_and_out_of_range_spans_are_ignored() -> None:
    fact = FactResult(1.0, 1.0, (FactPartMatch("", 0, 0), FactPartMatch("x", 5, 99)), "exact")
    assert spans_for_display("abc", None, fact) == []
    assert _text_of(spans_html("abc", [(1, 1, "matched")])) == "abc"
    assert "<span" not in spans_html("abc", [(1, 1, "matched")])


def test_answer_html_marks_missed_and_matched_words() -> None:
    answer = "There were 10,317,750,796 shares of Amazon's common stock outstanding."
    result = score_response("Amazon had 10,317,750,796 shares of common stock.", answer, "10,317,750,796")
    assert result.alignment is not None
    spans = answer_spans(answer, result.alignment)
    missed = [answer[s:e] for s, e, k in spans if k == WordKind.MISSED.value]
    assert missed == ["There", "were", "Amazon's", "outstanding"]
    markup = answer_html(answer, result.alignment)
    missed_style = STYLES["missed"]
    for word in missed:
        assert f'color:{missed_style.foreground};">{html.escape(word)}</span>' in markup
    assert _text_of(markup) == answer
    assert _text_of(answer_html(answer, None)) == answer


def test_fact_html_shows_parts_as_chips_and_marks_the_matched_one() -> None:
    fact = "134.4 billion<OR>134,383 million<AND>Q2<OR><b>x</b>"
    markup = fact_html(fact, "134,383 million<AND>Q2")
    assert ">OR<" in markup
    assert ">AND<" in markup
    assert "&lt;b&gt;x&lt;/b&gt;" in markup
    marked = re.findall(r"&#10003;&nbsp;([^&<]+)&nbsp;", markup)
    assert marked == ["134,383 million", "Q2"]
    assert "&#10003;" not in fact_html(fact, "")


def test_html_build_is_fast_for_a_long_response() -> None:
    response = ("The total net sales were $134,383 million in the quarter. " * 200)[:10_000]
    result = score_response(response, "Total net sales were 134.4 billion.", "134,383 million")
    started = time.perf_counter()
    markup = response_html(response, result.alignment, result.fact)
    assert time.perf_counter() - started < 0.5
    assert _text_of(markup) == response


# -- the pane -----------------------------------------------------------------------------


@pytest.fixture
def store(scored_project: Path) -> Iterator[ProjectStore]:
    with ProjectStore.open(scored_project) as opened:
        yield opened


def _load(store: ProjectStore, question_id: str) -> QuestionDetail:
    run = store.runs.latest("lexical", finished_only=True)
    assert run is not None
    detail = load_question_detail(store, run.id, question_id)
    assert detail is not None
    return detail


def _card(pane: DetailPane, pipeline: str) -> ResponseCard:
    card = pane.card(pipeline)
    assert card is not None
    return card


@pytest.fixture
def pane(qtbot: QtBot) -> DetailPane:
    widget = DetailPane()
    qtbot.addWidget(widget)
    widget.resize(1400, 800)
    widget.show()
    return widget


def test_empty_state_until_a_question_is_shown(pane: DetailPane, store: ProjectStore) -> None:
    assert pane.empty_label.isVisible()
    assert pane.empty_label.text() == EMPTY_TEXT
    assert pane.focused_pipeline() is None
    assert pane.cards() == []
    pane.focus_next_pipeline()  # harmless without a question
    pane.show_question(_load(store, "q02"))
    assert not pane.empty_label.isVisible()
    pane.show_question(None)
    assert pane.empty_label.isVisible()
    assert pane.focused_pipeline() is None
    assert pane.cards() == []


def test_q02_shows_three_cards_side_by_side_with_flags(
    pane: DetailPane, store: ProjectStore, qtbot: QtBot
) -> None:
    pane.show_question(_load(store, "q02"))
    cards = pane.cards()
    assert [c.pipeline for c in cards] == ["Pipeline1", "Pipeline2", "Pipeline3"]
    qtbot.waitUntil(lambda: cards[0].width() > 0)
    tops = {c.geometry().top() for c in cards}
    assert len(tops) == 1  # one row
    assert cards[0].geometry().right() < cards[1].geometry().left() < cards[2].geometry().left()
    widths = [c.width() for c in cards]
    assert max(widths) - min(widths) <= 2
    assert "Likely hallucination" in cards[1].chip_labels()
    chip = next(c for c in cards[1].flag_chips if c.text() == "Likely hallucination")
    assert "recall >= 0.7" in html.unescape(chip.toolTip())
    assert cards[2].chip_labels() == ["Refusal / no answer"]
    assert cards[0].chip_labels() == []
    assert "q02" in pane.question_label.text()
    assert "net sales" in pane.question_label.text()


def test_shown_spans_are_the_core_alignment(pane: DetailPane, store: ProjectStore) -> None:
    detail = _load(store, "q02")
    pane.show_question(detail)
    p1 = detail.pipeline("Pipeline1")
    assert p1 is not None
    core = LexicalScorer().score(p1.response, detail.item.answer, detail.item.fact)
    assert core.alignment is not None
    shown = pane.shown_spans("Pipeline1")
    assert [(s, e, k) for s, e, k in shown if k in {"matched", "extra"}] == [
        (s.start, s.end, s.kind.value) for s in core.alignment.response
    ]
    assert [p1.response[s:e] for s, e, k in shown if k == FACT] == ["134,383 million"]
    browser_text = _card(pane, "Pipeline1").response_view.toPlainText()
    assert browser_text == p1.response
    assert pane.shown_spans("nope") == []


def test_golden_answer_follows_the_focused_pipeline(pane: DetailPane, store: ProjectStore) -> None:
    pane.show_question(_load(store, "q10"))
    assert pane.focused_pipeline() == "Pipeline1"
    assert _card(pane, "Pipeline1").is_focused()
    missed = STYLES["missed"]
    assert f'{missed.foreground};">There<' in pane.answer_label.text()
    assert "There" in _card(pane, "Pipeline1").missed_label.text()
    pane.focus_next_pipeline()
    assert pane.focused_pipeline() == "Pipeline2"
    assert _card(pane, "Pipeline2").is_focused()
    assert not _card(pane, "Pipeline1").is_focused()
    assert pane.pipeline_combo.currentText() == "Pipeline2"
    assert f'{missed.foreground};">There<' not in pane.answer_label.text()  # Pipeline2 has "There"
    pane.focus_next_pipeline()
    pane.focus_next_pipeline()
    assert pane.focused_pipeline() == "Pipeline1"  # wraps around
    pane.focus_previous_pipeline()
    assert pane.focused_pipeline() == "Pipeline3"
    # The focus stays on the same pipeline when the next question is shown.
    pane.show_question(_load(store, "q02"))
    assert pane.focused_pipeline() == "Pipeline3"
    assert pane.fact_status.text() == "not found in Pipeline3"
    pane.pipeline_combo.activated.emit(0)
    assert pane.focused_pipeline() == "Pipeline1"
    assert "&#10003;&nbsp;134,383 million" in pane.fact_label.text()


def test_selected_text_becomes_a_fact_variant_request(
    pane: DetailPane, store: ProjectStore, qtbot: QtBot
) -> None:
    pane.show_question(_load(store, "q03"))
    card = pane.card("Pipeline3")
    assert card is not None
    assert not card.add_variant_action.isEnabled()
    assert not card.add_variant_button.isEnabled()
    assert card.add_variant_action.text() == ADD_VARIANT_TEXT
    view = card.response_view
    start = view.toPlainText().index("410 Terry Ave. N.")
    cursor = view.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len("410 Terry Ave. N."), QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    assert card.add_variant_action.isEnabled()
    assert card.add_variant_button.isEnabled()
    with qtbot.waitSignal(pane.fact_variant_requested, timeout=1000) as blocker:
        card.add_variant_action.trigger()
    assert blocker.args == ["q03", "410 Terry Ave. N."]


def test_double_click_on_a_score_requests_an_override(
    pane: DetailPane, store: ProjectStore, qtbot: QtBot
) -> None:
    pane.show_question(_load(store, "q02"))
    card = pane.card("Pipeline2")
    assert card is not None
    table: QTableView = card.scores_view
    row = 2
    assert card.metric_at(row) == F1_SCORE
    index = table.model().index(row, 1)
    with qtbot.waitSignal(pane.override_requested, timeout=1000) as blocker:
        table.doubleClicked.emit(index)
    assert blocker.args == ["q02", "Pipeline2", F1_SCORE]


def test_scores_table_shows_three_decimals_and_marks_overrides(scored_project: Path, qtbot: QtBot) -> None:
    with ProjectStore.open(scored_project) as store:
        store.reviews.set_override(
            "q02", "Pipeline1", F1_SCORE, value=1.0, passed=True, note="fine", reviewer="ana"
        )
        detail = _load(store, "q02")
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.show_question(detail)
    model = _card(pane, "Pipeline1").scores_view.model()
    assert model.rowCount() == 7
    texts = {model.index(r, 0).data(): (model.index(r, 1).data(), model.index(r, 2).data()) for r in range(7)}
    assert texts["F1"] == ("✎ 1.000 ✓", "0.462")
    assert texts["Precision"] == ("0.429", "")
    tip = model.index(2, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert "Original score: 0.462" in tip
    assert "ana" in tip
    assert model.index(2, 1).data(Qt.ItemDataRole.BackgroundRole) is not None


def test_contexts_collapse_and_judge_placeholder(pane: DetailPane, store: ProjectStore) -> None:
    pane.show_question(_load(store, "q02"))
    card = pane.card("Pipeline2")
    assert card is not None
    assert card.contexts_button.text() == "Contexts (2)"
    assert not card.contexts_body.isVisible()
    card.contexts_button.click()
    assert card.contexts_body.isVisible()
    assert card.contexts_button.arrowType() is Qt.ArrowType.DownArrow
    assert "<b>2.</b>" in card.contexts_body.text()
    card.contexts_button.click()
    assert not card.contexts_body.isVisible()
    assert "no judge scores yet" in card.judge_label.text()


def test_golden_flag_chip_for_q03(pane: DetailPane, store: ProjectStore) -> None:
    pane.show_question(_load(store, "q03"))
    assert [c.text() for c in pane.golden_flag_chips] == ["Ambiguous question"]
    pane.show_question(_load(store, "q10"))
    assert pane.golden_flag_chips == []
    visible = [w.text() for w in pane.findChildren(QLabel, "flagChip") if w.isVisible()]
    assert "Ambiguous question" not in visible


def test_a_long_response_renders_without_freezing(pane: DetailPane, store: ProjectStore) -> None:
    detail = _load(store, "q02")
    p1 = detail.pipeline("Pipeline1")
    assert p1 is not None
    long_text = (p1.response + "\n") * (10_000 // len(p1.response))
    result = LexicalScorer().score(long_text, detail.item.answer, detail.item.fact)
    long_p1 = replace(p1, response=long_text, alignment=result.alignment, fact=result.fact)
    started = time.perf_counter()
    pane.show_question(replace(detail, pipelines=(long_p1, *detail.pipelines[1:])))
    assert time.perf_counter() - started < 2.0
    assert len(pane.shown_spans("Pipeline1")) > 1000


def test_an_override_clears_likely_hallucination_and_the_not_found_text(
    qtbot: QtBot, scored_project: Path
) -> None:
    pane = DetailPane()
    qtbot.addWidget(pane)
    with ProjectStore.open(scored_project) as store:
        run = store.runs.latest()
        assert run is not None
        before = load_question_detail(store, run.id, "q02")
        assert before is not None
        flags = [n.flag.value for n in before.pipeline("Pipeline2").flags]  # type: ignore[union-attr]
        assert "likely_hallucination" in flags  # recall 0.92, FK 0 (tests/cli seed numbers)
        pane.show_question(before)
        pane._set_focus("Pipeline2")
        assert pane.fact_status.text() == "not found in Pipeline2"

        # The reviewer reads the response and counts the fact as found.
        store.reviews.set_override(
            "q02",
            "Pipeline2",
            "factual_knowledge",
            value=None,
            passed=True,
            note="same amount",
            reviewer="Ann",
        )
        after = load_question_detail(store, run.id, "q02")
    assert after is not None
    p2 = after.pipeline("Pipeline2")
    assert p2 is not None
    assert "likely_hallucination" not in [n.flag.value for n in p2.flags]
    assert p2.effective_score("factual_knowledge") == 1.0
    # the other pipelines keep their own stored flags
    assert [n.flag for n in after.pipeline("Pipeline1").flags] == [  # type: ignore[union-attr]
        n.flag
        for n in before.pipeline("Pipeline1").flags  # type: ignore[union-attr]
    ]
    pane.show_question(after)
    pane._set_focus("Pipeline2")
    assert pane.fact_status.text() == "counted as found in Pipeline2 (override)"
    card = pane.card("Pipeline2")
    assert card is not None
    assert "Likely hallucination" not in card.chip_labels()


def _underline_of(markup: str, word: str) -> QTextCharFormat.UnderlineStyle:
    """How ``word`` is underlined once Qt has parsed ``markup`` (what the widget draws)."""
    document = QTextDocument()
    document.setHtml(markup)
    cursor = document.find(word)
    assert not cursor.isNull(), word
    return cursor.charFormat().underlineStyle()


def test_a_quasi_exact_fact_match_is_drawn_dotted_not_like_an_exact_one() -> None:
    # FMEval's quasi-exact match normalises case, punctuation and articles: "Seattle, WA"
    # contains "seattle wa" only after normalising, so exact Factual Knowledge is 0.
    fuzzy = factual_knowledge("Their office is in SEATTLE WA.", "Seattle, WA")
    assert (fuzzy.exact, fuzzy.quasi_exact, fuzzy.matched_by) == (0.0, 1.0, "quasi_exact")
    exact = factual_knowledge("Their office is in Seattle, WA.", "Seattle, WA")
    assert exact.matched_by == "exact"

    fuzzy_html = response_html("Their office is in SEATTLE WA.", None, fuzzy)
    exact_html = response_html("Their office is in Seattle, WA.", None, exact)
    assert _underline_of(exact_html, "Seattle") == QTextCharFormat.UnderlineStyle.SingleUnderline
    assert _underline_of(fuzzy_html, "SEATTLE") == QTextCharFormat.UnderlineStyle.DotLine
    assert _underline_of(fact_html("Seattle, WA", "Seattle, WA", fuzzy=True), "Seattle") == (
        QTextCharFormat.UnderlineStyle.DotLine
    )
    assert _underline_of(fact_html("Seattle, WA", "Seattle, WA"), "Seattle") == (
        QTextCharFormat.UnderlineStyle.SingleUnderline
    )
    # the legend names both
    assert [label for _kind, label, _tip in LEGEND][-2:] == ["fact", "fact ≈ quasi-exact"]

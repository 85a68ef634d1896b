"""The Drafts tab: drafts made through File ▸ Import Sources and Draft (in the worker, with a
scripted judge), listed with provenance and flags; accept (as drafted, edited, flagged only
with the override), reject with a note; the status filter's counts; the keyboard.

A real project file (the scored sample), a real CSV of chunks written here, the real job in
the real worker; only the judge is scripted (the real model is tested in tests/jobs).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot
from tests.jobs.drafting import FX, GOOD, OFFICE, SALES, passage
from tests.judge.scripted import Reply, ScriptedEngine

from goldenlens.core.golden.drafts import DraftStatus
from goldenlens.core.variants.generator import suggest_variants
from goldenlens.jobs.drafting.draft_job import DraftOptions
from goldenlens.judge.engines.protocol import ChatMessage
from goldenlens.settings.judge_preferences import JudgeSettings
from goldenlens.store.project import ProjectStore, store_of
from goldenlens.ui.drafts.drafts_model import DraftFilter
from goldenlens.ui.judge.judge_settings import judge_model_problems
from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.widgets.highlight_html import fact_spans_in

TIMEOUT = 30_000

#: The FX draft's fact is reworded: it does not occur in the chunk, so the draft is flagged.
FX_REWORDED = ("By how much did exchange rates reduce International net sales?", "$0.18 billion",
               "Exchange rates reduced International net sales by $0.18 billion.")  # fmt: skip


def _reply(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> Reply:
    text = passage(messages)
    question, fact, answer = FX_REWORDED if text == FX else GOOD[text]
    return json.dumps({"question": question, "fact": fact, "answer": answer})


def _chunks_csv(folder: Path) -> Path:
    path = folder / "10q_chunks.csv"
    rows = [("c_sales", SALES), ("c_fx", FX), ("c_office", OFFICE)]
    body = "chunk_id,text\r\n" + "".join(f'{cid},"{text}"\r\n' for cid, text in rows)
    path.write_bytes(body.encode("utf-8"))
    return path


@pytest.fixture
def window(qtbot: QtBot, scored_project: Path, tmp_path: Path) -> MainWindow:
    """The main window on the scored sample, three drafts made through the app's own action."""
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    assert win.projects.open_project(scored_project)
    qtbot.waitUntil(lambda: win.grid.model().rowCount() == 10, timeout=TIMEOUT)
    session = win.projects.session
    assert session is not None
    session.set_preferences(replace(session.preferences, reviewer="Ana"))
    engine = ScriptedEngine(responder=_reply)
    win.drafting.engine_factory = lambda: engine
    with qtbot.waitSignal(win.drafting.drafted, timeout=TIMEOUT):
        assert win.drafting.draft([_chunks_csv(tmp_path)], limit=None)
    assert len(engine.calls) == 3
    qtbot.waitUntil(lambda: win.drafts.model.rowCount() == 3, timeout=TIMEOUT)
    return win


def _store(window: MainWindow) -> ProjectStore:
    session = window.projects.session
    assert session is not None
    return store_of(session.handle)


def _current_id(window: MainWindow) -> int | None:
    draft = window.drafts.current
    return None if draft is None else draft.id


def _current_chunk(window: MainWindow) -> str | None:
    draft = window.drafts.current
    return None if draft is None else draft.chunk_id


def _grid_ids(window: MainWindow) -> list[str]:
    return window.grid.visible_question_ids()


def test_the_queue_lists_drafts_with_provenance_and_flags(window: MainWindow) -> None:
    pane = window.drafts
    assert window.tabs.currentWidget() is pane  # drafting ends on the Drafts tab
    assert window.drafting.last_result is not None
    assert window.drafting.last_result.message() == "Drafted 3 of 3 chunks."
    rows = [pane.model.data(pane.model.index(r, 0)) for r in range(3)]
    assert rows[0].startswith("#1 · pending · 10q_chunks.csv, chunk c_sales\n")
    assert rows[1].startswith("⚠ #2 · flagged · 10q_chunks.csv, chunk c_fx\n")
    assert rows[1].endswith(FX_REWORDED[0])
    assert pane.filter_labels() == [
        "All (3)",
        "Pending (3)",
        "Flagged (pending) (1)",
        "Accepted (0)",
        "Rejected (0)",
    ]
    assert pane.progress_label.text() == "<b>0 of 3 reviewed</b>"
    # The first draft: provenance, the fact marked in the chunk, its variants ticked.
    assert _current_chunk(window) == "c_sales"
    assert "10q_chunks.csv, chunk c_sales" in pane.form.provenance_label.text()
    assert "No problems found" in pane.form.problems_label.text()
    assert pane.form.question_edit.text() == GOOD[SALES][0]
    assert pane.form.fact_edit.text() == "$134,383 million"
    marked = pane.form.chunk_view.toHtml()
    assert "$134,383 million</span>" in marked
    assert "$134.383 billion" in pane.form.checked_variants()
    assert pane.form.accept_button.isEnabled()
    # The flagged one: the reason shown, Accept refused until the override is ticked.
    assert pane.next_draft()
    assert _current_chunk(window) == "c_fx"
    assert "⚠ Flagged" in pane.form.problems_label.text()
    assert "the fact '$0.18 billion' does not occur in the chunk text" in pane.form.problems_label.text()
    assert pane.form.override_check.isVisible()
    assert not pane.form.accept_button.isEnabled()
    assert fact_spans_in(FX, "$0.18 billion") == []


def test_accepting_a_clean_draft_adds_a_golden_item_with_provenance(qtbot: QtBot, window: MainWindow) -> None:
    pane = window.drafts
    assert _current_id(window) == 1
    assert pane.accept_current() == "draft-1"
    item = _store(window).golden.item("draft-1")
    assert item is not None
    assert item.question == GOOD[SALES][0]
    assert item.answer == GOOD[SALES][2]
    assert item.notes == "Drafted from 10q_chunks.csv, chunk c_sales (draft 1)"
    assert item.fact.startswith("$134,383 million<OR>")
    assert "$134.383 billion" in item.fact.split("<OR>")
    (history,) = _store(window).golden.history("draft-1")
    assert history.reviewer == "Ana"
    draft = _store(window).drafts.get(1)
    assert draft is not None
    assert (draft.status, draft.golden_id) == (DraftStatus.ACCEPTED, "draft-1")
    # The grid shows the new golden item; the queue moved on to the next pending draft.
    qtbot.waitUntil(lambda: "draft-1" in _grid_ids(window), timeout=TIMEOUT)
    assert _current_id(window) == 2
    assert pane.filter_labels() == [
        "All (3)",
        "Pending (2)",
        "Flagged (pending) (1)",
        "Accepted (1)",
        "Rejected (0)",
    ]
    assert pane.progress_label.text() == "<b>1 of 3 reviewed</b>"
    # Shown again, the accepted draft shows the golden item it became, read-only.
    pane.set_filter(DraftFilter.ALL)
    assert pane.select_draft(1)
    assert pane.form.fact_edit.text() == item.fact
    assert pane.form.fact_edit.isReadOnly()
    assert "Accepted as draft-1 by Ana" in pane.form.decision_label.text()
    assert "the golden item as it stands now" in pane.form.decision_label.text()
    assert not pane.form.problems_label.isVisible()
    assert "$134.383 billion</span>" not in pane.form.chunk_view.toHtml()  # only what the chunk says
    assert "$134,383 million</span>" in pane.form.chunk_view.toHtml()


def test_a_flagged_draft_is_refused_until_the_override_is_ticked(window: MainWindow) -> None:
    pane = window.drafts
    assert pane.select_draft(2)
    assert pane.accept_current() is None  # refused: nothing written
    assert _store(window).golden.item("draft-2") is None
    assert _store(window).drafts.get(2).status is DraftStatus.PENDING  # type: ignore[union-attr]
    pane.form.override_check.setChecked(True)
    assert pane.form.accept_button.isEnabled()
    assert pane.accept_current() == "draft-2"
    item = _store(window).golden.item("draft-2")
    assert item is not None
    assert item.fact.split("<OR>")[0] == "$0.18 billion"


def test_editing_the_flagged_fact_clears_the_flag_and_accepts_the_edit(
    qtbot: QtBot, window: MainWindow
) -> None:
    pane = window.drafts
    assert pane.select_draft(2)
    pane.form.fact_edit.clear()
    qtbot.keyClicks(pane.form.fact_edit, "$180 million")
    pane.form.answer_edit.setPlainText("Exchange rates reduced International net sales by $180 million.")
    assert "No problems found" in pane.form.problems_label.text()
    assert "as edited" in pane.form.problems_label.text()
    assert pane.form.accept_button.text() == "Accept Edited"
    assert pane.form.accept_button.isEnabled()
    assert "$180 million</span>" in pane.form.chunk_view.toHtml()  # the edited fact is marked
    # The variants are the generator's for the edited fact, the risk-free ones ticked.
    proposed = suggest_variants("$180 million").variants
    assert pane.form.checked_variants() == [v.text for v in proposed if not v.risky]
    assert "$180M" in pane.form.checked_variants()
    pane.form.set_variant_checked("$180M", False)
    qtbot.mouseClick(pane.form.accept_button, Qt.MouseButton.LeftButton)
    item = _store(window).golden.item("draft-2")
    assert item is not None
    parts = item.fact.split("<OR>")
    assert parts == ["$180 million", *(v.text for v in proposed if not v.risky and v.text != "$180M")]
    assert item.notes == "Drafted from 10q_chunks.csv, chunk c_fx (draft 2, edited)"


def test_reject_with_a_note_and_the_filter_counts(window: MainWindow) -> None:
    pane = window.drafts
    assert pane.select_draft(3)
    pane.form.note_edit.setText("the address is not a useful question")
    assert pane.reject_current()
    draft = _store(window).drafts.get(3)
    assert draft is not None
    assert (draft.status, draft.note, draft.reviewer) == (
        DraftStatus.REJECTED,
        "the address is not a useful question",
        "Ana",
    )
    assert _store(window).golden.item("draft-3") is None
    assert pane.filter_labels() == [
        "All (3)",
        "Pending (2)",
        "Flagged (pending) (1)",
        "Accepted (0)",
        "Rejected (1)",
    ]
    pane.set_filter(DraftFilter.REJECTED)
    assert pane.model.rowCount() == 1
    assert _current_id(window) == 3
    assert "Rejected by Ana" in pane.form.decision_label.text()
    assert "the address is not a useful question" in pane.form.decision_label.text()
    assert pane.form.question_edit.isReadOnly()
    assert not pane.form.reject_button.isEnabled()
    pane.set_filter(DraftFilter.FLAGGED)
    assert [pane.model.draft_at(r).id for r in range(pane.model.rowCount())] == [2]  # type: ignore[union-attr]


def test_keyboard_next_previous_accept_reject(qtbot: QtBot, window: MainWindow) -> None:
    pane = window.drafts
    pane.list_view.setFocus()
    qtbot.keyClick(pane.list_view, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert _current_id(window) == 2
    qtbot.keyClick(pane.list_view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert _current_id(window) == 1
    qtbot.keyClick(pane.list_view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert _store(window).golden.item("draft-1") is not None
    assert _current_id(window) == 2
    qtbot.keyClick(pane.list_view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert _store(window).drafts.get(2).status is DraftStatus.REJECTED  # type: ignore[union-attr]
    # "a" on the Drafts tab does not accept the grid's question out of sight.
    qtbot.keyClick(pane.list_view, Qt.Key.Key_A)
    assert _store(window).reviews.all() == {}


def test_a_source_that_cannot_be_read_is_reported(qtbot: QtBot, window: MainWindow, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "open", lambda box: shown.append(box.text() + box.informativeText()))
    bad = tmp_path / "notes.docx"
    bad.write_bytes(b"PK\x03\x04")
    with qtbot.waitSignal(window.run_panel.runner.failed, timeout=TIMEOUT):
        window.drafting.draft([bad], limit=None)
    qtbot.waitUntil(lambda: bool(shown), timeout=TIMEOUT)
    assert "notes.docx" in shown[0]
    assert "cannot read .docx as a source document" in shown[0]
    assert window.drafts.model.rowCount() == 3  # nothing lost


def test_the_import_dialog_drafts_up_to_the_limit_and_a_rerun_continues(
    qtbot: QtBot, scored_project: Path, tmp_path: Path
) -> None:
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    assert win.projects.open_project(scored_project)
    engine = ScriptedEngine(responder=_reply)
    win.drafting.engine_factory = lambda: engine
    source = _chunks_csv(tmp_path)
    dialog = win.drafting.ask_options([source])
    dialog.limit_spin.setValue(2)
    with qtbot.waitSignal(win.drafting.drafted, timeout=TIMEOUT):
        dialog.accept()
    result = win.drafting.last_result
    assert result is not None
    assert result.message() == "Drafted 2 of 3 chunks; 1 left (run again to continue)."
    assert win.statusBar().currentMessage() == result.message()
    qtbot.waitUntil(lambda: win.drafts.model.rowCount() == 2, timeout=TIMEOUT)
    dialog = win.drafting.ask_options([source])
    dialog.limit_spin.setValue(0)  # "all"
    with qtbot.waitSignal(win.drafting.drafted, timeout=TIMEOUT):
        dialog.accept()
    assert win.drafting.last_result is not None
    assert win.drafting.last_result.message() == "Drafted 1 of 3 chunks; 2 drafted before."
    assert len(engine.calls) == 3  # each chunk asked once
    qtbot.waitUntil(lambda: win.drafts.model.rowCount() == 3, timeout=TIMEOUT)


def test_cancel_keeps_the_finished_drafts_and_shows_them(
    qtbot: QtBot, scored_project: Path, tmp_path: Path
) -> None:
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    assert win.projects.open_project(scored_project)

    def cancel_on_the_second(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> Reply:
        if len(engine.calls) == 2:
            win.run_panel.runner.cancel()  # as the Cancel button does, while the chunk drafts
        return _reply(messages, schema)

    engine = ScriptedEngine(responder=cancel_on_the_second)
    win.drafting.engine_factory = lambda: engine
    with qtbot.waitSignal(win.run_panel.runner.cancelled, timeout=TIMEOUT):
        assert win.drafting.draft([_chunks_csv(tmp_path)], limit=None)
    qtbot.waitUntil(lambda: win.drafts.model.rowCount() == 2, timeout=TIMEOUT)
    assert "Drafting cancelled; finished drafts are saved" in win.statusBar().currentMessage()
    assert [d.chunk_id for d in _store(win).drafts.all()] == ["c_sales", "c_fx"]
    assert len(engine.calls) == 2


def test_drafting_uses_the_judge_the_settings_name(tmp_path: Path) -> None:
    server = JudgeSettings(judge_source="server", judge_url=" http://127.0.0.1:8080/v1 ", n_ctx=8192, seed=7)
    options = DraftOptions(engine=server.engine_spec(), limit=5, max_answer_words=30)
    engine = options.engine
    assert (engine.judge_model, engine.judge_url) == (None, "http://127.0.0.1:8080/v1")
    assert (engine.n_ctx, engine.n_threads, engine.seed, options.limit, options.max_answer_words) == (
        8192,
        None,
        7,
        5,
        30,
    )
    model = tmp_path / "judge.gguf"
    local = JudgeSettings(judge_source="file", judge_model_path=str(model), n_threads=4, temperature=0.2)
    options = DraftOptions(engine=local.engine_spec())
    engine = options.engine
    assert (engine.judge_model, engine.judge_url, engine.n_threads, engine.temperature) == (
        model,
        None,
        4,
        0.2,
    )
    assert options.limit is None
    assert judge_model_problems(local) == [f"The judge model file does not exist: {model}"]
    assert judge_model_problems(JudgeSettings(judge_source="server", judge_url="localhost")) == [
        "Enter the server's URL, e.g. http://127.0.0.1:8080/v1"
    ]


@pytest.mark.parametrize(
    ("chunk", "fact", "spans"),
    [
        ("Amazon.com, Inc. 410 Terry\nAvenue  North, Seattle", "410 terry avenue north", [(17, 40)]),
        ("$180 million and $180 million", "$180 million", [(0, 12), (17, 29)]),
        ("Operating income was $12,455 million", "$12.5 billion", []),
        ("anything", "   ", []),
    ],
)
def test_the_fact_is_marked_where_the_draft_check_finds_it(
    chunk: str, fact: str, spans: list[tuple[int, int]]
) -> None:
    assert [(start, end) for start, end, _kind in fact_spans_in(chunk, fact)] == spans


def test_undo_and_redo_an_acceptance_and_a_rejection(qtbot: QtBot, window: MainWindow) -> None:
    pane, stack = window.drafts, window.undo_stack
    assert pane.accept_current() == "draft-1"
    qtbot.waitUntil(lambda: "draft-1" in _grid_ids(window), timeout=TIMEOUT)
    assert stack.undoText() == "Accept draft 1 as draft-1"
    stack.undo()
    assert _store(window).golden.item("draft-1") is None
    assert _store(window).drafts.get(1).status is DraftStatus.PENDING  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: "draft-1" not in _grid_ids(window), timeout=TIMEOUT)
    assert pane.filter_labels()[1] == "Pending (3)"
    stack.redo()
    item = _store(window).golden.item("draft-1")
    assert item is not None
    assert item.notes == "Drafted from 10q_chunks.csv, chunk c_sales (draft 1)"
    qtbot.waitUntil(lambda: "draft-1" in _grid_ids(window), timeout=TIMEOUT)
    assert pane.select_draft(3)
    pane.form.note_edit.setText("not useful")
    assert pane.reject_current()
    assert stack.undoText() == "Reject draft 3"
    stack.undo()
    assert _store(window).drafts.get(3).status is DraftStatus.PENDING  # type: ignore[union-attr]
    assert pane.filter_labels()[4] == "Rejected (0)"

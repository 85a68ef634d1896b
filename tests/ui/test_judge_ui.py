"""Judge UI: the settings dialog's options, persistence, the Judge menu's run on the real
default models (cancel keeps finished rows), and the judge section of the detail cards."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea
from pytestqt.qtbot import QtBot

from goldenlens.core.scores import ScoreStatus
from goldenlens.judge.model_files import default_judge_model
from goldenlens.queries.detail_data import JudgeNote
from goldenlens.settings.judge_preferences import JudgeSettings, judge_settings_path, load_judge_settings
from goldenlens.store.project import ProjectStore
from goldenlens.ui.judge.judge_controller import CANCELLED_MESSAGE, JUDGE_RUN
from goldenlens.ui.judge.judge_dialog import JudgeDialog, OddSpinBox
from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.review.judge_section import JudgeSection, detail_html

TIMEOUT = 30_000
JUDGE_TIMEOUT = 180_000


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("GOLDENLENS_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _dialog(qtbot: QtBot, settings: JudgeSettings | None = None) -> JudgeDialog:
    dialog = JudgeDialog(None, settings)
    qtbot.addWidget(dialog)
    return dialog


# -- the dialog --------------------------------------------------------------------------------


def test_default_model_options(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, JudgeSettings(metrics=("faithfulness", "semantic_similarity")))
    dialog.show()
    assert dialog.model_page.judge_default.isChecked()
    assert "proves the pipeline, not the judgement" in dialog.model_page.note.text()
    assert dialog.ok_button.isEnabled()
    assert not dialog.problems_label.isVisible()
    options = dialog.options()
    assert options.metrics == ("faithfulness", "semantic_similarity")
    assert options.engine.judge_model is None
    assert options.engine.judge_url is None
    assert options.engine.embed_model is None
    engine = options.engine
    assert (engine.n_ctx, engine.n_threads, engine.temperature, engine.seed, engine.parallel) == (
        4096,
        None,
        0.0,
        42,
        1,
    )
    assert options.metric_params == {"semantic_similarity": {"threshold": None}}
    assert dialog.grab().save(str(_shots(tmp_path) / "judge_dialog_model.png"))
    dialog.tabs.setCurrentIndex(1)
    assert dialog.grab().save(str(_shots(tmp_path) / "judge_dialog_metrics.png"))


def test_custom_gguf_file_and_invalid_paths(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, JudgeSettings(metrics=("relevancy",)))
    dialog.show()
    page = dialog.model_page
    page.judge_file.setChecked(True)
    assert not dialog.ok_button.isEnabled()  # no file chosen yet
    assert "Choose the judge model GGUF file" in dialog.problems_label.text()
    gguf = default_judge_model()  # a real GGUF file
    page.judge_path.edit.setText(str(gguf))
    assert dialog.ok_button.isEnabled()
    page.n_ctx.setValue(2048)
    page.n_threads.setValue(2)
    page.temperature.setValue(0.3)
    page.seed.setValue(7)
    options = dialog.options()
    assert options.engine.judge_model == gguf
    assert options.engine.judge_url is None
    engine = options.engine
    assert (engine.n_ctx, engine.n_threads, engine.temperature, engine.seed) == (2048, 2, 0.3, 7)

    page.judge_path.edit.setText(str(tmp_path / "missing.gguf"))
    assert not dialog.ok_button.isEnabled()
    assert dialog.problems_label.isVisible()
    assert "does not exist" in dialog.problems_label.text()
    assert dialog.grab().save(str(_shots(tmp_path) / "judge_dialog_invalid.png"))
    not_gguf = tmp_path / "notes.gguf"
    not_gguf.write_text("not a model", encoding="utf-8")
    page.judge_path.edit.setText(str(not_gguf))
    assert "Not a GGUF model file" in dialog.problems_label.text()
    dialog.accept()  # refused while invalid
    assert dialog.result() == 0
    assert not judge_settings_path().exists()

    page.judge_path.edit.setText(str(gguf))
    page.embed_file.setChecked(True)
    page.embed_path.edit.setText(str(tmp_path / "nope.gguf"))
    assert "embedding model file does not exist" in dialog.problems_label.text()
    assert not dialog.ok_button.isEnabled()
    page.embed_default.setChecked(True)
    assert dialog.ok_button.isEnabled()
    assert dialog.grab().save(str(_shots(tmp_path) / "judge_dialog_gguf.png"))


def test_server_url_options(qtbot: QtBot) -> None:
    dialog = _dialog(qtbot, JudgeSettings(metrics=("faithfulness",)))
    page = dialog.model_page
    page.judge_server.setChecked(True)
    assert page.parallel.isEnabled()
    assert not page.judge_path.isEnabled()
    assert not dialog.ok_button.isEnabled()  # no URL yet
    page.judge_url.setText("localhost:8080")
    assert not dialog.ok_button.isEnabled()
    page.judge_url.setText("http://127.0.0.1:8080/v1")
    page.parallel.setValue(4)
    assert dialog.ok_button.isEnabled()
    options = dialog.options()
    assert options.engine.judge_url == "http://127.0.0.1:8080/v1"
    assert options.engine.judge_model is None
    assert options.engine.parallel == 4
    page.judge_default.setChecked(True)
    assert dialog.options().engine.parallel == 1  # parallel requests are for a server only
    assert dialog.options().engine.judge_url is None


def test_metric_selection_and_parameters_round_trip(qtbot: QtBot) -> None:
    dialog = _dialog(qtbot, JudgeSettings(metrics=()))
    assert not dialog.ok_button.isEnabled()
    assert "Select at least one metric" in dialog.problems_label.text()
    page = dialog.metrics_page
    for name in ("answer_relevancy", "factual_correctness", "semantic_similarity", "summarization_score"):
        page.checks[name].setChecked(True)
    page.checks["fact_check"].setChecked(True)
    page.checks["aspect_coherence"].setChecked(True)
    page.relevancy_n.setValue(5)
    page.fc_mode.setCurrentText("recall")
    page.fc_beta.setValue(2.0)
    page.fc_atomicity.setCurrentText("high")
    page.fc_coverage.setCurrentText("high")
    page.ss_use_threshold.setChecked(True)
    page.ss_threshold.setValue(0.7)
    page.sum_coeff.setValue(0.3)
    page.minicheck.setChecked(True)
    page.strictness.setValue(3)
    assert dialog.ok_button.isEnabled()
    options = dialog.options()
    assert set(options.metrics) == {
        "answer_relevancy",
        "factual_correctness",
        "semantic_similarity",
        "summarization_score",
        "fact_check",
        "aspect_coherence",
    }
    assert options.metric_params == {
        "answer_relevancy": {"n": 5},
        "factual_correctness": {"mode": "recall", "beta": 2.0, "atomicity": "high", "coverage": "high"},
        "semantic_similarity": {"threshold": 0.7},
        "summarization_score": {"coeff": 0.3},
        "fact_check": {"minicheck": True},
        "aspect_coherence": {"strictness": 3},
    }
    built = {m.name: m.params() for m in options.build_metrics()}
    assert built["factual_correctness"]["beta"] == 2.0
    assert built["aspect_coherence"]["strictness"] == 3
    assert built["fact_check"]["minicheck"] is True

    again = _dialog(qtbot, dialog.settings())  # the same settings show the same options
    assert again.options() == options
    assert again.metrics_page.fc_mode.currentText() == "recall"
    assert again.metrics_page.strictness.value() == 3

    page.checks["factual_correctness"].setChecked(False)  # its parameters leave the run
    assert "factual_correctness" not in dialog.options().metric_params


def test_strictness_is_odd(qtbot: QtBot) -> None:
    box = OddSpinBox()
    qtbot.addWidget(box)
    box.setValue(3)
    box.stepBy(1)
    assert box.value() == 5
    assert box.validate("4", 1)[0].name == "Intermediate"
    assert box.fixup("4") == "5"


def test_custom_aspect_added_and_removed(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, JudgeSettings(metrics=("faithfulness",)))
    dialog.show()
    page = dialog.metrics_page
    assert not page.add_aspect_button.isEnabled()
    page.aspect_name.setText("Politeness")
    page.aspect_definition.setText("Does the response address the user courteously?")
    page.add_aspect_button.click()
    assert page.aspect_list.count() == 1
    options = dialog.options()
    assert "aspect_politeness" in options.metrics
    assert options.custom_aspects == {"Politeness": "Does the response address the user courteously?"}
    names = [m.name for m in options.build_metrics()]
    assert "aspect_politeness" in names
    dialog.tabs.setCurrentIndex(1)
    scroll = page.findChild(QScrollArea)
    assert scroll is not None
    scroll.verticalScrollBar().setValue(scroll.verticalScrollBar().maximum())
    assert dialog.grab().save(str(_shots(tmp_path) / "judge_dialog_aspects.png"))
    item = page.aspect_list.item(0)
    item.setCheckState(Qt.CheckState.Unchecked)  # defined but not judged
    assert "aspect_politeness" not in dialog.options().metrics
    assert dialog.options().custom_aspects == {}
    assert dialog.settings().custom_aspects  # still kept for next time
    page.aspect_list.setCurrentRow(0)
    page.remove_aspect_button.click()
    assert page.aspect_list.count() == 0
    assert dialog.settings().custom_aspects == {}


def test_settings_persisted_and_reloaded(qtbot: QtBot) -> None:
    assert load_judge_settings() == JudgeSettings()
    dialog = _dialog(qtbot)
    dialog.model_page.judge_server.setChecked(True)
    dialog.model_page.judge_url.setText("http://10.0.0.5:8000/v1")
    dialog.model_page.parallel.setValue(3)
    dialog.model_page.seed.setValue(1234)
    dialog.metrics_page.checks["bertscore"].setChecked(True)
    dialog.metrics_page.add_aspect("tone", "Is the tone neutral?")
    dialog.metrics_page.strictness.setValue(5)
    saved = dialog.settings()
    dialog.accept()
    assert judge_settings_path().exists()
    assert load_judge_settings() == saved
    reopened = _dialog(qtbot)  # reads the saved file
    assert reopened.settings() == saved
    assert reopened.model_page.judge_server.isChecked()
    assert reopened.metrics_page.aspect_list.count() == 1
    judge_settings_path().write_text("{not json", encoding="utf-8")
    assert load_judge_settings() == JudgeSettings()  # unreadable: the defaults
    judge_settings_path().write_text('{"schema_version": 1, "n_ctx": "big", "seed": -3}', encoding="utf-8")
    assert load_judge_settings() == JudgeSettings()


# -- the detail card's judge section ---------------------------------------------------------


def test_judge_section_renders_scores_models_and_detail(qtbot: QtBot) -> None:
    notes = [
        JudgeNote(
            "faithfulness",
            0.5,
            "scored",
            model="Qwen2.5-7B-Instruct-Q4_K_M.gguf",
            detail={
                "statements": [
                    {"statement": "Paris is the capital.", "verdict": 1, "reason": "Stated in context 1."},
                    {"statement": "It has 9 million people.", "verdict": 0, "reason": "Not in any context."},
                ],
                "usage": {"calls": 2, "prompt_tokens": 300, "completion_tokens": 40, "seconds": 1.5},
            },
        ),
        JudgeNote("answer_relevancy", None, "not_scored", "judge output truncated", "SmolLM2.gguf"),
        JudgeNote("semantic_similarity", 0.9, "scored", detail={"embedding_model": "all-MiniLM-L6-v2.gguf"}),
    ]
    section = JudgeSection(notes)
    qtbot.addWidget(section)
    section.show()
    faithfulness = section.row("faithfulness")
    assert faithfulness is not None
    assert "0.500" in faithfulness.value_label.text()
    assert faithfulness.model_label.text() == "Qwen2.5-7B-Instruct-Q4_K_M.gguf"
    assert not faithfulness.body.isVisible()
    faithfulness.toggle.click()
    assert faithfulness.body.isVisible()
    body = faithfulness.body.text()
    assert "<table" in body
    assert "It has 9 million people." in body
    assert "Not in any context." in body
    assert "2 judge calls" in body
    relevancy = section.row("answer_relevancy")
    assert relevancy is not None
    assert "not scored: judge output truncated" in relevancy.value_label.text()
    similarity = section.row("semantic_similarity")
    assert similarity is not None
    assert similarity.model_label.text() == "all-MiniLM-L6-v2.gguf"
    assert "<li>" in detail_html({"questions": ["a?", "b?"]})
    assert "no judge scores yet" in JudgeSection([]).judge_label.text()


# -- running from the Judge menu ----------------------------------------------------------------


def _window(qtbot: QtBot, project: Path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    return window


def _shown_question(window: MainWindow) -> str | None:
    detail = window.detail.detail()
    return detail.item.id if detail is not None else None


def test_embedding_run_finishes_and_reports(qtbot: QtBot, scored_project: Path) -> None:
    """An embedding-only run (fast) goes to the end: status bar counts, detail shows scores."""
    window = _window(qtbot, scored_project)
    window.grid.select_question("q01")
    settings = JudgeSettings(metrics=("semantic_similarity",))
    from goldenlens.ui.judge.judge_settings import options_from_settings

    with qtbot.waitSignal(window.run_panel.finished_ok, timeout=JUDGE_TIMEOUT):
        window.judge.run(options_from_settings(settings))
    outcome = window.judge.last_outcome
    assert outcome is not None
    assert outcome.rows == 30
    assert outcome.scores == 30
    message = window.statusBar().currentMessage()
    assert "30 rows judged" in message
    assert "not scored" in message or "none left unscored" in message
    card = window.detail.card("Pipeline1")
    assert card is not None  # the current question's detail was re-read after the run
    row = card.judge_section.row("semantic_similarity")
    assert row is not None
    assert row.model_label.text() == "all-MiniLM-L6-v2.gguf"
    window.close()


def test_judge_run_with_default_model_cancel_keeps_rows(
    qtbot: QtBot, scored_project: Path, tmp_path: Path
) -> None:
    """The real default judge: the first rows finish, Cancel stops the run, the finished rows
    stay in the project and the detail pane shows them with the model's name."""
    window = _window(qtbot, scored_project)
    window.grid.select_question("q01")
    window.judge.menu.aboutToShow.emit()
    assert window.judge.run_action.isEnabled()
    dialog = window.judge.ask_run()
    assert dialog is not None
    dialog.metrics_page.set_settings(JudgeSettings(metrics=("context_relevance", "semantic_similarity")))
    assert dialog.ok_button.isEnabled()
    dialog.accept()  # Run
    assert window.run_panel.busy
    bar = window.run_panel._bar
    label = window.run_panel._label
    qtbot.waitUntil(lambda: bar.value() >= 2, timeout=JUDGE_TIMEOUT)
    assert "rows" in label.text()
    assert "tok/s" in label.text()
    window.run_panel._cancel.click()
    qtbot.waitUntil(lambda: not window.run_panel.busy, timeout=TIMEOUT)
    assert window.statusBar().currentMessage() == CANCELLED_MESSAGE

    with ProjectStore.open(scored_project) as store:
        run = store.runs.latest(JUDGE_RUN)
        assert run is not None
        assert run.status != "finished"
        records = store.results.scores(run.id)
        assert store.runs.unfinished(JUDGE_RUN)
    judged = {(r.question_id, r.pipeline) for r in records}
    assert 2 <= len(judged) < 30
    assert ("q01", "Pipeline1") in judged
    assert all(r.status in (ScoreStatus.SCORED, ScoreStatus.NOT_SCORED) for r in records)

    assert _shown_question(window) == "q01"  # re-read with the judge scores after the run
    card = window.detail.card("Pipeline1")
    assert card is not None
    relevance = card.judge_section.row("context_relevance")
    assert relevance is not None
    assert relevance.model_label.text() == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert relevance.note.value is not None or "not scored" in relevance.value_label.text()
    similarity = card.judge_section.row("semantic_similarity")
    assert similarity is not None
    assert similarity.model_label.text() == "all-MiniLM-L6-v2.gguf"
    relevance.toggle.click()
    assert "Ratings" in relevance.body.text()
    card.setFixedWidth(620)
    card.adjustSize()
    assert card.grab().save(str(_shots(tmp_path) / "judge_detail_card.png"))
    window.judge.menu.aboutToShow.emit()
    assert window.judge.resume_action.isEnabled()
    window.close()


def test_resume_without_interrupted_run_says_so(qtbot: QtBot, scored_project: Path) -> None:
    window = _window(qtbot, scored_project)
    window.judge.resume()
    assert not window.run_panel.busy
    assert "No interrupted judge run" in window.statusBar().currentMessage()
    window.close()

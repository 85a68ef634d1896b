"""End to end: the main window imports the sample through the wizard, scores it, and shows the
same numbers as the CLI with highlight spans equal to the core's alignment."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard
from pytestqt.qtbot import QtBot

from goldenlens.cli.main import main as cli_main
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES, LexicalScorer, WordKind
from goldenlens.io.importing.sample import sample_dir
from goldenlens.store.project import ProjectStore
from goldenlens.ui.importer.import_pages import TablePage
from goldenlens.ui.importer.import_wizard import ImportWizard
from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.workers import live_worker_threads

TIMEOUT = 30_000


def _drive_wizard(qtbot: QtBot, wizard: ImportWizard) -> None:
    """Next through the pages as an analyst would (files are preset), then Import."""
    for _ in range(3):
        qtbot.waitUntil(lambda: wizard.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=TIMEOUT)
        wizard.button(QWizard.WizardButton.NextButton).click()
        page = wizard.currentPage()
        if isinstance(page, TablePage):
            qtbot.waitUntil(lambda p=page: not p.busy and p.current is not None, timeout=TIMEOUT)
    qtbot.waitUntil(wizard.check_page.isComplete, timeout=TIMEOUT)
    with qtbot.waitSignal(wizard.imported, timeout=60_000):
        wizard.button(QWizard.WizardButton.FinishButton).click()


def _cli_rows(tmp_path: Path) -> dict[tuple[str, str], dict[str, float]]:
    out = tmp_path / "cli.json"
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    assert cli_main(["score", str(golden), str(responses), "-o", str(out), "-q"]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    return {(r["question_id"], r["pipeline"]): r for r in rows}


def test_import_score_and_review_match_the_cli_and_the_core(qtbot: QtBot, tmp_path: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    project = tmp_path / "e2e.goldenlens"
    assert window.projects.open_project(project, create=True)

    window.projects.import_files(sample_dir() / "golden.csv", sample_dir() / "responses.csv")
    wizard = window.findChild(ImportWizard)
    assert wizard is not None
    _drive_wizard(qtbot, wizard)

    grid = window.grid
    qtbot.waitUntil(lambda: grid.model().rowCount() == 10, timeout=TIMEOUT)

    # Every score cell the grid can show equals the CLI's number for the same row.
    expected = _cli_rows(tmp_path)
    model = grid.model()
    data = grid.grid()
    assert data is not None
    for metric in LEXICAL_SCORE_NAMES:
        for p_index, pipeline in enumerate(data.pipelines):
            for row, question_id in enumerate(data.question_ids):
                shown = float(data.values[metric][row, p_index])
                assert shown == expected[(str(question_id), pipeline)][metric], (
                    question_id,
                    pipeline,
                    metric,
                )
    score_columns = [c for c, col in enumerate(model.columns()) if col.metric is not None]
    assert score_columns
    for column in score_columns:
        col = model.columns()[column]
        for row in range(model.rowCount()):
            question_id = model.question_id(row)
            raw = model.data(model.index(row, column), Qt.ItemDataRole.UserRole)
            assert raw == expected[(question_id, col.pipeline)][col.metric]

    # The detail pane highlights exactly the spans the core counted.
    assert grid.select_question("q10")
    qtbot.waitUntil(lambda: window.detail.detail() is not None and window.detail.detail().item.id == "q10")
    with (sample_dir() / "golden.csv").open(encoding="utf-8", newline="") as handle:
        golden = {
            r["id"]: GoldenItem(r["id"], r["question"], r["answer"], r["fact"])
            for r in csv.DictReader(handle)
        }
    with (sample_dir() / "responses.csv").open(encoding="utf-8", newline="") as handle:
        responses = {(r["question_id"], r["pipeline"]): r["response"] for r in csv.DictReader(handle)}
    scorer = LexicalScorer()
    for pipeline in data.pipelines:
        item = golden["q10"]
        result = scorer.score(responses[("q10", pipeline)], item.answer, item.fact)
        assert result.alignment is not None
        core_words = [
            (s.start, s.end, s.kind.value)
            for s in result.alignment.response
            if s.kind in (WordKind.MATCHED, WordKind.EXTRA)
        ]
        shown_words = [span for span in window.detail.shown_spans(pipeline) if span[2] != "fact"]
        assert shown_words == core_words, pipeline
        shown_fact = [span[:2] for span in window.detail.shown_spans(pipeline) if span[2] == "fact"]
        assert shown_fact == [(m.start, m.end) for m in result.fact.matches]

    # ... derived on demand: the store keeps the numbers only, no spans.
    with ProjectStore.open(project) as store:
        run = store.runs.latest("lexical", finished_only=True)
        assert run is not None
        f1 = [r for r in store.results.scores(run.id, metrics=["f1_score"]) if r.question_id == "q10"]
    assert [r.pipeline for r in f1] == list(data.pipelines)
    assert all(r.detail == {} for r in f1)

    # Keyboard review: j/k move between questions, a accepts; closing leaves no worker behind.
    assert grid.select_question("q05")
    grid.table_view().setFocus()
    qtbot.keyClick(grid.table_view(), Qt.Key.Key_J)
    assert grid.current_question() == "q06"
    qtbot.keyClick(grid.table_view(), Qt.Key.Key_K)
    assert grid.current_question() == "q05"
    qtbot.keyClick(grid.table_view(), Qt.Key.Key_A)
    with ProjectStore.open(project) as store:
        assert store.reviews.all()["q05"].status == "accepted"
    window.close()
    assert live_worker_threads() == []

"""The Run History dialog on real project files scored twice by the real jobs: the runs listed,
the comparison cells' colours and texts read from the model's data roles, the metric chooser,
the trend chart's series, picking runs, and an old project whose runs cannot be compared.

Real widgets driven with qtbot, offscreen; nothing is mocked. Expected scores come from the
independent FMEval transcription (tests/fmeval_reference.py) via tests/run_projects.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor
from pytestqt.qtbot import QtBot
from tests.run_projects import CHANGED_RESPONSES, reference_scores, two_run_project

from goldenlens.ui.history.run_comparison_model import (
    CHANGE_ROLE,
    IMPROVED_BACKGROUND,
    REGRESSED_BACKGROUND,
    ComparisonTableModel,
)
from goldenlens.ui.history.runs_dialog import RunsDialog
from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.session import ProjectSession

TIMEOUT = 30_000
FIXTURES = Path(__file__).parents[1] / "store" / "fixtures"


def _open(qtbot: QtBot, project: Path) -> tuple[MainWindow, RunsDialog]:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.projects.open_project(project)
    action = next(a for a in window.findChildren(QAction) if a.text() == "Run &History…")
    action.trigger()
    dialog = window.findChild(RunsDialog)
    assert isinstance(dialog, RunsDialog)
    qtbot.waitUntil(dialog.isVisible, timeout=TIMEOUT)
    return window, dialog


def _index(model: ComparisonTableModel, question: str, pipeline: str) -> object:
    comparison = model.comparison
    assert comparison is not None
    return model.index(comparison.questions.index(question), comparison.pipelines.index(pipeline))


def test_runs_listed_and_the_latest_two_compared_in_colour(qtbot: QtBot, tmp_path: Path) -> None:
    window, dialog = _open(qtbot, two_run_project(tmp_path))
    qtbot.waitUntil(lambda: dialog.compared is not None, timeout=TIMEOUT)
    runs = dialog.runs_model
    assert runs.rowCount() == 2
    assert [runs.data(runs.index(row, 0)) for row in range(2)] == ["2", "1"]  # newest first
    assert runs.data(runs.index(0, 6)) == "v1"
    assert len(str(runs.data(runs.index(0, 7)))) == 12  # the fingerprint, short
    assert (dialog.base_combo.currentData(), dialog.head_combo.currentData()) == (1, 2)

    dialog.metric_combo.setCurrentIndex(dialog.metric_combo.findData("f1_score"))
    model = dialog.comparison_model
    assert (model.rowCount(), model.columnCount()) == (10, 3)
    before, after = reference_scores(), reference_scores(CHANGED_RESPONSES)

    improved = _index(model, "q01", "Pipeline2")
    assert model.data(improved, CHANGE_ROLE) == "improved"
    assert model.data(improved, Qt.ItemDataRole.BackgroundRole) == IMPROVED_BACKGROUND
    assert QColor(IMPROVED_BACKGROUND).green() > QColor(IMPROVED_BACKGROUND).red()  # green
    f1_before, f1_after = before[("q01", "Pipeline2", "f1_score")], after[("q01", "Pipeline2", "f1_score")]
    assert model.data(improved) == f"{f1_before:.3f} → {f1_after:.3f} ▲"
    tip = str(model.data(improved, Qt.ItemDataRole.ToolTipRole))
    assert f"run 1 (before): {f1_before:.3f}" in tip
    assert f"run 2 (after): {f1_after:.3f}" in tip

    regressed = _index(model, "q02", "Pipeline1")
    assert model.data(regressed, CHANGE_ROLE) == "regressed"
    assert model.data(regressed, Qt.ItemDataRole.BackgroundRole) == REGRESSED_BACKGROUND
    assert QColor(REGRESSED_BACKGROUND).red() > QColor(REGRESSED_BACKGROUND).green()  # red
    assert str(model.data(regressed)).endswith("▼")

    plain = _index(model, "q05", "Pipeline1")
    assert model.data(plain, CHANGE_ROLE) == "unchanged"
    assert model.data(plain, Qt.ItemDataRole.BackgroundRole) is None
    assert model.data(plain) == f"{after[('q05', 'Pipeline1', 'f1_score')]:.3f}"

    text = dialog.counts_label.text()
    assert "1 improved" in text
    assert "2 regressed" in text
    assert "27 unchanged" in text
    dialog.close()
    window.close()


def test_the_metric_chooser_and_the_trend_chart(qtbot: QtBot, tmp_path: Path) -> None:
    window, dialog = _open(qtbot, two_run_project(tmp_path))
    qtbot.waitUntil(lambda: dialog.compared is not None, timeout=TIMEOUT)
    dialog.metric_combo.setCurrentIndex(dialog.metric_combo.findData("factual_knowledge"))
    model = dialog.comparison_model
    assert model.metric == "factual_knowledge"
    # q01/Pipeline2's fact was found before and after: unchanged on FK, improved on F1.
    assert model.data(_index(model, "q01", "Pipeline2"), CHANGE_ROLE) == "unchanged"
    assert model.data(_index(model, "q04", "Pipeline3"), CHANGE_ROLE) == "regressed"
    assert "0 improved" in dialog.counts_label.text()
    assert "2 regressed" in dialog.counts_label.text()

    series = dialog.trend.series()
    assert list(series) == ["Pipeline1", "Pipeline2", "Pipeline3"]  # one line per pipeline
    before, after = reference_scores(), reference_scores(CHANGED_RESPONSES)
    for pipeline, means in series.items():
        expected = [
            sum(v for k, v in s.items() if k[1] == pipeline and k[2] == "factual_knowledge") / 10
            for s in (before, after)
        ]
        assert means == pytest.approx(expected)
    assert len(dialog.trend.plot.getPlotItem().listDataItems()) == 3
    dialog.close()
    window.close()


def test_picking_runs_compares_them(qtbot: QtBot, tmp_path: Path, qtmodeltester: object) -> None:
    project = two_run_project(tmp_path)
    session = ProjectSession(project)
    dialog = RunsDialog(session)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.compared is not None, timeout=TIMEOUT)
    qtmodeltester.check(dialog.comparison_model)  # type: ignore[attr-defined]
    qtmodeltester.check(dialog.runs_model)  # type: ignore[attr-defined]
    dialog.compared = None
    dialog.base_combo.setCurrentIndex(dialog.base_combo.findData(2))  # run 2 against itself
    qtbot.waitUntil(lambda: dialog.compared is not None, timeout=TIMEOUT)
    assert (dialog.compared.base.id, dialog.compared.head.id) == (2, 2)
    assert dialog.compared.comparison.counts()["unchanged"] == 210
    assert "identical inputs" in dialog.notes_label.text()
    dialog.compared = None
    dialog.runs_table.selectAll()  # the two rows: older is the base
    qtbot.waitUntil(lambda: dialog.compared is not None, timeout=TIMEOUT)
    assert (dialog.compared.base.id, dialog.compared.head.id) == (1, 2)
    dialog.close()
    session.close()


def test_an_old_project_with_one_lexical_run(qtbot: QtBot, tmp_path: Path) -> None:
    """The format-1 fixture (upgraded on open): a lexical and a judge run, neither with a recorded
    fingerprint or version; choosing them both says they cannot be compared."""
    project = tmp_path / "old.goldenlens"
    shutil.copyfile(FIXTURES / "format1.goldenlens", project)
    session = ProjectSession(project)
    dialog = RunsDialog(session)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.history is not None, timeout=TIMEOUT)
    assert dialog.runs_model.rowCount() == 2
    assert dialog.runs_model.data(dialog.runs_model.index(0, 6)) == "unknown"
    assert dialog.runs_model.data(dialog.runs_model.index(0, 7)) == "unknown"
    assert "fewer than two finished scoring runs" in dialog.counts_label.text()
    dialog.head_combo.setCurrentIndex(dialog.head_combo.findData(2))
    dialog.base_combo.setCurrentIndex(dialog.base_combo.findData(1))
    qtbot.waitUntil(lambda: "judge run" in dialog.counts_label.text(), timeout=TIMEOUT)
    assert "compare runs of the same kind" in dialog.counts_label.text()
    assert dialog.comparison_model.rowCount() == 0
    dialog.close()
    session.close()


def test_without_a_project_the_menu_says_what_to_do(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.show_runs() is None
    assert window.findChild(RunsDialog) is None
    assert "Open a project" in window.statusBar().currentMessage()

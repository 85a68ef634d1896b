"""Judge scores in the score grid and the Judge dialog's choice of rows, on a real project file.

The sample project is scored by the real lexical job; a judge run's scores are then stored
directly through the store API (as a judge run would leave them: values, one score not scored
with its reason, one row the run never reached), no model needed. Every expected row, order,
count and text below is worked out in the test from the values it stored.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from pytestqt.qtbot import QtBot

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.core.view.grid_state import score_column
from goldenlens.jobs import open_project
from goldenlens.jobs.judging.judge_selection import JudgeRows, JudgeScope, selected_questions
from goldenlens.jobs.reporting.stored_run import judge_scores
from goldenlens.queries.grid import GridData
from goldenlens.queries.project import ProjectQueries
from goldenlens.store.project import ProjectStore, store_of
from goldenlens.ui.grid.score_grid import ScoreGrid
from goldenlens.ui.grid.score_table_model import ScoreTableModel
from goldenlens.ui.judge.judge_dialog import JudgeDialog
from goldenlens.ui.main_window import MainWindow

PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")
QUESTIONS = tuple(f"q{n:02d}" for n in range(1, 11))
FAITHFULNESS, RELEVANCE, HARMFUL = "faithfulness", "context_relevance", "aspect_harmfulness"
NOT_SCORED_KEY = ("q03", "Pipeline2")  # faithfulness not scored here, with a reason
NOT_SCORED_REASON = "the judge found no statements in the response"
NOT_JUDGED_KEY = ("q07", "Pipeline3")  # the run never reached this row: no score at all
OVERRIDDEN_KEY = ("q04", "Pipeline1")  # a reviewer set faithfulness 0.95 here
OVERRIDE_VALUE = 0.95
TIMEOUT = 30_000
TOOLTIP = Qt.ItemDataRole.ToolTipRole
DISPLAY = Qt.ItemDataRole.DisplayRole


def _stored_values() -> dict[str, dict[tuple[str, str], float | None]]:
    """Per metric, the value of each row the judge run holds (``None``: not scored)."""
    rng = np.random.default_rng(11)
    values: dict[str, dict[tuple[str, str], float | None]] = {FAITHFULNESS: {}, RELEVANCE: {}, HARMFUL: {}}
    for question in QUESTIONS:
        for pipeline in PIPELINES:
            key = (question, pipeline)
            if key == NOT_JUDGED_KEY:
                continue
            values[FAITHFULNESS][key] = None if key == NOT_SCORED_KEY else round(float(rng.uniform()), 3)
            values[RELEVANCE][key] = round(float(rng.uniform()), 3)
            values[HARMFUL][key] = float(rng.integers(0, 2))
    return values


STORED = _stored_values()


def _effective(metric: str) -> dict[tuple[str, str], float | None]:
    """The values the grid must show: the stored ones with the reviewer's override."""
    shown = dict(STORED[metric])
    if metric == FAITHFULNESS:
        shown[OVERRIDDEN_KEY] = OVERRIDE_VALUE
    return shown


def _value(metric: str, question: str, pipeline: str) -> float:
    found = _effective(metric).get((question, pipeline))
    return math.nan if found is None else found


@pytest.fixture
def judged_project(scored_project: Path) -> Path:
    with ProjectStore.open(scored_project) as store:
        run_id = store.runs.start(JUDGE_RUN, {"metrics": [FAITHFULNESS, RELEVANCE, HARMFUL]}, 29)
        records = []
        for metric, rows in STORED.items():
            signature = Signature(metric, "1", {"judge_model": "j.gguf"}).to_json()
            for (question, pipeline), value in rows.items():
                if value is None:
                    records.append(
                        ScoreRecord(
                            question,
                            pipeline,
                            metric,
                            None,
                            signature,
                            ScoreStatus.NOT_SCORED,
                            NOT_SCORED_REASON,
                        )
                    )
                else:
                    records.append(ScoreRecord(question, pipeline, metric, value, signature))
        store.results.save(run_id, records)
        store.runs.finish(run_id)
        store.reviews.set_override(
            *OVERRIDDEN_KEY, FAITHFULNESS, value=OVERRIDE_VALUE, passed=None, note="checked", reviewer="Ann"
        )
    return scored_project


@pytest.fixture
def grid_data(judged_project: Path) -> GridData:
    with open_project(judged_project) as handle:
        project = ProjectQueries(handle)
        return project.grid(project.latest_run_id())


@pytest.fixture
def widget(qtbot: QtBot, grid_data: GridData) -> ScoreGrid:
    widget = ScoreGrid()
    qtbot.addWidget(widget)
    widget.set_data(grid_data)
    widget.resize(1600, 500)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _column(model: ScoreTableModel, metric: str, pipeline: str) -> int:
    return [c.key for c in model.columns()].index(score_column(metric, pipeline))


def _shown_ids(model: ScoreTableModel) -> list[str]:
    return [str(model.question_id(r)) for r in range(model.rowCount())]


def test_the_grid_holds_the_judge_run_with_overrides_as_the_reports_do(
    judged_project: Path, grid_data: GridData
) -> None:
    assert set(grid_data.judge_metrics) == {FAITHFULNESS, RELEVANCE, HARMFUL}
    assert set(grid_data.judge_metrics) <= set(grid_data.available_metrics)
    with ProjectStore.open(judged_project) as store:
        reported = judge_scores(store)
    for metric in grid_data.judge_metrics:
        for q, question in enumerate(grid_data.question_ids):
            for p, pipeline in enumerate(grid_data.pipelines):
                cell = float(grid_data.values[metric][q, p])
                assert cell == pytest.approx(_value(metric, question, pipeline), nan_ok=True)
                record = reported.get((question, pipeline), {}).get(metric)
                in_report = math.nan if record is None or record.value is None else record.value
                assert cell == pytest.approx(in_report, nan_ok=True)


def test_judge_metrics_are_in_the_metrics_chooser_and_sortable(qtbot: QtBot, widget: ScoreGrid) -> None:
    menu = {a.data(): a for a in widget.filter_bar.metrics_menu.actions() if a.data()}
    assert {FAITHFULNESS, RELEVANCE, HARMFUL} <= set(menu)
    menu[FAITHFULNESS].setChecked(True)
    widget.filter_bar.metrics_menu.triggered.emit(menu[FAITHFULNESS])
    model = widget.model()
    column = _column(model, FAITHFULNESS, "Pipeline2")
    assert model.headerData(column, Qt.Orientation.Horizontal) == "Pipeline2\nfaithfulness"
    widget.table_view().sortByColumn(column, Qt.SortOrder.DescendingOrder)
    scores = {q: _value(FAITHFULNESS, q, "Pipeline2") for q in QUESTIONS}
    scored = sorted((q for q in QUESTIONS if not math.isnan(scores[q])), key=lambda q: -scores[q])
    expected = scored + [q for q in QUESTIONS if math.isnan(scores[q])]  # missing last
    assert _shown_ids(model) == expected
    assert model.state().sort_column == score_column(FAITHFULNESS, "Pipeline2")


@pytest.mark.parametrize(
    ("expression", "keep"),
    [
        ("faithfulness < 0.5", lambda q: any(_value(FAITHFULNESS, q, p) < 0.5 for p in PIPELINES)),
        ("Pipeline2.context_relevance >= 0.8", lambda q: _value(RELEVANCE, q, "Pipeline2") >= 0.8),
        (
            "Faithfulness > 0.9 and fk == 1",
            lambda q: any(_value(FAITHFULNESS, q, p) > 0.9 for p in PIPELINES),
        ),
    ],
)
def test_threshold_expressions_on_judge_metrics_filter_the_right_rows(
    qtbot: QtBot, widget: ScoreGrid, judged_project: Path, expression: str, keep: object
) -> None:
    assert callable(keep)
    expected = [q for q in QUESTIONS if keep(q)]
    if "fk == 1" in expression:  # the lexical half from the stored lexical scores
        with ProjectStore.open(judged_project) as store:
            run = store.runs.latest(finished_only=True)
            assert run is not None
            fk = store.results.score_matrix(run.id, FACTUAL_KNOWLEDGE)
        expected = [q for q in expected if any(fk.get((q, p)) == 1.0 for p in PIPELINES)]
    assert 0 < len(expected) < len(QUESTIONS)  # the data make the filter mean something
    widget.filter_bar.threshold.setText(expression)
    qtbot.waitUntil(lambda: widget.model().state().threshold == expression)
    assert not widget.filter_bar.error.isVisible()
    assert _shown_ids(widget.model()) == expected


def test_a_not_scored_judge_cell_is_missing_with_its_reason(widget: ScoreGrid) -> None:
    widget.set_state(replace(widget.state(), metrics=(FAITHFULNESS,)))
    model = widget.model()
    row = _shown_ids(model).index(NOT_SCORED_KEY[0])
    cell = model.index(row, _column(model, FAITHFULNESS, NOT_SCORED_KEY[1]))
    assert model.data(cell, DISPLAY) == "—"
    assert model.data(cell, Qt.ItemDataRole.BackgroundRole) is None  # no colour: not a 0
    assert NOT_SCORED_REASON in model.data(cell, TOOLTIP)
    painted = model.column_cells(cell.column(), row, row)
    assert painted.texts == ["—"]
    assert painted.backgrounds == [None]
    row = _shown_ids(model).index(NOT_JUDGED_KEY[0])
    cell = model.index(row, _column(model, FAITHFULNESS, NOT_JUDGED_KEY[1]))
    assert model.data(cell, DISPLAY) == "—"
    assert f"not judged in judge run {widget.grid().judge_run_id}" in model.data(cell, TOOLTIP)  # type: ignore[union-attr]
    row = _shown_ids(model).index(OVERRIDDEN_KEY[0])
    cell = model.index(row, _column(model, FAITHFULNESS, OVERRIDDEN_KEY[1]))
    assert model.data(cell, DISPLAY) == f"{OVERRIDE_VALUE:.2f}*"
    original = STORED[FAITHFULNESS][OVERRIDDEN_KEY]
    assert f"original {original:.4g}" in model.data(cell, TOOLTIP)


def test_judge_scores_use_the_grid_colour_scale(widget: ScoreGrid) -> None:
    widget.set_state(replace(widget.state(), metrics=(FAITHFULNESS, FACTUAL_KNOWLEDGE)))
    model = widget.model()
    scale = model._scale
    for row, question in enumerate(_shown_ids(model)):
        value = _value(FAITHFULNESS, question, "Pipeline1")
        if math.isnan(value):
            continue
        cell = model.index(row, _column(model, FAITHFULNESS, "Pipeline1"))
        assert model.data(cell, Qt.ItemDataRole.BackgroundRole) == scale[round(value * 100)]


def test_the_pass_fail_view_of_a_binary_judge_metric(qtbot: QtBot, widget: ScoreGrid) -> None:
    model = widget.model()
    # only 0/1 values: offered; faithfulness and context_relevance are fractions: not offered
    assert model.pass_fail_metrics() == (FACTUAL_KNOWLEDGE, HARMFUL)
    (action,) = [a for a in widget.filter_bar.report_menu.actions() if a.data() == HARMFUL]
    action.trigger()
    qtbot.waitUntil(lambda: widget.state().fk_report_mode)
    assert widget.state().report_metric == HARMFUL
    assert [c.metric for c in model.columns() if c.metric] == [HARMFUL] * 3
    for row, question in enumerate(_shown_ids(model)):
        for pipeline in PIPELINES:
            value = _value(HARMFUL, question, pipeline)
            shown = model.data(model.index(row, _column(model, HARMFUL, pipeline)), DISPLAY)
            assert shown == ("—" if math.isnan(value) else "✓" if value == 1.0 else "✗")
    text = widget.fk_totals_label.text()
    assert HARMFUL in text
    for pipeline in PIPELINES:
        values = [_value(HARMFUL, q, pipeline) for q in QUESTIONS]
        passed = sum(v == 1.0 for v in values)
        scored = sum(not math.isnan(v) for v in values)
        missing = len(values) - scored
        suffix = f", {missing} not scored" if missing else ""
        assert f"<b>{pipeline}</b> {passed}/{scored} ✓{suffix}" in text
    assert widget.filter_bar.fk.text() == f"Pass/fail: {HARMFUL}"
    # back to the FK report from the same menu
    (fk,) = [a for a in widget.filter_bar.report_menu.actions() if a.data() == FACTUAL_KNOWLEDGE]
    fk.trigger()
    qtbot.waitUntil(lambda: widget.state().report_metric == FACTUAL_KNOWLEDGE)
    assert [c.metric for c in model.columns() if c.metric] == [FACTUAL_KNOWLEDGE] * 3


# -- the Judge dialog's choice of rows --------------------------------------------------------


def test_the_dialog_choice_gives_job_options_with_only_those_questions(qtbot: QtBot) -> None:
    shown = ("q02", "q05", "q09")
    dialog = JudgeDialog(None, run=True, scope=JudgeScope(10, ("q05", "q01"), shown))
    qtbot.addWidget(dialog)
    assert dialog.rows_choice is not None
    assert dialog.rows_choice.buttons[JudgeRows.ALL].text() == "All rows (10)"
    assert dialog.rows_choice.buttons[JudgeRows.SELECTED].text() == "Selected questions (2)"
    assert dialog.rows_choice.buttons[JudgeRows.SHOWN].text() == "Rows the grid shows (filtered) (3)"
    assert dialog.options().only == ()
    dialog.rows_choice.set_choice(JudgeRows.SELECTED)
    assert dialog.options().only == ("q05", "q01")
    dialog.rows_choice.set_choice(JudgeRows.SHOWN)
    assert dialog.options().only == shown
    assert dialog.options().params()["only"] == list(shown)


def test_a_grid_showing_every_row_judges_all_and_a_loading_grid_offers_no_filter(qtbot: QtBot) -> None:
    every = JudgeScope(3, (), ("q1", "q2", "q3"))
    assert every.only(JudgeRows.SHOWN) == ()  # the plain run of every question
    with pytest.raises(ValueError, match="no question is selected"):
        every.only(JudgeRows.SELECTED)
    dialog = JudgeDialog(None, run=True, scope=JudgeScope(100_000, ("q1",), None))
    qtbot.addWidget(dialog)
    assert dialog.rows_choice is not None
    assert not dialog.rows_choice.buttons[JudgeRows.SHOWN].isEnabled()
    assert not JudgeDialog(None, run=False, scope=every).rows_choice  # settings only: no rows


def test_the_main_window_judges_the_selected_or_filtered_rows(qtbot: QtBot, judged_project: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.projects.open_project(judged_project)
    grid = window.grid
    qtbot.waitUntil(lambda: grid.model().rowCount() == 10, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: FAITHFULNESS in (grid.grid() or GridData.empty()).values, timeout=TIMEOUT)
    grid.filter_bar.threshold.setText("Pipeline1.faithfulness >= 0.5")
    expected = [q for q in QUESTIONS if _value(FAITHFULNESS, q, "Pipeline1") >= 0.5]
    assert 0 < len(expected) < 10
    qtbot.waitUntil(lambda: grid.model().rowCount() == len(expected), timeout=TIMEOUT)
    # the Summary tab follows the grid: the judge metric's mean over the rows shown
    shown = [_value(FAITHFULNESS, q, "Pipeline2") for q in expected]
    present = [v for v in shown if not math.isnan(v)]
    mean = window.summary.means()[FAITHFULNESS]["Pipeline2"]
    assert mean == pytest.approx(sum(present) / len(present))
    view, model = grid.table_view(), grid.model()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    view.selectionModel().clearSelection()
    for row in (0, 2):
        view.selectionModel().select(model.index(row, 0), flags)
    dialog = window.judge.ask_run()
    assert dialog is not None
    assert dialog.rows_choice is not None
    dialog.rows_choice.set_choice(JudgeRows.SELECTED)
    chosen = dialog.options().only
    assert chosen == (expected[0], expected[2])
    dialog.rows_choice.set_choice(JudgeRows.SHOWN)
    assert dialog.options().only == tuple(expected)
    with ProjectStore.open(judged_project) as store:  # the job's own check accepts them
        assert selected_questions(store, dialog.options().only, "") == expected
    dialog.reject()


# -- the loader: first rows, row reloads, a newer judge run -----------------------------------


def test_the_first_rows_and_a_row_reload_carry_the_judge_columns(
    judged_project: Path, grid_data: GridData
) -> None:
    with open_project(judged_project) as handle:
        project = ProjectQueries(handle)
        lexical = project.latest_run_id()
        head = project.grid_head(lexical, None, limit=4)
        assert not head.complete
        for metric in (FAITHFULNESS, RELEVANCE, HARMFUL):
            np.testing.assert_array_equal(head.values[metric], grid_data.values[metric][:4])
        assert head.missing_reason(2, 1, FAITHFULNESS) == f"not scored: {NOT_SCORED_REASON}"  # q03/Pipeline2
        store = store_of(handle)
        store.reviews.set_override("q03", "Pipeline2", FAITHFULNESS, value=0.25, passed=None, reviewer="Bo")
        patched = project.grid_with_updates(grid_data, lexical, ["q03"])
        assert patched.values[FAITHFULNESS][2, 1] == 0.25
        assert patched.override_note(2, 1, FAITHFULNESS) is not None
        untouched = np.ones(patched.values[FAITHFULNESS].shape, dtype=bool)
        untouched[2, 1] = False
        np.testing.assert_array_equal(
            patched.values[FAITHFULNESS][untouched], grid_data.values[FAITHFULNESS][untouched]
        )
        # a newer judge run (of one question only) is the one shown from now on, as in the reports
        newer = store.runs.start(JUDGE_RUN, {"metrics": [FAITHFULNESS], "only": ["q01"]}, 3)
        signature = Signature(FAITHFULNESS, "1", {"judge_model": "j.gguf"}).to_json()
        store.results.save(newer, [ScoreRecord("q01", p, FAITHFULNESS, 0.5, signature) for p in PIPELINES])
        reloaded = project.grid_with_updates(patched, lexical, ["q01"])
    assert reloaded.judge_run_id == newer
    assert reloaded.judge_metrics == (FAITHFULNESS,)  # the overrides are of faithfulness only
    column = reloaded.values[FAITHFULNESS]
    assert column[0].tolist() == [0.5, 0.5, 0.5]
    overridden = {(q, p): v for (q, p), v in _effective(FAITHFULNESS).items() if (q, p) in {OVERRIDDEN_KEY}}
    expected = np.full(column.shape, np.nan)
    expected[0] = 0.5
    expected[2, 1] = 0.25  # the reviewer's values stand, as the reports count them
    for (question, pipeline), value in overridden.items():
        expected[QUESTIONS.index(question), PIPELINES.index(pipeline)] = value
    np.testing.assert_array_equal(column, expected)
    assert reloaded.missing_reason(4, 0, FAITHFULNESS) == f"not judged in judge run {newer} (the newest)"

"""A judge run on 2 of the sample's 10 questions, as the app shows it at 1366x768.

The Summary tab put the judge means beside the 10-question lexical means with no count, their
names printed over each other under the bars, and the detail cards cut the judge metrics'
names to "ans…ncy", "con…nce" and "fai…ess". The judge scores are stored through the store API
(as a judge run leaves them), no model needed; every expected number is worked out here from
the values stored.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from pytestqt.qtbot import QtBot

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.scores import ScoreRecord
from goldenlens.store.project import ProjectStore
from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.summary.summary_view import SummaryView

PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")
JUDGED = ("q01", "q03")
METRICS = ("answer_relevancy", "context_relevance", "faithfulness")
#: What the cards and the chart call them (short names that read, as the grid's FK and F1).
SHORT = {
    "answer_relevancy": "Ans. relevancy",
    "context_relevance": "Ctx relevance",
    "faithfulness": "Faithfulness",
}
MODEL = "qwen2.5-3b-instruct-q4_k_m.gguf"
TIMEOUT = 30_000


def _value(metric: str, question: str, pipeline: str) -> float:
    return round(
        0.1 + 0.1 * METRICS.index(metric) + 0.2 * JUDGED.index(question) + 0.05 * PIPELINES.index(pipeline), 3
    )


@pytest.fixture
def judged_on_two(scored_project: Path) -> Path:
    with ProjectStore.open(scored_project) as store:
        run_id = store.runs.start(JUDGE_RUN, {"metrics": list(METRICS)}, len(JUDGED) * len(PIPELINES))
        records = [
            ScoreRecord(
                question,
                pipeline,
                metric,
                _value(metric, question, pipeline),
                Signature(metric, "1", {"judge_model": MODEL}).to_json(),
            )
            for metric in METRICS
            for question in JUDGED
            for pipeline in PIPELINES
        ]
        store.results.save(run_id, records)
        store.runs.finish(run_id)
    return scored_project


def _window(qtbot: QtBot, project: Path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    assert window.projects.open_project(project)
    qtbot.waitUntil(lambda: window.grid.model().rowCount() == 10, timeout=TIMEOUT)
    return window


def test_the_summary_says_how_many_questions_each_judge_mean_rests_on(
    qtbot: QtBot, judged_on_two: Path
) -> None:
    window = _window(qtbot, judged_on_two)
    window.tabs.setCurrentWidget(window.summary)
    summary = window.summary
    qtbot.waitUntil(lambda: "faithfulness" in summary.means(), timeout=TIMEOUT)
    for metric in METRICS:
        assert summary.question_counts()[metric] == dict.fromkeys(PIPELINES, 2)
        for pipeline in PIPELINES:
            expected = np.mean([_value(metric, question, pipeline) for question in JUDGED])
            assert summary.means()[metric][pipeline] == pytest.approx(expected)
    assert summary.question_counts()[FACTUAL_KNOWLEDGE] == dict.fromkeys(PIPELINES, 10)
    shown = summary.count_label.text()
    assert shown.startswith("10 questions · 3 pipelines")
    assert "Ans. relevancy, Ctx relevance, Faithfulness: 2 of 10 questions" in shown
    # Under each bar group: the judge metrics with their count, the lexical ones without.
    texts = dict(zip(summary.means(), summary.axis_texts(), strict=True))
    for metric in METRICS:
        assert texts[metric].replace("\n", " ").strip() == f"{SHORT[metric]} (2 of 10)"
    assert "of 10" not in texts[FACTUAL_KNOWLEDGE]
    combo = summary.metric_combo
    names = [combo.itemText(i) for i in range(combo.count())]
    assert "Faithfulness (2 of 10 questions)" in names
    window.close()


def test_the_cards_name_judge_metrics_whole_with_the_full_name_in_the_tooltip(
    qtbot: QtBot, judged_on_two: Path
) -> None:
    window = _window(qtbot, judged_on_two)
    assert window.grid.select_question("q03")
    qtbot.waitUntil(lambda: len(window.detail.cards()) == 3, timeout=TIMEOUT)
    qtbot.wait(50)  # layouts settle
    for card in window.detail.cards():
        rows = card.judge_section.rows
        assert [row.toggle.text() for row in rows] == [SHORT[m] for m in METRICS]
        for row in rows:
            # As wide as the whole name needs (Qt elides a squeezed tool button's text).
            assert row.toggle.width() >= row.toggle.sizeHint().width(), row.toggle.text()
            assert row.note.metric in row.toggle.toolTip()
            assert row.model_label.text() == MODEL  # drawn elided when short of room
            assert MODEL in row.model_label.toolTip()
    window.close()


def _drawn_lines(view: SummaryView) -> list[tuple[int, QRectF, str]]:
    """Each non-blank line of text under the bars, as pyqtgraph draws it: (tick, box, line)."""
    axis = view.means_plot.getPlotItem().getAxis("bottom")
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    font = axis.style["tickFont"] or view.font()  # pyqtgraph draws with the view's font by default
    painter = QPainter(image)
    painter.setFont(font)
    measure = QFontMetricsF(font)
    try:
        _, _, specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    lines = []
    for tick, (rect, _flags, text) in enumerate(specs):
        for row, line in enumerate(text.split("\n")):
            if line.strip():
                width = measure.horizontalAdvance(line)
                top = rect.top() + row * measure.lineSpacing()
                box = QRectF(rect.center().x() - width / 2, top, width, measure.height())
                lines.append((tick, box, line))
    return lines


JUDGE_EXTRA = (
    "faithfulness",
    "answer_relevancy",
    "context_relevance",
    "context_utilization",
    "answer_correctness",
)


@pytest.mark.parametrize("count", [3, 7, 12])
@pytest.mark.parametrize("size", [(1345, 640), (1900, 960)])  # the tab in a 1366x768 and a 1920x1080 window
def test_the_metric_names_under_the_bars_never_print_over_each_other(
    qtbot: QtBot, count: int, size: tuple[int, int]
) -> None:
    metrics = [*LEXICAL_SCORE_NAMES, *JUDGE_EXTRA][-count:] if count != 7 else list(LEXICAL_SCORE_NAMES)
    rng = np.random.default_rng(count)
    values = {}
    for metric in metrics:
        data = rng.uniform(size=(10, 3))
        if metric in JUDGE_EXTRA:
            data[2:] = np.nan  # judged on 2 of the 10 questions
        values[metric] = data
    view = SummaryView()
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    view.set_data(PIPELINES, values, title="10 of 10 questions")
    qtbot.wait(50)
    axis = view.means_plot.getPlotItem().getAxis("bottom")
    lines = _drawn_lines(view)
    assert {tick for tick, _, _ in lines} == set(range(len(metrics)))  # every name is drawn
    area = axis.boundingRect()
    for i, (tick, box, line) in enumerate(lines):
        assert area.left() <= box.left(), line
        assert box.right() <= area.right(), line
        assert box.bottom() <= area.bottom() + 1, line  # no line cut off at the foot
        assert "…" not in line
        for other_tick, other, other_line in lines[i + 1 :]:
            assert tick == other_tick or not box.intersects(other), (line, other_line)

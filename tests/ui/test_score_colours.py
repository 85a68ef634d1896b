"""One colour scale: the score grid paints a score the colour the report workbook's conditional
format gives it, since both come from :mod:`goldenlens.core.view.score_colours`."""

from __future__ import annotations

import csv
import json
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE
from goldenlens.core.scored_rows import score_all
from goldenlens.core.view.grid_state import GridState
from goldenlens.io.importing.sample import sample_dir
from goldenlens.io.reports.xlsx.workbook import write_report_workbook
from goldenlens.queries.grid_loading import load_grid
from goldenlens.store.project import ProjectStore
from goldenlens.ui.grid.colour_scale import colour_scale
from goldenlens.ui.grid.score_table_model import ScoreTableModel
from goldenlens.ui.review.card_scores import score_colour
from sample_expectations import PIPELINES


def _argb(colour: QColor) -> str:
    return f"FF{colour.red():02X}{colour.green():02X}{colour.blue():02X}"


@pytest.fixture(scope="module")
def workbook_scale(tmp_path_factory: pytest.TempPathFactory) -> dict[float, str]:
    """The Scores sheet's colour scale of a workbook written from the sample: score -> ARGB."""
    with (sample_dir() / "golden.csv").open(newline="", encoding="utf-8") as f:
        golden = [GoldenItem(r["id"], r["question"], r["answer"], r["fact"]) for r in csv.DictReader(f)]
    with (sample_dir() / "responses.csv").open(newline="", encoding="utf-8") as f:
        responses = [
            PipelineResponse(r["question_id"], r["pipeline"], r["response"], tuple(json.loads(r["contexts"])))
            for r in csv.DictReader(f)
        ]
    path = tmp_path_factory.mktemp("colours") / "report.xlsx"
    write_report_workbook(score_all(golden, responses, PIPELINES), path, generated_at=datetime(2024, 5, 1))
    sheet = openpyxl.load_workbook(path)["Scores"]
    (rule,) = next(iter(sheet.conditional_formatting)).rules
    scale = rule.colorScale
    return {float(point.val): colour.rgb for point, colour in zip(scale.cfvo, scale.color, strict=True)}


def test_the_grid_paints_the_workbooks_stops(scored_project: Path, workbook_scale: dict[float, str]) -> None:
    with ProjectStore.open(scored_project) as store:
        run = store.runs.latest()
        assert run is not None
        grid = load_grid(store, run.id)
    model = ScoreTableModel()
    model.set_data(grid)
    model.set_state(GridState(metrics=(FACTUAL_KNOWLEDGE, F1_SCORE)))
    painted: dict[float, str] = {}
    for row in range(model.rowCount()):
        for column in range(4, model.columnCount()):
            index = model.index(row, column)
            value = model.data(index, Qt.ItemDataRole.UserRole)
            if value in workbook_scale:
                painted[value] = _argb(model.data(index, Qt.ItemDataRole.BackgroundRole))
    assert {0.0, 1.0} <= set(painted), "the sample has scores of 0 and of 1"
    assert painted == {score: workbook_scale[score] for score in painted}
    scale, _text = colour_scale(dark=False)
    assert [_argb(scale[round(score * 100)]) for score in workbook_scale] == list(workbook_scale.values())
    assert list(workbook_scale) == [0.0, 0.5, 1.0]


def test_between_stops_the_grid_mixes_them(workbook_scale: dict[float, str]) -> None:
    scale, _text = colour_scale(dark=False)
    low, mid = (QColor(f"#{workbook_scale[score][2:]}") for score in (0.0, 0.5))
    quarter = scale[25]
    for channel in ("red", "green", "blue"):
        a, b = getattr(low, channel)(), getattr(mid, channel)()
        assert getattr(quarter, channel)() == round(a + (b - a) * 0.5)


def test_the_cards_use_the_same_scale_in_pastel() -> None:
    # The cards' chips go from red through amber to green like the grid, lighter so that dark
    # text reads on them on any palette.
    scale, _text = colour_scale(dark=False)
    for score in (0.0, 0.25, 0.5, 0.75, 1.0):
        card, grid = score_colour(score), scale[round(score * 100)]
        assert card.lightnessF() > grid.lightnessF()
        apart = abs(card.hueF() - grid.hueF())
        assert min(apart, 1 - apart) < 0.05, score  # hues on a circle: red is 0 and 1

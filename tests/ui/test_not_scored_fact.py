"""The detail pane's score table shows a not-scored Factual Knowledge as such, with its reason."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from PySide6.QtCore import Qt

from goldenlens.cli.main import main
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.queries.detail_data import load_question_detail
from goldenlens.store.project import ProjectStore
from goldenlens.ui.review.card_scores import ScoresModel


def test_score_card_says_not_scored_and_why(tmp_path: Path, qapp: object) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Golden"
    sheet.append(["id", "question", "answer", "fact"])
    sheet.append(["q1", "Who runs Amazon?", "Andy Jassy runs Amazon.", "Jassy"])
    sheet.append(["q2", "Where is it based?", "It is based in Seattle.", "Seattle<OR>"])
    golden = tmp_path / "golden.xlsx"
    book.save(golden)
    responses = tmp_path / "responses.csv"
    responses.write_text(
        "question_id,pipeline,response\nq1,P1,Andy Jassy.\nq2,P1,It is based in Seattle.\n", encoding="utf-8"
    )
    project = tmp_path / "p.goldenlens"
    assert main(["score", str(golden), str(responses), "--project", str(project), "-q"]) == 0
    with ProjectStore.open(project) as store:
        run = store.runs.latest("lexical", finished_only=True)
        assert run is not None
        detail = load_question_detail(store, run.id, "q2")
    assert detail is not None
    card = detail.pipeline("P1")
    assert card is not None
    model = ScoresModel(card)
    row = LEXICAL_SCORE_NAMES.index(FACTUAL_KNOWLEDGE)
    index = model.index(row, 1)
    assert model.data(index, Qt.ItemDataRole.DisplayRole) == "not scored"
    assert model.data(index, Qt.ItemDataRole.BackgroundRole) is None  # no colour: no value
    tip = str(model.data(index, Qt.ItemDataRole.ToolTipRole))
    assert "Not scored: the fact 'Seattle<OR>' has an empty <OR>/<AND> part" in tip
    f1 = model.index(LEXICAL_SCORE_NAMES.index(F1_SCORE), 1)
    assert model.data(f1, Qt.ItemDataRole.DisplayRole) == "1.000"

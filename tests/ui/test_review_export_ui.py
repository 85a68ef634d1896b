"""What the app shows after a review is what the exported report holds: an override made in
the desktop's override dialog and a review pushed on its undo stack, then the report written
by the export job the Export Report action runs, read back with openpyxl.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import openpyxl
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.jobs.reporting.report_job import export_report
from goldenlens.queries.grid_loading import load_grid
from goldenlens.store.project import ProjectStore
from goldenlens.ui.review.override_dialog import OverrideDialog, request_override
from goldenlens.ui.review.undo_commands import push_review
from goldenlens.ui.session import ProjectSession
from sample_expectations import FK_REPORT, PIPELINES


@pytest.fixture
def session(scored_project: Path, qtbot: QtBot) -> Iterator[ProjectSession]:
    opened = ProjectSession(scored_project)
    opened.set_preferences(replace(opened.preferences, reviewer="Ana"))
    yield opened
    opened.close()


def test_an_override_made_in_the_app_is_in_the_exported_report(
    session: ProjectSession, qtbot: QtBot, tmp_path: Path
) -> None:
    stack = QUndoStack()

    def fill(dialog: OverrideDialog) -> None:
        dialog.pass_button.setChecked(True)
        dialog.note_edit.setPlainText("134,383 million is the same figure")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, OverrideDialog):
            fill(dialog)
        else:
            QTimer.singleShot(10, poll)

    QTimer.singleShot(0, poll)
    assert request_override(None, session, stack, "q02", "Pipeline2", FACTUAL_KNOWLEDGE) is True
    assert push_review(stack, session, "q02", "accepted", "checked against the 10-Q") is True

    out = tmp_path / "report.xlsx"
    with ProjectStore.open(session.path) as store:
        export_report(store, out)
        grid = load_grid(store, session.run_id, LEXICAL_SCORE_NAMES)
    book = openpyxl.load_workbook(out)

    ws = book["Scores"]
    header = [c.value for c in ws[1]]
    col = {name: i + 1 for i, name in enumerate(header)}
    rows = {(ws.cell(r, 1).value, ws.cell(r, 3).value): r for r in range(2, ws.max_row + 1)}
    # Every cell the grid marks as overridden (the app's "1*") holds the same value in the
    # export, marked and commented; the others hold the grid's value too.
    for metric in LEXICAL_SCORE_NAMES:
        for qi, qid in enumerate(grid.question_ids):
            for pi, pipeline in enumerate(grid.pipelines):
                cell = ws.cell(rows[qid, pipeline], col[metric])
                assert cell.value == pytest.approx(float(grid.values[metric][qi, pi]))
                assert (cell.comment is not None) == bool(grid.overridden[metric][qi, pi])
    assert int(np.count_nonzero(grid.overridden[FACTUAL_KNOWLEDGE])) == 1
    marked = ws.cell(rows["q02", "Pipeline2"], col[FACTUAL_KNOWLEDGE])
    assert marked.value == 1
    assert marked.comment is not None
    assert "Ana" in marked.comment.text
    assert "134,383 million is the same figure" in marked.comment.text
    assert "Original 0.000" in marked.comment.text
    assert ws.cell(rows["q02", "Pipeline1"], col["review status"]).value == "accepted"

    summary = list(book["Summary"].iter_rows(values_only=True))
    pipeline2 = next(r for r in summary if r[0] == "Pipeline2")
    found = [v[PIPELINES.index("Pipeline2")] for v in FK_REPORT.values()]
    assert pipeline2[1] == pytest.approx((sum(found) + 1) / len(found))  # q02 now counts as found
    assert book["Overrides"].cell(2, 8).value == "Ana"
    review = {r[0]: r[2:4] for r in book["Review"].iter_rows(min_row=2, values_only=True)}
    assert review["q02"] == ("accepted", "checked against the 10-Q")

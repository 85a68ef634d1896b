"""The import wizard, driven like an analyst would: real files, real project files, real threads.

Every test ends with no worker thread alive (the autouse fixture in ``conftest.py`` checks).
Screenshots of each page of the sample import go to ``/tmp/wizard_page<N>[_wide].png``.
"""

from __future__ import annotations

import csv
import gc
import re
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QWizard
from pytestqt.qtbot import QtBot

from badinputs import make_bad_inputs, write_csv, write_xlsx
from goldenlens.core.problems import Severity
from goldenlens.io.importing.input_files import preview
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import ImportResult
from goldenlens.jobs.progress import Progress
from goldenlens.jobs.scoring.score_job import LEXICAL_RUN
from goldenlens.store.project import ProjectStore
from goldenlens.ui.importer.import_pages import TablePage
from goldenlens.ui.importer.import_wizard import CANCELLED_BEFORE_COMMIT, ImportWizard
from goldenlens.ui.importer.preview_model import merge_mappings
from goldenlens.ui.workers import live_worker_threads

NEXT = QWizard.WizardButton.NextButton
FINISH = QWizard.WizardButton.FinishButton
TIMEOUT = 15_000


def _rows(name: str) -> list[list[str]]:
    with (sample_dir() / name).open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def _project_state(path: Path) -> tuple[int, int, int, list[str]]:
    with ProjectStore.open(path) as store:
        return (
            len(store.golden.items()),
            len(store.responses.all()),
            len(store.responses.imports()),
            store.responses.pipelines(),
        )


def _open(qtbot: QtBot, project: Path) -> ImportWizard:
    shown = ImportWizard(project)
    qtbot.addWidget(shown)
    shown.show()
    return shown


@pytest.fixture
def wizard(qtbot: QtBot, tmp_path: Path) -> Iterator[ImportWizard]:
    """A shown wizard on a new project; closed (and its workers joined) afterwards."""
    shown = _open(qtbot, tmp_path / "new.goldenlens")
    yield shown
    shown.reject()


def _wait_preview(qtbot: QtBot, page: TablePage) -> None:
    def shown() -> bool:
        return not page.busy and (page.current is not None or bool(page.problems()))

    qtbot.waitUntil(shown, timeout=TIMEOUT)


def _next(qtbot: QtBot, wizard: ImportWizard) -> None:
    """Press Next (it must be enabled) and wait for the new page's worker."""
    button = wizard.button(NEXT)
    assert button.isEnabled()
    button.click()
    page = wizard.currentPage()
    if isinstance(page, TablePage):
        _wait_preview(qtbot, page)
    elif page is wizard.check_page:
        qtbot.waitUntil(lambda: not wizard.check_page.checker.busy, timeout=TIMEOUT)


def _to_check(qtbot: QtBot, wizard: ImportWizard, golden: Path, responses: Path) -> None:
    wizard.set_files(golden, responses)
    for _ in range(3):
        _next(qtbot, wizard)
    assert wizard.currentPage() is wizard.check_page


def _finish(qtbot: QtBot, wizard: ImportWizard) -> ImportResult:
    with qtbot.waitSignal(wizard.imported, timeout=60_000) as blocker:
        assert wizard.button(FINISH).isEnabled()
        wizard.button(FINISH).click()
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=TIMEOUT)
    assert isinstance(blocker.args[0], ImportResult)
    return blocker.args[0]


LONG = {"question_id": "question_id", "pipeline": "pipeline", "response": "response", "contexts": "contexts"}
WIDE = {"question_id": "id", "question": "question"}


@pytest.mark.parametrize(
    ("responses_file", "mapping", "layout", "rows"),
    [
        ("responses.csv", LONG, "long — one row per question", 20),
        ("responses_wide.csv", WIDE, "wide — one column per pipeline: Pipeline1, Pipeline2, Pipeline3", 10),
    ],
)
def test_sample_csvs_import_and_score(
    qtbot: QtBot,
    wizard: ImportWizard,
    tmp_path: Path,
    responses_file: str,
    mapping: dict[str, str],
    layout: str,
    rows: int,
) -> None:
    suffix = "" if responses_file == "responses.csv" else "_wide"  # /tmp/wizard_page<N><suffix>.png
    wizard.set_files(sample_dir() / "golden.csv", sample_dir() / responses_file)
    qtbot.waitUntil(lambda: wizard.button(NEXT).isEnabled())
    wizard.grab().save(f"/tmp/wizard_page1{suffix}.png")

    _next(qtbot, wizard)
    golden = wizard.golden_page
    assert wizard.golden_mapping() == {"id": "id", "question": "question", "answer": "answer", "fact": "fact"}
    model = golden.preview_model
    assert (model.rowCount(), model.columnCount()) == (10, 4)
    assert model.data(model.index(0, 0)) == "q01"
    assert model.headerData(0, Qt.Orientation.Vertical) == "2"  # Excel's row number
    assert model.headerData(1, Qt.Orientation.Horizontal) == "question\n→ question"
    assert golden.sheet_combo.isHidden()  # CSV: no sheets
    wizard.grab().save(f"/tmp/wizard_page2{suffix}.png")

    _next(qtbot, wizard)
    responses = wizard.responses_page
    assert wizard.responses_mapping() == mapping
    assert f"Layout: {layout}" in re.sub("<[^>]+>", "", responses.layout_label.text())
    assert responses.preview_model.rowCount() == rows  # long: the first 20 of 30 rows
    wizard.grab().save(f"/tmp/wizard_page3{suffix}.png")

    _next(qtbot, wizard)
    check = wizard.check_page
    assert "10 questions, 3 pipelines, 30 responses" in check.summary_label.text()
    # Nothing is wrong; a wide file gets one note saying which columns are the pipelines.
    assert [p for p in wizard.problems() if p.severity is not Severity.INFO] == []
    notes = [p.message for p in wizard.problems() if p.severity is Severity.INFO]
    wide = "wide layout: 3 pipeline column(s): 'Pipeline1' (C), 'Pipeline2' (D), 'Pipeline3' (E)."
    assert notes == ([] if layout.startswith("long") else [wide])
    assert wizard.button(FINISH).isEnabled()
    wizard.grab().save(f"/tmp/wizard_page4{suffix}.png")

    result = _finish(qtbot, wizard)
    assert (result.golden_count, result.response_count) == (10, 30)
    assert wizard.result() == QWizard.DialogCode.Accepted
    with ProjectStore.open(tmp_path / "new.goldenlens") as store:
        assert len(store.golden.items()) == 10
        assert store.responses.pipelines() == ["Pipeline1", "Pipeline2", "Pipeline3"]
        assert len(store.responses.all()) == 30
        run = store.runs.latest(LEXICAL_RUN, finished_only=True)
        assert getattr(run, "status", None) == "finished"
        assert len(store.results.scored_keys(run.id)) == 30


def test_one_workbook_with_both_sheets(qtbot: QtBot, wizard: ImportWizard, tmp_path: Path) -> None:
    sheets = {"Responses": _rows("responses.csv"), "Golden": _rows("golden.csv")}
    path = write_xlsx(tmp_path / "both.xlsx", sheets)

    wizard.set_files(path, path)
    _next(qtbot, wizard)
    golden = wizard.golden_page
    combo = golden.sheet_combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["Responses", "Golden"]
    assert not combo.isHidden()
    combo.setCurrentText("Responses")  # the wrong sheet: no question column
    _wait_preview(qtbot, golden)
    assert not golden.isComplete()
    assert not wizard.button(NEXT).isEnabled()
    assert "no question column" in golden.problems_panel.fatal_label.text()
    combo.setCurrentText("Golden")
    _wait_preview(qtbot, golden)
    assert golden.isComplete()
    assert golden.current is not None
    assert golden.current.sheet == "Golden"

    _next(qtbot, wizard)
    wizard.responses_page.sheet_combo.setCurrentText("Responses")
    _wait_preview(qtbot, wizard.responses_page)
    assert wizard.responses_page.current is not None
    assert wizard.responses_page.current.sheet == "Responses"
    _next(qtbot, wizard)
    result = _finish(qtbot, wizard)
    assert (result.golden_count, result.response_count) == (10, 30)


def test_a_chosen_column_missing_from_the_next_sheet_stops_the_wizard(
    qtbot: QtBot, wizard: ImportWizard, tmp_path: Path
) -> None:
    """A column chosen on one sheet and missing from the sheet chosen next was silently dropped."""
    rows = _rows("golden.csv")
    fakt = [["id", "question", "answer", "fact", "Fakt"], *[[*row, row[3]] for row in rows[1:]]]
    path = write_xlsx(tmp_path / "two.xlsx", {"Golden": fakt, "Older": rows})
    wizard.set_files(path, sample_dir() / "responses.csv")
    _next(qtbot, wizard)
    page = wizard.golden_page
    page.field_combos["fact"].setCurrentText("Fakt")
    _wait_preview(qtbot, page)
    assert wizard.golden_mapping()["fact"] == "Fakt"
    assert page.isComplete()

    page.sheet_combo.setCurrentText("Older")
    _wait_preview(qtbot, page)
    assert not page.isComplete()
    assert not wizard.button(NEXT).isEnabled()
    shown = page.problems_panel.fatal_label.text()
    assert "'Fakt' (for fact)" in shown
    assert "its columns are: id, question, answer, fact" in shown
    assert page.field_combos["fact"].currentText() == "Fakt (not in this sheet)"

    page.field_combos["fact"].setCurrentText("fact")  # the analyst picks a column this sheet has
    _wait_preview(qtbot, page)
    assert page.isComplete()
    assert wizard.golden_mapping()["fact"] == "fact"


def test_the_analysts_numbering_is_offered_as_the_question_id(
    qtbot: QtBot, wizard: ImportWizard, tmp_path: Path
) -> None:
    rows = _rows("golden.csv")
    numbered = [["#", *rows[0][1:], "Category"]]
    numbered += [[str(n), *row[1:], "finance"] for n, row in enumerate(rows[1:], start=1)]
    wizard.set_files(write_csv(tmp_path / "numbered.csv", numbered), sample_dir() / "responses_wide.csv")
    _next(qtbot, wizard)
    page = wizard.golden_page
    assert page.field_combos["id"].currentText() == "#"
    assert wizard.golden_mapping()["id"] == "#"
    [note] = [p for p in page.problems() if "numbers the questions" in p.message]
    assert note.severity == Severity.INFO
    assert page.isComplete()
    # The analyst's other column is kept with each question (and exported with it).
    assert page.preview_model.headerData(4, Qt.Orientation.Horizontal) == "Category\n→ kept"


def test_renamed_columns_are_mapped_by_hand(qtbot: QtBot, wizard: ImportWizard, tmp_path: Path) -> None:
    golden_rows = _rows("golden.csv")
    golden_path = write_csv(tmp_path / "golden.csv", [["Ref", "Ask", "Ideal", "Minimal"], *golden_rows[1:]])
    response_rows = _rows("responses.csv")
    renamed = ["Ref", "System", "Output", "Evidence"]
    responses_path = write_csv(tmp_path / "responses.csv", [renamed, *response_rows[1:]])
    wizard.set_files(golden_path, responses_path)
    _next(qtbot, wizard)
    page = wizard.golden_page
    assert not page.isComplete()
    assert not wizard.button(NEXT).isEnabled()
    assert "no question column" in page.problems_panel.fatal_label.text()
    # Chosen quickly one after the other: only the last preview counts, with all four choices.
    for field, column in (("id", "Ref"), ("question", "Ask"), ("answer", "Ideal"), ("fact", "Minimal")):
        page.field_combos[field].setCurrentText(column)
    _wait_preview(qtbot, page)
    assert wizard.golden_mapping() == {"id": "Ref", "question": "Ask", "answer": "Ideal", "fact": "Minimal"}
    assert page.isComplete()
    assert page.preview_model.headerData(2, Qt.Orientation.Horizontal) == "Ideal\n→ ideal answer"

    _next(qtbot, wizard)
    responses = wizard.responses_page
    assert not responses.isComplete()  # no question id column found
    for field, column in (("question_id", "Ref"), ("contexts", "Evidence")):
        responses.field_combos[field].setCurrentText(column)
        _wait_preview(qtbot, responses)
    assert wizard.responses_mapping() == {
        "question_id": "Ref", "pipeline": "System", "response": "Output", "contexts": "Evidence",
    }  # fmt: skip
    _next(qtbot, wizard)
    _finish(qtbot, wizard)
    with ProjectStore.open(tmp_path / "new.goldenlens") as store:
        first = store.golden.items()[0]
        assert (first.id, first.question, first.answer, first.fact) == tuple(golden_rows[1])
        response = store.responses.all()[0]
        assert (response.question_id, response.pipeline, response.response) == tuple(response_rows[1][:3])
        assert response.contexts
        assert response.contexts[0].startswith("Andrew R. Jassy")


@pytest.mark.parametrize(
    ("case_name", "where", "fragment", "row"),
    [
        ("duplicate_ids", "golden", "id 'q01' is used twice", "5"),
        ("no_question_column", "golden", "golden.csv has no question column", ""),
        ("corrupt_xlsx", "golden", "golden.xlsx is not a readable spreadsheet", ""),
        ("nothing_matched", "check", "no row of responses.csv matches a golden question", ""),
    ],
)
def test_bad_inputs_block_the_wizard_and_leave_the_project(
    qtbot: QtBot, tmp_path: Path, scored_project: Path, case_name: str, where: str, fragment: str, row: str
) -> None:
    case = next(c for c in make_bad_inputs(tmp_path / "bad") if c.name == case_name)
    before = _project_state(scored_project)
    wizard = _open(qtbot, scored_project)
    wizard.set_files(case.golden_path, case.responses_path or sample_dir() / "responses.csv")
    _next(qtbot, wizard)
    if where == "golden":
        panel, blocked = wizard.golden_page.problems_panel, wizard.button(NEXT)
    else:
        _next(qtbot, wizard)
        _next(qtbot, wizard)
        panel, blocked = wizard.check_page.problems_panel, wizard.button(FINISH)
        assert "Cannot import" in wizard.check_page.summary_label.text()
        assert any(p.severity == Severity.FATAL and fragment in p.message for p in wizard.problems())
    assert not blocked.isEnabled()
    blocked.click()
    assert wizard.isVisible()
    assert fragment in panel.fatal_label.text()
    assert "What to do" in panel.fatal_label.text()
    shown = panel.view.topLevelItem(0)
    assert shown is not None
    assert (shown.text(0), shown.text(1), shown.text(3)) == ("fatal", case.file, row)
    assert fragment in shown.text(5)
    wizard.reject()
    assert _project_state(scored_project) == before


def test_a_decompression_bomb_blocks_the_wizard_with_the_command_lines_message(
    qtbot: QtBot, tmp_path: Path, scored_project: Path
) -> None:
    from tests.io.hostile_files import write_xlsx_bomb

    before = _project_state(scored_project)
    wizard = _open(qtbot, scored_project)
    wizard.set_files(write_xlsx_bomb(tmp_path / "golden.xlsx"), sample_dir() / "responses.csv")
    _next(qtbot, wizard)
    panel = wizard.golden_page.problems_panel
    assert not wizard.button(NEXT).isEnabled()
    fragment = "cell Sheet1!B2 (and 29 other cells with the same text) holds more than the 32,767 characters"
    assert fragment in panel.fatal_label.text()
    shown = panel.view.topLevelItem(0)
    assert shown is not None
    assert (shown.text(0), shown.text(1), shown.text(3)) == ("fatal", "golden.xlsx", "2")
    assert fragment in shown.text(5)
    wizard.reject()
    assert _project_state(scored_project) == before


def test_files_page_validates_inline_and_takes_drops(wizard: ImportWizard, tmp_path: Path) -> None:
    page = wizard.files_page
    assert not wizard.button(NEXT).isEnabled()
    page.golden_field.edit.setText(str(tmp_path / "missing.xlsx"))
    assert page.golden_field.error_label.isVisible()
    assert "no file" in page.golden_field.error_label.text()
    (tmp_path / "notes.pdf").write_bytes(b"%PDF")
    page.golden_field.edit.setText(str(tmp_path / "notes.pdf"))
    assert "reads .xlsx" in page.golden_field.error_label.text()
    page.golden_field.edit.setText(str(tmp_path))
    assert "folder" in page.golden_field.error_label.text()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(sample_dir() / "golden.csv"))])
    drop = QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)  # fmt: skip
    page.golden_field.dropEvent(drop)
    assert page.golden_field.path() == sample_dir() / "golden.csv"
    assert not page.golden_field.error_label.isVisible()
    assert not wizard.button(NEXT).isEnabled()  # responses still missing
    page.responses_field.set_path(sample_dir() / "responses.csv")
    assert wizard.button(NEXT).isEnabled()


def _big_inputs(folder: Path, copies: int = 300) -> tuple[Path, Path]:
    """The sample repeated ``copies`` times (3,000 questions, 9,000 responses): slow enough to cancel."""
    folder.mkdir(parents=True, exist_ok=True)
    golden, responses = _rows("golden.csv"), _rows("responses.csv")
    golden_out = [golden[0]]
    golden_out += [[f"{r[0]}-{k}", f"{r[1]} ({k})", *r[2:]] for k in range(copies) for r in golden[1:]]
    responses_out = [responses[0]]
    responses_out += [[f"{r[0]}-{k}", *r[1:]] for k in range(copies) for r in responses[1:]]
    return write_csv(folder / "golden.csv", golden_out), write_csv(folder / "responses.csv", responses_out)


def test_cancel_before_the_commit_leaves_the_project_untouched(
    qtbot: QtBot, tmp_path: Path, scored_project: Path
) -> None:
    before = _project_state(scored_project)
    wizard = _open(qtbot, scored_project)
    _to_check(qtbot, wizard, *_big_inputs(tmp_path / "big"))
    wizard.button(FINISH).click()
    assert wizard.check_page.cancel_button.isVisible()
    assert not wizard.button(FINISH).isEnabled()
    wizard.check_page.cancel_button.click()
    qtbot.waitUntil(lambda: not wizard.importer.busy, timeout=TIMEOUT)
    assert wizard.check_page.status_label.text() == CANCELLED_BEFORE_COMMIT
    assert wizard.message_box is not None
    assert wizard.message_box.text() == CANCELLED_BEFORE_COMMIT
    assert wizard.isVisible()
    assert wizard.button(FINISH).isEnabled()
    assert _project_state(scored_project) == before
    wizard.reject()


def test_cancel_while_scoring_keeps_the_import_and_finished_scores(
    qtbot: QtBot, tmp_path: Path, scored_project: Path
) -> None:
    wizard = _open(qtbot, scored_project)
    _to_check(qtbot, wizard, *_big_inputs(tmp_path / "big"))

    def cancel_once_scoring(progress: Progress) -> None:
        if progress.stage == "score" and 0 < progress.done < progress.total:
            wizard.check_page.cancel_button.click()

    wizard.importer.progressed.connect(cancel_once_scoring)
    with qtbot.waitSignal(wizard.imported, timeout=60_000):
        wizard.button(FINISH).click()
    qtbot.waitUntil(lambda: not wizard.importer.busy, timeout=TIMEOUT)
    text = wizard.check_page.status_label.text()
    assert text.startswith("Scoring cancelled. The inputs were imported")
    assert wizard.isVisible()
    assert wizard.button(FINISH).text() == "&Close"
    assert not wizard.button(QWizard.WizardButton.BackButton).isEnabled()  # imported: no way back
    assert not wizard.button(QWizard.WizardButton.CancelButton).isVisible()
    with ProjectStore.open(scored_project) as store:
        assert len(store.golden.items()) == 3000
        run = store.runs.latest(LEXICAL_RUN)
        assert getattr(run, "status", None) == "cancelled"
        scored = len(store.results.scored_keys(run.id))
    assert 0 < scored < 9000
    assert f"the {scored} of 9000 responses" in text
    wizard.button(FINISH).click()
    assert wizard.result() == QWizard.DialogCode.Accepted


def test_closing_during_the_import_cancels_and_waits(qtbot: QtBot, tmp_path: Path) -> None:
    project = tmp_path / "fresh.goldenlens"
    wizard = _open(qtbot, project)
    _to_check(qtbot, wizard, *_big_inputs(tmp_path / "big"))
    wizard.button(FINISH).click()
    wizard.reject()  # cancels and joins the worker before returning
    assert live_worker_threads() == []
    assert not wizard.isVisible()
    assert not project.exists()  # cancelled before the commit: the new project file is removed again


def test_merge_mappings_reconciles_id_and_question_id(tmp_path: Path) -> None:
    golden = write_csv(tmp_path / "g.csv", [["Ref", "Ask", "answer"], ["1", "Q?", "A."]])
    responses = write_csv(tmp_path / "r.csv", [["question_id", "pipeline", "response"], ["1", "P", "A."]])
    golden_preview = preview(golden, mapping={"id": "Ref", "question": "Ask"})
    responses_preview = preview(responses, kind="responses")
    expected = {"answer": "answer", "pipeline": "pipeline", "response": "response"}
    expected |= {"id": "Ref", "question_id": "question_id", "question": "Ask"}
    assert merge_mappings(golden_preview, responses_preview) == expected

    # Each file has both id columns, and each uses the other one: no single mapping can say that.
    clash_golden = write_csv(tmp_path / "cg.csv", [["id", "qid", "question", "answer"], list("1aQA")])
    clash_responses = write_csv(tmp_path / "cr.csv", [["id", "qid", "pipeline", "response"], list("11PA")])
    clash = merge_mappings(
        preview(clash_golden, mapping={"id": "id"}),
        preview(clash_responses, kind="responses", mapping={"question_id": "qid"}),
    )
    assert clash is None


def test_the_wizard_is_freed_without_the_cyclic_gc(qtbot: QtBot, tmp_path: Path) -> None:
    """No Python reference cycle holds the wizard: the cyclic GC can run in a worker thread, and
    a widget it deleted there would crash Qt."""
    gc.disable()
    try:
        wizard = ImportWizard(tmp_path / "p.goldenlens")
        wizard.show()
        _to_check(qtbot, wizard, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        wizard.golden_page.field_combos["notes"].setCurrentIndex(1)  # a connected slot has run
        wizard.reject()
        qtbot.wait(50)
        parts = (wizard, wizard.files_page, wizard.golden_page, wizard.check_page, wizard.importer)
        alive = [weakref.ref(part) for part in parts]
        del wizard, parts
        assert [ref() for ref in alive] == [None] * len(alive)
    finally:
        gc.enable()


def test_header_row_and_hidden_sheets_in_the_wizard(
    qtbot: QtBot, wizard: ImportWizard, tmp_path: Path
) -> None:
    """A title row above the header is skipped (Auto shows where the header is), the header row can be
    set by hand, and a hidden sheet is listed as hidden but never chosen by itself."""
    path = write_xlsx(
        tmp_path / "analyst.xlsx",
        {
            "Golden": [
                ["Q2 golden set, prepared by Finance"],
                [],
                ["id", "question", "answer", "fact"],
                *[list(row) for row in _rows(sample_dir() / "golden.csv")[1:]],
            ],
            "Responses": _rows(sample_dir() / "responses.csv"),
            "Old": [["id", "question", "answer"], ["x", "stale?", "yes"]],
        },
    )
    from openpyxl import load_workbook

    book = load_workbook(path)
    book["Old"].sheet_state = "hidden"
    book.save(path)
    wizard.set_files(path, path)
    qtbot.waitUntil(lambda: wizard.button(NEXT).isEnabled())
    _next(qtbot, wizard)
    golden = wizard.golden_page
    combo = golden.sheet_combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["Golden", "Responses", "Old (hidden)"]
    assert combo.currentText() == "Golden"
    assert golden.header_spin.text() == "Auto"
    assert golden.header_hint.text() == "header on row 3"
    assert golden.preview_model.headerData(0, Qt.Orientation.Vertical) == "4"
    assert golden.preview_model.rowCount() == 10
    # Setting the header row by hand: row 1 (the title) makes a table with one odd column.
    golden.header_spin.setValue(1)
    qtbot.waitUntil(lambda: golden.current is not None and golden.current.header_row == 1)
    assert golden.current.header == ("Q2 golden set, prepared by Finance",)
    golden.header_spin.setValue(0)
    qtbot.waitUntil(lambda: golden.current is not None and golden.current.header_row == 3)
    request_rows = wizard.import_request
    _next(qtbot, wizard)
    _next(qtbot, wizard)
    request = request_rows()
    assert request is not None
    assert request.selection.header_row == 3
    assert request.selection.responses_header_row == 1

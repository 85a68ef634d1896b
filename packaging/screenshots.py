"""Save the README's screenshots from the real app, offscreen, on the bundled sample project.

    .venv/bin/python packaging/screenshots.py [--out resources/screenshots]

Writes main.png (review tab), detail.png (the side-by-side detail pane), wizard.png (the
import wizard's mapping page, on a workbook laid out as analysts make them: title rows above
the header, a "#" column, formatted numbers), summary.png (the summary charts) and
variants.png (the fact-variant dialog on q03, "410 Terry Ave. N." checked: its flip preview
shows Pipeline3 going 0 → 1), versions.png (the golden-set Versions dialog on a copy of the
sample curated by two reviewers) and drafts.png (the Drafts tab: drafts of
resources/sample/source_chunks.csv written by a scripted judge — the screenshot shows the
queue, not a model — one accepted, one rejected, a flagged one selected). With ``--sizes DIR``
it also saves the main window, its Summary tab, the wizard, the variant dialog, the Versions
dialog and the Drafts tab at 1366x768 and 1920x1080 into DIR, to look at both. Settings go to
a temporary folder so the user's own preferences are neither read nor changed.

It also writes advisor.png (the review tab on q06: the advisor pane with its diagnoses and
the review queue's filter by diagnosis open) and the same view as advisor-1366x768.png and
advisor-1920x1080.png, always: the advisor is the view that must fit both screen sizes.

It also writes golden-review.png (the Golden Review tab on q06 after a review of the sample
by a scripted judge — the screenshot shows the tab, not a model — with a reviewer's decisions
and q03 edited since, so stale) and the same view as golden-review-1366x768.png and
golden-review-1920x1080.png. ``--only golden-review`` writes just those three.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from goldenlens.ui.main_window import MainWindow


def _spin(seconds: float) -> None:
    from PySide6.QtWidgets import QApplication

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def _wait(condition: object, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:  # type: ignore[operator]
        _spin(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_out = Path(__file__).resolve().parents[1] / "resources" / "screenshots"
    parser.add_argument("--out", type=Path, default=default_out)
    parser.add_argument("--sizes", type=Path, help="also save 1366x768 and 1920x1080 views into this folder")
    parser.add_argument("--only", choices=["golden-review"], help="write only these screenshots")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    scratch = Path(tempfile.mkdtemp(prefix="goldenlens-shots-"))
    os.environ["GOLDENLENS_CONFIG_DIR"] = str(scratch / "config")
    os.environ["GOLDENLENS_DATA_DIR"] = str(scratch / "data")

    from PySide6.QtCore import QSettings

    from goldenlens.jobs.importing.sample_project import ensure_sample_project
    from goldenlens.ui.app import create_application
    from goldenlens.ui.main_window import MainWindow

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(scratch / "qsettings"))
    create_application([])
    args.out.mkdir(parents=True, exist_ok=True)
    project = ensure_sample_project(scratch / "amazon_q2_2023.goldenlens")

    window = MainWindow()
    window.resize(1680, 980)
    window.show()
    if args.only == "golden-review":
        _only(window, lambda: _golden_review_shots(window, project, args.out), args.out)
        return
    _review_and_summary_shots(window, project, args.out)

    _variant_shot(window, args.out)

    wizard = _wizard_on_analyst_workbook(window, scratch, args.out)
    if args.sizes is not None:
        _save_sizes(args.sizes, window, wizard)
    wizard.reject()
    _versions_dialog(window, _curated_sample(scratch / "curated.goldenlens"), args.out, args.sizes)
    _advisor_shots(window, args.out)
    _golden_review_shots(window, ensure_sample_project(scratch / "reviewed.goldenlens"), args.out)
    from screenshots_labels import labels_shots

    labels_shots(window, project, scratch, args.out, _spin)
    _drafts_shot(window, args.out, args.sizes)
    window.close()
    print(f"screenshots written to {args.out}")


def _review_and_summary_shots(window: MainWindow, project: Path, out: Path) -> None:
    """main.png (the review tab on q02), detail.png (q10's detail), summary.png."""
    window.projects.open_project(project)
    _wait(lambda: window.grid.model().rowCount() == 10)
    window.grid.select_question("q02")
    _spin(0.5)
    window.grab().save(str(out / "main.png"))

    window.grid.select_question("q10")
    _spin(0.3)
    window.detail.resize(1400, 820)
    window.detail.grab().save(str(out / "detail.png"))

    window.tabs.setCurrentWidget(window.summary)
    _wait(lambda: bool(window.summary.intervals()))  # the error bars' bootstrap is done
    _spin(0.5)
    window.grab().save(str(out / "summary.png"))
    window.tabs.setCurrentIndex(0)  # the review tab


#: What the scripted judge drafts for chunks of resources/sample/source_chunks.csv (question,
#: fact, answer): realistic drafts, two of them botched the way small models botch them.
_DRAFTED = {
    "c_sales": (
        "How much were Amazon's total net sales in the second quarter of 2023?",
        "$134,383 million",
        "Amazon's total net sales were $134,383 million in the second quarter of 2023.",
    ),
    "c_fx": (
        "By how much did foreign exchange rates reduce International segment net sales in Q2 2023?",
        "$180 million",
        "Foreign exchange rates reduced International segment net sales by $180 million.",
    ),
    "c_opinc": (
        "What was Amazon's operating income for the six months ended June 30, 2023?",
        "$12.5 billion",
        "Operating income was $12.5 billion for the six months ended June 30, 2023.",
    ),
    "c_acq": (
        "What did Amazon pay to acquire One Medical?",
        "approximately $3.5 billion",
        "On February 22, 2023, Amazon acquired 1Life Healthcare, Inc., the company behind One Medical, "
        "for cash consideration of approximately $3.5 billion, net of cash acquired, a transaction that "
        "considerably expanded its primary care and healthcare services business in the United States.",
    ),
    "c_cash": (
        "How much cash, cash equivalents and restricted cash did Amazon hold at June 30, 2023?",
        "$50,067 million",
        "Amazon held $50,067 million in cash, cash equivalents and restricted cash.",
    ),
    "c_aws": (
        "What were AWS segment net sales in the second quarter of 2023?",
        "$22,140 million",
        "AWS segment net sales were $22,140 million in the second quarter of 2023.",
    ),
    "c_rivian": (
        "How many Rivian Class A shares did Amazon hold as of June 30, 2023?",
        "158 million shares",
        "Amazon held 158 million shares of Rivian's Class A common stock.",
    ),
}


class _ScriptedJudge:
    """A judge that answers each chunk with its entry of :data:`_DRAFTED` (no model runs)."""

    model_name = "scripted-judge"
    model_sha256 = "scripted:" + "0" * 55

    def __init__(self, texts: dict[str, str]) -> None:
        self._by_text = texts  # chunk text -> chunk id

    def complete_json(self, messages: object, schema: object, **_options: object) -> object:
        import json

        from goldenlens.judge.engines.protocol import make_reply

        text = messages[-1]["content"].removeprefix("Passage:\n")  # type: ignore[index]
        question, fact, answer = _DRAFTED[self._by_text[text]]
        reply = json.dumps({"question": question, "fact": fact, "answer": answer})
        return make_reply(reply, "stop", schema, prompt_tokens=180, completion_tokens=60)  # type: ignore[arg-type]


def _make_drafts(window: object) -> None:
    """Drafts of the sample's source chunks through File ▸ Import Sources and Draft's own
    job, with the scripted judge; the first accepted, the cover-page chunk rejected."""
    import csv

    from goldenlens.io.importing.sample import sample_dir
    from goldenlens.ui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    source = sample_dir() / "source_chunks.csv"
    with source.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["chunk_id"] in _DRAFTED]
    chosen = Path(window.projects.session.path).parent / "10q_q2_2023_chunks.csv"  # type: ignore[union-attr]
    with chosen.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, ["chunk_id", "text"])
        writer.writeheader()
        writer.writerows(rows)
    judge = _ScriptedJudge({row["text"]: row["chunk_id"] for row in rows})
    window.drafting.engine_factory = lambda: judge  # type: ignore[assignment,return-value]
    window.drafting.draft([chosen], limit=None)
    _wait(lambda: window.drafting.last_result is not None)
    pane = window.drafts
    _wait(lambda: pane.model.rowCount() == len(rows))
    pane.select_draft(1)
    pane.accept_current()
    pane.select_draft(2)
    pane.form.note_edit.setText("duplicates q05 of the golden set")
    pane.reject_current()
    pane.select_draft(
        4
    )  # the acquisition: an answer over the guardrail (3, operating income: a reworded fact)
    _spin(0.3)


def _variant_shot(window: object, out: Path) -> None:
    """variants.png: the variant dialog on q03."""
    dialog = _variant_dialog(window, "q03")
    dialog.resize(1180, 620)  # the README shows the dialog as wide as the page, not the window's size
    _spin(0.3)
    dialog.grab().save(str(out / "variants.png"))
    dialog.reject()


def _drafts_shot(window: object, out: Path, sizes: Path | None) -> None:
    """drafts.png (and, with ``sizes``, the two screen sizes): the Drafts tab. Last, since
    accepting a draft adds a golden item to the project the other screenshots show."""
    _make_drafts(window)
    window.tabs.setCurrentWidget(window.drafts)  # type: ignore[attr-defined]
    window.resize(1680, 980)  # type: ignore[attr-defined]
    _spin(0.4)
    window.grab().save(str(out / "drafts.png"))  # type: ignore[attr-defined]
    for width, height in ((1366, 768), (1920, 1080)) if sizes is not None else ():
        window.resize(width, height)  # type: ignore[attr-defined]
        _spin(0.4)
        window.grab().save(str(sizes / f"drafts-{width}x{height}.png"))  # type: ignore[attr-defined,operator]
    window.tabs.setCurrentIndex(0)  # type: ignore[attr-defined]


def _wizard_on_analyst_workbook(window: object, scratch: Path, out: Path) -> object:
    """The import wizard's golden-set page on an analyst's workbook, saved as wizard.png."""
    from PySide6.QtWidgets import QWidget, QWizard

    from goldenlens.io.importing.sample import sample_dir
    from goldenlens.ui.importer.import_pages import TablePage
    from goldenlens.ui.importer.import_wizard import ImportWizard

    assert isinstance(window, QWidget)
    workbook = _analyst_workbook(scratch / "analyst.xlsx", sample_dir())
    wizard = ImportWizard(scratch / "wizard.goldenlens", window)
    wizard.set_files(workbook, workbook)
    wizard.show()
    _wait(lambda: wizard.button(QWizard.WizardButton.NextButton).isEnabled())
    wizard.button(QWizard.WizardButton.NextButton).click()
    page = wizard.currentPage()
    if isinstance(page, TablePage):
        _wait(lambda: not page.busy and page.current is not None)
    _spin(0.3)
    wizard.grab().save(str(out / "wizard.png"))
    return wizard


def _variant_dialog(window: object, question_id: str, check: str = "410 Terry Ave. N.") -> object:
    """The fact-variant dialog opened from the detail pane's button, ``check`` checked."""
    from goldenlens.ui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.grid.select_question(question_id)
    _spin(0.3)
    window.detail.variants_button.click()
    dialog = window.review.variant_dialog
    assert dialog is not None
    _wait(lambda: dialog.suggestions.rowCount() > 0)
    if check in [p.variant.text for p in dialog.suggestions.previews()]:
        dialog.check(check)
    _spin(0.4)
    return dialog


def _over_window(window: object, dialog: object) -> object:
    """The window with the dialog drawn where a window manager centres it (offscreen, a
    dialog is its own top-level surface and a grab of the window leaves it out)."""
    from PySide6.QtGui import QPainter
    from PySide6.QtWidgets import QWidget

    assert isinstance(window, QWidget)
    assert isinstance(dialog, QWidget)
    shot = window.grab()
    painter = QPainter(shot)
    inner = dialog.grab()
    x = max(0, (shot.width() - inner.width()) // 2)
    y = max(0, (shot.height() - inner.height()) // 2)
    painter.fillRect(x - 1, y - 1, inner.width() + 2, inner.height() + 2, "#5f6368")  # the frame
    painter.drawPixmap(x, y, inner)
    painter.end()
    return shot


def _save_sizes(folder: Path, window: object, wizard: object) -> None:
    """The main window, its Summary tab, the wizard and the variant dialog at the two screen
    sizes the README promises to fit."""
    from PySide6.QtGui import QPixmap
    from PySide6.QtWidgets import QDialog, QWidget

    folder.mkdir(parents=True, exist_ok=True)
    for width, height in ((1366, 768), (1920, 1080)):
        for name, widget in (("main", window), ("summary", window), ("wizard", wizard)):
            assert isinstance(widget, QWidget)
            if name == "wizard":
                widget.resize(min(width, 1100), height - 60)
            else:
                widget.resize(width, height)
            tabs = window.tabs  # type: ignore[attr-defined]
            tabs.setCurrentWidget(window.summary if name == "summary" else tabs.widget(0))  # type: ignore[attr-defined]
            _spin(0.4)
            widget.grab().save(str(folder / f"{name}-{width}x{height}.png"))
        dialog = _variant_dialog(window, "q03")  # sized from the window it opens over
        shot = _over_window(window, dialog)
        assert isinstance(shot, QPixmap)
        shot.save(str(folder / f"variants-{width}x{height}.png"))
        assert isinstance(dialog, QDialog)
        dialog.reject()


def _curated_sample(path: Path) -> Path:
    """The sample with a few versions: imported (named), Ana's session, a run, Ben's session."""
    from dataclasses import replace

    from goldenlens.jobs.curation import edits as curation
    from goldenlens.jobs.curation.golden_versions import name_version
    from goldenlens.jobs.importing.sample_project import ensure_sample_project
    from goldenlens.jobs.scoring.score_job import score_project
    from goldenlens.store.project import ProjectStore

    ensure_sample_project(path)
    with ProjectStore.open(path) as store:
        name_version(store, "as imported")

        def edit(question_id: str, reviewer: str, **fields: str) -> None:
            item = store.golden.item(question_id)
            assert item is not None
            curation.edit_golden_item(store, replace(item, **fields), reviewer=reviewer)

        edit("q03", "Ana Lima", fact="410 Terry Avenue North<OR>410 Terry Ave. N.")
        edit(
            "q06",
            "Ana Lima",
            question="What key challenge did Amazon name for its AWS segment in the second quarter of 2023?",
            notes="Reframed: the old question had no single answer.",
        )
        edit("q10", "Ana Lima", fact="10,317,750,796<OR>10317750796<OR>10,317.75 million")
        score_project(store)
        edit("q02", "Ben Okafor", notes="Checked against the 10-Q, page 4.")
    return path


def _versions_dialog(window: object, project: Path, out: Path, sizes: Path | None) -> None:
    """The Versions dialog on Ana's session (what v2 changed), saved as versions.png."""
    from goldenlens.ui.history.versions_dialog import VersionsDialog
    from goldenlens.ui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.projects.open_project(project)
    _spin(0.5)
    window.show_versions()
    dialog = window.findChild(VersionsDialog)
    assert isinstance(dialog, VersionsDialog)
    dialog.table.selectRow(dialog.model.row_of(2))
    _spin(0.4)
    dialog.grab().save(str(out / "versions.png"))
    if sizes is not None:
        for width, height in ((1366, 768), (1920, 1080)):
            dialog.resize(min(width - 80, 1500), height - 80)
            _spin(0.4)
            dialog.grab().save(str(sizes / f"versions-{width}x{height}.png"))
    dialog.close()


def _advisor_shots(window: object, out: Path) -> None:
    """The review tab on q06 with the queue's diagnosis filter open: advisor.png at the
    default size, then at both screen sizes. A popup is its own window, so it is painted onto
    the window's picture where it sits."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QPainter

    from goldenlens.ui.main_window import MainWindow
    from goldenlens.ui.review.undo_commands import push_review

    assert isinstance(window, MainWindow)
    session = window.projects.session
    assert session is not None
    for question_id in ("q01", "q04", "q09"):  # the progress bar as a reviewer sees it under way
        push_review(window.undo_stack, session, question_id, "accepted")
    window.tabs.setCurrentIndex(0)
    _wait(lambda: len(window.advisor.index) > 0 and window.queue.progress_text().startswith("3 of"))
    for name, size in (
        ("advisor", (1680, 980)),
        ("advisor-1366x768", (1366, 768)),
        ("advisor-1920x1080", (1920, 1080)),
    ):
        window.resize(*size)
        window.grid.select_question("q06")
        window.statusBar().clearMessage()
        _spin(0.5)
        combo = window.queue.filter
        combo.showPopup()
        _spin(0.4)
        image = window.grab().toImage()
        popup = combo.view().window()
        corner = popup.mapToGlobal(QPoint(0, 0)) - window.mapToGlobal(QPoint(0, 0))
        painter = QPainter(image)
        painter.drawPixmap(corner, popup.grab())
        painter.end()
        combo.hidePopup()
        image.save(str(out / f"{name}.png"))


def _analyst_workbook(path: Path, sample: Path) -> Path:
    """The sample as an analyst's workbook: title rows, a "#" column, a formatted number."""
    import csv

    from openpyxl import Workbook

    book = Workbook()
    golden = book.active
    assert golden is not None
    golden.title = "Golden set"
    golden.append(["Amazon 10-Q, Q2 2023 - golden set v3"])
    golden.append(["Owner: finance analytics; reviewed 2 Aug 2023"])
    golden.append([])
    with (sample / "golden.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    golden.append(["#", *rows[0]])
    for number, row in enumerate(rows[1:], start=1):
        golden.append([number, *row])
    margin = ["q11", "What was the operating margin?", "The operating margin was 5.7%.", 0.057]
    golden.append([len(rows), *margin])
    golden.cell(golden.max_row, 5).number_format = "0.0%"
    responses = book.create_sheet("Responses")
    with (sample / "responses_wide.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.reader(handle):
            responses.append(row)
    book.save(path)
    return path


def _only(window: object, shoot: object, out: Path) -> None:
    """Take just the screenshots ``shoot`` takes (``--only``), then close the window."""
    from PySide6.QtWidgets import QWidget

    assert isinstance(window, QWidget)
    shoot()  # type: ignore[operator]
    window.close()
    print(f"screenshots written to {out}")


#: What the scripted judge says about the sample: (criterion, phrase of the row) -> (verdict,
#: reason); every other call passes with a short reason. Realistic verdicts, not a model's.
_REVIEW_SCRIPT = {
    ("unambiguous_question", "Who is Andrew"): (
        "unsure",
        "'Who is' could be answered with his title or with his career; the golden answer picks the title.",
    ),
    ("unambiguous_question", "principal office"): (
        "fail",
        "The question does not say a street address is wanted; a city alone would also answer it.",
    ),
    ("unambiguous_question", "a key challenge"): (
        "fail",
        "It asks for 'a key challenge': any of several challenges in the filing would be a correct answer.",
    ),
    ("answer_consistent_with_fact", "134183 million"): (
        "fail",
        "The fact's alternative 134183 million is not the answer's 134.4 billion (134,383 million).",
    ),
    ("fact_minimal", "Chief Executive Officer of Amazon"): (
        "unsure",
        "Three titles joined by OR; the shortest, 'CEO of Amazon', may be all that is needed.",
    ),
}


_PASS_REASONS = {
    "unambiguous_question": "Only one value answers the question.",
    "answer_consistent_with_fact": "The answer states the fact's value.",
    "fact_minimal": "The fact is just the key value.",
    "llm_agnostic_wording": "A plain factual statement.",
}


class _ScriptedReviewer:
    """A judge that answers each golden-review call from :data:`_REVIEW_SCRIPT` (no model runs)."""

    model_name = "scripted-judge"
    model_sha256 = "scripted:" + "0" * 55

    def complete_json(self, messages: object, schema: object, **_options: object) -> object:
        import json

        from goldenlens.core.golden.criteria import JUDGED_CRITERIA
        from goldenlens.judge.engines.protocol import make_reply
        from goldenlens.judge.golden_review import CriterionJudge

        first_example = messages[1]["content"]  # type: ignore[index]
        criterion = next(c for c in JUDGED_CRITERIA if CriterionJudge(c).examples()[0][0] == first_example)
        row = messages[-1]["content"]  # type: ignore[index]
        verdict, reason = next(
            (v for (name, phrase), v in _REVIEW_SCRIPT.items() if name == criterion.value and phrase in row),
            ("pass", _PASS_REASONS[criterion.value]),
        )
        reply = json.dumps({"verdict": verdict, "reason": reason})
        return make_reply(reply, "stop", schema, prompt_tokens=220, completion_tokens=30)  # type: ignore[arg-type]


#: The reviewer's decisions on the scripted review: (question, criterion, decision, own verdict).
_DECISIONS = (
    ("q01", "unambiguous_question", "accepted", "pass"),
    ("q01", "fact_minimal", "accepted", "pass"),
    ("q02", "answer_consistent_with_fact", "accepted", ""),
    ("q03", "unambiguous_question", "accepted", ""),
    ("q04", "answer_consistent_with_fact", "accepted", ""),
    ("q05", "fact_minimal", "dismissed", ""),
    ("q06", "unambiguous_question", "accepted", ""),
    ("q07", "llm_agnostic_wording", "accepted", ""),
    ("q09", "unambiguous_question", "accepted", ""),
    ("q10", "fact_minimal", "accepted", ""),
)


def _golden_review_shots(window: object, project: Path, out: Path) -> None:
    """The Golden Review tab on q06 after a scripted review of ``project`` (the sample), with
    the reviewer's decisions and q03's fact edited since: golden-review.png at the default
    size, then at both screen sizes."""
    from dataclasses import replace

    from goldenlens.jobs.curation import edits as curation
    from goldenlens.ui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.projects.open_project(project)
    _wait(lambda: window.grid.model().rowCount() == 10)
    session = window.projects.session
    assert session is not None
    session.set_preferences(replace(session.preferences, reviewer="Ana Lima"))
    controller = window.golden_review
    controller.engine_factory = _ScriptedReviewer  # type: ignore[assignment]
    controller.review()
    _wait(lambda: controller.last_run_id is not None)
    for question_id, criterion, decision, own in _DECISIONS:
        assert controller.decide(question_id, criterion, decision, own), (question_id, criterion)
    item = session.project.golden_item("q03")
    assert item is not None
    curation.edit_golden_item(
        session.handle,
        replace(item, fact="410 Terry Avenue North<OR>410 Terry Ave. N."),
        reviewer="Ana Lima",
    )
    session.notify_question("q03")
    window.tabs.setCurrentWidget(window.golden_review_pane)
    for name, size in (
        ("golden-review", (1680, 980)),
        ("golden-review-1366x768", (1366, 768)),
        ("golden-review-1920x1080", (1920, 1080)),
    ):
        window.resize(*size)
        window.grid.select_question("q06")
        window.statusBar().clearMessage()
        _spin(0.5)
        window.grab().save(str(out / f"{name}.png"))
    window.tabs.setCurrentIndex(0)


if __name__ == "__main__":
    main()

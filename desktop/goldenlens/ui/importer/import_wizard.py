"""The import wizard: files → golden sheet and columns → responses sheet and layout → check,
then Import: save into the project and score, all file and database work on worker threads.

The check page reads both files completely with the analyst's choices (exactly what the import
will read) and lists every problem. Import then runs :func:`run_import` in a worker that opens
its own :class:`ProjectStore`. The import is one transaction, so cancelling or failing before
it commits leaves the project untouched; scoring commits per batch and resumes later.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from goldenlens.core.input_selection import InputSelection
from goldenlens.core.inputs import Loaded
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.view.wording import plural
from goldenlens.io.importing.input_files import load_inputs
from goldenlens.jobs.importing.import_and_score import import_and_score
from goldenlens.jobs.importing.import_job import ImportResult
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn
from goldenlens.ui.importer.import_pages import FilesPage, TablePage
from goldenlens.ui.importer.preview_model import merge_mappings
from goldenlens.ui.importer.problems_panel import ProblemsPanel, problems_of, severity_counts
from goldenlens.ui.workers import LatestJobRunner

CANCELLED_BEFORE_COMMIT = "Import cancelled; the project was not changed."


@dataclass(frozen=True)
class ImportRequest:
    """What the check reads and the import imports: the two files, and how to read them (the
    sheets, one FIELD→COLUMN map, and the header rows the previews showed, detected or chosen,
    so the import reads the same)."""

    golden: Path
    responses: Path
    selection: InputSelection


class ImportCommitted(Exception):  # noqa: N818 - it reports a state, not an error
    """Raised by :func:`run_import` instead of returning once the import has committed but the
    job was cancelled or scoring failed (the runner would drop a cancelled job's result).

    ``scoring_error`` is ``'cancelled'``, the scoring error's text, or ``None`` when scoring
    had finished; ``scored`` counts the responses scored so far.
    """

    def __init__(self, result: ImportResult, scored: int, scoring_error: str | None) -> None:
        super().__init__(scoring_error or "cancelled after the import")
        self.result, self.scored, self.scoring_error = result, scored, scoring_error


def run_import(
    project_path: Path, request: ImportRequest, progress: ProgressFn, cancel: CancelToken
) -> ImportResult:
    """The import job (worker thread): open the store here, import, score, close.

    Raises :class:`Cancelled` only before the import commits (a project file this job created
    is then removed again, so the project is exactly as before), :class:`ImportCommitted` after.
    """
    cancel.raise_if_cancelled()
    existed = project_path.exists()
    try:
        result, scored, error = _import_and_score(project_path, request, progress, cancel)
    except BaseException:
        if not existed:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{project_path}{suffix}").unlink(missing_ok=True)
        raise
    if error is not None or cancel.cancelled:
        raise ImportCommitted(result, scored, error)
    return result


def _import_and_score(
    project_path: Path, request: ImportRequest, progress: ProgressFn, cancel: CancelToken
) -> tuple[ImportResult, int, str | None]:
    # The same workflow as ``goldenlens score``; a scoring failure is reported, not raised,
    # so the committed import is kept.
    done = import_and_score(
        project_path,
        request.golden,
        request.responses,
        selection=request.selection,
        progress=progress,
        cancel=cancel,
        report_scoring_errors=True,
    )
    return done.imported, done.scored, done.scoring_error


class CheckPage(QWizardPage):
    """Page 4: read both files completely with the chosen sheets and columns, list every
    problem; the progress of the import started by Finish is shown here too."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle("Check before importing")
        self.setSubTitle("Both files are read completely, exactly as the import will read them.")
        self.request: ImportRequest | None = None
        self.loaded: Loaded | None = None
        self.importing = False
        self.checker = LatestJobRunner(self, name="check")
        self.checker.succeeded.connect(self._on_checked)
        self.checker.failed.connect(self._on_check_failed)
        self.checker.cancelled.connect(self._on_check_cancelled)
        self.checker.busy_changed.connect(self._on_busy)
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.again_button = QPushButton("Check again")
        self.again_button.setToolTip("Read both files again, for example after fixing them.")
        self.again_button.clicked.connect(self.run_check)
        self.problems_panel = ProblemsPanel()
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.progress_bar = QProgressBar()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        top, bottom, column = QHBoxLayout(), QHBoxLayout(), QVBoxLayout(self)
        top.addWidget(self.summary_label, 1)
        top.addWidget(self.again_button)
        bottom.addWidget(self.progress_bar, 1)
        bottom.addWidget(self.cancel_button)
        column.addLayout(top)
        column.addWidget(self.problems_panel, 1)
        column.addWidget(self.status_label)
        column.addLayout(bottom)

    def initializePage(self) -> None:
        """Check whenever the page is entered: the choices may have changed."""
        self.run_check()

    def problems(self) -> list[Problem]:
        """Every problem shown (golden set and responses)."""
        return self.problems_panel.problems()

    def isComplete(self) -> bool:
        """Checked without a fatal problem, and no import running."""
        return self.loaded is not None and not self.checker.busy and not self.importing

    def run_check(self) -> None:
        """Read both files in a worker; a busy bar and Cancel show meanwhile."""
        self.loaded = None
        self.problems_panel.set_problems(())
        # The wizard is found through Qt, not kept in an attribute: a Python reference cycle
        # would leave the wizard to the cyclic GC, which may run (and delete widgets) in a worker.
        wizard = self.wizard()
        request = self.request = wizard.import_request() if isinstance(wizard, ImportWizard) else None
        if request is None:
            clash = Problem(
                "the column choices",
                "a column chosen in one file is the column the other "
                "file uses for the same field, so both cannot be read at once.",
                Severity.FATAL,
            )
            self._show_fatal((clash,), "rename that column in one of the files, then press Check again.")
            return

        def job(_progress: ProgressFn, cancel: CancelToken) -> Loaded:
            loaded = load_inputs(request.golden, request.responses, selection=request.selection)
            cancel.raise_if_cancelled()
            return loaded

        self.summary_label.setText("Checking…")
        self.start_job(f"Reading {request.golden.name} and {request.responses.name}…")
        self.checker.request(job)

    def _on_busy(self, busy: bool) -> None:
        self.again_button.setEnabled(not busy and not self.importing)
        self.completeChanged.emit()

    # -- the job area (check, then import) ------------------------------------------------

    def start_job(self, text: str) -> None:
        """Show a job starting: busy bar until its first progress, Cancel enabled."""
        self.status_label.setText(text)
        self.progress_bar.setRange(0, 0)
        for widget in (self.progress_bar, self.cancel_button):
            widget.show()
        self.cancel_button.setText("Cancel import" if self.importing else "Cancel check")
        self.cancel_button.setEnabled(True)

    def show_progress(self, progress: Progress) -> None:
        """Show the import's stage and counts."""
        scoring = progress.stage == "score"
        step = "Step 2 of 2, scoring" if scoring else "Step 1 of 2, importing"
        counted = f": {progress.done} of {progress.total}" if scoring else ""
        self.status_label.setText(f"{step} — {progress.message}{counted}")
        self.progress_bar.setRange(0, max(progress.total, 1))
        self.progress_bar.setValue(progress.done)

    def finish_job(self, text: str) -> None:
        """Hide the bar and Cancel; leave ``text``."""
        self.status_label.setText(text)
        self.progress_bar.hide()
        self.cancel_button.hide()

    def _on_cancel_clicked(self) -> None:
        self.cancel_button.setEnabled(False)
        self.status_label.setText("Cancelling…")
        wizard = self.wizard()
        if self.importing and isinstance(wizard, ImportWizard):
            wizard.importer.cancel()
        else:
            self.checker.cancel()

    # -- check results ----------------------------------------------------------------------

    def _on_checked(self, loaded: object) -> None:
        if not isinstance(loaded, Loaded):
            return
        self.loaded = loaded
        responses = loaded.responses.responses if loaded.responses else ()
        pipelines = loaded.responses.pipelines if loaded.responses else ()
        counts = (
            plural(len(loaded.golden.items), "question"),
            plural(len(pipelines), "pipeline"),
            plural(len(responses), "response"),
        )
        self.summary_label.setText(f"<b>{', '.join(counts)}</b>; {severity_counts(loaded.problems)}.")
        self.problems_panel.set_problems(loaded.problems)
        self.finish_job("Ready: press Import to save these inputs into the project and score them.")

    def _on_check_failed(self, error: object) -> None:
        self._show_fatal(problems_of(error, "the inputs"))

    def _on_check_cancelled(self) -> None:
        self.summary_label.setText("The check was cancelled.")
        self.finish_job("Press Check again to read the files.")

    def _show_fatal(self, problems: tuple[Problem, ...], advice: str | None = None) -> None:
        self.problems_panel.set_problems(problems, advice)
        self.summary_label.setText(f"<b>Cannot import</b>: {severity_counts(problems)}.")
        self.finish_job("Nothing was imported.")
        self.completeChanged.emit()


class ImportWizard(QWizard):
    """Import a golden set and pipeline responses into the project at ``project_path``.

    Emits ``imported(ImportResult)`` once the inputs are saved, then closes — unless scoring
    was cancelled or failed, when it stays open to say so. The pages are ``files_page``,
    ``golden_page``, ``responses_page`` and ``check_page``; ``importer`` runs the import.
    ``replaces`` says the project already holds a golden set, which the import replaces.
    """

    imported = Signal(object)

    def __init__(
        self,
        project_path: Path,
        parent: QWidget | None = None,
        *,
        golden: Path | None = None,
        responses: Path | None = None,
        replaces: bool = False,
    ) -> None:
        super().__init__(parent)
        self.project_path = Path(project_path)
        self.setWindowTitle("Import golden set and responses")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setButtonText(QWizard.WizardButton.FinishButton, "&Import")
        self.files_page = FilesPage(self.project_path, replaces=replaces)
        self.golden_page = TablePage("golden", self.files_page)
        self.responses_page = TablePage("responses", self.files_page)
        self.check_page = CheckPage()
        for page in (self.files_page, self.golden_page, self.responses_page, self.check_page):
            self.addPage(page)
        self.importer = LatestJobRunner(self, name="import")
        self.importer.progressed.connect(self._on_import_progress)
        self.importer.succeeded.connect(self._on_imported)
        self.importer.failed.connect(self._on_import_failed)
        self.importer.cancelled.connect(self._on_import_cancelled)
        self.import_result: ImportResult | None = None
        self.message_box: QMessageBox | None = None
        self.resize(1000, 720)
        if golden is not None or responses is not None:
            self.set_files(golden, responses)

    def set_files(self, golden: Path | None, responses: Path | None) -> None:
        """Fill the files page, as if the analyst had chosen them."""
        self.files_page.set_files(golden, responses)

    def golden_mapping(self) -> dict[str, str]:
        """The golden set's ``{field: column}`` as its page shows it."""
        return self.golden_page.mapping()

    def responses_mapping(self) -> dict[str, str]:
        """The responses' ``{field: column}`` as their page shows it."""
        return self.responses_page.mapping()

    def problems(self) -> list[Problem]:
        """The problems shown on the check page."""
        return self.check_page.problems()

    def import_request(self) -> ImportRequest | None:
        """Files, sheets and the merged mapping; ``None`` when the two mappings clash."""
        golden, responses = self.golden_page.current, self.responses_page.current
        files = self.files_page
        golden_path, responses_path = files.golden_field.path(), files.responses_field.path()
        if golden is None or responses is None or golden_path is None or responses_path is None:
            return None
        mapping = merge_mappings(golden, responses)
        if mapping is None:
            return None
        how = InputSelection(golden.sheet, responses.sheet, mapping, golden.header_row, responses.header_row)
        return ImportRequest(golden_path, responses_path, how)

    def accept(self) -> None:
        """Finish: start the import (the wizard closes when it has succeeded)."""
        request = self.check_page.request
        if self.import_result is not None:
            super().accept()
        elif not self.importer.busy and request is not None and self.check_page.isComplete():
            project = self.project_path
            self._set_importing(True)
            self.check_page.start_job(f"Importing into {project.name}…")
            self.importer.request(lambda progress, cancel: run_import(project, request, progress, cancel))

    def done(self, result: int) -> None:
        """Closing, however it happens: cancel every job and wait, so no thread outlives us."""
        pages = (self.check_page.checker, self.golden_page.loader, self.responses_page.loader)
        for runner in (self.importer, *pages):
            runner.shutdown()
        super().done(result)

    def _set_importing(self, importing: bool) -> None:
        self.check_page.importing = importing
        self.check_page.completeChanged.emit()
        # Once imported there is no going back; set after completeChanged, which enables Back.
        locked = importing or self.import_result is not None
        self.check_page.again_button.setEnabled(not locked)
        self.button(QWizard.WizardButton.BackButton).setEnabled(not locked)

    def _on_import_progress(self, progress: object) -> None:
        if isinstance(progress, Progress):
            self.check_page.show_progress(progress)

    def _on_imported(self, result: object) -> None:
        if isinstance(result, ImportResult):
            self.import_result = result
            self.imported.emit(result)
            self.check_page.finish_job("Imported and scored.")
            super().accept()

    def _on_committed(self, stopped: ImportCommitted) -> None:
        if stopped.scoring_error is None:  # cancelled just after scoring finished
            self._on_imported(stopped.result)
            return
        self.import_result = stopped.result
        self.imported.emit(stopped.result)
        if stopped.scoring_error == "cancelled":
            text = (
                f"Scoring cancelled. The inputs were imported; the {stopped.scored} of "
                f"{stopped.result.response_count} responses scored so far are kept, and scoring "
                "resumes where it stopped the next time you score."
            )
        else:
            text = f"The inputs were imported, but scoring failed: {stopped.scoring_error}"
        self.setButtonText(QWizard.WizardButton.FinishButton, "&Close")
        self.setOption(QWizard.WizardOption.NoCancelButton, True)
        self._set_importing(False)
        self.check_page.finish_job(text)
        self._tell(QMessageBox.Icon.Information, "Scoring stopped", text)

    def _on_import_failed(self, error: object) -> None:
        if isinstance(error, ImportCommitted):
            self._on_committed(error)
            return
        self._set_importing(False)
        where = error.problem.format() if isinstance(error, InputError) else str(error)
        self.check_page.finish_job("The import failed; the project was not changed.")
        self._tell(QMessageBox.Icon.Critical, "Import failed", f"{where}\n\nThe project was not changed.")

    def _on_import_cancelled(self) -> None:
        self._set_importing(False)
        self.check_page.finish_job(CANCELLED_BEFORE_COMMIT)
        self._tell(QMessageBox.Icon.Information, "Import cancelled", CANCELLED_BEFORE_COMMIT)

    def _tell(self, icon: QMessageBox.Icon, title: str, text: str) -> None:
        """A window-modal message that leaves the event loop running (no nested exec)."""
        self.message_box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self)
        self.message_box.open()

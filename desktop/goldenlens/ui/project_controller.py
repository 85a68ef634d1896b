"""New / Open / Recent / Sample / Import / Close: the project's life cycle in the main window."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from goldenlens.core.errors import StoreError
from goldenlens.core.project_handle import PROJECT_SUFFIX
from goldenlens.jobs.importing.sample_project import default_sample_path, ensure_sample_project
from goldenlens.jobs.progress import CancelToken, ProgressFn
from goldenlens.jobs.project_access import on_project_at
from goldenlens.jobs.scoring.pending import finish_scoring, scores_wait
from goldenlens.ui.dialog_folders import PROJECT_FOLDER, remember_folder, start_folder
from goldenlens.ui.errors import show_error
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.widgets.run_panel import RunPanel

PROJECT_FILTER = f"GoldenLens projects (*{PROJECT_SUFFIX})"
SPREADSHEET_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv", ".txt")


class ProjectController(QObject):
    """Owns the open :class:`ProjectSession` and the File-menu actions that change it."""

    session_opened = Signal(object)
    session_closing = Signal()

    def __init__(self, window: QWidget, run_panel: RunPanel) -> None:
        super().__init__(window)
        self._window = window
        self._run_panel = run_panel
        self.session: ProjectSession | None = None
        self.recent_menu = QMenu("Open &Recent", window)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)

    # -- opening -------------------------------------------------------------------------

    def open_project(self, path: Path, *, create: bool = False) -> bool:
        """Open (or create) ``path``; on failure show why and keep the current project."""
        try:
            session = ProjectSession(path, create=create, parent=self)
        except StoreError as error:
            show_error(self._window, "Cannot open project", error)
            return False
        self.close_project()
        self.session = session
        session.set_preferences(session.preferences.with_recent(path))
        self.session_opened.emit(session)
        # A COUNT, not golden_items(): opening a 100,000-question project must not read them all.
        # Scored when no run finished, or the newest inputs wait (a score killed after its import).
        if session.project.question_count() and not self._run_panel.busy and scores_wait(session.handle):
            self.rescore()
        return True

    def open_sample(self) -> None:
        """Create the scored sample project in the data folder (in a worker) and open it."""
        target = default_sample_path()

        def job(progress: ProgressFn, cancel: CancelToken) -> Path:
            return ensure_sample_project(target, progress=progress, cancel=cancel)

        def opened(path: Path) -> None:
            if self.open_project(path) and self.session is not None:
                prefs = self.session.preferences
                self.session.set_preferences(replace(prefs, sample_offered=True))

        self._run_panel.run(job, name="sample", label="Preparing the sample project…", on_success=opened)

    def open_startup_project(self) -> None:
        """The most recent project, or the sample on first start."""
        session_prefs = ProjectSession.peek_preferences()
        for recent in session_prefs.recent_projects:
            if Path(recent).exists():
                self.open_project(Path(recent))
                return
        if not session_prefs.sample_offered:
            self.open_sample()

    def ask_open(self) -> None:
        folder = start_folder(PROJECT_FOLDER)
        path, _ = QFileDialog.getOpenFileName(self._window, "Open project", str(folder), PROJECT_FILTER)
        if path:
            remember_folder(PROJECT_FOLDER, Path(path))
            self.open_project(Path(path))

    def is_sample_open(self) -> bool:
        """Whether the open project is the bundled sample in the data folder."""
        if self.session is None:
            return False
        try:
            return self.session.path.resolve() == default_sample_path().resolve()
        except OSError:
            return False

    def ask_new(self, *, golden: Path | None = None, responses: Path | None = None) -> None:
        """Ask for a new project file, create it and open the import wizard on it."""
        suggested = start_folder(PROJECT_FOLDER) / ("untitled" + PROJECT_SUFFIX)
        path, _ = QFileDialog.getSaveFileName(self._window, "New project", str(suggested), PROJECT_FILTER)
        if not path:
            return
        target = Path(path).with_suffix(PROJECT_SUFFIX)
        remember_folder(PROJECT_FOLDER, target)
        if target.exists():
            QMessageBox.warning(
                self._window, "New project", f"{target.name} already exists; open it instead."
            )
            return
        if self.open_project(target, create=True):
            self.import_files(golden, responses)

    def close_project(self) -> None:
        if self.session is None:
            return
        self.session_closing.emit()
        self.session.close()
        self.session.deleteLater()
        self.session = None

    # -- import and scoring --------------------------------------------------------------

    def import_files(self, golden: Path | None = None, responses: Path | None = None) -> None:
        """The import wizard for the open project (a new project is created first if none)."""
        from goldenlens.ui.importer.import_wizard import ImportWizard

        if self.session is None or self.is_sample_open():
            # The sample is a shared demo, not the analyst's project: their files go into a new
            # project of their own rather than replacing it.
            self.ask_new(golden=golden, responses=responses)
            return
        wizard = ImportWizard(
            self.session.path,
            self._window,
            golden=golden,
            responses=responses,
            replaces=self.session.project.question_count() > 0,
        )
        wizard.imported.connect(lambda _result: self._reload())
        wizard.open()

    def rescore(self) -> None:
        """Score the open project's responses (resuming an unfinished run) in a worker."""
        if self.session is None:
            return
        path = self.session.path

        def job(progress: ProgressFn, cancel: CancelToken) -> int:
            return on_project_at(path, finish_scoring, progress=progress, cancel=cancel)

        self._run_panel.run(
            job,
            name="scoring",
            label="Scoring…",
            on_success=lambda _run: self._reload(),
            cancelled_message="Scoring cancelled; finished rows are saved and scoring resumes next time.",
        )

    def open_dropped(self, paths: list[Path]) -> None:
        """Drag and drop: a project opens; spreadsheets go to the import wizard."""
        projects = [p for p in paths if p.suffix.lower() == PROJECT_SUFFIX]
        sheets = [p for p in paths if p.suffix.lower() in SPREADSHEET_SUFFIXES]
        if projects:
            self.open_project(projects[0])
        elif sheets:
            self.import_files(sheets[0], sheets[1] if len(sheets) > 1 else None)

    def _reload(self) -> None:
        if self.session is not None:
            self.session.notify_project()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        for recent in ProjectSession.peek_preferences().recent_projects:
            path = Path(recent)
            action = QAction(path.name, self.recent_menu)
            action.setToolTip(str(path))
            action.setEnabled(path.exists())
            action.triggered.connect(lambda _checked=False, p=path: self.open_project(p))
            self.recent_menu.addAction(action)
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction("(no recent projects)").setEnabled(False)

"""File ▸ Export: the curated golden set and the report (workbook, or the self-contained HTML
page when the file chosen ends in .html), optionally only filtered rows."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

from goldenlens.jobs.progress import CancelToken, ProgressFn
from goldenlens.jobs.project_access import on_project_at
from goldenlens.jobs.reporting.report_job import export_golden, export_report
from goldenlens.ui.dialog_folders import EXPORT_FOLDER, remember_folder, start_folder
from goldenlens.ui.window_parts import WindowParts

XLSX_FILTER = "Excel workbook (*.xlsx)"
HTML_FILTER = "HTML report, one self-contained file (*.html)"


class ExportController(QObject):
    """Runs the core exporters in a worker with their own store connection."""

    def __init__(self, parts: WindowParts) -> None:
        super().__init__(parts.window)
        self._parts = parts
        self.filtered_only_action = QAction("Export Only &Filtered Rows", parts.window)
        self.filtered_only_action.setCheckable(True)
        self.filtered_only_action.setToolTip("Exports contain only the questions the grid currently shows")

    def _project(self) -> Path | None:
        session = self._parts.projects.session
        return session.path if session is not None else None

    def _done(self, message: str) -> None:
        self._parts.window.statusBar().showMessage(message, 8000)

    def _question_ids(self) -> list[str] | None:
        return self._parts.grid.visible_question_ids() if self.filtered_only_action.isChecked() else None

    def _ask_path(self, title: str, suggested: str, *, html: bool = False) -> Path | None:
        project = self._project()
        # The project's own folder, unless it is the sample's (hidden in the data folder).
        beside = project.parent if project is not None and not self._parts.projects.is_sample_open() else None
        folder = start_folder(EXPORT_FOLDER, beside)
        filters = f"{XLSX_FILTER};;{HTML_FILTER}" if html else XLSX_FILTER
        path, chosen = QFileDialog.getSaveFileName(
            self._parts.window, title, str(folder / suggested), filters
        )
        if not path:
            return None
        target = Path(path)
        if chosen == HTML_FILTER or target.suffix.lower() in (".html", ".htm"):
            if target.suffix.lower() not in (".html", ".htm"):
                target = target.with_suffix(".html")
        else:
            target = target.with_suffix(".xlsx")
        remember_folder(EXPORT_FOLDER, target)
        return target

    def export_golden(self, out: Path | None = None) -> None:
        project = self._project()
        if project is None:
            return
        target = out or self._ask_path("Export golden set", f"{project.stem}-golden.xlsx")
        if target is None:
            return
        ids = self._question_ids()

        def job(_progress: ProgressFn, _cancel: CancelToken) -> int:
            return on_project_at(project, export_golden, target, question_ids=ids)

        self._parts.run_panel.run(
            job,
            name="export",
            label=f"Writing {target.name}…",
            on_success=lambda n: self._done(f"Exported {n} golden items to {target}"),
        )

    def export_report(self, out: Path | None = None) -> None:
        project = self._project()
        if project is None:
            return
        target = out or self._ask_path("Export report", f"{project.stem}-report.xlsx", html=True)
        if target is None:
            return
        ids = self._question_ids()

        def job(progress: ProgressFn, _cancel: CancelToken) -> int:
            report = on_project_at(project, export_report, target, question_ids=ids, progress=progress)
            return len(report.rows)

        self._parts.run_panel.run(
            job,
            name="export",
            label=f"Writing {target.name}…",
            on_success=lambda n: self._done(f"Exported {n} scored responses to {target}"),
        )

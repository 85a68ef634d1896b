"""The open project as the widgets see it: its handle, its queries and change signals.

Threading: the session's project (:attr:`ProjectSession.handle`, opened with
:func:`goldenlens.jobs.open_project`) belongs to the GUI thread. Reads go through
:attr:`ProjectSession.project`, the :class:`~goldenlens.queries.project.ProjectQueries` on
it; single-question writes (an edit, an override, a review: milliseconds) are jobs functions
called with the handle. Long jobs (import, scoring, export) run in a
:class:`goldenlens.ui.workers.JobRunner` and open their own connection on the worker thread
from :attr:`ProjectSession.path`; SQLite's WAL lets the two connections work side by side.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from goldenlens.core.project_handle import ProjectHandle
from goldenlens.jobs import open_project
from goldenlens.queries.project import ProjectQueries
from goldenlens.settings.preferences import Preferences, load_preferences, save_preferences


class ProjectSession(QObject):
    """An open project file: :attr:`handle` for the jobs that write on it, :attr:`project`
    for reading it.

    ``project_changed`` — everything may have changed (import, scoring run finished).
    ``question_changed(question_id)`` — one golden row or its scores, flags, overrides or
    review changed (an edit or its undo).
    """

    project_changed = Signal()
    question_changed = Signal(str)

    def __init__(self, path: Path, *, create: bool = False, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.handle: ProjectHandle = open_project(path, create=create)
        self.project = ProjectQueries(self.handle)
        self.preferences: Preferences = load_preferences()

    @property
    def run_id(self) -> int | None:
        """The latest finished lexical run, which every view shows."""
        return self.project.latest_run_id(finished_only=True)

    @staticmethod
    def peek_preferences() -> Preferences:
        """The saved preferences, before any project is open."""
        return load_preferences()

    @property
    def reviewer(self) -> str:
        return self.preferences.reviewer

    def set_preferences(self, preferences: Preferences) -> None:
        self.preferences = preferences
        save_preferences(preferences)

    def notify_question(self, question_id: str) -> None:
        self.question_changed.emit(question_id)

    def notify_project(self) -> None:
        self.project_changed.emit()

    def close(self) -> None:
        self.handle.close()

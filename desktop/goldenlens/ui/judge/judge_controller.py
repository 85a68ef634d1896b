"""The Judge menu: run the judge metrics on the open project in a worker, edit the judge
settings, resume an interrupted judge run.

The job opens its own connection on the worker thread and calls
:func:`goldenlens.jobs.judging.judge_job.judge_project` (through
:func:`goldenlens.jobs.project_access.on_project_at`); the run panel shows its progress (rows,
tokens/s, ETA) and its Cancel button (finished rows stay saved). When the run ends the
session's ``project_changed`` fires so the grid and the detail pane reload.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.scores import ScoreStatus
from goldenlens.jobs import open_project
from goldenlens.jobs.judging.judge_options import JudgeOptions
from goldenlens.jobs.progress import CancelToken, ProgressFn
from goldenlens.jobs.project_access import on_project_at
from goldenlens.queries.project import ProjectQueries
from goldenlens.ui.errors import show_error
from goldenlens.ui.judge.judge_dialog import JudgeDialog
from goldenlens.ui.review.review_controller import ReviewController
from goldenlens.ui.shortcuts import keys_for
from goldenlens.ui.window_parts import WindowParts

CANCELLED_MESSAGE = "Judge run cancelled; finished rows are saved. Judge ▸ Resume completes the rest."


@dataclass(frozen=True)
class JudgeOutcome:
    """What a finished judge run left in the project: rows (question and pipeline) judged and
    scores recorded as *not scored*."""

    run_id: int
    rows: int
    scores: int
    not_scored: int

    def message(self) -> str:
        text = f"Judge run finished: {self.rows:,} rows judged, {self.scores - self.not_scored:,} scores"
        if self.not_scored:
            return f"{text}, {self.not_scored:,} not scored (see the reasons in the detail pane)"
        return f"{text}, none left unscored"


def judge_and_count(
    path: Path, options: JudgeOptions, progress: ProgressFn, cancel: CancelToken
) -> JudgeOutcome:
    """Run the judge on the project at ``path`` with its own connection (worker thread) and
    count what the run holds."""
    # The judge job imports the engines' modules: only when a judge run starts.
    from goldenlens.jobs.judging.judge_job import judge_project

    run_id = on_project_at(path, judge_project, options, progress=progress, cancel=cancel)
    with open_project(path) as project:
        records = ProjectQueries(project).scores(run_id)
    rows = {(r.question_id, r.pipeline) for r in records}
    not_scored = sum(1 for r in records if r.status == ScoreStatus.NOT_SCORED)
    return JudgeOutcome(run_id, len(rows), len(records), not_scored)


class JudgeController(QObject):
    """Owns the Judge menu of the main window."""

    def __init__(self, parts: WindowParts, review: ReviewController) -> None:
        super().__init__(parts.window)
        self._parts = parts
        self._review = review  # the detail pane reloads through the session's project_changed
        self.last_outcome: JudgeOutcome | None = None
        self.run_action = self._action("&Run Judge Metrics…", self.ask_run, keys_for("run_judge")[0])
        self.settings_action = self._action("Judge &Settings…", self.edit_settings)
        self.resume_action = self._action("Res&ume Interrupted Judge Run", self.resume)
        self.menu = QMenu("&Judge", parts.window)
        self.menu.addAction(self.run_action)
        self.menu.addAction(self.settings_action)
        self.menu.addSeparator()
        self.menu.addAction(self.resume_action)
        self.menu.aboutToShow.connect(self._update_actions)
        parts.run_panel.runner.cancelled.connect(self._on_cancelled)

    def _action(self, text: str, slot: object, keys: str = "") -> QAction:
        action = QAction(text, self._parts.window)
        if keys:
            action.setShortcut(QKeySequence(keys))
        action.triggered.connect(slot)
        self._parts.window.addAction(action)
        return action

    def menus(self) -> list[QMenu]:
        return [self.menu]

    def _update_actions(self) -> None:
        session = self._parts.projects.session
        has_rows = session is not None and session.project.question_count() > 0
        self.run_action.setEnabled(has_rows)
        self.resume_action.setEnabled(
            has_rows and bool(session and session.project.unfinished_runs(JUDGE_RUN))
        )

    # -- actions -----------------------------------------------------------------------------

    def ask_run(self) -> JudgeDialog | None:
        """Open the judge dialog; "Run" starts the run with its options."""
        if self._parts.projects.session is None:
            self._parts.window.statusBar().showMessage("Open a project first.", 5000)
            return None
        dialog = JudgeDialog(self._parts.window, run=True, scope=self._review.judge_scope())
        dialog.accepted.connect(lambda: self.run(dialog.options()))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def edit_settings(self) -> JudgeDialog:
        """The same dialog, saving only."""
        dialog = JudgeDialog(self._parts.window, run=False)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def resume(self) -> None:
        """Complete the newest interrupted judge run with the options it was started with:
        finished rows are kept, only the missing ones call the model."""
        session = self._parts.projects.session
        runs = session.project.unfinished_runs(JUDGE_RUN) if session is not None else []
        if not runs:
            self._parts.window.statusBar().showMessage("No interrupted judge run to resume.", 5000)
            return
        try:
            options = JudgeOptions.from_params(runs[-1].params)
        except (TypeError, ValueError) as error:
            show_error(self._parts.window, "Cannot resume the judge run", error)
            return
        self.run(options)

    def run(self, options: JudgeOptions) -> None:
        """Judge the open project with ``options`` in the run panel's worker."""
        session = self._parts.projects.session
        if session is None:
            return
        path = session.path

        def job(progress: ProgressFn, cancel: CancelToken) -> JudgeOutcome:
            return judge_and_count(path, options, progress, cancel)

        self._parts.run_panel.run(
            job,
            name=JUDGE_RUN,
            label="Loading the judge model…",
            on_success=self._on_finished,
            cancelled_message=CANCELLED_MESSAGE,
        )

    def _on_cancelled(self) -> None:
        if self._parts.run_panel.runner.name == JUDGE_RUN:
            self._reload()  # the rows finished before Cancel are saved: show them

    def _on_finished(self, outcome: JudgeOutcome) -> None:
        self.last_outcome = outcome
        self._reload()
        self._parts.window.statusBar().showMessage(outcome.message(), 15000)

    def _reload(self) -> None:
        session = self._parts.projects.session
        if session is None:
            return
        session.notify_project()

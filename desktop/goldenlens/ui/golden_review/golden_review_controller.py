"""Judge ▸ Review the Golden Set…: the judge rates every golden triplet on the curation
criteria in a worker (progress and Cancel in the run panel), and the Golden Review tab shows
its verdicts for the reviewer to accept or dismiss.

The judge is the one the Judge settings name (model file, server or the bundled default, with
their context size, threads, temperature and seed:
:class:`~goldenlens.ui.judge.judge_jobs.JudgeJobController`). The job
(:func:`goldenlens.jobs.judging.golden_review_job.review_golden_set`) runs on its own connection; a cancelled
review keeps its finished rows, and starting it again with the same options resumes it (the
judge cache answers what was already asked). Decisions are single writes on the GUI
thread through :mod:`goldenlens.jobs.curation.golden_review_decisions`.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from goldenlens.core.errors import StoreError
from goldenlens.core.golden.criteria import DEFAULT_MAX_ANSWER_WORDS
from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN
from goldenlens.jobs.curation import golden_review_decisions
from goldenlens.jobs.judging.golden_review_job import GoldenReviewOptions, review_golden_set
from goldenlens.jobs.project_access import on_project_at
from goldenlens.settings.judge_preferences import load_judge_settings
from goldenlens.ui.errors import show_error
from goldenlens.ui.golden_review.golden_review_pane import GoldenReviewPane
from goldenlens.ui.judge.judge_jobs import JudgeJobController, JudgeJobDialog
from goldenlens.ui.judge.judge_settings import judge_model_label
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.window_parts import WindowParts

CANCELLED_MESSAGE = (
    "Golden review cancelled; finished rows are saved. Judge ▸ Review the Golden Set… again resumes it."
)


class GoldenReviewDialog(JudgeJobDialog):
    """Which judge reviews, and the verbosity guardrail; OK is "Review"."""

    def __init__(self, judge: str, parent: QWidget | None = None) -> None:
        super().__init__(
            "Review the Golden Set",
            "The judge rates every golden row: unambiguous question, answer consistent with the fact, "
            "fact minimal, LLM-agnostic wording; verbosity is counted. Its verdicts are suggestions — "
            "accept or dismiss each in the Golden Review tab.",
            "Review",
            parent,
        )
        self.add_judge_row(judge)
        self.add_guardrail_row(
            DEFAULT_MAX_ANSWER_WORDS,
            1000,
            "A golden answer with more words fails the verbosity criterion (counted)",
        )
        self.resize(560, self.sizeHint().height())


class GoldenReviewController(JudgeJobController):
    """Starts golden reviews (Judge ▸ Review the Golden Set…, or the tab's button) and connects
    the Golden Review tab to the open session: it shows the newest review's verdicts and records
    the reviewer's decisions on them. ``reviewed(run_id)`` — a review finished.
    """

    reviewed = Signal(int)
    kind = GOLDEN_REVIEW_RUN
    refused = "Cannot review the golden set"
    cancelled_message = CANCELLED_MESSAGE

    def __init__(self, parts: WindowParts, pane: GoldenReviewPane) -> None:
        super().__init__(parts)
        self._pane = pane
        self._session: ProjectSession | None = None
        self.last_run_id: int | None = None
        self._stale = True  # the pane does not show the session's newest review
        self.review_action = QAction("Review the &Golden Set…", parts.window)
        self.review_action.setToolTip("The judge rates every golden row on the curation criteria")
        self.review_action.triggered.connect(self.ask_review)
        parts.window.addAction(self.review_action)
        pane.review_requested.connect(self.ask_review)
        pane.decision_requested.connect(self.decide)
        pane.withdraw_requested.connect(self.withdraw)
        pane.question_chosen.connect(parts.grid.select_question)
        pane.shown.connect(self._on_shown)
        parts.grid.current_question_changed.connect(pane.show_question)
        parts.projects.session_opened.connect(self._set_session)
        parts.projects.session_closing.connect(lambda: self._set_session(None))

    # -- session ---------------------------------------------------------------------------

    def _set_session(self, session: ProjectSession | None) -> None:
        if self._session is not None:
            self._session.project_changed.disconnect(self.reload)
            self._session.question_changed.disconnect(self._on_question_changed)
        self._session = session
        if session is not None:
            session.project_changed.connect(self.reload)
            session.question_changed.connect(self._on_question_changed)
        self.reload()

    def _on_question_changed(self, _question_id: str) -> None:
        self.reload()  # an edit can make the row's verdicts stale

    def _on_shown(self) -> None:
        if self._stale:
            self.reload()

    def reload(self) -> None:
        """Show the newest review of the open project. It reads every verdict of the run, so it
        waits until the tab is in view (the project opens, and edits happen, without it)."""
        if not self._pane.isVisible():
            self._stale = True
            return
        self._stale = False
        session = self._session
        if session is None:
            self._pane.show_review(None)
            return
        try:
            self._pane.show_review(session.project.golden_review())
        except (StoreError, ValueError) as error:
            self._pane.show_review(None)
            show_error(self._parts.window, "Cannot read the golden review", error)

    # -- running ---------------------------------------------------------------------------

    def ask_review(self) -> GoldenReviewDialog | None:
        """The review dialog; "Review" starts the run with the guardrail chosen."""
        if self._parts.projects.session is None:
            self._parts.window.statusBar().showMessage("Open a project first.", 5000)
            return None
        dialog = GoldenReviewDialog(judge_model_label(load_judge_settings()), self._parts.window)
        dialog.accepted.connect(lambda: self.review(max_answer_words=dialog.max_answer_words()))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def review(self, *, max_answer_words: int = DEFAULT_MAX_ANSWER_WORDS) -> bool:
        """Review the open project's golden set in the run panel's worker; ``False`` when it
        cannot start (no project, no golden rows, a judge that cannot load)."""
        session = self._parts.projects.session
        if session is None:
            return False
        if session.project.question_count() == 0:
            self._parts.window.statusBar().showMessage("The project has no golden rows to review.", 5000)
            return False
        path = session.path
        return self._start(
            lambda engine: GoldenReviewOptions(engine=engine, max_answer_words=max_answer_words),
            lambda options, progress, cancel, engine: on_project_at(
                path, review_golden_set, options, progress=progress, cancel=cancel, engine=engine
            ),
            self._on_finished,
        )

    def _on_finished(self, run_id: int) -> None:
        self.last_run_id = run_id
        self._notify()
        session = self._parts.projects.session
        rows = session.project.question_count() if session is not None else 0
        self._parts.window.statusBar().showMessage(
            f"Golden review finished: {rows:,} golden rows rated (Golden Review tab).", 15000
        )
        self.reviewed.emit(run_id)

    # -- decisions -------------------------------------------------------------------------

    def decide(self, question_id: str, criterion: str, decision: str, own: str = "") -> bool:
        """Record the reviewer's decision on one verdict; ``False`` (and a message) if refused."""
        session = self._session
        if session is None:
            return False
        try:
            golden_review_decisions.decide(
                session.handle,
                question_id,
                criterion,
                decision,
                verdict=own or None,
                reviewer=session.reviewer,
            )
        except (StoreError, ValueError) as error:
            show_error(self._parts.window, "Cannot record the decision", error)
            return False
        self.reload()
        return True

    def withdraw(self, question_id: str, criterion: str) -> bool:
        """Undo the decision in force on one verdict; ``False`` (and a message) if refused."""
        session = self._session
        if session is None:
            return False
        try:
            golden_review_decisions.withdraw(
                session.handle, question_id, criterion, reviewer=session.reviewer
            )
        except (StoreError, ValueError) as error:
            show_error(self._parts.window, "Cannot withdraw the decision", error)
            return False
        self.reload()
        return True

"""Labels tab wiring: which question it shows (the plan's, else the grid's), the verdicts given
through the undo stack, the next round planned in a worker, and what reviewers would judge,
worked out again in a worker after each label (the newest request wins)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox

from goldenlens.core.calibration.human_calibrated import HumanCalibrated
from goldenlens.core.calibration.label_plan import LabelPlan
from goldenlens.core.calibration.labels import Verdict
from goldenlens.core.calibration.sampling_plan import Mode
from goldenlens.jobs.labelling.calibration import calibrate
from goldenlens.jobs.labelling.plan import RoundWaitingError, plan_labels
from goldenlens.jobs.progress import CancelToken, ProgressFn
from goldenlens.jobs.project_access import on_project_at
from goldenlens.queries.labelling import PlanQueue
from goldenlens.ui.errors import show_error
from goldenlens.ui.labelling.label_commands import DetachCommand, LabelCommand, own_record
from goldenlens.ui.labelling.labelling_pane import LabellingPane
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.window_parts import WindowParts
from goldenlens.ui.workers import JobRunner, LatestJobRunner


class LabellingController(QObject):
    """``calibrated(HumanCalibrated)`` whenever the estimates were worked out again;
    ``plan_changed(tuple[str, ...])``: the questions of the plan still to label."""

    calibrated = Signal(object)
    plan_changed = Signal(object)

    def __init__(self, parts: WindowParts, pane: LabellingPane) -> None:
        super().__init__(parts.window)
        self._parts = parts
        self._pane = pane
        self.session: ProjectSession | None = None
        self.question_id: str | None = None
        self.latest: HumanCalibrated | None = None
        self._estimates = LatestJobRunner(self, name="calibrate")
        self._estimates.succeeded.connect(self._on_estimates)
        self._planner = JobRunner(self)
        self._planner.succeeded.connect(self._on_planned)
        self._planner.failed.connect(self._on_plan_failed)
        #: The settings of the plan asked for last (to draw a waiting round anew with them).
        self._asked: tuple[int, int, str] | None = None
        pane.verdict_given.connect(self._on_verdict)
        pane.detach_requested.connect(self._on_detach)
        pane.next_requested.connect(self.next_question)
        pane.plan_requested.connect(self.plan)

    def show(self) -> None:
        """Bring the Labels tab forward, ready for the verdict keys."""
        self._parts.tabs.setCurrentWidget(self._pane)
        self._pane.setFocus()

    # -- the session -----------------------------------------------------------------------

    def set_session(self, session: ProjectSession | None) -> None:
        self.session = session
        self.question_id = None
        self.latest = None
        self._pane.show_question(None)
        self._pane.show_estimates(None)
        if session is None:
            self._show_queue(None)
            return
        session.question_changed.connect(self._on_question_changed)
        session.project_changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Everything again: the plan's progress, the question shown, the estimates."""
        session = self.session
        if session is None:
            return
        queue = session.project.plan_queue()
        self._show_queue(queue)
        if self.question_id is None:
            first = queue.open_questions[0] if queue is not None and queue.open_questions else None
            self.question_id = first or self._parts.grid.current_question()
        self.show_question(self.question_id)
        self.request_estimates()

    def show_question(self, question_id: str | None, *, keep_selection: bool = False) -> None:
        session = self.session
        self.question_id = question_id
        if session is None or question_id is None:
            self._pane.show_question(None)
            return
        found = session.project.labelling_question(session.run_id, question_id)
        self._pane.show_question(found, keep_selection=keep_selection)

    def request_estimates(self) -> None:
        session = self.session
        if session is None or session.run_id is None:
            return
        path = session.path

        def job(_progress: ProgressFn, _cancel: CancelToken) -> HumanCalibrated:
            # The advisor's diagnosis checks are left to the reports.
            return on_project_at(path, calibrate, with_diagnoses=False)

        self._estimates.request(job)

    def shutdown(self) -> None:
        self._estimates.shutdown()
        self._planner.shutdown()

    # -- labelling ---------------------------------------------------------------------------

    def _on_verdict(self, index: int, verdict: Verdict | None) -> None:
        session, question = self.session, self._pane.question
        if session is None or question is None or not 0 <= index < len(question.cards):
            return
        card = question.cards[index]
        before = own_record(card.source, card.record)
        self._parts.undo.push(LabelCommand(session, question.item.id, card.pipelines[0], verdict, before))
        if verdict is not None:
            self._pane.select_next_open()

    def _on_detach(self, pipeline: str) -> None:
        session = self.session
        if session is not None and self.question_id is not None:
            self._parts.undo.push(DetachCommand(session, self.question_id, pipeline))

    def _on_question_changed(self, question_id: str) -> None:
        if question_id == self.question_id:
            self.show_question(question_id, keep_selection=True)
        session = self.session
        if session is not None:
            self._show_queue(session.project.plan_queue())
        self.request_estimates()

    def _show_queue(self, queue: PlanQueue | None) -> None:
        self._pane.show_progress(queue)
        self.plan_changed.emit(queue.open_questions if queue is not None else ())

    def next_question(self) -> None:
        """The plan's next question still to label (after the one shown), else the grid's next."""
        session = self.session
        if session is None:
            return
        queue = session.project.plan_queue()
        if queue is not None and queue.open_questions:
            order = list(queue.questions)
            at = order.index(self.question_id) if self.question_id in order else -1
            later = [q for q in order[at + 1 :] + order[: at + 1] if q in queue.open_questions]
            self.show_question(later[0] if later else queue.open_questions[0])
            return
        visible = self._parts.grid.visible_question_ids()
        if visible:
            at = visible.index(self.question_id) if self.question_id in visible else -1
            self.show_question(visible[(at + 1) % len(visible)])

    # -- planning ----------------------------------------------------------------------------

    def plan(self, budget: int, seed: int, mode: str, *, replace: bool = False) -> None:
        """Plan the next round (``replace``: draw the waiting, unlabelled round anew)."""
        session = self.session
        if session is None:
            return
        path: Path = session.path
        chosen: Mode = "question" if mode == "question" else "response"
        self._asked = (budget, seed, mode)

        def job(_progress: ProgressFn, _cancel: CancelToken) -> LabelPlan:
            return on_project_at(path, plan_labels, budget=budget, seed=seed, mode=chosen, replace=replace)

        self._planner.start(job, name="plan labels")

    def _on_planned(self, plan: LabelPlan) -> None:
        self.question_id = plan.rows[0].question_id if plan.rows else None
        self.refresh()
        again = " (planned earlier, no label yet: listed again)" if plan.listed_again else ""
        self._parts.window.statusBar().showMessage(
            f"Round {plan.round_number}{again}: {len(plan.rows)} answers to label, in the plan's order "
            "(Enter: next question)",
            8000,
        )

    def _on_plan_failed(self, error: BaseException) -> None:
        asked = self._asked
        if not isinstance(error, RoundWaitingError) or asked is None:
            show_error(self._parts.window, "Could not plan the labels", error)
            return
        info = error.info
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Plan labels",
            f"Round {error.number} ({info.budget} labels, seed {info.seed}, by {info.mode}) has no label "
            "yet. Planning another round beside it would count one sample twice.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self._parts.window,
        )
        box.setInformativeText(
            f"Draw round {error.number} anew with the settings you chose? Its earlier list is then void. "
            "Cancel keeps it: plan with its own settings to list it again."
        )
        box.setObjectName("replaceRoundDialog")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        anew = box.button(QMessageBox.StandardButton.Yes)
        anew.setText("Draw anew")

        def chosen(clicked: object) -> None:
            if clicked is anew:
                self.plan(*asked, replace=True)

        box.buttonClicked.connect(chosen)
        box.open()

    def _on_estimates(self, found: HumanCalibrated) -> None:
        self.latest = found
        self._pane.show_estimates(found)
        self.calibrated.emit(found)

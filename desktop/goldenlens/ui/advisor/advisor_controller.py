"""Advisor wiring: the project's advice in a worker, the pane on the current question, the fixes.

The advice of a whole project is computed off the GUI thread
(:func:`goldenlens.jobs.curation.advice_job.build_advice`, on its own connection) whenever a project opens,
a run finishes or a question changes (debounced: an undo burst computes once); a newer request
cancels the older one. What one question needs besides its advice — the responses a variant
proposal is checked against, the overrides in effect — is read on the GUI thread from its
detail (a few small queries), so the proposals are always checked against the stored fact.

Every fix goes through the undoable edit paths of :mod:`goldenlens.ui.review.undo_commands` (an edit
of the golden row re-scores its question; Ctrl+Z puts it back); a fix that needs the
reviewer's words opens the golden editor on the field, or the override dialog with the
verdict chosen and the advisor's reason as the note.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer

from goldenlens.core.advice.fixes import propose_variant
from goldenlens.core.advice.values import Diagnosis, FixKind
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.jobs.curation.advice_job import build_advice
from goldenlens.jobs.curation.edits import EDITABLE_FIELDS
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn
from goldenlens.jobs.project_access import on_project_at
from goldenlens.jobs.scoring.pending import NoScoresError
from goldenlens.queries.advice_data import AdviceIndex
from goldenlens.queries.detail import QuestionDetail
from goldenlens.ui.advisor.advisor_pane import AdvisorPane, ShownDiagnosis
from goldenlens.ui.errors import show_error
from goldenlens.ui.review.golden_editor import GoldenEditor
from goldenlens.ui.review.override_dialog import request_override
from goldenlens.ui.review.review_queue import ReviewQueue
from goldenlens.ui.review.undo_commands import push_add_fact_variant, push_edit
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.window_parts import WindowParts
from goldenlens.ui.workers import JobRunner

#: Milliseconds an edit waits before the advice is recomputed (an undo burst computes once).
RECOMPUTE_DELAY_MS = 120
NO_SCORES_TEXT = "No finished scoring run yet: score the project (File ▸ Rescore) to see the advice."


def _advice_job(path: Path) -> Callable[[ProgressFn, CancelToken], AdviceIndex]:
    def job(progress: ProgressFn, cancel: CancelToken) -> AdviceIndex:
        return AdviceIndex.of(on_project_at(path, build_advice, progress=progress, cancel=cancel))

    return job


class AdvisorController(QObject):
    """Keeps :class:`AdvisorPane` and :class:`ReviewQueue` on the open project's advice."""

    def __init__(
        self,
        parts: WindowParts,
        pane: AdvisorPane,
        queue: ReviewQueue,
        editor: Callable[[], GoldenEditor | None],
    ) -> None:
        super().__init__(parts.window)
        self._parts = parts
        self._pane = pane
        self._queue = queue
        self._editor = editor
        self._session: ProjectSession | None = None
        self.index = AdviceIndex.empty()
        # Questions edited since the advice was computed; ``None``: all of them (a new run).
        self._stale: set[str] | None = set()
        self._runner = JobRunner(self, interval=0.25)
        self._runner.succeeded.connect(self._on_advice)
        self._runner.failed.connect(self._on_failed)
        self._runner.progressed.connect(self._on_progress)
        self._delay = QTimer(self, singleShot=True, interval=RECOMPUTE_DELAY_MS)
        self._delay.timeout.connect(self.recompute)
        parts.projects.session_opened.connect(self.set_session)
        parts.projects.session_closing.connect(lambda: self.set_session(None))
        parts.grid.current_question_changed.connect(lambda _qid: self.show_current())
        pane.fix_requested.connect(self.apply_fix)
        queue.message.connect(lambda text: parts.window.statusBar().showMessage(text, 6000))

    # -- advice ------------------------------------------------------------------------------

    def set_session(self, session: ProjectSession | None) -> None:
        """Follow ``session`` (``None``: the project closed)."""
        if self._session is not None:
            self._session.project_changed.disconnect(self._on_project_changed)
            self._session.question_changed.disconnect(self._on_question_changed)
        self._session = session
        self._delay.stop()
        self._runner.cancel()
        self.index = AdviceIndex.empty()
        self._stale = set()
        self._queue.choose(None)  # a diagnosis filter belongs to the project it was chosen in
        self._queue.set_advice(self.index)
        if session is None:
            self._runner.wait(10)  # cancelled: it stops after the question under way
            self._pane.set_status("")
            self._pane.show_message("Open a scored project to see the advisor's diagnoses.")
            return
        session.project_changed.connect(self._on_project_changed)
        session.question_changed.connect(self._on_question_changed)
        self._pane.show_message("Reading the scores…")
        self.recompute()

    def recompute(self) -> None:
        """Compute the advice again in the worker (the pane says "Updating…" meanwhile)."""
        if self._session is None:
            return
        self._pane.set_status("Updating the advice…")
        self._runner.start(_advice_job(self._session.path), name="advice")

    def _on_question_changed(self, question_id: str) -> None:
        if self._stale is not None:
            self._stale.add(question_id)
        self._refresh_fixes()
        self._delay.start()

    def _on_project_changed(self) -> None:
        self._stale = None
        self._refresh_fixes()
        self._delay.start()

    def _refresh_fixes(self) -> None:
        current = self._parts.grid.current_question()
        stale = self._stale is None or (current is not None and current in self._stale)
        self._pane.set_fixes_enabled(not stale)

    def _on_progress(self, progress: Progress) -> None:
        if progress.total:
            self._pane.set_status(f"Updating the advice… {progress.done:,} of {progress.total:,} questions")

    def _on_advice(self, index: AdviceIndex) -> None:
        self.index = index
        self._stale = set()
        self._pane.set_status("")
        self._queue.set_advice(index)
        self.show_current()

    def _on_failed(self, error: BaseException) -> None:
        self.index = AdviceIndex.empty()
        self._stale = set()
        self._pane.set_status("")
        self._queue.set_advice(self.index)
        if isinstance(error, NoScoresError):
            self._pane.show_message(NO_SCORES_TEXT)
        else:
            self._pane.show_message(f"The advice could not be computed: {error}")

    def show_current(self) -> None:
        """Show the advice of the grid's current question."""
        session, question_id = self._session, self._parts.grid.current_question()
        if session is None or question_id is None:
            if session is not None and self.index.advice.questions:
                self._pane.show_message("Select a question to see what the advisor says about it.")
            return
        advice = self.index.question(question_id)
        if advice is None:
            if self.index.advice.questions:  # advice of an older golden set: a new one is coming
                self._pane.show_message(f"{question_id} is not in the advice yet; it is being updated.")
            return
        detail = session.project.question_detail(session.run_id, question_id)
        shown = [self._shown(d, detail) for d in advice.diagnoses]
        self._refresh_fixes()
        self._pane.show_question(advice, shown, detail)

    def _shown(self, diagnosis: Diagnosis, detail: QuestionDetail | None) -> ShownDiagnosis:
        held = self.index.advice.check_note(diagnosis.code.value)
        fix = diagnosis.fix
        if fix is None or detail is None:
            return ShownDiagnosis(diagnosis, held=held)
        if fix.kind is FixKind.ADD_VARIANT:
            responses = {p.pipeline: p.response for p in detail.pipelines if not p.pipeline_missing}
            thresholds = self._session.preferences.thresholds if self._session is not None else None
            proposal = propose_variant(detail.item, diagnosis, responses, thresholds)
            return ShownDiagnosis(diagnosis, proposal, held=held)
        if fix.kind is FixKind.OVERRIDE_SCORE:
            pipeline = detail.pipeline(fix.pipeline)
            override = pipeline.overrides.get(fix.field) if pipeline is not None else None
            return ShownDiagnosis(diagnosis, override=override, held=held)
        return ShownDiagnosis(diagnosis, held=held)

    # -- fixes -------------------------------------------------------------------------------

    def apply_fix(self, shown: ShownDiagnosis) -> None:
        """Apply the fix of ``shown`` (see the module docstring)."""
        session, fix = self._session, shown.diagnosis.fix
        if session is None or fix is None:
            return
        qid = shown.question_id
        try:
            if fix.kind is FixKind.ADD_VARIANT and shown.proposal is not None:
                if not push_add_fact_variant(self._parts.undo, session, qid, shown.proposal.text):
                    self._status(f"“{shown.proposal.text}” is already an alternative of the fact")
            elif fix.kind is FixKind.OVERRIDE_SCORE:
                reason = f"Advisor: {shown.diagnosis.label.lower()}. {shown.diagnosis.explanation}"
                metric = fix.field or FACTUAL_KNOWLEDGE
                request_override(
                    self._parts.window, session, self._parts.undo, qid, fix.pipeline, metric, note=reason
                )
            elif fix.value and fix.kind is not FixKind.ADD_VARIANT:
                self._edit(session, qid, fix.field, fix.value)
            else:
                words = shown.diagnosis.words
                self._open_editor(qid, fix.field, words[0] if words else "")
        except ValueError as error:
            show_error(self._parts.window, "The fix could not be applied", error)

    def _edit(self, session: ProjectSession, question_id: str, field: str, value: str) -> None:
        """Replace one field of the golden row with the advisor's value (undoable, re-scored)."""
        item = session.project.golden_item(question_id)
        if item is None or field not in EDITABLE_FIELDS:
            raise ValueError(f"there is no golden question {question_id!r} with a field {field!r}")
        changes: dict[str, Any] = {field: value}
        if not push_edit(self._parts.undo, session, replace(item, **changes)):
            self._status(f"The {field} of {question_id} is already as proposed")

    def _open_editor(self, question_id: str, field: str, select: str = "") -> None:
        editor = self._editor()
        if editor is None or editor.question_id != question_id or field not in editor.fields:
            return
        editor.edit_field(field, select)
        what = {
            "fact": "Add <OR> and the wording a correct response uses, then press Ctrl+Enter",
            "question": "Reword the question so it has one acceptable answer, then press Ctrl+Enter",
        }.get(field, f"Edit the {field}, then press Ctrl+Enter")
        if select:
            what = f"Reword “{select}” (selected) neutrally, then press Ctrl+Enter"
        self._status(f"{question_id}: {what} (Ctrl+Z undoes).")

    def _status(self, text: str) -> None:
        self._parts.window.statusBar().showMessage(text, 8000)

    def shutdown(self) -> None:
        """Cancel and wait for the advice worker (the window is closing)."""
        self._delay.stop()
        self._runner.shutdown()

"""Undoable labels: a verdict given (or withdrawn) and a response detached from the verdict of
the same answer, on the window's one ``QUndoStack``. A label record is never deleted: undo
appends the record that puts the response back as it was."""

from __future__ import annotations

from goldenlens.core.calibration.labels import LabelRecord, LabelSource, Verdict
from goldenlens.jobs.labelling import label_edits
from goldenlens.ui.review.undo_commands import _CurationCommand
from goldenlens.ui.session import ProjectSession


class LabelCommand(_CurationCommand):
    """Give ``verdict`` to a response (``None``: withdraw its own); undo gives back the verdict
    it had of its own before, or withdraws the new one."""

    def __init__(
        self,
        session: ProjectSession,
        question_id: str,
        pipeline: str,
        verdict: Verdict | None,
        before: LabelRecord | None,
        *,
        note: str = "",
    ) -> None:
        what = (
            f"Label {question_id} / {pipeline} {verdict.value}"
            if verdict
            else f"Withdraw the label of {question_id} / {pipeline}"
        )
        super().__init__(session, question_id, what)
        self.pipeline = pipeline
        self.verdict = verdict
        self.before = before
        self.note = note

    def _set(self, verdict: Verdict | None, note: str) -> str:
        """Give (or withdraw) the verdict; what the status line adds: the pipelines that gave the
        same answer and keep a verdict of their own that differs."""
        if verdict is None:
            label_edits.clear_label(
                self.session.handle, self.question_id, self.pipeline, reviewer=self.reviewer
            )
            return ""
        outcome = label_edits.label_response(
            self.session.handle,
            self.question_id,
            self.pipeline,
            verdict,
            note=note,
            reviewer=self.reviewer,
            source="desktop app",
        )
        return "".join(
            f" — {other} gave the same answer and keeps its own verdict, {theirs}"
            for other, theirs in outcome.disagreeing
        )

    def redo(self) -> None:
        def step() -> str:
            return self.text() + self._set(self.verdict, self.note)

        self._apply(step, "redo")

    def undo(self) -> None:
        def step() -> str:
            previous = self.before
            also = self._set(previous.verdict if previous else None, previous.note if previous else "")
            return f"Undone: {self.text()}{also}"

        self._apply(step, "undo")


class DetachCommand(_CurationCommand):
    """Judge a response on its own instead of by the verdict of the same answer (undo: take it
    again)."""

    def __init__(self, session: ProjectSession, question_id: str, pipeline: str) -> None:
        super().__init__(session, question_id, f"Judge {question_id} / {pipeline} on its own")
        self.pipeline = pipeline

    def redo(self) -> None:
        self._apply(lambda: self._detach(attach=False), "redo")

    def undo(self) -> None:
        self._apply(lambda: self._detach(attach=True), "undo")

    def _detach(self, *, attach: bool) -> str:
        label_edits.detach_response(self.session.handle, self.question_id, self.pipeline, attach=attach)
        return self.text() if not attach else f"Undone: {self.text()}"


def own_record(source: LabelSource, record: LabelRecord | None) -> LabelRecord | None:
    """The response's own verdict record (what undo gives back), not one it takes from the
    same answer elsewhere."""
    return record if source is LabelSource.DIRECT else None

"""File ▸ Import Sources and Draft…: pick source documents, a limit, and let the judge draft
golden items from their chunks into the review queue, in a worker with progress and cancel.

The judge is the one the Judge settings name (model file, server, or the bundled default:
:class:`~goldenlens.ui.judge.judge_jobs.JudgeJobController`). The job
(:func:`goldenlens.jobs.drafting.draft_sources.draft_sources`) runs on its own connection; a cancelled
run keeps its finished drafts, and importing the same files again drafts only what is left.
When it ends the session's ``project_changed`` fires and the Drafts tab shows the queue.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFileDialog, QListWidget, QSpinBox, QWidget

from goldenlens.core.golden.drafts import DEFAULT_MAX_ANSWER_WORDS
from goldenlens.core.runs.run_kinds import DRAFT_RUN
from goldenlens.jobs.drafting.draft_job import DraftOptions
from goldenlens.jobs.drafting.draft_sources import DraftSourcesResult, draft_sources
from goldenlens.jobs.project_access import on_project_at
from goldenlens.settings.judge_preferences import load_judge_settings
from goldenlens.ui.drafts.drafts_pane import DraftsPane
from goldenlens.ui.judge.judge_jobs import JudgeJobController, JudgeJobDialog
from goldenlens.ui.judge.judge_settings import judge_model_label
from goldenlens.ui.window_parts import WindowParts

SOURCE_FILTER = "Source documents (*.pdf *.txt *.md *.markdown *.csv *.tsv);;All files (*)"
CANCELLED_MESSAGE = "Drafting cancelled; finished drafts are saved. Import the same files again to continue."


class DraftSourcesDialog(JudgeJobDialog):
    """The files chosen, how many new chunks to draft at most, the answer guardrail, and
    which judge will draft."""

    def __init__(self, paths: Sequence[Path], judge: str, parent: QWidget | None = None) -> None:
        super().__init__(
            "Draft golden items from source documents",
            "Drafts go to the review queue (Drafts tab); nothing enters the golden set until you accept it.",
            "Draft",
            parent,
        )
        self.paths = list(paths)
        files = QListWidget(self)
        files.addItems([str(p) for p in self.paths])
        files.setMaximumHeight(110)
        self.limit_spin = QSpinBox(self)
        self.limit_spin.setRange(0, 100_000)
        self.limit_spin.setValue(20)
        self.limit_spin.setSpecialValueText("all")
        self.limit_spin.setToolTip("Draft at most this many new chunks now; the rest stay for a later run")
        self.form.addRow("Files", files)
        self.form.addRow("Chunks to draft", self.limit_spin)
        self.add_guardrail_row(
            DEFAULT_MAX_ANSWER_WORDS,
            500,
            "Longer drafted answers are flagged (the advisor's verbose-answer threshold)",
        )
        self.add_judge_row(judge)
        self.resize(620, self.sizeHint().height())

    def limit(self) -> int | None:
        value = self.limit_spin.value()
        return None if value == 0 else value


class DraftsController(JudgeJobController):
    """Starts drafting runs (the Drafts tab's import button) and shows their outcome in the
    Drafts tab; ``drafted(DraftSourcesResult)`` when a run finished."""

    drafted = Signal(object)
    kind = DRAFT_RUN
    refused = "Cannot draft"
    cancelled_message = CANCELLED_MESSAGE

    def __init__(self, parts: WindowParts, pane: DraftsPane) -> None:
        super().__init__(parts)
        self._pane = pane
        self.last_result: DraftSourcesResult | None = None
        pane.import_requested.connect(self.ask_import)

    def ask_import(self) -> None:
        """Pick the files, then the limit and guardrail; "Draft" starts the run."""
        if self._parts.projects.session is None:
            self._parts.window.statusBar().showMessage("Open or create a project first.", 5000)
            return
        names, _ = QFileDialog.getOpenFileNames(
            self._parts.window, "Source documents to draft from", "", SOURCE_FILTER
        )
        if names:
            self.ask_options([Path(n) for n in names])

    def ask_options(self, paths: Sequence[Path]) -> DraftSourcesDialog:
        settings = load_judge_settings()
        dialog = DraftSourcesDialog(paths, judge_model_label(settings), self._parts.window)
        dialog.accepted.connect(
            lambda: self.draft(dialog.paths, limit=dialog.limit(), max_answer_words=dialog.max_answer_words())
        )
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def draft(
        self, paths: Sequence[Path], *, limit: int | None, max_answer_words: int = DEFAULT_MAX_ANSWER_WORDS
    ) -> bool:
        """Draft the chunks of ``paths`` into the open project in the run panel's worker;
        ``False`` when it cannot start (no project, a judge that cannot load)."""
        session = self._parts.projects.session
        if session is None:
            return False
        path, sources = session.path, list(paths)
        return self._start(
            lambda engine: DraftOptions(engine=engine, max_answer_words=max_answer_words, limit=limit),
            lambda options, progress, cancel, engine: on_project_at(
                path, draft_sources, sources, options, progress=progress, cancel=cancel, engine=engine
            ),
            self._on_succeeded,
        )

    def _on_succeeded(self, result: DraftSourcesResult) -> None:
        self.last_result = result
        self._notify()
        message = result.message()
        if result.warnings:
            message += f" {len(result.warnings)} warning(s) reading the files: " + "; ".join(
                result.warnings[:3]
            )
        self._parts.window.statusBar().showMessage(message, 15000)
        self.drafted.emit(result)

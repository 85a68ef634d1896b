"""What the judge jobs started from a dialog share (drafting golden items, the golden review):
the dialog's frame and its rows for the judge and the answer guardrail, and the controller
that starts them.

A job's judge is the one the saved Judge settings name
(:meth:`~goldenlens.settings.judge_preferences.JudgeSettings.engine_spec`), checked before any
worker starts: a model that cannot load, or a setting out of range, is one error dialog instead
of a failed run. The job then runs in the run panel's worker with its own connection.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.jobs.progress import CancelToken, ProgressFn
from goldenlens.judge.engines.protocol import JudgeEngine
from goldenlens.settings.judge_preferences import load_judge_settings
from goldenlens.ui.errors import show_error
from goldenlens.ui.judge.judge_settings import judge_model_problems
from goldenlens.ui.window_parts import WindowParts

Options = TypeVar("Options")
Result = TypeVar("Result")

#: Runs a job with its options, the run panel's progress and cancel token, and the judge a
#: test or screenshot brings (``None``: the job opens the one the options name).
JudgeWork = Callable[[Options, ProgressFn, CancelToken, JudgeEngine | None], Result]


class JudgeJobDialog(QDialog):
    """A dialog that starts a judge job: a form (the job adds its rows), a note, and OK
    named for the job."""

    def __init__(self, title: str, note: str, ok_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.form = QFormLayout()
        note_label = QLabel(note, self)
        note_label.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok_text)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(note_label)
        layout.addWidget(buttons)
        self.words_spin = QSpinBox(self)

    def add_judge_row(self, judge: str) -> None:
        """The judge that will run (changed in the Judge settings, not here)."""
        label = QLabel(f"{html.escape(judge, quote=False)} <i>(Judge ▸ Judge Settings… to change)</i>", self)
        label.setWordWrap(True)
        self.form.addRow("Judge", label)

    def add_guardrail_row(self, default: int, maximum: int, tooltip: str) -> None:
        """The answer guardrail in words (:meth:`max_answer_words`)."""
        self.words_spin.setRange(1, maximum)
        self.words_spin.setValue(default)
        self.words_spin.setSuffix(" words")
        self.words_spin.setToolTip(tooltip)
        self.form.addRow("Answer guardrail", self.words_spin)

    def max_answer_words(self) -> int:
        return self.words_spin.value()


class JudgeJobController(QObject):
    """Starts one kind of judge job from the main window (:attr:`kind`: drafting, the golden
    review) and refreshes the open project when one ends or is cancelled (the items finished
    before Cancel are saved, so they show).

    ``engine_factory`` (tests, screenshots): a judge to run with instead of the one the
    settings name."""

    #: The run kind, which is also the run panel's name for the job.
    kind: str
    #: The title of the error shown when a job cannot start ("Cannot draft").
    refused: str
    #: The run panel's message when a job is cancelled.
    cancelled_message: str

    def __init__(self, parts: WindowParts) -> None:
        super().__init__(parts.window)
        self._parts = parts
        self.engine_factory: Callable[[], JudgeEngine] | None = None
        parts.run_panel.runner.cancelled.connect(self._on_cancelled)

    def _start(
        self,
        make: Callable[[JudgeEngineSpec], Options],
        work: JudgeWork[Options, Result],
        on_success: Callable[[Result], None],
    ) -> bool:
        """Run ``work`` with the options ``make`` builds on the saved judge settings' engine, in
        the run panel's worker; ``False`` after showing why it cannot start."""
        factory = self.engine_factory
        settings = load_judge_settings()
        problems = [] if factory is not None else judge_model_problems(settings)  # a scripted judge
        if problems:
            show_error(self._parts.window, self.refused, ValueError(" ".join(problems)))
            return False
        try:
            options = make(settings.engine_spec())
        except ValueError as error:
            show_error(self._parts.window, self.refused, error)
            return False

        def job(progress: ProgressFn, cancel: CancelToken) -> Result:
            return work(options, progress, cancel, factory() if factory is not None else None)

        self._parts.run_panel.run(
            job,
            name=self.kind,
            label="Loading the judge model…",
            on_success=on_success,
            cancelled_message=self.cancelled_message,
        )
        return True

    def _on_cancelled(self) -> None:
        if self._parts.run_panel.runner.name == self.kind:
            self._notify()

    def _notify(self) -> None:
        """The open project changed: its views reload."""
        session = self._parts.projects.session
        if session is not None:
            session.notify_project()

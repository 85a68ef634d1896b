"""What the judge jobs started from a dialog share (drafting golden items, the golden review):
the dialog's frame and its rows for the judge and the answer guardrail, and the start.

A job's judge is the one the saved Judge settings name
(:meth:`~goldenlens.settings.judge_preferences.JudgeSettings.engine_spec`), checked before any
worker starts: a model that cannot load, or a setting out of range, is one error dialog instead
of a failed run. The job then runs in the run panel's worker with its own connection.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QMainWindow,
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
from goldenlens.ui.widgets.run_panel import RunPanel

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
        label = QLabel(f"{judge} <i>(Judge ▸ Judge Settings… to change)</i>", self)
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


def start_judge_job(
    window: QMainWindow,
    run_panel: RunPanel,
    *,
    make: Callable[[JudgeEngineSpec], Options],
    work: JudgeWork[Options, Result],
    engine_factory: Callable[[], JudgeEngine] | None,
    name: str,
    on_success: Callable[[Result], None],
    cancelled_message: str,
    refused: str,
) -> bool:
    """Run ``work`` with the options ``make`` builds on the saved judge settings' engine, in
    the run panel's worker; ``False`` after showing why it cannot start (``refused`` is the
    title, e.g. "Cannot draft"). ``engine_factory`` (tests, screenshots) brings the judge, so
    the model files are not checked."""
    settings = load_judge_settings()
    problems = [] if engine_factory is not None else judge_model_problems(settings)
    if problems:
        show_error(window, refused, ValueError(" ".join(problems)))
        return False
    try:
        options = make(settings.engine_spec())
    except ValueError as error:
        show_error(window, refused, error)
        return False

    def job(progress: ProgressFn, cancel: CancelToken) -> Result:
        engine = engine_factory() if engine_factory is not None else None
        return work(options, progress, cancel, engine)

    run_panel.run(
        job,
        name=name,
        label="Loading the judge model…",
        on_success=on_success,
        cancelled_message=cancelled_message,
    )
    return True

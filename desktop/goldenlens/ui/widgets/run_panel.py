"""The status-bar panel that shows the running job: stage, progress bar, cancel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from goldenlens.jobs.progress import Progress
from goldenlens.ui.errors import show_error
from goldenlens.ui.workers import Job, JobRunner


class RunPanel(QWidget):
    """Runs one long job at a time for the main window and shows its progress.

    ``finished_ok(name, result)`` is emitted after the job's own success callback ran.
    """

    finished_ok = Signal(str, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = JobRunner(self)
        self._label = QLabel()
        self._bar = QProgressBar()
        self._bar.setMaximumWidth(220)
        self._bar.setTextVisible(True)
        self._cancel = QPushButton("Cancel")
        self._cancel.setToolTip("Stop the running job; finished rows stay saved")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._label)
        layout.addWidget(self._bar)
        layout.addWidget(self._cancel)
        self._on_success: Callable[[Any], None] | None = None
        self._cancelled_message = ""
        self._cancel.clicked.connect(self.runner.cancel)
        self.runner.progressed.connect(self._on_progress)
        self.runner.succeeded.connect(self._on_succeeded)
        self.runner.failed.connect(self._on_failed)
        self.runner.cancelled.connect(self._on_cancelled)
        # Until the job's ending has been shown here: the worker thread ends as soon as it has
        # sent its last signal, before this (GUI) thread has handled it.
        self._showing = False
        self.runner.done.connect(self._on_done)
        self.setVisible(False)

    @property
    def busy(self) -> bool:
        """A job runs, or its end (result, error or cancellation) is not shown yet."""
        return self._showing or self.runner.running

    def run(
        self,
        job: Job,
        *,
        name: str,
        label: str,
        on_success: Callable[[Any], None] | None = None,
        cancelled_message: str = "Cancelled; finished work is saved.",
    ) -> None:
        """Start ``job`` (cancelling one still running) and show its progress here."""
        self._on_success = on_success
        self._cancelled_message = cancelled_message
        self._label.setText(label)
        self._bar.setRange(0, 0)  # busy until the first progress report
        self.setVisible(True)
        self._showing = True
        self.runner.start(job, name=name)

    def _on_done(self) -> None:
        self._showing = False

    def _on_progress(self, progress: Progress) -> None:
        if progress.total > 0:
            self._bar.setRange(0, progress.total)
            self._bar.setValue(progress.done)
            self._bar.setFormat(f"%v / %m  ({progress.fraction:.0%})")
        if progress.message:
            self._label.setText(progress.message)

    def _on_succeeded(self, result: object) -> None:
        self.setVisible(False)
        callback, self._on_success = self._on_success, None
        if callback is not None:
            callback(result)
        self.finished_ok.emit(self.runner.name, result)

    def _on_failed(self, error: BaseException) -> None:
        self.setVisible(False)
        show_error(self.window(), f"{self.runner.name.capitalize() or 'The job'} failed", error)

    def _on_cancelled(self) -> None:
        self.setVisible(False)
        self.window().statusBar().showMessage(self._cancelled_message, 8000)  # type: ignore[attr-defined]

    def shutdown(self) -> bool:
        return self.runner.shutdown()

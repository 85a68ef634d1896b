"""The desktop app's self-test: ``goldenlens-desktop --smoke-test`` (hidden; used by
``packaging/smoke_test.sh`` on the frozen bundle).

It opens the main window on the bundled sample (imported and scored in the data folder, as on
a first start), waits until the project is open with a finished scoring run, prints each
pipeline's factual-knowledge mean, and quits with exit 0. Any dialog that pops up (an error
the app would show the user) or a time-out quits with exit 1 and says why: a bundle missing a
Qt plugin, the sample or a module fails here instead of on a user's screen.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from goldenlens.ui.main_window import MainWindow

SMOKE_TEST_FLAG = "--smoke-test"
_POLL_MS = 200
_METRIC = "factual_knowledge"


class SmokeTest(QObject):
    """Watches ``window`` while it opens the sample; ends the event loop with the verdict."""

    def __init__(self, app: QApplication, window: MainWindow, *, timeout_s: float = 300.0) -> None:
        super().__init__(window)
        self._app = app
        self._window = window
        self._deadline = time.monotonic() + timeout_s
        self._timeout_s = timeout_s
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._poll)

    def start(self) -> None:
        self._window.projects.open_sample()
        self._timer.start(_POLL_MS)

    def _poll(self) -> None:
        # A modal dialog during the test is an error the app is showing (the sample job failed,
        # a file is missing): report its text rather than wait for the time-out.
        shown = [box for box in self._window.findChildren(QMessageBox) if box.isVisible()]
        dialog = shown[0] if shown else QApplication.activeModalWidget()
        if isinstance(dialog, QMessageBox):
            self._finish(1, f"the app showed a dialog: {dialog.text()} {dialog.informativeText()}".strip())
            return
        session = self._window.projects.session
        run_id = session.run_id if session is not None else None
        if session is None or run_id is None:
            if time.monotonic() > self._deadline:
                self._finish(1, f"the sample was not open and scored after {self._timeout_s:.0f} s")
            return
        values: defaultdict[str, list[float]] = defaultdict(list)
        for record in session.project.scores(run_id):
            if record.metric == _METRIC and record.value is not None:
                values[record.pipeline].append(record.value)
        if not values:
            self._finish(1, f"the sample's run {run_id} has no {_METRIC} scores")
            return
        means = ", ".join(f"{name}={sum(v) / len(v):.4g}" for name, v in sorted(values.items()))
        self._finish(
            0,
            f"opened {session.path.name}: {session.project.question_count()} questions, "
            f"run {run_id}; {_METRIC} means {means}",
        )

    def _finish(self, code: int, message: str) -> None:
        self._timer.stop()
        self._window.close()  # as a user would: running workers are stopped before the exit
        verdict = "OK" if code == 0 else "FAILED"
        stream = sys.stdout if code == 0 else sys.stderr
        print(f"goldenlens-desktop smoke test: {verdict}: {message}", file=stream, flush=True)
        self._app.exit(code)

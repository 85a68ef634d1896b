"""The run panel is busy until a job's end is shown, not only while its thread lives.

The worker thread sends its last signal and ends; the GUI thread handles the signal later. In
between, ``busy`` used to read False while the panel still showed the job and the cancellation
message was not out yet (a judge-run test failed on a slow machine that way). Joining the
thread first makes the in-between state certain here: the GUI thread handles no signal while
it waits.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from goldenlens.jobs.progress import Cancelled, CancelToken, ProgressFn
from goldenlens.ui.widgets.run_panel import RunPanel


def _cancelled_job(_progress: ProgressFn, _cancel: CancelToken) -> None:
    raise Cancelled


def _finished_job(_progress: ProgressFn, _cancel: CancelToken) -> int:
    return 7


def test_busy_until_the_cancellation_is_shown(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    panel = RunPanel(window)
    panel.run(_cancelled_job, name="judge", label="Judging…", cancelled_message="Judge run cancelled.")
    assert panel.runner.wait(10)  # the thread has ended; its signals wait for this thread
    assert not panel.runner.running
    assert panel.busy
    assert window.statusBar().currentMessage() == ""
    qtbot.waitUntil(lambda: not panel.busy, timeout=5000)
    assert window.statusBar().currentMessage() == "Judge run cancelled."
    assert not panel.isVisible()


def test_busy_until_the_result_is_handed_over(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    panel = RunPanel(window)
    results: list[object] = []
    panel.run(_finished_job, name="score", label="Scoring…", on_success=results.append)
    assert panel.runner.wait(10)
    assert panel.busy
    assert results == []
    qtbot.waitUntil(lambda: not panel.busy, timeout=5000)
    assert results == [7]

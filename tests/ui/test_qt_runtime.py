"""Guards against a broken Qt binding: the app emits signals all day long."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QLabel


class _Emitter(QObject):
    ping = Signal()
    text = Signal(str)


def test_signal_emission_keeps_reference_counts_intact() -> None:
    """PySide6 6.12.0 released a reference to True/False on every emit() and aborted the
    interpreter after a few hundred signals; this fails fast on any such release."""
    emitter = _Emitter()
    received: list[str] = []
    emitter.ping.connect(lambda: received.append(""))
    emitter.text.connect(received.append)
    before = (sys.getrefcount(True), sys.getrefcount(False))
    for _ in range(200):
        emitter.ping.emit()
        emitter.text.emit("x")
    after = (sys.getrefcount(True), sys.getrefcount(False))
    assert len(received) == 400
    assert abs(after[0] - before[0]) < 20
    assert abs(after[1] - before[1]) < 20


def test_void_qt_calls_keep_the_reference_count_of_none(qapp: QApplication) -> None:
    """6.12.0 also released a reference to None from every Qt method returning void."""
    label = QLabel()
    before = sys.getrefcount(None)
    for index in range(200):
        label.setText(str(index))
    assert abs(sys.getrefcount(None) - before) < 20
    assert label.text() == "199"

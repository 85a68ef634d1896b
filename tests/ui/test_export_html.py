"""File ▸ Export Report offers the HTML report: the file type chosen or the name typed picks it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
from PySide6.QtWidgets import QFileDialog, QMainWindow
from pytestqt.qtbot import QtBot

from goldenlens.ui.export_controller import HTML_FILTER, XLSX_FILTER, ExportController
from goldenlens.ui.window_parts import WindowParts


class _NoProject:
    """The project controller when nothing is open: the dialog starts in the last used folder."""

    session = None

    def is_sample_open(self) -> bool:
        return False


@pytest.mark.parametrize(
    ("typed", "chosen", "expected"),
    [
        ("report", HTML_FILTER, "report.html"),
        ("report.html", XLSX_FILTER, "report.html"),
        ("report.HTM", HTML_FILTER, "report.HTM"),
        ("report", XLSX_FILTER, "report.xlsx"),
        ("report.xlsx", HTML_FILTER, "report.html"),
    ],
)
def test_the_chosen_type_or_suffix_picks_the_format(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, typed: str, chosen: str, expected: str
) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    offered: list[str] = []

    def answer(*args: Any) -> tuple[str, str]:
        offered.append(args[3])
        return str(tmp_path / typed), chosen

    monkeypatch.setattr(QFileDialog, "getSaveFileName", answer)
    none = cast(Any, None)
    controller = ExportController(WindowParts(window, none, cast(Any, _NoProject()), none, none, none))
    target = controller._ask_path("Export report", "p-report.xlsx", html=True)
    assert target == tmp_path / expected
    assert offered == [f"{XLSX_FILTER};;{HTML_FILTER}"]

"""``goldenlens-desktop --smoke-test``: the self-test packaging/smoke_test.sh runs on the frozen
bundle opens the sample, checks it is scored and quits by itself; an error it meets fails it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from goldenlens.ui import project_controller
from goldenlens.ui.app import ICON_SIZES, app_icon
from goldenlens.ui.main_window import MainWindow
from goldenlens.ui.smoke import SmokeTest

ROOT = Path(__file__).resolve().parents[2]


def test_smoke_test_flag_opens_the_sample_prints_its_means_and_exits_0(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "GOLDENLENS_DATA_DIR": str(tmp_path / "data"),
        "GOLDENLENS_CONFIG_DIR": str(tmp_path / "config"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        "PYTHONPATH": os.pathsep.join([str(ROOT / "desktop"), os.environ.get("PYTHONPATH", "")]),
    }
    code = (
        "import sys; sys.argv = ['goldenlens-desktop', '--smoke-test']; "
        "from goldenlens.ui.app import main; main()"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    # The sample README's Factual Knowledge report: 8, 4 and 5 of 10 questions.
    assert "OK: opened amazon_q2_2023.goldenlens: 10 questions" in proc.stdout
    assert "factual_knowledge means Pipeline1=0.8, Pipeline2=0.4, Pipeline3=0.5" in proc.stdout
    assert (tmp_path / "data" / "sample" / "amazon_q2_2023.goldenlens").is_file()


class _ExitRecorder:
    """Stands in for the QApplication's exit(): records the code instead of ending a loop."""

    def __init__(self) -> None:
        self.codes: list[int] = []

    def exit(self, code: int) -> None:
        self.codes.append(code)


def test_an_error_dialog_during_the_smoke_test_fails_it_with_the_message(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken_sample(*_args: object, **_kwargs: object) -> Path:
        raise FileNotFoundError(2, "No such file or directory", "golden.csv")

    monkeypatch.setattr(project_controller, "ensure_sample_project", broken_sample)
    window = MainWindow()
    qtbot.addWidget(window)
    recorder = _ExitRecorder()
    SmokeTest(recorder, window, timeout_s=60).start()  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: recorder.codes != [], timeout=30_000)
    assert recorder.codes == [1]
    err = capsys.readouterr().err
    assert "smoke test: FAILED: the app showed a dialog" in err
    assert "golden.csv" in err


def test_the_smoke_test_times_out_when_the_sample_never_opens(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    monkeypatch.setattr(window.projects, "open_sample", lambda: None)
    recorder = _ExitRecorder()
    SmokeTest(recorder, window, timeout_s=1.0).start()  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: recorder.codes != [], timeout=10_000)
    assert recorder.codes == [1]
    assert "FAILED: the sample was not open and scored after 1 s" in capsys.readouterr().err


def test_the_window_icon_has_every_size_of_resources_icons(qtbot: QtBot) -> None:
    # The checkout's folder: the installed package's copy is checked by tests/test_packaging.py.
    icon = app_icon(ROOT / "resources" / "icons")
    assert not icon.isNull()
    sizes = sorted(size.width() for size in icon.availableSizes())
    assert sizes == list(ICON_SIZES)

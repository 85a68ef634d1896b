"""The main window fits the screen it opens on: the first window on a 1366x768 laptop (it was
1500x900, its bottom rows and third response card off-screen), and a geometry restored from a
larger monitor. The offscreen platform's screen size is fixed when the application starts, so
each screen size runs in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import goldenlens

PACKAGE_ROOT = str(Path(goldenlens.__file__).resolve().parents[1])

#: Opens the window twice: first with no saved geometry, then after a window of 1900x1150 at
#: (200, 100) was saved (as on a larger monitor). Prints the available area and both frames.
_SCRIPT = """
import json, sys
from PySide6.QtCore import QCoreApplication, QRect, QSettings
from PySide6.QtWidgets import QApplication

QSettings.setDefaultFormat(QSettings.Format.IniFormat)
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, sys.argv[1])
app = QApplication([])
QCoreApplication.setOrganizationName("GoldenLensTests")
QCoreApplication.setApplicationName("GoldenLensTests")
from goldenlens.ui.main_window import MainWindow

def frame(window):
    window.show()
    app.processEvents()
    rect = window.frameGeometry()
    return [rect.x(), rect.y(), rect.width(), rect.height()]

first = MainWindow()
shown = {"first": frame(first)}
first.setGeometry(QRect(200, 100, 1900, 1150))
app.processEvents()
first.close()  # saves the geometry, as quitting the app does
assert QSettings().value("window/geometry") is not None
shown["restored"] = frame(MainWindow())
area = app.primaryScreen().availableGeometry()
shown["available"] = [area.x(), area.y(), area.width(), area.height()]
print(json.dumps(shown))
"""


def _contains(outer: list[int], inner: list[int]) -> bool:
    x, y, width, height = inner
    left, top, outer_width, outer_height = outer
    return left <= x and top <= y and x + width <= left + outer_width and y + height <= top + outer_height


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1280, 720), (1920, 1080)])
def test_the_window_fits_the_screen_first_and_when_restored(tmp_path: Path, width: int, height: int) -> None:
    screen = tmp_path / "screen.json"
    screen.write_text(
        json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": width, "height": height}]}),
        encoding="utf-8",
    )
    env = dict(os.environ)
    env |= {
        "QT_QPA_PLATFORM": f"offscreen:configfile={screen}",
        "PYTHONPATH": os.pathsep.join([PACKAGE_ROOT, env.get("PYTHONPATH", "")]),
        "GOLDENLENS_CONFIG_DIR": str(tmp_path / "config"),
        "GOLDENLENS_DATA_DIR": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(tmp_path / "settings")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout.splitlines()[-1])
    assert shown["available"] == [0, 0, width, height]
    for name in ("first", "restored"):
        assert _contains(shown["available"], shown[name]), (name, shown)
    # The first window is as large as the screen allows, up to 1500x900 (not a postage stamp).
    assert shown["first"][2] >= min(1500, width - 40)
    assert shown["first"][3] >= min(900, height - 60)

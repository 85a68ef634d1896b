"""On a terminal, the steps that take seconds and count nothing say what they work out (a
first-time user waited 6 s on `report` and `advise` with no output); in a script or a log they
print nothing more (real processes: a pseudo-terminal for stderr, a pipe for the other)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from tests.cli_process import PACKAGE_ROOT, run_goldenlens


def _on_a_terminal(*args: str) -> tuple[int, str]:
    """Run ``goldenlens args`` with stderr on a pseudo-terminal; its exit code and what it wrote there."""
    controller, terminal = pty.openpty()
    env = {**os.environ, "PYTHONPATH": PACKAGE_ROOT}
    child = subprocess.Popen(
        [sys.executable, "-m", "goldenlens", *args], stdout=subprocess.DEVNULL, stderr=terminal, env=env
    )
    os.close(terminal)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(controller)
    return child.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal as Linux has it")
def test_report_and_advise_say_what_they_work_out_on_a_terminal_only(
    sample_project: Path, tmp_path: Path
) -> None:
    code, said = _on_a_terminal("report", str(sample_project), "-o", str(tmp_path / "r.csv"))
    assert code == 0, said
    assert "reading the scores; working out the decision, what reviewers would judge and the advice…" in said
    assert "\r\x1b[2K" in said  # the line is cleared once the work is done
    assert said.rstrip().endswith(f"Wrote 30 scored responses to {tmp_path / 'r.csv'}")
    code, said = _on_a_terminal("advise", str(sample_project))
    assert code == 0, said
    assert "working out the advice…" in said
    code, said = _on_a_terminal("report", str(sample_project), "-o", str(tmp_path / "q.csv"), "-q")
    assert code == 0, said
    assert "working out" not in said
    piped = run_goldenlens("report", str(sample_project), "-o", str(tmp_path / "p.csv"))
    assert piped.returncode == 0, piped.stderr
    assert "working out" not in piped.stderr

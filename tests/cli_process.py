"""``python -m goldenlens ARGS`` in a subprocess, as a user runs it, with this checkout's
package first on the path: the command-line tests that need a real process (exit codes,
stdout and stderr as printed) share it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import goldenlens

PACKAGE_ROOT = str(Path(goldenlens.__file__).resolve().parents[1])


def run_goldenlens(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the command line with ``args``; its output decoded as UTF-8, never raising on a
    non-zero exit (the tests read ``returncode``)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_ROOT, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "goldenlens", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=timeout,
        check=False,
    )

"""Entry point of the frozen bundle: one program, two executables.

PyInstaller builds two executables from this script into the same folder: ``goldenlens-desktop``
(the desktop app, ``goldenlens.ui.app:main``, as the ``goldenlens-desktop`` gui script) and
``goldenlens`` (the command line, ``goldenlens.cli.main:run``, as the console script). Which
one runs is decided by the executable's name, so both share one copy of Python, Qt and
llama.cpp.
"""

from __future__ import annotations

import multiprocessing
import sys
from pathlib import Path


def main() -> None:
    # Scoring runs a process pool; a frozen program started as a pool worker must become that
    # worker here instead of opening the app again.
    multiprocessing.freeze_support()
    if Path(sys.executable).name.startswith("goldenlens-desktop"):
        from goldenlens.ui.app import main as desktop_main

        desktop_main()
        return
    from goldenlens.cli.main import run

    run()


if __name__ == "__main__":
    main()

"""What a ``goldenlens doctor`` check is needed for: ``gui`` (the desktop app) and ``judge``
(local model metrics).

Apart from :mod:`goldenlens.jobs.doctor` (which exports them too) because the command line
offers them as choices while it builds its parser, and every other command line would
otherwise load the checks first.
"""

from __future__ import annotations

__all__ = ["DISPLAY_USE", "JUDGE_USE", "USES"]

DISPLAY_USE = "gui"
JUDGE_USE = "judge"
USES = (DISPLAY_USE, JUDGE_USE)

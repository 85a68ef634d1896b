"""Steps the labelling command-line tests share: a command that must succeed, a plan's rows."""

from __future__ import annotations

import csv
from pathlib import Path

from tests.cli_process import run_goldenlens


def ok(*args: str) -> str:
    done = run_goldenlens(*args, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def plan_rows(plan: Path) -> list[dict[str, str]]:
    with plan.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))

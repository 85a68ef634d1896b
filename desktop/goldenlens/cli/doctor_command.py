"""``goldenlens doctor``: print what this machine lacks for the desktop app and the judge."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from goldenlens.jobs.doctor import (
    DISPLAY_USE,
    JUDGE_USE,
    USES,
    Check,
    apt_line,
    display_checks,
    doctor_checks,
)

EXIT_NOT_READY = 1


def add_doctor_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``doctor``."""
    doctor = sub.add_parser(
        "doctor",
        help="check the display, Qt's system libraries, the models, llama.cpp and the data folders",
        description="Check what the desktop app and the local judge need and print how to install "
        "what is missing. Exit 0 when everything the chosen use needs is there, 1 otherwise.",
    )
    doctor.add_argument(
        "--for",
        dest="uses",
        action="append",
        choices=USES,
        help=f"only what this use needs: {DISPLAY_USE} (the desktop app) or {JUDGE_USE} (local "
        "model metrics); repeatable (default: both)",
    )


def print_checks(checks: Sequence[Check], uses: Sequence[str], out: TextIO) -> bool:
    """Print one line per check (with its fix) and a merged apt-get line; True when ready."""
    for check in checks:
        status = "OK" if check.ok else ("MISSING" if check.blocks(uses) else "missing")
        print(f"  {status:<8} {check.name}: {check.detail}", file=out)
        if not check.ok and check.fix:
            print(f"           fix: {check.fix}", file=out)
    packages = [p for c in checks if c.blocks(uses) for p in c.packages]
    if packages:
        print(f"\nInstall the missing system libraries with:\n  {apt_line(packages)}", file=out)
    return not any(check.blocks(uses) for check in checks)


def cmd_doctor(args: argparse.Namespace) -> int:
    """Run every check for the chosen uses; exit 0 when ready, 1 otherwise."""
    uses: list[str] = args.uses or list(USES)
    print(f"GoldenLens doctor ({', '.join(uses)})")
    ready = print_checks(doctor_checks(uses), uses, sys.stdout)
    print("\nReady." if ready else "\nNot ready: fix the MISSING lines above.")
    return 0 if ready else EXIT_NOT_READY


def gui_preflight() -> int:
    """Before ``goldenlens gui`` imports Qt: 0 when the display and Qt's libraries are there,
    else print the doctor's advice on stderr and return 1 (instead of Qt aborting, exit 134)."""
    checks = display_checks()
    if not any(check.blocks([DISPLAY_USE]) for check in checks):
        return 0
    print("goldenlens: error: the desktop app cannot start on this machine:", file=sys.stderr)
    print_checks([c for c in checks if not c.ok], [DISPLAY_USE], sys.stderr)
    print("(run `goldenlens doctor` for every check)", file=sys.stderr)
    return EXIT_NOT_READY

"""``goldenlens doctor``: print what this machine lacks for the desktop app and the judge."""

from __future__ import annotations

import argparse
import sys

from goldenlens.jobs.doctor_uses import DISPLAY_USE, JUDGE_USE, USES

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


def cmd_doctor(args: argparse.Namespace) -> int:
    """Run every check for the chosen uses; exit 0 when ready, 1 otherwise."""
    from goldenlens.jobs.doctor import doctor_checks, report_lines

    uses: list[str] = args.uses or list(USES)
    print(f"GoldenLens doctor ({', '.join(uses)})")
    checks = doctor_checks(uses)
    print("\n".join(report_lines(checks, uses)))
    ready = not any(check.blocks(uses) for check in checks)
    print("\nReady." if ready else "\nNot ready: fix the MISSING lines above.")
    return 0 if ready else EXIT_NOT_READY


def gui_preflight() -> int:
    """Before ``goldenlens gui`` imports Qt: 0 when the display and Qt's libraries are there,
    else print the doctor's advice on stderr and return 1 (instead of Qt aborting, exit 134)."""
    from goldenlens.jobs.doctor import gui_advice

    advice = gui_advice()
    if advice is None:
        return 0
    print(f"goldenlens: error: {advice}", file=sys.stderr)
    return EXIT_NOT_READY

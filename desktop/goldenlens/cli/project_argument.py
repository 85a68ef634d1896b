"""The ``project`` positional of the commands that work on a project file: one declaration, so
that every command's help names it the same way."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_project_argument(parser: argparse.ArgumentParser, *, scored: bool = False) -> None:
    """Add the ``project`` positional (``scored``: the command needs a scoring run in it)."""
    parser.add_argument("project", type=Path, help=f"a {'scored ' if scored else ''}.goldenlens project")

"""Why a path does not lead to a file: missing, a broken symbolic link, or a link loop.

``Path.exists()`` answers ``False`` for all three, so "not found" would send the analyst
looking for a file that is right there as a link. The messages here say which it is.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

_MAX_SHOWN_LINKS = 6


def unreachable_reason(path: Path) -> str | None:
    """``"is a symbolic link loop (a → b → a)"``, ``"is a broken link to X"``, or ``None``.

    ``None`` means ``path`` leads to something that exists, or is simply missing (no link
    involved): the caller words those cases itself.
    """
    try:
        path.stat()
    except OSError as error:
        if error.errno == errno.ELOOP:
            if path.is_symlink():
                return f"is a symbolic link loop ({link_chain(path)})"
            return f"lies in a folder that is a symbolic link loop ({path})"
        if path.is_symlink():
            return f"is a broken link to {path.readlink()} (nothing is there)"
        return None
    return None


def link_chain(path: Path) -> str:
    """``a → b → a``: the links followed from ``path`` until one repeats (a few at most)."""
    seen: list[str] = []
    current = Path(path)
    steps = [current.name or str(current)]
    while current.is_symlink() and len(steps) <= _MAX_SHOWN_LINKS:
        key = os.path.normpath(current.absolute())  # not resolve(): that would follow the links
        if key in seen:
            return " → ".join(steps)
        seen.append(key)
        target = current.readlink()
        steps.append(str(target))
        current = current.parent / target
    if current.is_symlink():
        steps.append("…")
    return " → ".join(steps)

"""Where file dialogs open: the folder last used for that kind of file, else a sensible one.

Kept in ``QSettings`` under ``folders/<kind>``; without this every dialog opened in the
folder the app was started from, and forgot the analyst's choice at once.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

EXPORT_FOLDER = "export"
PROJECT_FOLDER = "project"
IMPORT_FOLDER = "import"


def _key(kind: str) -> str:
    return f"folders/{kind}"


def last_folder(kind: str) -> Path | None:
    """The folder last used for ``kind`` when it still exists."""
    value = QSettings().value(_key(kind), "", type=str)
    folder = Path(str(value)) if value else None
    return folder if folder is not None and folder.is_dir() else None


def start_folder(kind: str, fallback: Path | None = None) -> Path:
    """Where a ``kind`` dialog opens: the last used folder, else ``fallback`` (when it exists),
    else the home folder."""
    return last_folder(kind) or (fallback if fallback is not None and fallback.is_dir() else Path.home())


def remember_folder(kind: str, chosen: Path) -> None:
    """Remember the folder of ``chosen`` (a file) for the next ``kind`` dialog."""
    QSettings().setValue(_key(kind), str(chosen.parent))

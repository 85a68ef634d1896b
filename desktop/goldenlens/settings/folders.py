"""Where GoldenLens keeps its files on this machine: the config folder (preferences) and the
data folder (the sample project, converted models), by each system's convention
(``platformdirs``).

- Linux and other Unix systems: ``$XDG_CONFIG_HOME/goldenlens`` (``~/.config/goldenlens``) and
  ``$XDG_DATA_HOME/goldenlens`` (``~/.local/share/goldenlens``);
- Windows: ``%APPDATA%\\GoldenLens`` and ``%LOCALAPPDATA%\\GoldenLens``;
- macOS: ``~/Library/Application Support/GoldenLens`` for both. Before it followed the
  convention GoldenLens kept its preferences in ``~/.config/goldenlens`` there too: a file
  found only in that folder is still read (:func:`config_file`).

``GOLDENLENS_CONFIG_DIR`` and ``GOLDENLENS_DATA_DIR`` override the folders (tests point them at
temporary ones).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs


def _app_name() -> str:
    # Unix folders are lower-case by convention (and were so before platformdirs); Windows and
    # macOS name an application's folder by its title.
    return "GoldenLens" if sys.platform in {"win32", "darwin"} else "goldenlens"


def config_dir() -> Path:
    """Where preferences live: ``$GOLDENLENS_CONFIG_DIR``, else the system's user config
    folder (roaming on Windows: preferences follow the analyst)."""
    override = os.environ.get("GOLDENLENS_CONFIG_DIR")
    if override:
        return Path(override)
    return platformdirs.user_config_path(_app_name(), appauthor=False, roaming=True)


def data_dir() -> Path:
    """Where GoldenLens keeps its own files (the sample project, converted models):
    ``$GOLDENLENS_DATA_DIR``, else the system's user data folder (local on Windows: models
    are large and belong to this machine)."""
    override = os.environ.get("GOLDENLENS_DATA_DIR")
    if override:
        return Path(override)
    return platformdirs.user_data_path(_app_name(), appauthor=False)


def config_file(name: str) -> Path:
    """The file ``name`` of the config folder, to read: in :func:`config_dir`, or where only the
    folder an earlier GoldenLens used on macOS (``~/.config/goldenlens``) holds it, that one, so
    nothing saved there is lost. Saving always writes to :func:`config_dir`."""
    path = config_dir() / name
    if sys.platform != "darwin" or path.exists() or os.environ.get("GOLDENLENS_CONFIG_DIR"):
        return path
    earlier = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "goldenlens" / name
    return earlier if earlier.is_file() else path

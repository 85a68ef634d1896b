"""The analyst's preferences: a typed object saved as versioned JSON in the config folder.

Window geometry and column widths live in ``QSettings`` (the UI's business); everything
here is Qt-free so the CLI and tests can read it. ``GOLDENLENS_CONFIG_DIR`` overrides the
folder (tests point it at a temporary directory).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, RECALL

SCHEMA_VERSION = 1
MAX_RECENT = 10
Saved = TypeVar("Saved")


def config_dir() -> Path:
    """Where preferences live: ``$GOLDENLENS_CONFIG_DIR``, else the XDG/AppData convention."""
    override = os.environ.get("GOLDENLENS_CONFIG_DIR")
    if override:
        return Path(override)
    if os.name == "nt" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "GoldenLens"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "goldenlens"


def data_dir() -> Path:
    """Where GoldenLens keeps its own files (the sample project, converted models):
    ``$GOLDENLENS_DATA_DIR``, else the XDG/AppData convention."""
    override = os.environ.get("GOLDENLENS_DATA_DIR")
    if override:
        return Path(override)
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "GoldenLens"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "goldenlens"


@dataclass(frozen=True)
class Preferences:
    """Everything the analyst can set once and keep."""

    reviewer: str = ""
    recent_projects: tuple[str, ...] = ()
    shown_metrics: tuple[str, ...] = (FACTUAL_KNOWLEDGE, F1_SCORE, RECALL)
    thresholds: FlagThresholds = field(default_factory=FlagThresholds)
    sample_offered: bool = False

    def with_recent(self, path: Path) -> Preferences:
        """``path`` first in the recent list, without duplicates, at most ``MAX_RECENT``."""
        text = str(path)
        recent = (text, *(p for p in self.recent_projects if p != text))
        return replace(self, recent_projects=recent[:MAX_RECENT])

    def to_json(self) -> str:
        data: dict[str, Any] = asdict(self)
        data["schema_version"] = SCHEMA_VERSION
        return json.dumps(data, indent=2, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Preferences:
        """Read preferences; unknown keys are ignored and bad values fall back to defaults."""
        data = json.loads(text)
        if not isinstance(data, dict):
            return cls()
        defaults = cls()
        thresholds = defaults.thresholds
        raw = data.get("thresholds")
        if isinstance(raw, dict):
            current = asdict(thresholds)
            known: dict[str, Any] = {
                k: type(current[k])(v) for k, v in raw.items() if k in current and isinstance(v, int | float)
            }
            thresholds = replace(thresholds, **known)

        def strings(key: str, default: tuple[str, ...]) -> tuple[str, ...]:
            value = data.get(key)
            return tuple(str(v) for v in value) if isinstance(value, list) else default

        return cls(
            reviewer=str(data.get("reviewer", defaults.reviewer)),
            recent_projects=strings("recent_projects", defaults.recent_projects),
            shown_metrics=strings("shown_metrics", defaults.shown_metrics),
            thresholds=thresholds,
            sample_offered=bool(data.get("sample_offered", False)),
        )


def preferences_path() -> Path:
    return config_dir() / "preferences.json"


def load_preferences() -> Preferences:
    """The saved preferences, or defaults when there are none or the file is unreadable."""
    return read_settings_file(preferences_path(), Preferences.from_json, Preferences)


def save_preferences(preferences: Preferences) -> None:
    """Save atomically: a crash never leaves half a file (:func:`write_settings_file`)."""
    write_settings_file(preferences_path(), preferences.to_json())


def read_settings_file(path: Path, parse: Callable[[str], Saved], default: Callable[[], Saved]) -> Saved:
    """``parse`` of the settings file at ``path``, or ``default()`` when there is none or it
    cannot be read (a preference is never worth an error)."""
    try:
        return parse(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default()


def write_settings_file(path: Path, text: str) -> None:
    """Write atomically (temp file + replace) so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)

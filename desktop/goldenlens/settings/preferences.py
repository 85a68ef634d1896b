"""The analyst's preferences: a typed object saved as versioned JSON in the config folder.

Window geometry and column widths live in ``QSettings`` (the UI's business); everything
here is Qt-free so the CLI and tests can read it. The folder is
:func:`~goldenlens.settings.folders.config_dir` (``GOLDENLENS_CONFIG_DIR`` overrides it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from goldenlens.atomic_write import write_text_whole
from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, RECALL
from goldenlens.settings.folders import config_dir, config_file

SCHEMA_VERSION = 1
MAX_RECENT = 10
Saved = TypeVar("Saved")


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


#: The preferences file's name in the config folder.
PREFERENCES_FILE = "preferences.json"


def preferences_path() -> Path:
    """Where :func:`save_preferences` writes them."""
    return config_dir() / PREFERENCES_FILE


def load_preferences() -> Preferences:
    """The saved preferences, or defaults when there are none or the file is unreadable."""
    return read_settings_file(PREFERENCES_FILE, Preferences.from_json, Preferences)


def save_preferences(preferences: Preferences) -> None:
    """Write them whole or not at all (:func:`write_settings_file`)."""
    write_settings_file(preferences_path(), preferences.to_json())


def read_settings_file(name: str, parse: Callable[[str], Saved], default: Callable[[], Saved]) -> Saved:
    """``parse`` of the settings file ``name`` in the config folder
    (:func:`~goldenlens.settings.folders.config_file`), or ``default()`` when there is none or it
    cannot be read (a preference is never worth an error)."""
    try:
        return parse(config_file(name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default()


def write_settings_file(path: Path, text: str) -> None:
    """Write whole or not at all (:func:`~goldenlens.atomic_write.write_whole`), so a crash
    never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_whole(path, text)

"""The judge settings the analyst keeps between runs: a typed object saved as versioned JSON.

Stored next to ``preferences.json`` as ``judge_settings.json``. Qt-free, so the CLI and tests
can read it; an unreadable or foreign file gives the defaults, never an error.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from goldenlens.atomic_write import write_text_whole
from goldenlens.settings.folders import config_dir, config_file

__all__ = [
    "DEFAULT_METRICS",
    "EMBED_SOURCES",
    "JUDGE_SOURCES",
    "SCHEMA_VERSION",
    "JudgeSettings",
    "judge_settings_path",
    "load_judge_settings",
    "save_judge_settings",
]

SCHEMA_VERSION = 1
#: Where the judge comes from: the bundled tiny model, a GGUF file, or an OpenAI-compatible server.
JUDGE_SOURCES = ("default", "file", "server")
#: Where the embedding model comes from: the bundled MiniLM or a GGUF file.
EMBED_SOURCES = ("default", "file")
#: Cheap, informative metrics preselected on first use.
DEFAULT_METRICS = ("faithfulness", "answer_relevancy", "context_relevance", "semantic_similarity")


@dataclass(frozen=True)
class JudgeSettings:
    """Everything the judge dialog sets. ``n_threads`` 0 means "let llama.cpp decide"."""

    judge_source: str = "default"
    judge_model_path: str = ""
    judge_url: str = ""
    embed_source: str = "default"
    embed_model_path: str = ""
    n_ctx: int = 4096
    n_threads: int = 0
    temperature: float = 0.0
    seed: int = 42
    parallel: int = 1
    metrics: tuple[str, ...] = DEFAULT_METRICS
    metric_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    custom_aspects: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> str:
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        data["metrics"] = list(self.metrics)
        data["metric_params"] = {k: dict(v) for k, v in self.metric_params.items()}
        data["custom_aspects"] = dict(self.custom_aspects)
        data["schema_version"] = SCHEMA_VERSION
        return json.dumps(data, indent=2, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> JudgeSettings:
        """Read settings; unknown keys are ignored and bad values fall back to the defaults."""
        data = json.loads(text)
        defaults = cls()
        if not isinstance(data, dict) or data.get("schema_version", SCHEMA_VERSION) > SCHEMA_VERSION:
            return defaults

        def choice(key: str, allowed: tuple[str, ...]) -> str:
            value = data.get(key)
            return value if isinstance(value, str) and value in allowed else str(getattr(defaults, key))

        def string(key: str) -> str:
            value = data.get(key)
            return value if isinstance(value, str) else str(getattr(defaults, key))

        def integer(key: str, low: int, high: int) -> int:
            value = data.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
                return value
            return int(getattr(defaults, key))

        temperature = data.get("temperature")
        if (
            not isinstance(temperature, int | float)
            or not math.isfinite(temperature)
            or not 0 <= temperature <= 2
        ):
            temperature = defaults.temperature
        metrics = data.get("metrics")
        params = data.get("metric_params")
        aspects = data.get("custom_aspects")
        return cls(
            judge_source=choice("judge_source", JUDGE_SOURCES),
            judge_model_path=string("judge_model_path"),
            judge_url=string("judge_url"),
            embed_source=choice("embed_source", EMBED_SOURCES),
            embed_model_path=string("embed_model_path"),
            n_ctx=integer("n_ctx", 256, 1 << 20),
            n_threads=integer("n_threads", 0, 1024),
            temperature=float(temperature),
            seed=integer("seed", 0, 2**31 - 1),
            parallel=integer("parallel", 1, 64),
            metrics=tuple(str(m) for m in metrics) if isinstance(metrics, list) else defaults.metrics,
            metric_params={str(k): dict(v) for k, v in params.items() if isinstance(v, dict)}
            if isinstance(params, dict)
            else {},
            custom_aspects={
                str(k): v for k, v in aspects.items() if isinstance(v, str) and str(k).strip() and v.strip()
            }
            if isinstance(aspects, dict)
            else {},
        )


def judge_settings_path() -> Path:
    """``judge_settings.json`` in the preferences folder."""
    return config_dir() / "judge_settings.json"


def load_judge_settings() -> JudgeSettings:
    """The saved judge settings, or the defaults when there are none or they are unreadable."""
    try:
        return JudgeSettings.from_json(config_file(judge_settings_path().name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return JudgeSettings()


def save_judge_settings(settings: JudgeSettings) -> None:
    """Write them whole or not at all (:func:`~goldenlens.atomic_write.write_whole`)."""
    path = judge_settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_whole(path, settings.to_json())

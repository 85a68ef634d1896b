"""The judge settings the analyst keeps between runs: a typed object saved as versioned JSON.

Stored next to ``preferences.json`` as ``judge_settings.json``. Qt-free, so the CLI and tests
can read it; an unreadable or foreign file gives the defaults, never an error.

The file holds what the judge dialog shows: where each model comes from and the path or URL
last typed (kept while another source is chosen), the engine's numbers, and the metrics. Its
engine part becomes a run's :class:`~goldenlens.core.judge_engine_spec.JudgeEngineSpec` through
:meth:`JudgeSettings.engine_spec`; the defaults and ranges are the spec's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from goldenlens.core.judge_engine_spec import (
    DEFAULT_N_CTX,
    DEFAULT_PARALLEL,
    DEFAULT_SEED,
    DEFAULT_TEMPERATURE,
    JudgeEngineSpec,
    setting_problem,
)
from goldenlens.core.record_dicts import record_dict
from goldenlens.settings.folders import config_dir
from goldenlens.settings.preferences import read_settings_file, write_settings_file

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
    n_ctx: int = DEFAULT_N_CTX
    n_threads: int = 0
    temperature: float = DEFAULT_TEMPERATURE
    seed: int = DEFAULT_SEED
    parallel: int = DEFAULT_PARALLEL
    metrics: tuple[str, ...] = DEFAULT_METRICS
    metric_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    custom_aspects: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> str:
        data = record_dict(
            self,
            metrics=list(self.metrics),
            metric_params={k: dict(v) for k, v in self.metric_params.items()},
            custom_aspects=dict(self.custom_aspects),
            schema_version=SCHEMA_VERSION,
        )
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

        def number(key: str) -> Any:
            value = data.get(key)
            return getattr(defaults, key) if setting_problem(key, value) else value

        metrics = data.get("metrics")
        params = data.get("metric_params")
        aspects = data.get("custom_aspects")
        return cls(
            judge_source=choice("judge_source", JUDGE_SOURCES),
            judge_model_path=string("judge_model_path"),
            judge_url=string("judge_url"),
            embed_source=choice("embed_source", EMBED_SOURCES),
            embed_model_path=string("embed_model_path"),
            n_ctx=number("n_ctx"),
            n_threads=number("n_threads"),
            temperature=float(number("temperature")),
            seed=number("seed"),
            parallel=number("parallel"),
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

    def engine_spec(self) -> JudgeEngineSpec:
        """The engine these settings name: a model file or a server only when chosen as the
        source (a path or URL typed for another source is ignored), parallel requests only
        for a server. Raises ``ValueError`` for values the spec refuses."""
        server = self.judge_source == "server"
        return JudgeEngineSpec(
            judge_model=Path(self.judge_model_path).expanduser() if self.judge_source == "file" else None,
            judge_url=self.judge_url.strip() if server else None,
            embed_model=Path(self.embed_model_path).expanduser() if self.embed_source == "file" else None,
            n_ctx=self.n_ctx,
            n_threads=self.n_threads or None,
            temperature=self.temperature,
            seed=self.seed,
            parallel=self.parallel if server else DEFAULT_PARALLEL,
        )


def judge_settings_path() -> Path:
    """``judge_settings.json`` in the preferences folder."""
    return config_dir() / "judge_settings.json"


def load_judge_settings() -> JudgeSettings:
    """The saved judge settings, or the defaults when there are none or they are unreadable."""
    return read_settings_file(judge_settings_path().name, JudgeSettings.from_json, JudgeSettings)


def save_judge_settings(settings: JudgeSettings) -> None:
    """Save atomically: a crash never leaves half a file (:func:`write_settings_file`)."""
    write_settings_file(judge_settings_path(), settings.to_json())

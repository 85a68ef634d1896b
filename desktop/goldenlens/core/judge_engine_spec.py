"""The judge engine setting: which models judge and embed, and how they run.

One frozen value for every judge job (judge runs, golden reviews, drafting) and both front
ends: the command line reads it from its arguments (:mod:`goldenlens.cli.judge_options`), the
desktop app from the saved judge settings
(:meth:`goldenlens.settings.judge_preferences.JudgeSettings.engine_spec`), and a stored run
from its parameters (:meth:`JudgeEngineSpec.from_params`). The defaults and the accepted
ranges live here and nowhere else.

A model ``None`` means the bundled default. Core reads no files, so finding that file (and
checking that a chosen one exists) is left to :mod:`goldenlens.judge.model_files` and the
front ends.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

__all__ = [
    "DEFAULT_N_CTX",
    "DEFAULT_PARALLEL",
    "DEFAULT_SEED",
    "DEFAULT_TEMPERATURE",
    "LIMITS",
    "JudgeEngineSpec",
    "setting_problem",
]

DEFAULT_N_CTX: Final = 4096
DEFAULT_TEMPERATURE: Final = 0.0
#: Judges are deterministic by default: the same seed on every call of every run.
DEFAULT_SEED: Final = 42
DEFAULT_PARALLEL: Final = 1

#: The inclusive ranges of the numeric settings (the judge dialog offers no more). ``n_threads``
#: 0 leaves the count to llama.cpp, as ``None`` does.
LIMITS: Final[Mapping[str, tuple[float, float]]] = {
    "n_ctx": (256, 1 << 20),
    "n_threads": (0, 1024),
    "temperature": (0.0, 2.0),
    "seed": (0, 2**31 - 1),
    "parallel": (1, 64),
}
#: How each numeric setting is named in a message.
_WORDS: Final[Mapping[str, str]] = {
    "n_ctx": "the context size (tokens)",
    "n_threads": "the thread count (0: llama.cpp's choice)",
    "temperature": "the temperature",
    "seed": "the seed",
    "parallel": "the number of parallel requests",
}


def setting_problem(name: str, value: object) -> str | None:
    """Why ``value`` cannot be the numeric setting ``name`` (one of :data:`LIMITS`), or
    ``None`` when it can. Shared by the spec and the preferences loader, which falls back to
    the default of each setting that fails."""
    low, high = LIMITS[name]
    number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if name != "temperature" and not isinstance(number, int):
        number = None  # the others are whole numbers
    if number is not None and math.isfinite(number) and low <= number <= high:
        return None
    shown = f"{low:g} and {high:g}" if name == "temperature" else f"{int(low)} and {int(high)}"
    return f"{_WORDS[name]} must be between {shown}, got {value!r}"


@dataclass(frozen=True)
class JudgeEngineSpec:
    """Which judge and embedding models a job opens, and with what settings.

    ``judge_model`` / ``embed_model`` ``None`` are the bundled defaults; ``judge_url`` (an
    OpenAI-compatible server) replaces the in-process judge. ``n_ctx`` and ``n_threads``
    (``None``: llama.cpp's choice) size a local model; ``temperature`` and ``seed`` go with
    every judge call; ``parallel`` is the number of requests a run keeps in flight to a
    server (a local model has one owner thread, so one at a time). Raises ``ValueError``
    for a setting out of range or for both a model file and a server.
    """

    judge_model: Path | None = None
    judge_url: str | None = None
    embed_model: Path | None = None
    n_ctx: int = DEFAULT_N_CTX
    n_threads: int | None = None
    temperature: float = DEFAULT_TEMPERATURE
    seed: int = DEFAULT_SEED
    parallel: int = DEFAULT_PARALLEL

    def __post_init__(self) -> None:
        if self.judge_model is not None and self.judge_url:
            raise ValueError("choose either a judge model file or a judge server URL, not both")
        for name in LIMITS:
            value = getattr(self, name)
            if name == "n_threads" and value is None:
                continue
            if problem := setting_problem(name, value):
                raise ValueError(problem)

    @property
    def workers(self) -> int:
        """How many rows a run may judge at once: ``parallel`` with a server, else 1."""
        return self.parallel if self.judge_url else 1

    def judge_params(self) -> dict[str, Any]:
        """The judge's part of a run's parameters (JSON): what changes the judge's replies.
        Jobs that use no embedding model and ask one question at a time record these."""
        return {
            "judge_model": None if self.judge_model is None else str(self.judge_model),
            "judge_url": self.judge_url,
            "n_ctx": self.n_ctx,
            "n_threads": self.n_threads,
            "temperature": self.temperature,
            "seed": self.seed,
        }

    def params(self) -> dict[str, Any]:
        """Every setting as a run's parameters (JSON), in the order judge runs record them."""
        judge = self.judge_params()
        return {
            "judge_model": judge.pop("judge_model"),
            "judge_url": judge.pop("judge_url"),
            "embed_model": None if self.embed_model is None else str(self.embed_model),
            **judge,
            "parallel": self.parallel,
        }

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> JudgeEngineSpec:
        """The spec a stored run recorded (:meth:`params` or :meth:`judge_params`; a key it
        lacks takes its default)."""
        judge_model, embed_model = params.get("judge_model"), params.get("embed_model")
        return cls(
            judge_model=None if judge_model is None else Path(judge_model),
            judge_url=params.get("judge_url"),
            embed_model=None if embed_model is None else Path(embed_model),
            n_ctx=int(params.get("n_ctx", DEFAULT_N_CTX)),
            n_threads=params.get("n_threads"),
            temperature=float(params.get("temperature", DEFAULT_TEMPERATURE)),
            seed=int(params.get("seed", DEFAULT_SEED)),
            parallel=int(params.get("parallel", DEFAULT_PARALLEL)),
        )

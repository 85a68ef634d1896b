"""Options of a judge run and the engines they open.

:class:`JudgeOptions` is what the user chose (metrics, models, sampling); its
:meth:`~JudgeOptions.params` are stored with the run, so ``goldenlens resume`` can reopen the
same models (:meth:`JudgeOptions.from_params`). :func:`open_engines` creates only the engines
the chosen metrics need: no judge model is loaded for embedding-only metrics and vice versa.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.engines.protocol import JudgeEngine
from goldenlens.judge.metrics.base import DEFAULT_SEED, DEFAULT_TEMPERATURE, JudgeMetric
from goldenlens.judge.model_files import ModelNotFoundError
from goldenlens.judge.registry import build_metrics, expand_names

__all__ = ["Engines", "JudgeOptions", "ModelNotFoundError", "open_engines", "open_judge_engine"]

#: Parameters that do not change any number: left out when matching a run to resume.
_NOT_COMPARED = ("parallel",)


def _frozen_params(params: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    return {name: dict(values) for name, values in params.items()}


@dataclass(frozen=True)
class JudgeOptions:
    """What a judge run uses. ``judge_model``/``embed_model`` ``None`` mean the bundled
    defaults; ``judge_url`` (an OpenAI-compatible server) replaces the in-process judge.

    ``metric_params`` maps a metric name to its parameters (``{"answer_relevancy": {"n": 3}}``);
    ``custom_aspects`` maps an aspect name to its definition (selected as ``aspect_<name>``).
    ``parallel`` is the number of concurrent requests to a server (ignored in-process: one
    thread owns a local model). ``only`` (question ids) and ``where`` (a threshold expression
    on the lexical scores) narrow the run to some questions
    (:func:`goldenlens.jobs.judging.judge_selection.selected_questions`); both empty judge them all.
    """

    metrics: tuple[str, ...]
    judge_model: Path | None = None
    judge_url: str | None = None
    embed_model: Path | None = None
    n_ctx: int = 4096
    n_threads: int | None = None
    temperature: float = DEFAULT_TEMPERATURE
    seed: int = DEFAULT_SEED
    parallel: int = 1
    metric_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    custom_aspects: Mapping[str, str] = field(default_factory=dict)
    only: tuple[str, ...] = ()
    where: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "metrics", tuple(expand_names(self.metrics, self.custom_aspects)))
        if self.parallel < 1:
            raise ValueError(f"parallel must be at least 1, got {self.parallel}")
        if self.n_ctx < 256:
            raise ValueError(f"the context size must be at least 256 tokens, got {self.n_ctx}")
        if self.judge_model is not None and self.judge_url:
            raise ValueError("choose either a judge model file or a judge server URL, not both")

    def build_metrics(self) -> list[JudgeMetric]:
        """The metric instances (raises ``ValueError`` for a bad name or parameter)."""
        return build_metrics(self.metrics, self.metric_params, self.custom_aspects)

    def params(self) -> dict[str, Any]:
        """The run's parameters (JSON): everything needed to resume it with the same models."""
        # The selection is recorded only when there is one, so a run of every question keeps
        # the parameters (and the resumability) it had before selections existed.
        selection: dict[str, Any] = {"only": list(self.only)} if self.only else {}
        if self.where:
            selection["where"] = self.where
        return {
            **selection,
            "metrics": list(self.metrics),
            "judge_model": None if self.judge_model is None else str(self.judge_model),
            "judge_url": self.judge_url,
            "embed_model": None if self.embed_model is None else str(self.embed_model),
            "n_ctx": self.n_ctx,
            "n_threads": self.n_threads,
            "temperature": self.temperature,
            "seed": self.seed,
            "parallel": self.parallel,
            "metric_params": _frozen_params(self.metric_params),
            "custom_aspects": dict(self.custom_aspects),
        }

    def comparable_params(self) -> dict[str, Any]:
        """:meth:`params` without what changes no number (``parallel``): a run with equal
        comparable parameters can be resumed by these options."""
        return comparable(self.params())

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> JudgeOptions:
        """The options of a stored run (for ``resume``)."""
        judge_model = params.get("judge_model")
        embed_model = params.get("embed_model")
        return cls(
            metrics=tuple(params.get("metrics") or ()),
            judge_model=None if judge_model is None else Path(judge_model),
            judge_url=params.get("judge_url"),
            embed_model=None if embed_model is None else Path(embed_model),
            n_ctx=int(params.get("n_ctx", 4096)),
            n_threads=params.get("n_threads"),
            temperature=float(params.get("temperature", DEFAULT_TEMPERATURE)),
            seed=int(params.get("seed", DEFAULT_SEED)),
            parallel=int(params.get("parallel", 1)),
            metric_params=params.get("metric_params") or {},
            custom_aspects=params.get("custom_aspects") or {},
            only=tuple(params.get("only") or ()),
            where=str(params.get("where") or ""),
        )


def comparable(params: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in params.items() if key not in _NOT_COMPARED}


@dataclass
class Engines:
    """The engines of a run; ``None`` where no chosen metric needs one."""

    judge: JudgeEngine | None = None
    embedder: EmbeddingEngine | None = None


def needs(metrics: list[JudgeMetric], what: str) -> bool:
    return any(what in metric.requires for metric in metrics)


@contextmanager
def open_engines(options: JudgeOptions, data_dir: Path) -> Iterator[Engines]:
    """Create the engines ``options`` need, and close them on exit.

    The judge is an in-process :class:`~goldenlens.judge.engines.llama.LlamaCppEngine` on
    ``judge_model`` (default: the bundled SmolLM2) or, with ``judge_url``, an
    :class:`~goldenlens.judge.engines.http.OpenAICompatibleEngine`; the embedder runs
    ``embed_model`` (default: all-MiniLM-L6-v2 converted once into ``data_dir/models``).
    Raises :class:`ModelNotFoundError` for a model file that does not exist.
    """
    metrics = options.build_metrics()
    with ExitStack() as stack:
        engines = Engines()
        if needs(metrics, "judge"):
            engines.judge = stack.enter_context(_judge_engine(options))
        if needs(metrics, "embeddings"):
            engines.embedder = stack.enter_context(_embedding_engine(options, data_dir))
        yield engines


def _judge_engine(options: JudgeOptions) -> AbstractContextManager[JudgeEngine]:
    return open_judge_engine(
        judge_model=options.judge_model,
        judge_url=options.judge_url,
        n_ctx=options.n_ctx,
        n_threads=options.n_threads,
        seed=options.seed,
        parallel=options.parallel,
    )


@contextmanager
def open_judge_engine(
    *,
    judge_model: Path | None = None,
    judge_url: str | None = None,
    n_ctx: int = 4096,
    n_threads: int | None = None,
    seed: int = DEFAULT_SEED,
    parallel: int = 1,
) -> Iterator[JudgeEngine]:
    """The judge engine alone, closed on exit: a server client for ``judge_url``, else the
    in-process model ``judge_model`` (default: the bundled SmolLM2), loaded before it is
    handed out. For jobs that ask the judge directly rather than through metrics (the golden
    review, drafting golden items). Raises :class:`ModelNotFoundError` for a missing model
    file."""
    if judge_url:
        from goldenlens.judge.engines.http import OpenAICompatibleEngine

        with OpenAICompatibleEngine(judge_url, parallel=parallel) as server:
            yield server
        return
    from goldenlens.judge.engines.llama import LlamaCppEngine
    from goldenlens.judge.model_files import default_judge_model

    path = judge_model or default_judge_model()
    if not path.is_file():
        raise ModelNotFoundError(f"judge model file not found: {path}")
    with LlamaCppEngine(path, n_ctx=n_ctx, n_threads=n_threads, seed=seed) as local:
        local.ensure_loaded()
        yield local


@contextmanager
def _embedding_engine(options: JudgeOptions, data_dir: Path) -> Iterator[EmbeddingEngine]:
    from goldenlens.judge.engines.embedding import LlamaEmbeddingEngine
    from goldenlens.judge.gguf_convert import default_embedding_model, read_checksum

    if options.embed_model is not None:
        path = options.embed_model
        if not path.is_file():
            raise ModelNotFoundError(f"embedding model file not found: {path}")
        sha = None
    else:
        path = default_embedding_model(data_dir / "models")
        sha = read_checksum(path)
    with LlamaEmbeddingEngine(path, n_threads=options.n_threads, model_sha256=sha) as engine:
        yield engine

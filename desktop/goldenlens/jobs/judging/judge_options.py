"""Options of a judge run and the engines they open.

:class:`JudgeOptions` is what the user chose (metrics, models, sampling); its
:meth:`~JudgeOptions.params` are stored with the run, so ``goldenlens resume`` can reopen the
same models (:meth:`JudgeOptions.from_params`). :func:`open_engines` creates only the engines
the chosen metrics need: no judge model is loaded for embedding-only metrics and vice versa.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.engines.from_spec import ModelNotFoundError, open_embedding_engine, open_judge_engine
from goldenlens.judge.engines.protocol import JudgeEngine
from goldenlens.judge.metrics.base import JudgeMetric
from goldenlens.judge.registry import build_metrics, expand_names

__all__ = ["Engines", "JudgeOptions", "ModelNotFoundError", "open_engines", "open_judge_engine"]

#: Parameters that do not change any number: left out when matching a run to resume.
_NOT_COMPARED = ("parallel",)


def _frozen_params(params: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    return {name: dict(values) for name, values in params.items()}


@dataclass(frozen=True)
class JudgeOptions:
    """What a judge run uses: the metrics, and the models with their settings (``engine``).

    ``metric_params`` maps a metric name to its parameters (``{"answer_relevancy": {"n": 3}}``);
    ``custom_aspects`` maps an aspect name to its definition (selected as ``aspect_<name>``).
    ``only`` (question ids) and ``where`` (a threshold expression on the lexical scores)
    narrow the run to some questions
    (:func:`goldenlens.jobs.judging.judge_selection.selected_questions`); both empty judge them all.
    """

    metrics: tuple[str, ...]
    engine: JudgeEngineSpec = field(default_factory=JudgeEngineSpec)
    metric_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    custom_aspects: Mapping[str, str] = field(default_factory=dict)
    only: tuple[str, ...] = ()
    where: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "metrics", tuple(expand_names(self.metrics, self.custom_aspects)))

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
            **self.engine.params(),
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
        return cls(
            metrics=tuple(params.get("metrics") or ()),
            engine=JudgeEngineSpec.from_params(params),
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
    """Create the engines ``options`` need, and close them on exit: no judge model is loaded
    for embedding-only metrics and vice versa
    (:mod:`goldenlens.judge.engines.from_spec`; the default embedding model is converted
    once into ``data_dir/models``). Raises :class:`ModelNotFoundError` for a model file that
    does not exist.
    """
    metrics = options.build_metrics()
    with ExitStack() as stack:
        engines = Engines()
        if needs(metrics, "judge"):
            engines.judge = stack.enter_context(open_judge_engine(options.engine))
        if needs(metrics, "embeddings"):
            engines.embedder = stack.enter_context(open_embedding_engine(options.engine, data_dir / "models"))
        yield engines

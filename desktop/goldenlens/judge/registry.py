"""Judge metrics by name: what the CLI's ``--metrics`` and the desktop's metric list offer.

Names are the metrics' own (``faithfulness``, ``semantic_similarity``, …) plus
``aspect_<name>`` for an aspect critique, built-in (:data:`BUILTIN_ASPECTS`) or custom
(``custom_aspects`` maps a name to its definition). Groups expand to several names:

* ``judge``: every metric that needs the judge model (RAGAS and Spring AI), **without** the
  aspect critiques — five built-in aspects would add five calls per row that few users want;
* ``aspects``: the built-in aspects and every custom aspect given;
* ``embedding``: the metrics that need only the embedding model (``semantic_similarity``,
  ``bertscore``);
* ``all``: ``judge`` + ``embedding`` (aspects still by name or ``aspects``).

Each metric also names the exact input fields it reads (:func:`input_fields`), so that the
judge cache keys on them and nothing else: editing a golden answer changes only the keys of
the metrics that read the reference.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from goldenlens.core.view.metric_names import ASPECT_PREFIX
from goldenlens.judge.metrics.answer.answer_correctness import AnswerCorrectness
from goldenlens.judge.metrics.answer.answer_relevancy import AnswerRelevancy
from goldenlens.judge.metrics.answer.aspect_critique import BUILTIN_ASPECTS, AspectCritique
from goldenlens.judge.metrics.answer.factual_correctness import FactualCorrectness
from goldenlens.judge.metrics.answer.faithfulness import Faithfulness
from goldenlens.judge.metrics.answer.summarization_score import SummarizationScore
from goldenlens.judge.metrics.base import JudgeMetric, MetricInputs
from goldenlens.judge.metrics.context.context_precision import ContextPrecision
from goldenlens.judge.metrics.context.context_recall import ContextRecall
from goldenlens.judge.metrics.context.context_relevance import ContextRelevance
from goldenlens.judge.metrics.context.context_utilization import ContextUtilization
from goldenlens.judge.metrics.embedding.bertscore import BertScoreMetric
from goldenlens.judge.metrics.embedding.semantic_similarity import SemanticSimilarity
from goldenlens.judge.metrics.spring_ai.fact_check import FactCheck
from goldenlens.judge.metrics.spring_ai.relevancy import Relevancy

__all__ = [
    "ASPECT_PREFIX",
    "EMBEDDING_METRICS",
    "GROUPS",
    "JUDGE_METRICS",
    "METRIC_NAMES",
    "MetricInfo",
    "available",
    "build_metrics",
    "expand_names",
    "input_fields",
]


Params = Mapping[str, Any]
_Factory = Callable[[dict[str, Any]], JudgeMetric]


def _weights(value: Any) -> tuple[float, float]:
    items = tuple(float(v) for v in value)
    if len(items) != 2:
        raise ValueError(f"weights must be two numbers, got {value!r}")
    return items[0], items[1]


def _bool(value: Any) -> bool:
    if isinstance(value, str):
        if value.strip().lower() in ("1", "true", "yes", "on"):
            return True
        if value.strip().lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    return bool(value)


def _optional_float(value: Any) -> float | None:
    return None if value is None or value == "" else float(value)


def _optional_int(value: Any) -> int | None:
    return None if value is None or value == "" else int(value)


# name -> (factory, accepted parameters with their converters)
_CONVERTERS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "faithfulness": {"max_statements": int},
    "answer_relevancy": {"n": int},
    "context_precision": {},
    "context_utilization": {},
    "context_recall": {},
    "context_relevance": {},
    "answer_correctness": {"weights": _weights, "beta": float, "max_statements": int},
    "semantic_similarity": {"threshold": _optional_float},
    "bertscore": {},
    "factual_correctness": {
        "mode": str,
        "beta": float,
        "atomicity": str,
        "coverage": str,
        "max_claims": int,
    },
    "summarization_score": {"coeff": float, "max_keyphrases": int, "max_questions": _optional_int},
    "relevancy": {},
    "fact_check": {"minicheck": _bool, "max_chunk_chars": int, "chunk_overlap": int, "chunk_tokens": int},
}
_ASPECT_PARAMS: dict[str, Callable[[Any], Any]] = {"strictness": int}

_FACTORIES: dict[str, _Factory] = {
    "faithfulness": lambda p: Faithfulness(**p),
    "answer_relevancy": lambda p: AnswerRelevancy(**p),
    "context_precision": lambda _p: ContextPrecision(),
    "context_utilization": lambda _p: ContextUtilization(),
    "context_recall": lambda _p: ContextRecall(),
    "context_relevance": lambda _p: ContextRelevance(),
    "answer_correctness": lambda p: AnswerCorrectness(**p),
    "semantic_similarity": lambda p: SemanticSimilarity(**p),
    "bertscore": lambda _p: BertScoreMetric(),
    "factual_correctness": lambda p: FactualCorrectness(**p),
    "summarization_score": lambda p: SummarizationScore(**p),
    "relevancy": lambda _p: Relevancy(),
    "fact_check": lambda p: FactCheck(**p),
}

#: Metrics that need the judge model (the ``judge`` group), in display order.
JUDGE_METRICS: tuple[str, ...] = (
    "faithfulness",
    "answer_relevancy",
    "context_precision",
    "context_utilization",
    "context_recall",
    "context_relevance",
    "answer_correctness",
    "factual_correctness",
    "summarization_score",
    "relevancy",
    "fact_check",
)
#: Metrics that need only the embedding model (the ``embedding`` group).
EMBEDDING_METRICS: tuple[str, ...] = ("semantic_similarity", "bertscore")
#: Every metric name without custom aspects: the plain metrics, then the built-in aspects.
METRIC_NAMES: tuple[str, ...] = (
    *JUDGE_METRICS,
    *EMBEDDING_METRICS,
    *(ASPECT_PREFIX + name for name in BUILTIN_ASPECTS),
)
GROUPS: dict[str, tuple[str, ...]] = {
    "judge": JUDGE_METRICS,
    "embedding": EMBEDDING_METRICS,
    "all": (*JUDGE_METRICS, *EMBEDDING_METRICS),
}

# The input fields each metric reads; aspects read every field of the row.
_FIELDS: dict[str, tuple[str, ...]] = {
    "faithfulness": ("question", "response", "contexts"),
    "answer_relevancy": ("question", "response"),
    "context_precision": ("question", "contexts", "reference"),
    "context_utilization": ("question", "response", "contexts"),
    "context_recall": ("question", "contexts", "reference"),
    "context_relevance": ("question", "contexts"),
    "answer_correctness": ("question", "response", "reference"),
    "semantic_similarity": ("response", "reference"),
    "bertscore": ("response", "reference"),
    "factual_correctness": ("response", "reference"),
    "summarization_score": ("response", "contexts"),
    "relevancy": ("question", "response", "contexts"),
    "fact_check": ("response", "contexts"),
}
_ALL_FIELDS = ("question", "response", "contexts", "reference")
_SLUG = re.compile(r"[^a-z0-9]+")


def _slug(name: str) -> str:
    return _SLUG.sub("_", name.strip().lower()).strip("_")


@dataclass(frozen=True)
class MetricInfo:
    """What a settings screen shows for one metric."""

    name: str
    group: str  # "judge", "embedding" or "aspect"
    requires: frozenset[str]
    params: dict[str, Any]  # the default parameters
    description: str


def _aspect_definitions(custom_aspects: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    """``aspect_<slug>`` -> (aspect name, definition), custom aspects overriding built-ins."""
    found = {ASPECT_PREFIX + name: (name, definition) for name, definition in BUILTIN_ASPECTS.items()}
    for name, definition in custom_aspects.items():
        slug = _slug(name.removeprefix(ASPECT_PREFIX))
        if not slug:
            raise ValueError(f"a custom aspect needs a name, got {name!r}")
        if not str(definition).strip():
            raise ValueError(f"custom aspect {name!r} needs a definition")
        found[ASPECT_PREFIX + slug] = (name.removeprefix(ASPECT_PREFIX).strip(), str(definition))
    return found


def valid_names(custom_aspects: Mapping[str, str] = {}) -> list[str]:
    """Every name and group :func:`build_metrics` accepts."""
    names = [*METRIC_NAMES, *GROUPS, "aspects"]
    names += [n for n in _aspect_definitions(custom_aspects) if n not in names]
    return names


def expand_names(names: Sequence[str], custom_aspects: Mapping[str, str] = {}) -> list[str]:
    """Metric names with groups expanded, duplicates dropped, first occurrence first.

    Raises ``ValueError`` listing the valid names for an unknown one."""
    aspects = _aspect_definitions(custom_aspects)
    out: list[str] = []
    unknown: list[str] = []
    for raw in names:
        name = raw.strip().lower()
        if not name:
            continue
        if name in GROUPS:
            expanded: Sequence[str] = GROUPS[name]
        elif name == "aspects":
            expanded = list(aspects)
        elif name in _FACTORIES or name in aspects:
            expanded = [name]
        elif name.startswith(ASPECT_PREFIX) and ASPECT_PREFIX + _slug(name[len(ASPECT_PREFIX) :]) in aspects:
            expanded = [ASPECT_PREFIX + _slug(name[len(ASPECT_PREFIX) :])]
        else:
            unknown.append(raw)
            continue
        out.extend(n for n in expanded if n not in out)
    if unknown:
        raise ValueError(
            f"unknown metric {', '.join(map(repr, unknown))}; choose from: "
            + ", ".join(valid_names(custom_aspects))
        )
    if not out:
        raise ValueError("no metric given; choose from: " + ", ".join(valid_names(custom_aspects)))
    return out


def _converted(name: str, given: Params, accepted: Mapping[str, Callable[[Any], Any]]) -> dict[str, Any]:
    extra = sorted(set(given) - set(accepted))
    if extra:
        allowed = ", ".join(accepted) or "none"
        raise ValueError(f"metric {name!r} takes no parameter {', '.join(extra)} (it takes: {allowed})")
    try:
        return {key: accepted[key](value) for key, value in given.items()}
    except (TypeError, ValueError) as error:
        raise ValueError(f"metric {name!r}: bad parameter: {error}") from error


def build_metrics(
    names: Sequence[str],
    params: Mapping[str, Params] = {},
    custom_aspects: Mapping[str, str] = {},
) -> list[JudgeMetric]:
    """Metric instances for ``names`` (metric names and groups), each with its parameters
    from ``params[name]``.

    Raises ``ValueError`` for an unknown name (listing the valid ones), a parameter the
    metric does not take, parameters for a metric not selected, or a bad value.
    """
    expanded = expand_names(names, custom_aspects)
    aspects = _aspect_definitions(custom_aspects)
    stray = sorted(set(params) - set(expanded))
    if stray:
        raise ValueError(f"parameters given for metrics not selected: {', '.join(stray)}")
    metrics: list[JudgeMetric] = []
    for name in expanded:
        given = params.get(name, {})
        if name in _FACTORIES:
            metrics.append(_FACTORIES[name](_converted(name, given, _CONVERTERS[name])))
        else:
            aspect_name, definition = aspects[name]
            kwargs = _converted(name, given, _ASPECT_PARAMS)
            metrics.append(AspectCritique(aspect_name, definition, **kwargs))
    return metrics


def input_fields(metric: JudgeMetric, inputs: MetricInputs) -> dict[str, Any]:
    """The input fields ``metric`` reads from ``inputs``: what its cache key depends on.

    A judge that is not a registered metric (a golden-review criterion) names them itself in
    a ``reads`` attribute; it may read the ``fact``, which no metric does."""
    own: tuple[str, ...] | None = getattr(metric, "reads", None)
    names = _FIELDS.get(metric.name, own if own is not None else _ALL_FIELDS)
    return {name: _field(inputs, name) for name in names}


def _field(inputs: MetricInputs, name: str) -> Any:
    value = getattr(inputs, name)
    return list(value) if isinstance(value, tuple) else value


_DESCRIPTIONS = {
    "faithfulness": "share of the response's statements the contexts support",
    "answer_relevancy": "how well questions generated from the response match the question",
    "context_precision": "average precision of the contexts useful for the golden answer, in rank order",
    "context_utilization": "average precision of the contexts useful for the response, in rank order",
    "context_recall": "share of the golden answer's sentences the contexts support",
    "context_relevance": "two 0/1/2 ratings of the contexts' relevance to the question",
    "answer_correctness": "statement F-beta against the golden answer blended with similarity",
    "factual_correctness": "claim-level precision/recall/F-beta against the golden answer",
    "summarization_score": "closed questions from the source answered by the summary + conciseness",
    "relevancy": "Spring AI: is the response in line with the context for the query (YES/NO)",
    "fact_check": "Spring AI / MiniCheck: do the contexts support every sentence of the response",
    "semantic_similarity": "cosine of the response's and the golden answer's sentence vectors",
    "bertscore": "BERTScore F1 of the response against the golden answer (token vectors)",
}


def available(custom_aspects: Mapping[str, str] = {}) -> list[MetricInfo]:
    """Every metric a run can use, with its group, needs and default parameters."""
    infos: list[MetricInfo] = []
    for name in (*JUDGE_METRICS, *EMBEDDING_METRICS):
        metric = _FACTORIES[name]({})
        group = "embedding" if name in EMBEDDING_METRICS else "judge"
        infos.append(MetricInfo(name, group, metric.requires, metric.params(), _DESCRIPTIONS[name]))
    for name, (aspect_name, definition) in _aspect_definitions(custom_aspects).items():
        metric = AspectCritique(aspect_name, definition)
        infos.append(MetricInfo(name, "aspect", metric.requires, metric.params(), definition))
    return infos

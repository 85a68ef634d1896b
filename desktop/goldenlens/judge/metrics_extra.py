"""The judge metrics beyond RAGAS's core set: aspect critique, factual correctness,
summarization score (RAGAS), relevancy and fact checking (Spring AI).

Each metric lives in its own small module (``metrics_extra_*.py``); this module is the one
to import from. Every prompt is our own, versioned per metric (``prompt_version``), with the
static instructions and few-shot examples first and the row's data last.
"""

from __future__ import annotations

from goldenlens.judge.metric_base import JudgeMetric
from goldenlens.judge.metrics_extra_aspect import BUILTIN_ASPECTS, AspectCritique, aspect
from goldenlens.judge.metrics_extra_factual import FactualCorrectness, f_beta
from goldenlens.judge.metrics_extra_spring import FactCheck, Relevancy, chunk_text, minicheck_prompt
from goldenlens.judge.metrics_extra_summary import SummarizationScore, conciseness

__all__ = [
    "BUILTIN_ASPECTS",
    "AspectCritique",
    "FactCheck",
    "FactualCorrectness",
    "Relevancy",
    "SummarizationScore",
    "aspect",
    "chunk_text",
    "conciseness",
    "default_extra_metrics",
    "f_beta",
    "minicheck_prompt",
]


def default_extra_metrics() -> list[JudgeMetric]:
    """One instance of each extra metric with default parameters (built-in aspects included)."""
    metrics: list[JudgeMetric] = [aspect(name) for name in BUILTIN_ASPECTS]
    metrics += [FactualCorrectness(), SummarizationScore(), Relevancy(), FactCheck()]
    return metrics

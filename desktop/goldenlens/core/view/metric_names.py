"""How metrics are named to people: one table for the grid, cards, charts, messages and CLI."""

from __future__ import annotations

from typing import Final

from goldenlens.core.lexical.scorer import (
    EXACT_MATCH,
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    PRECISION,
    QUASI_EXACT_MATCH,
    RECALL,
)

#: Metrics whose values are 0 or 1 by definition: shown as 0/1 rather than with decimals, an
#: override of one is a Pass/Fail verdict, and McNemar's test applies to them (when every paired
#: value is indeed 0 or 1: a reviewer's override may not be).
BINARY_METRICS: Final = frozenset(
    {FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT, EXACT_MATCH, QUASI_EXACT_MATCH}
)

#: Judge aspects are named ``aspect_<name>`` (as in ``judge.registry``, which core cannot import).
ASPECT_PREFIX: Final = "aspect_"

#: Labels in sentences and score tables.
METRIC_LABELS: dict[str, str] = {
    FACTUAL_KNOWLEDGE: "Factual knowledge",
    FACTUAL_KNOWLEDGE_QUASI_EXACT: "Factual knowledge (quasi-exact)",
    F1_SCORE: "F1",
    PRECISION: "Precision",
    RECALL: "Recall",
    EXACT_MATCH: "Exact match",
    QUASI_EXACT_MATCH: "Quasi-exact match",
}

#: Column headers and chart axes, where space is short.
METRIC_SHORT: dict[str, str] = {
    FACTUAL_KNOWLEDGE: "FK",
    FACTUAL_KNOWLEDGE_QUASI_EXACT: "FK quasi",
    F1_SCORE: "F1",
    PRECISION: "Precision",
    RECALL: "Recall",
    EXACT_MATCH: "EM",
    QUASI_EXACT_MATCH: "QEM",
}

#: Judge metrics where space is short (a card's row, a chart's axis): words that read, not
#: ``ans…ncy``. Their full names stay the ones threshold expressions and the grid take.
JUDGE_SHORT: dict[str, str] = {
    "faithfulness": "Faithfulness",
    "answer_relevancy": "Ans. relevancy",
    "answer_correctness": "Ans. correctness",
    "context_precision": "Ctx precision",
    "context_utilization": "Ctx utilization",
    "context_recall": "Ctx recall",
    "context_relevance": "Ctx relevance",
    "factual_correctness": "Fact correctness",
    "summarization_score": "Summarization",
    "relevancy": "Relevancy",
    "fact_check": "Fact check",
    "semantic_similarity": "Similarity",
    "bertscore": "BERTScore",
}

#: Tooltips: what the number means.
METRIC_TITLES: dict[str, str] = {
    FACTUAL_KNOWLEDGE: "Factual Knowledge (fact found, exact inclusion)",
    FACTUAL_KNOWLEDGE_QUASI_EXACT: "Factual Knowledge (fact found after normalisation)",
    F1_SCORE: "F1 score over words",
    PRECISION: "Precision over words",
    RECALL: "Recall over words",
    EXACT_MATCH: "Exact match",
    QUASI_EXACT_MATCH: "Quasi-exact match (after normalisation)",
}


#: The short names threshold expressions take (``recall < 0.5``, ``fk == 0``), besides the full ones.
METRIC_ALIASES: dict[str, str] = {
    "fk": FACTUAL_KNOWLEDGE,
    "fk_quasi": FACTUAL_KNOWLEDGE_QUASI_EXACT,
    "f1": F1_SCORE,
    "precision": PRECISION,
    "recall": RECALL,
    "em": EXACT_MATCH,
    "qem": QUASI_EXACT_MATCH,
}


def metric_label(metric: str) -> str:
    """``factual_knowledge`` → ``Factual knowledge``; unknown (judge) metrics read from their name."""
    return METRIC_LABELS.get(metric) or metric.removesuffix("_score").replace("_", " ").capitalize()


def metric_short(metric: str) -> str:
    """Chart axes, cards and compact tables: ``F1``, ``FK``, ``Ans. relevancy``; a custom
    aspect (``aspect_harmfulness``) by its aspect, any other metric by its label."""
    found = METRIC_SHORT.get(metric) or JUDGE_SHORT.get(metric)
    if found:
        return found
    return metric_label(metric.removeprefix(ASPECT_PREFIX))


def metric_header(metric: str) -> str:
    """A score grid column's header: ``F1``, ``Recall``, ``FK``; a judge metric by its own name,
    the one threshold expressions take (``faithfulness``)."""
    return METRIC_SHORT.get(metric, metric)


def metric_title(metric: str) -> str:
    """Full name of a metric for tooltips: ``F1 score over words``; ``judge: faithfulness``."""
    return METRIC_TITLES.get(metric) or f"judge: {metric}"


def metric_in_sentence(metric: str) -> str:
    """How a metric is named inside a message: ``factual_knowledge`` → ``factual knowledge``
    (``F1`` keeps its capital)."""
    label = metric_label(metric)
    return label if label == "F1" else label.lower()

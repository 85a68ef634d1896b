"""How metrics are named to people: one table for the grid, cards, charts, messages and CLI."""

from __future__ import annotations

from goldenlens.core.lexical.scorer import (
    EXACT_MATCH,
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    PRECISION,
    QUASI_EXACT_MATCH,
    RECALL,
)

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


def metric_label(metric: str) -> str:
    """``factual_knowledge`` → ``Factual knowledge``; unknown (judge) metrics read from their name."""
    return METRIC_LABELS.get(metric) or metric.removesuffix("_score").replace("_", " ").capitalize()


def metric_short(metric: str) -> str:
    return METRIC_SHORT.get(metric) or metric_label(metric)

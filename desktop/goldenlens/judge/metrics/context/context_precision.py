"""context_precision (ragas ``LLMContextPrecisionWithReference``): average precision, in rank
order, of the retrieved contexts that help to reach the golden answer.

score = Σ_k precision@k · v_k / Σ v_k (0 when no context is useful). A row without a golden
answer is not scored: judging against the response instead is a different metric,
:mod:`~goldenlens.judge.metrics.context.context_utilization`, stored under its own name.
"""

from __future__ import annotations

from goldenlens.judge.metrics.context.context_usefulness import RankedContextMetric


class ContextPrecision(RankedContextMetric):
    """Average precision of the contexts useful for reaching the golden answer."""

    name = "context_precision"
    version = "2"
    answer_field = "reference"
    requires = frozenset({"question", "contexts", "reference", "judge"})

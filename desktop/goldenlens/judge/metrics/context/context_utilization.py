"""context_utilization (ragas ``ContextUtilization``): average precision, in rank order, of
the retrieved contexts that help to reach the response (no golden answer needed).

The same computation as :mod:`~goldenlens.judge.metrics.context.context_precision` with the response
in place of the golden answer: it says whether the pipeline's answer drew on its top-ranked
contexts, not whether the right contexts were retrieved.
"""

from __future__ import annotations

from goldenlens.judge.metrics.context.context_usefulness import RankedContextMetric


class ContextUtilization(RankedContextMetric):
    """Average precision of the contexts useful for reaching the response."""

    name = "context_utilization"
    version = "1"
    answer_field = "response"
    requires = frozenset({"question", "response", "contexts", "judge"})

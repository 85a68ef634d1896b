"""faithfulness (ragas): the share of the response's statements that the retrieved contexts
support.

The judge splits the response into standalone statements (at most ``max_statements``; the
detail notes when the cap was reached), then judges every statement against the joined
contexts in one call whose schema demands exactly one 0/1 verdict per statement.
score = supported statements / statements; a response without statements is not scored.
"""

from __future__ import annotations

from typing import Any

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, NotScored
from goldenlens.judge.metrics.helpers import (
    MAX_STATEMENTS,
    MetricBase,
    join_contexts,
    judge_each,
    numbered,
    split_statements,
)

VERSION = "2"

_SUPPORT_INSTRUCTIONS = (
    "You check numbered statements against a context.\n"
    "For each statement, in order, give verdict 1 when the context states it or it follows "
    "directly from the context, and 0 when the context does not say it or says something "
    "else. Add a short reason. Give exactly one verdict per statement.\n"
    'Reply with JSON: {"verdicts": [{"verdict": 0 or 1, "reason": "..."}, ...]}.'
)
_SUPPORT_EXAMPLES = (
    (
        "Context:\nThe Eiffel Tower stands in Paris. It opened in 1889.\n\n"
        "Statements:\n1. The Eiffel Tower is in Paris.\n2. The Eiffel Tower opened in 1900.\n"
        "3. The Eiffel Tower is painted brown.",
        '{"verdicts": [{"verdict": 1, "reason": "The context says it stands in Paris."}, '
        '{"verdict": 0, "reason": "The context says 1889, not 1900."}, '
        '{"verdict": 0, "reason": "The context does not mention its colour."}]}',
    ),
)


class Faithfulness(MetricBase):
    """Share of the response's statements that the retrieved contexts support."""

    name = "faithfulness"
    version = VERSION
    prompt_version = "1"
    param_names = ("max_statements",)
    requires = frozenset({"question", "response", "contexts", "judge"})

    def __init__(self, max_statements: int = MAX_STATEMENTS) -> None:
        if max_statements < 1:
            raise ValueError(f"max_statements must be at least 1: {max_statements!r}")
        self.max_statements = max_statements

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del embedder  # the run template passes it; this metric does not use it
        statements = split_statements(
            judge,
            inputs.question,
            inputs.response,
            step="statements",
            max_statements=self.max_statements,
            detail=detail,
        )
        detail["statements"] = statements
        if not statements:
            raise NotScored("no statements")
        row = f"Context:\n{join_contexts(inputs.contexts)}\n\nStatements:\n{numbered(statements)}"
        verdicts = judge_each(
            judge, _SUPPORT_INSTRUCTIONS, _SUPPORT_EXAMPLES, row, statements, step="verdicts"
        )
        detail["verdicts"] = verdicts
        return float(sum(v["verdict"] for v in verdicts)) / len(verdicts)

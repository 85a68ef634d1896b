"""What context precision and context utilization share: one usefulness verdict per retrieved
context, in rank order, and their average precision.

The two metrics differ only in the answer the contexts must help to reach: the golden answer
(context_precision, ragas's ``LLMContextPrecisionWithReference``) or the response
(context_utilization, ragas's ``ContextUtilization``). The question and answer come before the
context in the row, so llama.cpp reuses them between the calls of one row.
"""

from __future__ import annotations

from typing import Any, ClassVar

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs
from goldenlens.judge.metrics.helpers import (
    MetricBase,
    average_precision,
    verdict_schema,
)

_USEFUL_INSTRUCTIONS = (
    "You judge one retrieved passage.\n"
    "Given a question and its answer, give verdict 1 when the passage holds information that "
    "helps to reach that answer, and 0 when it does not. Add a short reason.\n"
    'Reply with JSON: {"verdict": 0 or 1, "reason": "..."}.'
)
_USEFUL_EXAMPLES = (
    (
        "Question: When did the Berlin Wall fall?\nAnswer: The Berlin Wall fell in November 1989.\n\n"
        "Passage:\nOn 9 November 1989 the border crossings in Berlin were opened.",
        '{"verdict": 1, "reason": "It gives the date the wall was opened, November 1989."}',
    ),
    (
        "Question: When did the Berlin Wall fall?\nAnswer: The Berlin Wall fell in November 1989.\n\n"
        "Passage:\nBerlin has a population of about 3.7 million people.",
        '{"verdict": 0, "reason": "Population says nothing about when the wall fell."}',
    ),
)
_USEFUL_SCHEMA = verdict_schema()


def ranked_usefulness(
    judge: JudgeCall, question: str, answer: str, contexts: tuple[str, ...], detail: dict[str, Any]
) -> float:
    """Average precision of the contexts that help reach ``answer``, verdicts in ``detail``."""
    head = f"Question: {question.strip()}\nAnswer: {answer.strip()}\n\nPassage:\n"
    verdicts: list[dict[str, Any]] = []
    detail["verdicts"] = verdicts
    for rank, context in enumerate(contexts, 1):
        data = judge.ask(
            _USEFUL_INSTRUCTIONS,
            _USEFUL_EXAMPLES,
            head + context.strip(),
            _USEFUL_SCHEMA,
            step=f"context {rank}",
        )
        verdicts.append(
            {"rank": rank, "verdict": int(data["verdict"]), "reason": str(data.get("reason", ""))}
        )
    return average_precision([v["verdict"] for v in verdicts])


class RankedContextMetric(MetricBase):
    """A usefulness metric: subclasses name the answer field (``"reference"`` or ``"response"``)."""

    name: str
    version: str
    answer_field: ClassVar[str]
    prompt_version = "1"
    requires: frozenset[str]

    def params(self) -> dict[str, Any]:
        return {"answer": self.answer_field}

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del embedder  # the run template passes it; this metric does not use it
        answer = str(getattr(inputs, self.answer_field))
        return ranked_usefulness(judge, inputs.question, answer, inputs.contexts, detail)

"""context_recall (ragas): the share of the golden answer's sentences that the retrieved
contexts support.

The golden answer is split into sentences in code (:func:`goldenlens.core.golden.sentences.
split_sentences`: cheaper than asking the judge, and the same on every run); the sentences
are judged in batches of ``batch`` per call, each batch's schema demanding one 0/1 verdict
per sentence. score = attributed sentences / sentences.
"""

from __future__ import annotations

from typing import Any

from goldenlens.core.golden.sentences import split_sentences
from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, NotScored
from goldenlens.judge.metrics.helpers import (
    MAX_STATEMENTS,
    MetricBase,
    example,
    join_contexts,
    judge_each,
    numbered,
)

VERSION = "2"

_RECALL_INSTRUCTIONS = (
    "You check whether sentences of a reference answer can be found in a context.\n"
    "For each numbered sentence, in order, give verdict 1 when the context contains the "
    "information of the sentence (so the sentence can be attributed to it), otherwise 0. "
    "Add a short reason. Give exactly one verdict per sentence.\n"
    'Reply with JSON: {"verdicts": [{"verdict": 0 or 1, "reason": "..."}, ...]}.'
)
_RECALL_EXAMPLES = (
    (
        "Context:\nMarie Curie won the Nobel Prize in Physics in 1903 and in Chemistry in 1911.\n\n"
        "Question: What prizes did Marie Curie win?\n\nSentences:\n"
        "1. Marie Curie won two Nobel Prizes.\n2. She was born in Warsaw.",
        example(
            {
                "verdicts": [
                    {"verdict": 1, "reason": "The context lists prizes in 1903 and 1911."},
                    {"verdict": 0, "reason": "The context does not give her birthplace."},
                ]
            }
        ),
    ),
)


class ContextRecall(MetricBase):
    """Share of the golden answer's sentences that the retrieved contexts support."""

    name = "context_recall"
    version = VERSION
    prompt_version = "1"
    requires = frozenset({"question", "contexts", "reference", "judge"})

    def params(self) -> dict[str, Any]:
        return {"split": "sentences", "batch": MAX_STATEMENTS}

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del embedder  # the run template passes it; this metric does not use it
        sentences = split_sentences(inputs.reference)
        detail["sentences"] = sentences
        if not sentences:
            raise NotScored("no sentences in the reference answer")
        context = join_contexts(inputs.contexts)
        verdicts: list[dict[str, Any]] = []
        for start in range(0, len(sentences), MAX_STATEMENTS):
            batch = sentences[start : start + MAX_STATEMENTS]
            row = (
                f"Context:\n{context}\n\nQuestion: {inputs.question.strip()}\n\nSentences:\n{numbered(batch)}"
            )
            verdicts += judge_each(
                judge, _RECALL_INSTRUCTIONS, _RECALL_EXAMPLES, row, batch, step=f"verdicts@{start}"
            )
        detail["verdicts"] = verdicts
        return float(sum(v["verdict"] for v in verdicts)) / len(verdicts)

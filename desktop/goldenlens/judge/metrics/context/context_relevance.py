"""context_relevance (ragas ``ContextRelevance``): two differently worded 0/1/2 ratings of the
retrieved contexts for the question, averaged and divided by 2.

As ragas: a blank question or blank contexts score 0, and so do contexts equal to the
question or contained in it (the "context" only repeats the question), all without a judge
call; the rubric is ragas's: 0 no relevant information, 1 partly relevant, 2 any relevant
information. When one rating is unusable the other one decides (ragas: the NaN judge is
dropped); when both are, the row is not scored. The two phrasings put the data in opposite
order, so one wording's or one position's bias does not decide the score alone.
"""

from __future__ import annotations

from typing import Any

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, NotScored
from goldenlens.judge.metrics.helpers import (
    MetricBase,
    join_contexts,
    verdict_schema,
)

VERSION = "2"

_RATING_INSTRUCTIONS = (
    (
        "You rate whether a context helps to answer a question, using only the two texts.\n"
        "2: the context holds relevant information for answering the question (any of it).\n"
        "1: the context is only partly relevant to the question.\n"
        "0: the context holds nothing relevant to the question.\n"
        'Reply with JSON: {"rating": 0, 1 or 2, "reason": "..."}.'
    ),
    (
        "Read the passage, then the question. Relying only on what the two say, does the "
        "passage give information that bears on the answer?\n"
        "Rating 2 = yes, it has relevant information; 1 = only partly; 0 = no, nothing relevant.\n"
        'Reply with JSON: {"rating": 0, 1 or 2, "reason": "..."}.'
    ),
)
_RATING_EXAMPLES = (
    (
        (
            "Question: What is the boiling point of water at sea level?\n\n"
            "Context:\nAt sea level, water boils at 100 degrees Celsius.",
            '{"rating": 2, "reason": "The context states the boiling point at sea level."}',
        ),
    ),
    (
        (
            "Passage:\nThe Nile flows north through eleven countries.\n\nQuestion: How long is the Nile?",
            '{"rating": 1, "reason": "It is about the Nile but gives no length."}',
        ),
    ),
)
_RATING_SCHEMA = verdict_schema("rating", (0, 1, 2))


def short_cut(question: str, context: str) -> str:
    """Why ragas scores this row 0 without asking a judge ('' when it asks)."""
    blank = [name for name, value in (("question", question), ("contexts", context)) if not value]
    if blank:
        return f"blank {' and '.join(blank)}"
    if context == question:
        return "the contexts equal the question"
    if context in question:
        return "the contexts are contained in the question"
    return ""


class ContextRelevance(MetricBase):
    """Mean of two 0/1/2 relevance ratings of the contexts for the question, divided by 2.

    ``requires`` names only the judge: blank inputs are a score of 0 here, as in ragas.
    """

    name = "context_relevance"
    version = VERSION
    prompt_version = "2"
    requires = frozenset({"judge"})

    def params(self) -> dict[str, Any]:
        return {"phrasings": 2, "short_cuts": "ragas", "rubric": "ragas"}

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del embedder  # the run template passes it; this metric does not use it
        question = inputs.question.strip()
        context = join_contexts(inputs.contexts)
        if note := short_cut(question, context):
            detail["note"] = note
            return 0.0
        rows = (
            f"Question: {question}\n\nContext:\n{context}",
            f"Passage:\n{context}\n\nQuestion: {question}",
        )
        ratings: list[dict[str, Any]] = []
        detail["ratings"] = ratings
        for phrasing, (instructions, examples, row) in enumerate(
            zip(_RATING_INSTRUCTIONS, _RATING_EXAMPLES, rows, strict=True), 1
        ):
            try:
                data = judge.ask(
                    instructions,
                    examples,
                    row,
                    _RATING_SCHEMA,
                    step=f"rating {phrasing}",
                )
            except NotScored as failure:
                ratings.append({"phrasing": phrasing, "rating": None, "error": failure.reason})
                continue
            ratings.append(
                {"phrasing": phrasing, "rating": int(data["rating"]), "reason": str(data.get("reason", ""))}
            )
        usable = [r["rating"] for r in ratings if r["rating"] is not None]
        if not usable:
            raise NotScored(str(ratings[0]["error"]))
        return float(sum(usable)) / len(usable) / 2

"""Retrieval judge metrics: context precision and context relevance.

Context precision asks one question per retrieved context, in rank order (the question and
answer come before the context in the row, so llama.cpp reuses them between calls).
Context relevance asks two differently worded questions about all contexts at once.
"""

from __future__ import annotations

from typing import Any

from goldenlens.judge.embeddings import EmbeddingEngine
from goldenlens.judge.metric_base import JudgeCall, MetricInputs, MetricResult, NotScored
from goldenlens.judge.metrics_common import (
    average_precision,
    join_contexts,
    token_budget,
    unavailable,
    verdict_schema,
)

METRICS_VERSION = "1"

# -- context precision ----------------------------------------------------------------------

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
_USEFUL_SCHEMA = verdict_schema("verdict", (0, 1))


class ContextPrecision:
    """Average precision of the useful contexts in rank order (useful for reaching the golden
    answer, or the response when the row has no golden answer)."""

    name = "context_precision"
    version = METRICS_VERSION
    prompt_version = "1"
    requires = frozenset({"question", "contexts", "judge"})

    def params(self) -> dict[str, Any]:
        return {"answer": "reference, else response"}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        if reason := unavailable(self, inputs, judge, embedder):
            return MetricResult.not_scored(self.name, reason, judge=judge)
        assert judge is not None
        use_reference = bool(inputs.reference.strip())
        answer = inputs.reference if use_reference else inputs.response
        if not answer.strip():
            return MetricResult.not_scored(self.name, "missing input: reference or response", judge=judge)
        detail: dict[str, Any] = {"compared_with": "reference" if use_reference else "response"}
        head = f"Question: {inputs.question.strip()}\nAnswer: {answer.strip()}\n\nPassage:\n"
        verdicts: list[dict[str, Any]] = []
        detail["verdicts"] = verdicts
        try:
            for rank, context in enumerate(inputs.contexts, 1):
                data = judge.ask(
                    _USEFUL_INSTRUCTIONS,
                    _USEFUL_EXAMPLES,
                    head + context.strip(),
                    _USEFUL_SCHEMA,
                    max_tokens=token_budget(_USEFUL_SCHEMA),
                    step=f"context {rank}",
                )
                verdicts.append(
                    {"rank": rank, "verdict": int(data["verdict"]), "reason": str(data.get("reason", ""))}
                )
        except NotScored as failure:
            return MetricResult.not_scored(self.name, failure.reason, detail | failure.detail, judge)
        value = average_precision([v["verdict"] for v in verdicts])
        return MetricResult.scored(self.name, value, detail, judge)


# -- context relevance ----------------------------------------------------------------------

# Two independent phrasings with the data in opposite order, so one wording's or one
# position's bias does not decide the score alone.
_RATING_INSTRUCTIONS = (
    (
        "You rate how relevant a context is to a question.\n"
        "2: the context holds the information needed to answer the question.\n"
        "1: the context is partly relevant: it touches the question but does not fully answer it.\n"
        "0: the context is not relevant to the question.\n"
        'Reply with JSON: {"rating": 0, 1 or 2, "reason": "..."}.'
    ),
    (
        "Read the passage, then the question. Could someone answer the question from the "
        "passage alone?\n"
        "Rating 2 = yes, completely; 1 = only in part; 0 = no, the passage is about something else.\n"
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


class ContextRelevance:
    """Mean of two 0/1/2 relevance ratings of the contexts for the question, divided by 2.

    Blank question or contexts score 0 (as RAGAS does) with the cause in ``detail``, so
    ``requires`` names only the judge. When one rating is unusable the other one decides;
    when both are, the row is not scored.
    """

    name = "context_relevance"
    version = METRICS_VERSION
    prompt_version = "1"
    requires = frozenset({"judge"})

    def params(self) -> dict[str, Any]:
        return {"phrasings": 2}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        if reason := unavailable(self, inputs, judge, embedder):
            return MetricResult.not_scored(self.name, reason, judge=judge)
        assert judge is not None
        question = inputs.question.strip()
        context = join_contexts(inputs.contexts)
        blank = [name for name, value in (("question", question), ("contexts", context)) if not value]
        if blank:
            return MetricResult.scored(self.name, 0.0, {"note": f"blank {' and '.join(blank)}"}, judge)
        rows = (
            f"Question: {question}\n\nContext:\n{context}",
            f"Passage:\n{context}\n\nQuestion: {question}",
        )
        ratings: list[dict[str, Any]] = []
        for phrasing, (instructions, examples, row) in enumerate(
            zip(_RATING_INSTRUCTIONS, _RATING_EXAMPLES, rows, strict=True), 1
        ):
            try:
                data = judge.ask(
                    instructions,
                    examples,
                    row,
                    _RATING_SCHEMA,
                    max_tokens=token_budget(_RATING_SCHEMA),
                    step=f"rating {phrasing}",
                )
            except NotScored as failure:
                ratings.append({"phrasing": phrasing, "rating": None, "error": failure.reason})
                continue
            ratings.append(
                {"phrasing": phrasing, "rating": int(data["rating"]), "reason": str(data.get("reason", ""))}
            )
        detail: dict[str, Any] = {"ratings": ratings}
        usable = [r["rating"] for r in ratings if r["rating"] is not None]
        if not usable:
            return MetricResult.not_scored(self.name, str(ratings[0]["error"]), detail, judge)
        return MetricResult.scored(self.name, sum(usable) / len(usable) / 2, detail, judge)

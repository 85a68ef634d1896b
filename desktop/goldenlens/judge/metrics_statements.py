"""Statement-level judge metrics: faithfulness, context recall and answer correctness.

Faithfulness and answer correctness let the judge split answers into standalone statements
(:func:`~goldenlens.judge.metrics_common.split_statements`); context recall splits the
golden answer into sentences in code, which is cheaper and the same on every run. Verdicts
for up to :data:`~goldenlens.judge.metrics_common.MAX_STATEMENTS` statements come back from
one call whose schema demands exactly one verdict per statement.
"""

from __future__ import annotations

import re
from typing import Any

from goldenlens.judge.embeddings import EmbeddingEngine
from goldenlens.judge.metric_base import JudgeCall, MetricInputs, MetricResult, NotScored, array, obj
from goldenlens.judge.metrics_common import (
    MAX_STATEMENTS,
    fbeta,
    join_contexts,
    judge_each,
    numbered,
    split_statements,
    token_budget,
    unavailable,
    unit_interval,
)

METRICS_VERSION = "1"


# -- faithfulness ---------------------------------------------------------------------------

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


class Faithfulness:
    """Share of the response's statements that the retrieved contexts support."""

    name = "faithfulness"
    version = METRICS_VERSION
    prompt_version = "1"
    requires = frozenset({"question", "response", "contexts", "judge"})

    def params(self) -> dict[str, Any]:
        return {"max_statements": MAX_STATEMENTS}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        if reason := unavailable(self, inputs, judge, embedder):
            return MetricResult.not_scored(self.name, reason, judge=judge)
        assert judge is not None
        detail: dict[str, Any] = {}
        try:
            statements = split_statements(judge, inputs.question, inputs.response, step="statements")
            detail["statements"] = statements
            if not statements:
                return MetricResult.not_scored(self.name, "no statements", detail, judge)
            row = f"Context:\n{join_contexts(inputs.contexts)}\n\nStatements:\n{numbered(statements)}"
            verdicts = judge_each(
                judge, _SUPPORT_INSTRUCTIONS, _SUPPORT_EXAMPLES, row, statements, step="verdicts"
            )
        except NotScored as failure:
            return MetricResult.not_scored(self.name, failure.reason, detail | failure.detail, judge)
        detail["verdicts"] = verdicts
        supported = sum(v["verdict"] for v in verdicts)
        return MetricResult.scored(self.name, supported / len(verdicts), detail, judge)


# -- context recall -------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n+")

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
        '{"verdicts": [{"verdict": 1, "reason": "The context lists prizes in 1903 and 1911."}, '
        '{"verdict": 0, "reason": "The context does not give her birthplace."}]}',
    ),
)


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``: split after ., ! or ? before a capital or digit, and at line breaks."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


class ContextRecall:
    """Share of the golden answer's sentences that the retrieved contexts support."""

    name = "context_recall"
    version = METRICS_VERSION
    prompt_version = "1"
    requires = frozenset({"question", "contexts", "reference", "judge"})

    def params(self) -> dict[str, Any]:
        return {"split": "sentences", "batch": MAX_STATEMENTS}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        if reason := unavailable(self, inputs, judge, embedder):
            return MetricResult.not_scored(self.name, reason, judge=judge)
        assert judge is not None
        sentences = split_sentences(inputs.reference)
        detail: dict[str, Any] = {"sentences": sentences}
        verdicts: list[dict[str, Any]] = []
        context = join_contexts(inputs.contexts)
        try:
            for start in range(0, len(sentences), MAX_STATEMENTS):
                batch = sentences[start : start + MAX_STATEMENTS]
                row = (
                    f"Context:\n{context}\n\nQuestion: {inputs.question.strip()}\n\n"
                    f"Sentences:\n{numbered(batch)}"
                )
                verdicts += judge_each(
                    judge, _RECALL_INSTRUCTIONS, _RECALL_EXAMPLES, row, batch, step=f"verdicts@{start}"
                )
        except NotScored as failure:
            return MetricResult.not_scored(self.name, failure.reason, detail | failure.detail, judge)
        detail["verdicts"] = verdicts
        attributed = sum(v["verdict"] for v in verdicts)
        return MetricResult.scored(self.name, attributed / len(verdicts), detail, judge)


# -- answer correctness ---------------------------------------------------------------------

_CLASSIFY_INSTRUCTIONS = (
    "You compare the statements of an answer (A1, A2, ...) with the statements of a correct "
    "reference answer (R1, R2, ...).\n"
    "tp: the answer statements that the reference supports.\n"
    "fp: the answer statements that the reference does not support.\n"
    "fn: the reference statements that no answer statement covers.\n"
    "List each statement once, by its label.\n"
    'Reply with JSON: {"tp": [...], "fp": [...], "fn": [...]}.'
)
_CLASSIFY_EXAMPLES = (
    (
        "Question: What does the Sun give the Earth?\n\nAnswer statements:\n"
        "A1. The Sun gives the Earth light.\nA2. The Sun is made of ice.\n\n"
        "Reference statements:\nR1. The Sun gives the Earth light.\nR2. The Sun gives the Earth heat.",
        '{"tp": ["A1"], "fp": ["A2"], "fn": ["R2"]}',
    ),
)


def _labels(prefix: str, count: int) -> dict[str, Any]:
    return {"type": "string", "enum": [f"{prefix}{i}" for i in range(1, count + 1)]}


def classify_schema(answer_count: int, reference_count: int) -> dict[str, Any]:
    """Three bounded arrays of statement labels: tp and fp of ``A1..An``, fn of ``R1..Rm``."""
    answer_label = _labels("A", answer_count)
    return obj(
        tp=array(answer_label, max_items=answer_count),
        fp=array(answer_label, max_items=answer_count),
        fn=array(_labels("R", reference_count), max_items=reference_count),
    )


class AnswerCorrectness:
    """Weighted mean of statement-level F-beta (vs the golden answer) and semantic similarity."""

    name = "answer_correctness"
    version = METRICS_VERSION
    prompt_version = "1"
    requires = frozenset({"question", "response", "reference", "judge", "embeddings"})

    def __init__(self, weights: tuple[float, float] = (0.75, 0.25), beta: float = 1.0) -> None:
        if len(weights) != 2 or min(weights) < 0 or sum(weights) <= 0:
            raise ValueError(f"weights must be two non-negative numbers, not both 0: {weights!r}")
        if beta <= 0:
            raise ValueError(f"beta must be positive: {beta!r}")
        self.weights = (float(weights[0]), float(weights[1]))
        self.beta = float(beta)

    def params(self) -> dict[str, Any]:
        return {"weights": list(self.weights), "beta": self.beta, "max_statements": MAX_STATEMENTS}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        if reason := unavailable(self, inputs, judge, embedder):
            return MetricResult.not_scored(self.name, reason, judge=judge)
        assert judge is not None
        assert embedder is not None
        detail: dict[str, Any] = {}
        try:
            answer = split_statements(judge, inputs.question, inputs.response, step="response statements")
            detail["response_statements"] = answer
            reference = split_statements(
                judge, inputs.question, inputs.reference, step="reference statements"
            )
            detail["reference_statements"] = reference
            classes = self._classify(judge, inputs.question, answer, reference)
        except NotScored as failure:
            return MetricResult.not_scored(self.name, failure.reason, detail | failure.detail, judge)
        detail |= classes
        tp, fp, fn = (len(classes[k]) for k in ("tp", "fp", "fn"))
        factuality = 1.0 if not answer and not reference else fbeta(tp, fp, fn, self.beta)
        vectors = embedder.embed([inputs.response, inputs.reference])
        cosine = float(vectors[0] @ vectors[1])
        similarity = unit_interval(cosine)
        w_fact, w_sim = self.weights
        value = (w_fact * factuality + w_sim * similarity) / (w_fact + w_sim)
        detail |= {"factuality": factuality, "similarity": similarity, "cosine": cosine}
        detail["embedding_model"] = embedder.model_name
        return MetricResult.scored(self.name, value, detail, judge)

    @staticmethod
    def _classify(
        judge: JudgeCall, question: str, answer: list[str], reference: list[str]
    ) -> dict[str, list[str]]:
        """Statements (text) per class. One side empty needs no judge: all FP or all FN."""
        if not answer or not reference:
            return {"tp": [], "fp": list(answer), "fn": list(reference)}
        schema = classify_schema(len(answer), len(reference))
        row = (
            f"Question: {question.strip()}\n\nAnswer statements:\n{numbered(answer, 'A')}\n\n"
            f"Reference statements:\n{numbered(reference, 'R')}"
        )
        data = judge.ask(
            _CLASSIFY_INSTRUCTIONS,
            _CLASSIFY_EXAMPLES,
            row,
            schema,
            max_tokens=token_budget(schema),
            step="classification",
        )
        # A label listed twice counts once; an answer statement in both tp and fp counts as tp.
        tp = sorted(set(data["tp"]), key=_label_order)
        fp = sorted(set(data["fp"]) - set(tp), key=_label_order)
        fn = sorted(set(data["fn"]), key=_label_order)
        return {
            "tp": [answer[_label_order(x) - 1] for x in tp],
            "fp": [answer[_label_order(x) - 1] for x in fp],
            "fn": [reference[_label_order(x) - 1] for x in fn],
        }


def _label_order(label: str) -> int:
    return int(label[1:])

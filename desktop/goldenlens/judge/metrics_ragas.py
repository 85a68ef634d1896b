"""RAGAS-style judge and embedding metrics (see ``shared/METRICS.md``), behind one import.

Judge metrics live in small modules: :mod:`~goldenlens.judge.metrics_statements`
(faithfulness, context recall, answer correctness) and
:mod:`~goldenlens.judge.metrics_context` (context precision, context relevance). Answer
relevancy and the two embedding-only metrics are here. Every class implements
:class:`~goldenlens.judge.metric_base.JudgeMetric`; the prompts are our own, versioned by
each class's ``prompt_version``.
"""

from __future__ import annotations

import json
from typing import Any

from goldenlens.judge.embedding_metrics import (
    BERTSCORE_VERSION,
    SEMANTIC_SIMILARITY_VERSION,
    bertscore,
    semantic_similarity,
)
from goldenlens.judge.embeddings import EmbeddingEngine
from goldenlens.judge.metric_base import (
    JudgeCall,
    JudgeMetric,
    MetricInputs,
    MetricResult,
    NotScored,
    array,
    integer_enum,
    obj,
    text,
)
from goldenlens.judge.metrics_common import token_budget, unavailable, unit_interval
from goldenlens.judge.metrics_context import ContextPrecision, ContextRelevance
from goldenlens.judge.metrics_statements import AnswerCorrectness, ContextRecall, Faithfulness

__all__ = [
    "AnswerCorrectness",
    "AnswerRelevancy",
    "BertScoreMetric",
    "ContextPrecision",
    "ContextRecall",
    "ContextRelevance",
    "Faithfulness",
    "SemanticSimilarity",
    "ragas_metrics",
]

METRICS_VERSION = "1"

# -- answer relevancy -----------------------------------------------------------------------

_QUESTION_CHARS = 200


def _generate_instructions(n: int) -> str:
    return (
        f"Write {n} different questions that the given answer responds to, each a full question "
        "that names what it asks about.\n"
        "noncommittal: 1 when the answer dodges (it is vague, evasive, or says it does not know "
        "or cannot tell), otherwise 0.\n"
        'Reply with JSON: {"questions": [{"noncommittal": 0 or 1, "question": "..."}, ...]}.'
    )


_EXAMPLE_ANSWERS: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    (
        "The Great Wall of China is about 21,000 kilometres long.",
        0,
        (
            "How long is the Great Wall of China?",
            "What is the length of the Great Wall of China in kilometres?",
            "How many kilometres does the Great Wall of China span?",
        ),
    ),
    (
        "I'm not sure; I could not find who invented the stapler.",
        1,
        (
            "Who invented the stapler?",
            "Which person created the first stapler?",
            "Who is credited with inventing the stapler?",
        ),
    ),
)


def _generate_examples(n: int) -> tuple[tuple[str, str], ...]:
    """The few-shot examples with as many questions as asked for (at most three shown)."""
    return tuple(
        (
            f"Answer: {answer}",
            json.dumps({"questions": [{"noncommittal": flag, "question": q} for q in questions[:n]]}),
        )
        for answer, flag, questions in _EXAMPLE_ANSWERS
    )


class AnswerRelevancy:
    """Mean cosine between the question and ``n`` questions generated from the response; 0 when
    every generation calls the response noncommittal.

    One call returns all ``n`` generations (the schema demands exactly ``n``): at temperature
    0 separate calls with different seeds would return the same question ``n`` times, and one
    call evaluates the prompt once. Negative cosines (opposite directions) count as 0.
    """

    name = "answer_relevancy"
    version = METRICS_VERSION
    prompt_version = "1"
    requires = frozenset({"question", "response", "judge", "embeddings"})

    def __init__(self, n: int = 3) -> None:
        if not 1 <= n <= 10:
            raise ValueError(f"n must be between 1 and 10: {n!r}")
        self.n = n
        item = obj(noncommittal=integer_enum(0, 1), question=text(_QUESTION_CHARS))
        self._schema = obj(questions=array(item, min_items=n, max_items=n))
        self._instructions = _generate_instructions(n)
        self._examples = _generate_examples(n)

    def params(self) -> dict[str, Any]:
        return {"n": self.n}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        if reason := unavailable(self, inputs, judge, embedder):
            return MetricResult.not_scored(self.name, reason, judge=judge)
        assert judge is not None
        assert embedder is not None
        try:
            data = judge.ask(
                self._instructions,
                self._examples,
                f"Answer: {inputs.response.strip()}",
                self._schema,
                max_tokens=token_budget(self._schema),
                step="questions",
            )
        except NotScored as failure:
            return MetricResult.not_scored(self.name, failure.reason, failure.detail, judge)
        generated: list[dict[str, Any]] = [
            {"question": str(g["question"]).strip(), "noncommittal": int(g["noncommittal"])}
            for g in data["questions"]
        ]
        detail: dict[str, Any] = {"generated": generated, "embedding_model": embedder.model_name}
        if all(g["noncommittal"] for g in generated):
            return MetricResult.scored(self.name, 0.0, detail | {"note": "all noncommittal"}, judge)
        asked = [g for g in generated if g["question"]]
        if not asked:
            return MetricResult.not_scored(
                self.name, "the judge generated only blank questions", detail, judge
            )
        vectors = embedder.embed([inputs.question, *(g["question"] for g in asked)])
        for g, vector in zip(asked, vectors[1:], strict=True):
            g["cosine"] = float(vectors[0] @ vector)
        mean = sum(g["cosine"] for g in asked) / len(asked)
        detail["mean_cosine"] = mean
        return MetricResult.scored(self.name, unit_interval(mean), detail, judge)


# -- embedding-only metrics -----------------------------------------------------------------


class SemanticSimilarity:
    """Cosine of the response's and the golden answer's sentence vectors; with ``threshold``,
    1 when the cosine reaches it, else 0. Negative cosines count as 0."""

    name = "semantic_similarity"
    version = SEMANTIC_SIMILARITY_VERSION
    prompt_version = ""
    requires = frozenset({"response", "reference", "embeddings"})

    def __init__(self, threshold: float | None = None) -> None:
        self.threshold = threshold

    def params(self) -> dict[str, Any]:
        return {"threshold": self.threshold}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        if reason := unavailable(self, inputs, judge, embedder):
            return MetricResult.not_scored(self.name, reason)
        assert embedder is not None
        vectors = embedder.embed([inputs.response, inputs.reference])
        try:
            cosine = semantic_similarity(vectors[0], vectors[1])
        except ValueError as error:
            return MetricResult.not_scored(self.name, f"no sentence vector: {error}")
        value = unit_interval(cosine)
        if self.threshold is not None:
            value = 1.0 if cosine >= self.threshold else 0.0
        detail = {"cosine": cosine, "threshold": self.threshold, "embedding_model": embedder.model_name}
        return MetricResult.scored(self.name, value, detail)


class BertScoreMetric:
    """BERTScore F1 of the response against the golden answer (greedy token matching, no idf,
    no baseline rescaling); precision, recall and the model in ``detail``."""

    name = "bertscore"
    version = BERTSCORE_VERSION
    prompt_version = ""
    requires = frozenset({"response", "reference", "embeddings"})

    def params(self) -> dict[str, Any]:
        return {"drop_special": True, "idf": False, "baseline_rescale": False}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        if reason := unavailable(self, inputs, judge, embedder):
            return MetricResult.not_scored(self.name, reason)
        assert embedder is not None
        try:
            result = bertscore(
                embedder.token_vectors(inputs.response), embedder.token_vectors(inputs.reference)
            )
        except ValueError as error:
            return MetricResult.not_scored(self.name, f"no token vectors: {error}")
        detail = {
            "precision": result.precision,
            "recall": result.recall,
            "f1": result.f1,
            "embedding_model": embedder.model_name,
        }
        return MetricResult.scored(self.name, result.f1, detail)


def ragas_metrics() -> list[JudgeMetric]:
    """One instance of every metric here, with default parameters."""
    return [
        Faithfulness(),
        AnswerRelevancy(),
        ContextPrecision(),
        ContextRecall(),
        ContextRelevance(),
        AnswerCorrectness(),
        SemanticSimilarity(),
        BertScoreMetric(),
    ]

"""answer_relevancy (ragas ``ResponseRelevancy``): the mean cosine between the question and
``n`` questions the judge generates from the response; 0 when every generation calls the
response noncommittal.

One call returns all ``n`` generations (the schema demands exactly ``n``): at temperature 0
separate calls with different seeds would return the same question ``n`` times, and one call
evaluates the prompt once. Negative cosines (opposite directions) count as 0.
"""

from __future__ import annotations

import json
from typing import Any

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, NotScored, array, integer_enum, obj, text
from goldenlens.judge.metrics.helpers import MetricBase, unit_interval

VERSION = "1"
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


class AnswerRelevancy(MetricBase):
    """Mean cosine between the question and ``n`` questions generated from the response; 0 when
    every generation calls the response noncommittal.

    One call returns all ``n`` generations (the schema demands exactly ``n``): at temperature
    0 separate calls with different seeds would return the same question ``n`` times, and one
    call evaluates the prompt once. Negative cosines (opposite directions) count as 0.
    """

    name = "answer_relevancy"
    version = VERSION
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

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        assert embedder is not None  # run_metric checked "embeddings"
        data = judge.ask(
            self._instructions,
            self._examples,
            f"Answer: {inputs.response.strip()}",
            self._schema,
            step="questions",
        )
        generated: list[dict[str, Any]] = [
            {"question": str(g["question"]).strip(), "noncommittal": int(g["noncommittal"])}
            for g in data["questions"]
        ]
        detail |= {"generated": generated, "embedding_model": embedder.model_name}
        if all(g["noncommittal"] for g in generated):
            detail["note"] = "all noncommittal"
            return 0.0
        asked = [g for g in generated if g["question"]]
        if not asked:
            raise NotScored("the judge generated only blank questions")
        vectors = embedder.embed([inputs.question, *(g["question"] for g in asked)])
        for g, vector in zip(asked, vectors[1:], strict=True):
            g["cosine"] = float(vectors[0] @ vector)
        mean = sum(g["cosine"] for g in asked) / len(asked)
        detail["mean_cosine"] = mean
        return unit_interval(mean)

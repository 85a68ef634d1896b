"""summarization_score: does the summary (the response) keep what the source (the contexts) says,
and is it shorter?

Key phrases are extracted from the source, closed questions that the source answers with
"yes" are written from them, and the judge answers each from the summary alone (1 = the
summary says yes). qa = fraction answered 1; conciseness = 1 - min(len(summary),
len(source)) / len(source) in characters; score = (1 - coeff)·qa + coeff·conciseness.

ragas bounds neither list; a schema must (a tiny judge loops otherwise), so both bounds are
parameters recorded in the signature: ``max_keyphrases`` (8) and ``max_questions``, by
default one question per key phrase found — ragas's own prompt asks for that, and a fixed cap
of 5 made the QA score move in steps of 0.2. The detail notes a list that reached its cap.
"""

from __future__ import annotations

from typing import Any

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, NotScored, array, integer_enum, obj, text
from goldenlens.judge.metrics.helpers import (
    MetricBase,
    distinct,
    example,
    join_contexts,
    labelled,
    note_cap,
    numbered,
)

PROMPT_VERSION = "1"
VERSION = "2"
MAX_KEYPHRASES = 8
KEYPHRASE_CHARS = 60
QUESTION_CHARS = 120

_KEYPHRASES = (
    "List the key phrases of the text: names, numbers, dates, amounts and central ideas, each "
    'copied as a short phrase. Reply in JSON with the list "keyphrases".'
)
_QUESTIONS = (
    "Write closed questions that the text answers with yes. Each question uses one or more of "
    'the key phrases and can be checked against the text alone. Reply in JSON with the list "questions".'
)
_ANSWERS = (
    "Answer each question from the summary alone: 1 if the summary says yes, 0 if it says no or "
    'does not say. One answer per question, in order. Reply in JSON with the list "answers".'
)

_SAMPLE = (
    "The town council approved a budget of 4.2 million euros on 3 March 2021 to rebuild the old "
    "stone bridge over the river Vell."
)
_SAMPLE_PHRASES = [
    "town council",
    "budget of 4.2 million euros",
    "3 March 2021",
    "old stone bridge",
    "river Vell",
]
_SAMPLE_QUESTIONS = [
    "Did the town council approve a budget?",
    "Was the budget 4.2 million euros?",
    "Was the budget approved on 3 March 2021?",
    "Is the money meant to rebuild the old stone bridge?",
    "Does the bridge cross the river Vell?",
]
_SAMPLE_SUMMARY = "The council approved 4.2 million euros for a new road."

_KEYPHRASE_EXAMPLES = ((labelled(("Text", _SAMPLE)), example({"keyphrases": _SAMPLE_PHRASES})),)
_QUESTION_EXAMPLES = (
    (
        labelled(("Text", _SAMPLE), ("Key phrases", "; ".join(_SAMPLE_PHRASES))),
        example({"questions": _SAMPLE_QUESTIONS}),
    ),
)


def _numbered(questions: list[str]) -> str:
    return "\n" + numbered(questions)


_ANSWER_EXAMPLES = (
    (
        labelled(("Summary", _SAMPLE_SUMMARY), ("Questions", _numbered(_SAMPLE_QUESTIONS))),
        example({"answers": [1, 1, 0, 0, 0]}),
    ),
)


def conciseness(summary: str, source: str) -> float:
    """1 - min(len(summary), len(source)) / len(source), in characters (0 for an empty source)."""
    if not source:
        return 0.0
    return 1.0 - min(len(summary), len(source)) / len(source)


class SummarizationScore(MetricBase):
    """Question-answering coverage of the source by the summary, blended with conciseness."""

    name = "summarization_score"
    version = VERSION
    prompt_version = PROMPT_VERSION
    requires = frozenset({"response", "contexts", "judge"})

    def __init__(
        self, coeff: float = 0.5, max_keyphrases: int = MAX_KEYPHRASES, max_questions: int | None = None
    ) -> None:
        if not 0.0 <= coeff <= 1.0:
            raise ValueError(f"coeff must be between 0 and 1, got {coeff!r}")
        if max_keyphrases < 1 or (max_questions is not None and max_questions < 1):
            raise ValueError(
                f"max_keyphrases and max_questions must be at least 1, got {max_keyphrases}, {max_questions}"
            )
        self.coeff = float(coeff)
        self.max_keyphrases = max_keyphrases
        self.max_questions = max_questions

    def params(self) -> dict[str, Any]:
        questions = self.max_questions if self.max_questions is not None else "one per key phrase"
        return {"coeff": self.coeff, "max_keyphrases": self.max_keyphrases, "max_questions": questions}

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del embedder  # the run template passes it; this metric does not use it
        source = join_contexts(inputs.contexts)
        summary = inputs.response.strip()
        phrase_schema = obj(keyphrases=array(text(KEYPHRASE_CHARS), max_items=self.max_keyphrases))
        phrases = judge.ask(
            _KEYPHRASES,
            _KEYPHRASE_EXAMPLES,
            labelled(("Text", source)),
            phrase_schema,
            step="key phrases",
        )["keyphrases"]
        note_cap(detail, "key phrases", len(phrases), self.max_keyphrases)
        phrases = distinct(phrases)
        detail["keyphrases"] = phrases
        if not phrases:
            raise NotScored("no key phrases found in the source")
        cap = self.max_questions if self.max_questions is not None else len(phrases)
        question_schema = obj(questions=array(text(QUESTION_CHARS), max_items=cap))
        questions = judge.ask(
            _QUESTIONS,
            _QUESTION_EXAMPLES,
            labelled(("Text", source), ("Key phrases", "; ".join(phrases))),
            question_schema,
            step="questions",
        )["questions"]
        if self.max_questions is not None:
            note_cap(detail, "questions", len(questions), cap)
        questions = distinct(questions)
        detail["questions"] = questions
        if not questions:
            raise NotScored("no questions generated from the source")
        n = len(questions)
        answer_schema = obj(answers=array(integer_enum(0, 1), max_items=n, min_items=n))
        reply = judge.ask(
            _ANSWERS,
            _ANSWER_EXAMPLES,
            labelled(("Summary", summary), ("Questions", _numbered(questions))),
            answer_schema,
            step="answers",
        )
        answers = [int(a) for a in reply["answers"]]
        qa = sum(answers) / n
        concise = conciseness(summary, source)
        detail |= {
            "answers": [{"question": q, "answer": a} for q, a in zip(questions, answers, strict=True)],
            "qa_score": qa,
            "conciseness": concise,
            "coeff": self.coeff,
            "source_chars": len(source),
            "summary_chars": len(summary),
        }
        return (1.0 - self.coeff) * qa + self.coeff * concise

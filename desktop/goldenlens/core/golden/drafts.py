"""Drafted golden items: what the judge wrote for a source chunk, and what is wrong with it.

A draft waits in a review queue until a reviewer accepts it (it becomes a golden item that
keeps its provenance) or rejects it. A draft the judge botched — no usable reply, an empty
field, a fact that is not in the chunk, an answer over the word guardrail — is kept with
the reasons (:func:`draft_problems`), never dropped and never "fixed": the reviewer sees
exactly what the model wrote. Pure functions and frozen values; no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from goldenlens.core.golden.draft_values import DEFAULT_MAX_ANSWER_WORDS, DraftStatus
from goldenlens.core.golden.source_chunks import provenance
from goldenlens.core.lexical.factual_knowledge import AND, OR
from goldenlens.core.lexical.flags import FlagThresholds, prone_to_false_match
from goldenlens.core.lexical.normalise import normalise

__all__ = [
    "DEFAULT_MAX_ANSWER_WORDS",
    "Draft",
    "DraftProblem",
    "DraftStatus",
    "DraftText",
    "ProblemCode",
    "answer_words",
    "draft_problems",
    "missing_fields",
]


class ProblemCode(StrEnum):
    """Why a draft is flagged. ``NO_REPLY`` and the ``EMPTY_*`` codes leave nothing to accept
    as it is; the others are shown to the reviewer, who may still accept deliberately."""

    NO_REPLY = "no_reply"
    EMPTY_QUESTION = "empty_question"
    EMPTY_ANSWER = "empty_answer"
    EMPTY_FACT = "empty_fact"
    FACT_HAS_OPERATOR = "fact_has_operator"
    FACT_NOT_IN_CHUNK = "fact_not_in_chunk"
    ANSWER_TOO_LONG = "answer_too_long"
    FACT_NOT_IN_ANSWER = "fact_not_in_answer"
    FACT_IS_ANSWER = "fact_is_answer"
    FACT_PRONE_TO_FALSE_MATCHES = "fact_prone_to_false_matches"


@dataclass(frozen=True)
class DraftProblem:
    """One reason a draft is flagged, with a message that names the numbers or text."""

    code: ProblemCode
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code.value, "message": self.message}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DraftProblem:
        return cls(ProblemCode(str(data["code"])), str(data["message"]))


@dataclass(frozen=True)
class DraftText:
    """A question, an ideal answer and a minimal fact, as drafted or as edited."""

    question: str
    answer: str
    fact: str


@dataclass(frozen=True)
class Draft:
    """A stored draft with its provenance and review state.

    ``text`` is what the judge wrote (kept as written, also after an edited acceptance: the
    golden item holds the accepted text); ``variants`` the deterministic generator's
    alternative spellings of the fact (``FactVariant.as_dict()`` each); ``detail`` the judge's
    raw reply, model, prompt version and token counts; ``golden_id`` the golden item an
    accepted draft became.
    """

    id: int
    document: str
    page: int | None
    chunk_id: str
    chunk_text: str
    text: DraftText
    status: DraftStatus
    problems: tuple[DraftProblem, ...] = ()
    variants: tuple[dict[str, Any], ...] = ()
    detail: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    run_id: int | None = None
    golden_id: str | None = None
    reviewer: str = ""
    note: str = ""
    created_at: str = ""
    reviewed_at: str | None = None

    def provenance(self) -> str:
        """``report.pdf, page 3, chunk p3-2``."""
        return provenance(self.document, self.page, self.chunk_id)


_SPACES = re.compile(r"\s+")


def _squeeze(text: str) -> str:
    """Lower case, runs of whitespace as one space: a PDF's line breaks are not content."""
    return _SPACES.sub(" ", text).strip().lower()


def answer_words(answer: str) -> int:
    """Words of an answer as the guardrail counts them (runs of non-space characters), the
    count the advisor's verbose-answer rule uses too."""
    return len(answer.split())


def missing_fields(text: DraftText) -> list[DraftProblem]:
    """The empty fields of a draft: a draft with any cannot become a golden item as it is."""
    problems = []
    if not text.question.strip():
        problems.append(DraftProblem(ProblemCode.EMPTY_QUESTION, "the question is empty"))
    if not text.answer.strip():
        problems.append(DraftProblem(ProblemCode.EMPTY_ANSWER, "the answer is empty"))
    if not text.fact.strip():
        problems.append(DraftProblem(ProblemCode.EMPTY_FACT, "the fact is empty"))
    return problems


def draft_problems(
    text: DraftText,
    chunk_text: str,
    *,
    max_answer_words: int = DEFAULT_MAX_ANSWER_WORDS,
    thresholds: FlagThresholds | None = None,
) -> tuple[DraftProblem, ...]:
    """Everything wrong with a draft of ``chunk_text``, in a fixed order (empty if nothing).

    The fact must occur in the chunk (ignoring case and how whitespace is laid out, nothing
    else: a fact the model reworded is flagged, since a response quoting the source would not
    contain it); the answer must be within ``max_answer_words`` words and contain the fact;
    the fact must be one alternative (no ``<OR>``/``<AND>``), shorter than the answer, and
    not prone to false matches (the golden-row flag's rule).
    """
    problems = missing_fields(text)
    fact = text.fact.strip()
    answer = text.answer.strip()
    if fact:
        if OR.lower() in fact.lower() or AND.lower() in fact.lower():
            problems.append(
                DraftProblem(
                    ProblemCode.FACT_HAS_OPERATOR,
                    f"the fact {fact!r} holds {OR} or {AND}: a draft's fact is one minimal span",
                )
            )
        if _squeeze(fact) not in _squeeze(chunk_text):
            problems.append(
                DraftProblem(
                    ProblemCode.FACT_NOT_IN_CHUNK, f"the fact {fact!r} does not occur in the chunk text"
                )
            )
    words = answer_words(answer)
    if words > max_answer_words:
        problems.append(
            DraftProblem(
                ProblemCode.ANSWER_TOO_LONG,
                f"the answer has {words} words, more than the guardrail of {max_answer_words}",
            )
        )
    if fact and answer:
        if _squeeze(fact) not in _squeeze(answer):
            problems.append(
                DraftProblem(ProblemCode.FACT_NOT_IN_ANSWER, f"the answer does not contain the fact {fact!r}")
            )
        elif normalise(fact) == normalise(answer):
            problems.append(
                DraftProblem(ProblemCode.FACT_IS_ANSWER, "the fact is the whole answer: it is not minimal")
            )
        if prone_to_false_match(fact, thresholds):
            problems.append(
                DraftProblem(
                    ProblemCode.FACT_PRONE_TO_FALSE_MATCHES,
                    f"the fact {fact!r} is short or common: it would match responses by accident",
                )
            )
    return tuple(problems)

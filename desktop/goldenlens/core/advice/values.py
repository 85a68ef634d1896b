"""The curation advisor's values: diagnosis codes, severities, fix descriptors, thresholds.

A :class:`Diagnosis` is data, not UI: the app, the CLI and the report all show the same
explanation (which names the numbers that triggered it), the same suggested action and the
same :class:`Fix` — what one click would change, or ``None`` where no automatic fix exists.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

from goldenlens.core.calibration.diagnosis_check import DiagnosisCheck
from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.core.record_dicts import record_dict


class AdviceCode(StrEnum):
    """What the advisor diagnosed; the values shared with :class:`~goldenlens.core.lexical.flags.Flag`
    are spelled alike so a filter by flag and by diagnosis agree."""

    # golden row
    AMBIGUOUS_QUESTION = "ambiguous_question"
    EMPTY_FACT_PART = "empty_fact_part"
    FACT_NOT_IN_ANSWER = "fact_not_in_answer"
    FACT_PRONE_TO_FALSE_MATCHES = "fact_prone_to_false_matches"
    FACT_NOT_MINIMAL = "fact_not_minimal"
    VERBOSE_GOLDEN_ANSWER = "verbose_golden_answer"
    # one pipeline's response to the row
    LIKELY_HALLUCINATION = "likely_hallucination"
    CORRECT_BUT_REPHRASED = "correct_but_rephrased"
    ACCIDENTAL_FACT_MATCH = "accidental_fact_match"
    LLM_SPECIFIC_WORDING = "llm_specific_wording"


#: Display order of the diagnoses of one question (row-level first).
CODE_ORDER: tuple[AdviceCode, ...] = tuple(AdviceCode)

ADVICE_LABELS: dict[AdviceCode, str] = {
    AdviceCode.AMBIGUOUS_QUESTION: "Ambiguous question",
    AdviceCode.EMPTY_FACT_PART: "Empty fact part",
    AdviceCode.FACT_NOT_IN_ANSWER: "Fact not in golden answer",
    AdviceCode.FACT_PRONE_TO_FALSE_MATCHES: "Fact prone to false matches",
    AdviceCode.FACT_NOT_MINIMAL: "Fact not minimal",
    AdviceCode.VERBOSE_GOLDEN_ANSWER: "Verbose golden answer",
    AdviceCode.LIKELY_HALLUCINATION: "Likely hallucination",
    AdviceCode.CORRECT_BUT_REPHRASED: "Correct but rephrased",
    AdviceCode.ACCIDENTAL_FACT_MATCH: "Accidental fact match",
    AdviceCode.LLM_SPECIFIC_WORDING: "LLM-specific wording",
}


class AdviceSeverity(StrEnum):
    """``high``: a stored score is probably wrong because of the golden row (fix it before
    reading the numbers); ``medium``: a number misleads unless read with care; ``low``: a
    bias worth knowing about."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class FixKind(StrEnum):
    """What a one-click fix changes.

    ``add_variant``: append ``value`` to the fact as an ``<OR>`` alternative; ``edit_fact`` /
    ``trim_answer`` / ``edit_answer`` / ``edit_question``: replace that field with ``value``;
    ``override_score``: override metric ``field`` of ``pipeline``'s response with ``value``.
    """

    ADD_VARIANT = "add_variant"
    EDIT_FACT = "edit_fact"
    TRIM_ANSWER = "trim_answer"
    EDIT_ANSWER = "edit_answer"
    EDIT_QUESTION = "edit_question"
    OVERRIDE_SCORE = "override_score"


@dataclass(frozen=True)
class Fix:
    """A one-click fix: ``kind`` applied to ``field`` with ``value``.

    ``value`` is the proposed content (a variant, a whole new fact or answer, or a score
    written as text); ``None`` means the analyst must supply it (the click opens the editor on
    ``field``). ``pipeline`` names the response for ``override_score``.
    """

    kind: FixKind
    field: str
    label: str
    value: str | None = None
    pipeline: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "field": self.field,
            "label": self.label,
            "value": self.value,
            "pipeline": self.pipeline,
        }


@dataclass(frozen=True)
class PipelineAnswer:
    """One pipeline's response to a question, side by side with the others (ambiguous
    question): its Factual Knowledge, recall, similarity (``None``: not measured) and how the
    advisor reads it (a diagnosis code, or ``""``)."""

    pipeline: str
    response: str
    factual_knowledge: float | None
    recall: float
    similarity: float | None = None
    reading: str = ""


@dataclass(frozen=True)
class FalseMatch:
    """A response to another question that contains the fact although that question's golden
    answer does not: ``part`` is the matched alternative, ``excerpt`` the text around it."""

    question_id: str
    pipeline: str
    part: str
    excerpt: str


@dataclass(frozen=True)
class TrimmedScores:
    """A concise correct response scored against the golden answer as it is and as trimmed."""

    pipeline: str
    precision: float
    precision_trimmed: float
    recall: float
    recall_trimmed: float
    f1: float
    f1_trimmed: float


Number = float | int | str


@dataclass(frozen=True)
class Diagnosis:
    """One finding about a golden row (``pipeline`` empty) or one pipeline's response to it.

    ``numbers`` holds every value that triggered the diagnosis, by name, including the
    thresholds compared against; ``explanation`` says them in words. The tuples carry the
    evidence a reviewer looks at: ``answers`` (each pipeline's response, for an ambiguous
    question), ``false_matches`` (the first ones: :attr:`false_match_count` counts them all),
    ``trimmed`` (verbose answer) and ``words`` (LLM wording).
    """

    code: AdviceCode
    severity: AdviceSeverity
    question_id: str
    explanation: str
    action: str
    numbers: Mapping[str, Number] = field(default_factory=dict)
    pipeline: str = ""
    fix: Fix | None = None
    answers: tuple[PipelineAnswer, ...] = ()
    false_matches: tuple[FalseMatch, ...] = ()
    trimmed: tuple[TrimmedScores, ...] = ()
    words: tuple[str, ...] = ()
    #: What the reviewer said of the responses it is about (labels, Factual Knowledge
    #: overrides: :mod:`~goldenlens.core.advice.reviewer_views`); ``refuted``: the reviewer
    #: judged the response the other way than the diagnosis claims.
    reviewer: str = ""
    refuted: bool = False

    @property
    def label(self) -> str:
        return ADVICE_LABELS[self.code]

    @property
    def false_match_count(self) -> int:
        """How many false matches there are in all (``false_matches`` lists the first ones)."""
        return int(self.numbers.get("other_responses", len(self.false_matches)))

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: enums as their values, the evidence tuples as lists of objects."""
        return {
            "code": self.code.value,
            "label": self.label,
            "severity": self.severity.value,
            "question_id": self.question_id,
            "pipeline": self.pipeline,
            "explanation": self.explanation,
            "action": self.action,
            "numbers": dict(self.numbers),
            "fix": None if self.fix is None else self.fix.as_dict(),
            "answers": [asdict(a) for a in self.answers],
            "false_matches": [asdict(m) for m in self.false_matches],
            "trimmed": [asdict(t) for t in self.trimmed],
            "words": list(self.words),
            "reviewer": self.reviewer,
            "refuted": self.refuted,
        }


@dataclass(frozen=True)
class AdviceThresholds:
    """Every threshold of the advisor in one place.

    ``flags`` are the interpretation-flag thresholds the run was scored with (hallucination,
    rephrased and accidental recall, the answer-length guardrail, short numbers and words):
    the advisor reads the same rules, so a flag and its diagnosis never disagree. The rest are
    the advisor's own:

    * ``similar``: semantic similarity at or above which a response that misses the fact reads
      as correct but rephrased (below it, with a similarity measured, it does not);
    * ``fact_answer_share``: share of the golden answer's FMEval words that one fact
      alternative covers, at or above which the fact is not minimal; answers shorter than
      ``fact_share_min_answer_words`` words and one-word facts are exempt;
    * ``false_match_scan_chars``: facts whose every alternative is at most this long are
      searched for in the other questions' responses even when not prone by shape, and
      ``false_match_min_others`` such responses make a diagnosis;
    * ``llm_specific_min_questions``: a golden word counts as one pipeline's wording when
      that pipeline used it in responses to at least this many questions and no other
      pipeline ever did; ``llm_specific_min_words`` such words make a diagnosis.
    """

    flags: FlagThresholds = field(default_factory=FlagThresholds)
    similar: float = 0.8
    fact_answer_share: float = 0.6
    fact_share_min_answer_words: int = 5
    false_match_scan_chars: int = 12
    false_match_min_others: int = 1
    llm_specific_min_questions: int = 2
    llm_specific_min_words: int = 1

    def as_dict(self) -> dict[str, float | int]:
        """Flat: the flag thresholds first, then the advisor's own."""
        return {**self.flags.as_dict(), **record_dict(self, leave_out=("flags",))}

    def with_values(self, values: Mapping[str, float]) -> AdviceThresholds:
        """A copy with some thresholds changed, by their flat names (:meth:`as_dict`).

        Raises ``ValueError`` naming an unknown threshold or a value of the wrong kind: the
        fractional thresholds (recalls, precision, shares, similarity) run from 0 to 1, the
        counts are whole numbers from 0.
        """
        known = self.as_dict()
        flag_names = set(self.flags.as_dict())
        flag_changes: dict[str, Any] = {}
        own_changes: dict[str, Any] = {}
        for name, value in values.items():
            if name not in known:
                raise ValueError(f"unknown threshold {name!r}; known: {', '.join(known)}")
            kind = type(known[name])
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"threshold {name} must be a number from 0, not {value!r}")
            if kind is int and float(value) != int(value):
                raise ValueError(f"threshold {name} is a whole number, not {value!r}")
            if kind is float and value > 1:
                raise ValueError(f"threshold {name} runs from 0 to 1, not {value!r}")
            (flag_changes if name in flag_names else own_changes)[name] = kind(value)
        flags = replace(self.flags, **flag_changes) if flag_changes else self.flags
        return replace(self, flags=flags, **own_changes)


@dataclass(frozen=True)
class QuestionAdvice:
    """The diagnoses of one golden row, in :data:`CODE_ORDER` then pipeline order."""

    question_id: str
    question: str
    diagnoses: tuple[Diagnosis, ...] = ()


@dataclass(frozen=True)
class ProjectAdvice:
    """The advice of a whole project: one entry per golden row (in golden order), the
    thresholds in force and where the similarity values came from (``""``: none)."""

    questions: tuple[QuestionAdvice, ...]
    pipelines: tuple[str, ...]
    thresholds: AdviceThresholds
    similarity_source: str = ""
    #: How often each diagnosis held on the reviewer's labels (empty: nothing labelled).
    checks: Mapping[str, DiagnosisCheck] = field(default_factory=dict)

    def check_note(self, code: str) -> str:
        """How often diagnosis ``code`` held on the reviewer's labels ("right on 1 of 19
        labelled"), ``""`` when none of its responses is labelled."""
        check = self.checks.get(code)
        return check.note() if check is not None else ""

    def check_lines(self) -> list[str]:
        """One sentence per diagnosis checked against the labels, in the advisor's order."""
        return [self.checks[c.value].sentence(ADVICE_LABELS[c]) for c in CODE_ORDER if c.value in self.checks]

    @property
    def diagnoses(self) -> tuple[Diagnosis, ...]:
        return tuple(d for q in self.questions for d in q.diagnoses)

    def counts(self) -> dict[str, int]:
        """Diagnoses per code, in :data:`CODE_ORDER`, codes that occur only."""
        found = [d.code for d in self.diagnoses]
        return {code.value: found.count(code) for code in CODE_ORDER if code in found}

    def as_dict(self) -> dict[str, Any]:
        """The advice as one JSON-ready document."""
        return {
            "pipelines": list(self.pipelines),
            "thresholds": self.thresholds.as_dict(),
            "similarity_source": self.similarity_source,
            "counts": self.counts(),
            "checks": {code: check.as_dict() for code, check in self.checks.items()},
            "questions": [
                {
                    "question_id": q.question_id,
                    "question": q.question,
                    "diagnoses": [d.as_dict() for d in q.diagnoses],
                }
                for q in self.questions
            ],
        }

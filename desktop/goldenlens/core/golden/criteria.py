"""The curation criteria a golden triplet (question, ideal answer, minimal fact) is reviewed on.

The judge rates each triplet on every criterion: ``pass``, ``fail`` or ``unsure``, with a
reason. Four criteria need reading (the judge answers them); the verbosity guardrail is a
word count, so it is counted, never asked (``source`` ``"rule"``): a model that cannot count
words must not decide a threshold the analyst set in numbers.

A verdict is a suggestion. The reviewer accepts or dismisses it, which records the
reviewer's own verdict beside the judge's (:func:`reviewer_verdict`); the pairs of the two
give the agreement figures (:mod:`goldenlens.core.stats.agreement`).

Verdicts ride in the project's score rows of a golden-review run (one row per golden item
and criterion, on the golden row): :data:`VERDICT_VALUES` is their numeric encoding and
:func:`verdict_from_value` reads it back, refusing any other number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.factual_knowledge import fact_groups
from goldenlens.core.lexical.flags import Flag, FlagThresholds, golden_flags
from goldenlens.core.runs.fingerprint import inputs_fingerprint


class Criterion(StrEnum):
    """One curation criterion; the value is the name stored and printed."""

    UNAMBIGUOUS_QUESTION = "unambiguous_question"
    ANSWER_MATCHES_FACT = "answer_consistent_with_fact"
    FACT_MINIMAL = "fact_minimal"
    LLM_AGNOSTIC_WORDING = "llm_agnostic_wording"
    VERBOSITY = "verbosity_within_guardrail"


class Verdict(StrEnum):
    PASS = "pass"  # noqa: S105 - a verdict, not a password
    FAIL = "fail"
    UNSURE = "unsure"


class Decision(StrEnum):
    """What the reviewer did with a suggestion; ``withdrawn`` undoes the previous decision."""

    ACCEPTED = "accepted"
    DISMISSED = "dismissed"
    WITHDRAWN = "withdrawn"


#: The prefix of a criterion's metric name in score rows and judge-cache entries.
METRIC_PREFIX: Final = "golden_review."

#: Where a verdict came from: the judge model, or a counted rule.
SOURCE_JUDGE: Final = "judge"
SOURCE_RULE: Final = "rule"


@dataclass(frozen=True)
class CriterionInfo:
    """A criterion's label, what it asks, and which triplet fields it reads."""

    criterion: Criterion
    label: str
    description: str
    reads: tuple[str, ...]  # of "question", "answer", "fact"
    judged: bool = True


CRITERIA: Final[tuple[CriterionInfo, ...]] = (
    CriterionInfo(
        Criterion.UNAMBIGUOUS_QUESTION,
        "Unambiguous question",
        "The question has exactly one acceptable answer, and it is the golden answer.",
        ("question", "answer"),
    ),
    CriterionInfo(
        Criterion.ANSWER_MATCHES_FACT,
        "Answer consistent with the fact",
        "The golden answer states the fact (one of its alternatives) and does not contradict it.",
        ("answer", "fact"),
    ),
    CriterionInfo(
        Criterion.FACT_MINIMAL,
        "Fact minimal",
        "The fact is only the key value that answers the question, not a phrase or the whole answer.",
        ("question", "answer", "fact"),
    ),
    CriterionInfo(
        Criterion.LLM_AGNOSTIC_WORDING,
        "LLM-agnostic wording",
        "The golden answer reads like a plain statement, free of a chat model's filler phrases.",
        ("answer",),
    ),
    CriterionInfo(
        Criterion.VERBOSITY,
        "Verbosity within the guardrail",
        "The golden answer has no more words than the guardrail allows.",
        ("answer",),
        judged=False,
    ),
)
CRITERION_INFO: Final[dict[Criterion, CriterionInfo]] = {info.criterion: info for info in CRITERIA}
JUDGED_CRITERIA: Final = tuple(info.criterion for info in CRITERIA if info.judged)

#: Default guardrail: the advisor's verbose-golden-answer threshold (:class:`FlagThresholds`).
DEFAULT_MAX_ANSWER_WORDS: Final = FlagThresholds().verbose_answer_words

#: How a verdict is stored as a score value; any other stored value is refused on reading.
VERDICT_VALUES: Final[dict[Verdict, float]] = {Verdict.PASS: 1.0, Verdict.FAIL: 0.0, Verdict.UNSURE: 0.5}

#: Longest reason kept from a judge reply (the judge's schema bounds it as well).
REASON_CHARS: Final = 200


class VerdictError(ValueError):
    """A judge reply or a stored value that is not a valid verdict."""


def criterion_from_name(name: str) -> Criterion:
    """The criterion named ``name``; ``ValueError`` listing the names otherwise."""
    try:
        return Criterion(name)
    except ValueError:
        valid = ", ".join(c.value for c in Criterion)
        raise ValueError(f"unknown criterion {name!r}; use one of {valid}") from None


def parse_verdict(data: Mapping[str, Any]) -> tuple[Verdict, str]:
    """The verdict and reason of a judge reply ``{"verdict": ..., "reason": ...}``.

    The verdict must be exactly one of ``pass``, ``fail``, ``unsure`` (case and outer spaces
    forgiven); anything else raises :class:`VerdictError` — a reply we cannot read is never
    turned into a verdict. A missing reason (a reply cut off inside it) gives ``""``.
    """
    raw = data.get("verdict")
    if not isinstance(raw, str):
        raise VerdictError(f"the verdict must be pass, fail or unsure, got {raw!r}")
    try:
        verdict = Verdict(raw.strip().lower())
    except ValueError:
        raise VerdictError(f"the verdict must be pass, fail or unsure, got {raw!r}") from None
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise VerdictError(f"the reason must be text, got {type(reason).__name__}")
    return verdict, " ".join(reason.split())[:REASON_CHARS]


def verdict_from_value(value: float) -> Verdict:
    """The verdict a stored score value encodes (:data:`VERDICT_VALUES`)."""
    for verdict, encoded in VERDICT_VALUES.items():
        if value == encoded:
            return verdict
    raise VerdictError(f"{value!r} is not a stored verdict (1 pass, 0 fail, 0.5 unsure)")


def answer_word_count(answer: str) -> int:
    """Words of the golden answer, as the reviewer counts them (split on white space)."""
    return len(answer.split())


def verbosity_verdict(answer: str, max_words: int) -> tuple[Verdict, str]:
    """The verbosity guardrail, counted: the same rule as the advisor's verbose-golden-answer
    flag (:func:`goldenlens.core.lexical.flags.golden_flags`), with the numbers in the reason."""
    if max_words < 1:
        raise ValueError(f"the word guardrail must be at least 1, got {max_words}")
    words = answer_word_count(answer)
    verbose = Flag.VERBOSE_GOLDEN_ANSWER in golden_flags(
        answer, "", [], FlagThresholds(verbose_answer_words=max_words)
    )
    if verbose:
        return Verdict.FAIL, f"{words} words; the guardrail is {max_words}"
    return Verdict.PASS, f"{words} words, within the guardrail of {max_words}"


def fact_text(fact: str) -> str:
    """A fact with ``<OR>``/``<AND>`` spelled out for a reader: ``"a" or "b"``,
    ``"x" and "y"``; blank parts left out."""
    alternatives = []
    for group in fact_groups(fact):
        parts = [f'"{part.strip()}"' for part in group if part.strip()]
        if parts:
            alternatives.append(" and ".join(parts))
    return " or ".join(alternatives)


def reviewer_verdict(judge: Verdict, decision: Decision, own: Verdict | None = None) -> Verdict:
    """The reviewer's verdict implied by their decision on the judge's verdict.

    Accepting a pass or fail agrees with it; dismissing it says the opposite. The reviewer
    never answers "unsure", and an unsure judge gives nothing to accept or flip, so then (or
    to state it explicitly) ``own`` gives the reviewer's pass or fail. ``ValueError`` for a
    combination that says two things (accepting a pass while giving fail, ...).
    """
    if decision is Decision.WITHDRAWN:
        raise ValueError("a withdrawn decision has no verdict")
    if own is Verdict.UNSURE:
        raise ValueError("the reviewer's verdict is pass or fail, not unsure")
    if judge is Verdict.UNSURE:
        if own is None:
            raise ValueError("the judge was unsure: give your own verdict, pass or fail")
        return own
    implied = judge if decision is Decision.ACCEPTED else _OPPOSITE[judge]
    if own is not None and own is not implied:
        raise ValueError(f"{decision.value} the judge's {judge.value} means {implied.value}, not {own.value}")
    return implied


_OPPOSITE: Final = {Verdict.PASS: Verdict.FAIL, Verdict.FAIL: Verdict.PASS}


def triplet_fingerprint(item: GoldenItem) -> str:
    """SHA-256 of one golden triplet (question, answer, fact): what a decision was made on."""
    return inputs_fingerprint([item], [], questions=True)


def criterion_metric(criterion: Criterion) -> str:
    """The metric name of a criterion's score rows: ``golden_review.<criterion>``."""
    return METRIC_PREFIX + criterion.value

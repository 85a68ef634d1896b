"""Interpretation flags: what a reviewer should look at, derived from the lexical scores.

Thresholds follow the golden-set curation guidance (shared/METRICS.md) and are configurable
through :class:`FlagThresholds`; the defaults are documented in README.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any, Final

from goldenlens.core.lexical.factual_knowledge import fact_groups
from goldenlens.core.lexical.normalise import normalise
from goldenlens.core.lexical.number_words import UNITS
from goldenlens.core.lexical.refusal import is_refusal
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT, PRECISION, RECALL
from goldenlens.core.view.wording import plural


class Flag(StrEnum):
    # per response
    LIKELY_HALLUCINATION = "likely_hallucination"
    ACCIDENTAL_FACT_MATCH = "accidental_fact_match"
    POSSIBLY_CORRECT_REPHRASED = "possibly_correct_rephrased"
    VERBOSE = "verbose"
    REFUSAL = "refusal"
    EMPTY_RESPONSE = "empty_response"
    # per golden row
    AMBIGUOUS_QUESTION = "ambiguous_question"
    FACT_PRONE_TO_FALSE_MATCHES = "fact_prone_to_false_matches"
    VERBOSE_GOLDEN_ANSWER = "verbose_golden_answer"
    EMPTY_FACT_PART = "empty_fact_part"
    FACT_NOT_IN_ANSWER = "fact_not_in_answer"


FLAG_LABELS: dict[Flag, str] = {
    Flag.LIKELY_HALLUCINATION: "Likely hallucination",
    Flag.ACCIDENTAL_FACT_MATCH: "Accidental fact match",
    Flag.POSSIBLY_CORRECT_REPHRASED: "Possibly correct, rephrased",
    Flag.VERBOSE: "Verbose",
    Flag.REFUSAL: "Refusal / no answer",
    Flag.EMPTY_RESPONSE: "Empty response",
    Flag.AMBIGUOUS_QUESTION: "Ambiguous question",
    Flag.FACT_PRONE_TO_FALSE_MATCHES: "Fact prone to false matches",
    Flag.VERBOSE_GOLDEN_ANSWER: "Verbose golden answer",
    Flag.EMPTY_FACT_PART: "Empty fact part",
    Flag.FACT_NOT_IN_ANSWER: "Fact not in golden answer",
}

FLAG_EXPLANATIONS: dict[Flag, str] = {
    Flag.LIKELY_HALLUCINATION: (
        "The fact is missing but most golden words are there (recall >= {hallucination_recall}): "
        "the wording is right and the key value is not."
    ),
    Flag.ACCIDENTAL_FACT_MATCH: (
        "The fact was found but almost no golden words are (recall <= {accidental_recall}): "
        "the match may be a coincidence, e.g. a document id equal to the number."
    ),
    Flag.POSSIBLY_CORRECT_REPHRASED: (
        "The fact is missing yet the response is close to the answer "
        "(quasi-exact fact match, or recall between {rephrased_recall} and {hallucination_recall}): "
        "consider adding a fact variant."
    ),
    Flag.VERBOSE: (
        "Most golden words are there (recall >= {verbose_recall}) but few response words are golden "
        "(precision <= {verbose_precision})."
    ),
    Flag.REFUSAL: ("The response declines to answer or says the information is not available."),
    Flag.EMPTY_RESPONSE: ("The response is empty."),
    Flag.AMBIGUOUS_QUESTION: (
        "No pipeline's response contains the fact: the question or the fact may be ambiguous."
    ),
    Flag.FACT_PRONE_TO_FALSE_MATCHES: (
        "A fact part is a short bare number or a single common word, which can "
        "match by accident (substring inclusion: 'art' matches 'Mozart')."
    ),
    Flag.VERBOSE_GOLDEN_ANSWER: (
        "The golden answer has more than {verbose_answer_words} words, which lowers "
        "every pipeline's precision."
    ),
    Flag.EMPTY_FACT_PART: (
        "The fact or one of its parts is empty: Factual Knowledge is not scored for this question "
        "until it is fixed (FMEval would count an empty part as found in every response)."
    ),
    Flag.FACT_NOT_IN_ANSWER: (
        "No fact alternative appears in the golden answer itself: check the golden row."
    ),
}

RESPONSE_FLAGS = (
    Flag.LIKELY_HALLUCINATION,
    Flag.ACCIDENTAL_FACT_MATCH,
    Flag.POSSIBLY_CORRECT_REPHRASED,
    Flag.VERBOSE,
    Flag.REFUSAL,
    Flag.EMPTY_RESPONSE,
)
GOLDEN_FLAGS = (
    Flag.AMBIGUOUS_QUESTION,
    Flag.FACT_PRONE_TO_FALSE_MATCHES,
    Flag.VERBOSE_GOLDEN_ANSWER,
    Flag.EMPTY_FACT_PART,
    Flag.FACT_NOT_IN_ANSWER,
)


@dataclass(frozen=True)
class FlagThresholds:
    """Where each flag starts. Recall/precision are FMEval's word-set scores."""

    hallucination_recall: float = 0.7
    accidental_recall: float = 0.1
    rephrased_recall: float = 0.3
    verbose_recall: float = 0.7
    verbose_precision: float = 0.3
    verbose_answer_words: int = 40
    short_number_digits: int = 3
    short_word_chars: int = 3

    def as_dict(self) -> dict[str, float | int]:
        return dict(asdict(self))

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> FlagThresholds:
        """The thresholds a run used (its ``thresholds`` parameter), the defaults for what it
        does not give. Unknown names and values that are not numbers are ignored, so a
        project written by a newer version still opens."""
        raw = params.get("thresholds")
        defaults = cls()
        values: dict[str, Any] = {}
        if isinstance(raw, Mapping):
            known = {f.name for f in fields(cls)}
            for name, number in raw.items():
                if name in known and isinstance(number, int | float) and not isinstance(number, bool):
                    values[name] = type(getattr(defaults, name))(number)
        return cls(**values)


_COMMON_WORDS = frozenset(
    [
        "yes",
        "no",
        "true",
        "false",
        *UNITS[1:11],  # one to ten
        "it",
        "is",
        "was",
        "are",
        "were",
        "be",
        "and",
        "or",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "by",
        "with",
        "as",
        "from",
        "up",
        "down",
        "out",
        "over",
        "under",
        "new",
        "old",
        "high",
        "low",
        "year",
        "years",
        "day",
        "days",
        "million",
        "billion",
        "percent",
    ]
)


def explain(flag: Flag, thresholds: FlagThresholds | None = None) -> str:
    """The flag's explanation with the thresholds in force filled in."""
    return FLAG_EXPLANATIONS[flag].format(**asdict(thresholds or FlagThresholds()))


def response_flags(
    response: str, scores: Mapping[str, float | None], thresholds: FlagThresholds | None = None
) -> list[Flag]:
    """Flags for one response from its lexical scores (order as in :data:`RESPONSE_FLAGS`).

    A not-scored exact Factual Knowledge (``None``: the fact is empty) raises none of the
    flags that read it; a not-scored quasi-exact one counts as not found.
    """
    return flags_from_values(
        scores[FACTUAL_KNOWLEDGE],
        scores[FACTUAL_KNOWLEDGE_QUASI_EXACT],
        scores[RECALL],
        scores[PRECISION],
        thresholds or FlagThresholds(),
        empty=not response.strip(),
        refusal=is_refusal(response),
    )


def flags_from_values(
    exact: float | None,
    quasi: float | None,
    recall: float | None,
    precision: float | None,
    t: FlagThresholds,
    *,
    empty: bool,
    refusal: bool,
) -> list[Flag]:
    """:func:`response_flags` from the four scores it reads and whether the response is empty
    or a refusal (:mod:`goldenlens.core.lexical.refusal`): the batch path, with no mapping per row."""
    if empty:
        return [Flag.EMPTY_RESPONSE]
    if refusal:
        # A refusal repeats the question's words, so recall can be high: it is not a hallucination.
        return [Flag.REFUSAL]
    fact_found = exact is not None and exact >= 1.0
    quasi_found = quasi is not None and quasi >= 1.0
    recall, precision = recall or 0.0, precision or 0.0
    flags: list[Flag] = []
    fact_known = exact is not None
    if fact_known and not fact_found and not quasi_found and recall >= t.hallucination_recall:
        flags.append(Flag.LIKELY_HALLUCINATION)
    if fact_found and recall <= t.accidental_recall:
        flags.append(Flag.ACCIDENTAL_FACT_MATCH)
    if (
        fact_known
        and not fact_found
        and (quasi_found or t.rephrased_recall <= recall < t.hallucination_recall)
    ):
        flags.append(Flag.POSSIBLY_CORRECT_REPHRASED)
    if recall >= t.verbose_recall and precision <= t.verbose_precision:
        flags.append(Flag.VERBOSE)
    return flags


#: The scores the response flags read: a reviewer's override of one of them changes the flags.
FLAG_INPUTS: Final = (FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT, RECALL, PRECISION)
_RESPONSE_FLAG_NAMES: Final = frozenset(flag.value for flag in RESPONSE_FLAGS)


def response_flags_in_force(
    stored: Sequence[str], scores: Mapping[str, float | None], thresholds: FlagThresholds
) -> list[str]:
    """A response's flag names under ``scores``, the scores in force (a reviewer's overrides
    applied to the stored ones): the response flags derived again from them
    (:func:`flags_from_values`), with whether the response is empty or a refusal read from its
    ``stored`` flags (the run derived both from the text, and either one stands alone); any
    other stored flag kept. Sorted by name, as a run lists them.

    A run stores flags from its own scores; after a reviewer passed a response's fact by hand,
    a stored "Likely hallucination" would contradict the review, in the grid, the question's
    detail and every report alike."""
    derived = flags_from_values(
        scores.get(FACTUAL_KNOWLEDGE),
        scores.get(FACTUAL_KNOWLEDGE_QUASI_EXACT),
        scores.get(RECALL),
        scores.get(PRECISION),
        thresholds,
        empty=Flag.EMPTY_RESPONSE.value in stored,
        refusal=Flag.REFUSAL.value in stored,
    )
    kept = [name for name in stored if name not in _RESPONSE_FLAG_NAMES]
    return sorted([*kept, *(flag.value for flag in derived)])


def golden_flags_in_force(stored: Sequence[str], fact_found_by_pipeline: Sequence[float]) -> list[str]:
    """A golden row's flag names with the ambiguous-question flag worked out again from the
    exact Factual Knowledge in force of its scored responses (:func:`fact_missing_everywhere`:
    a response whose fact a reviewer passed answers the question); the other flags, which read
    the golden row alone, kept. Sorted by name, as a run lists them."""
    kept = [name for name in stored if name != Flag.AMBIGUOUS_QUESTION.value]
    if fact_missing_everywhere(fact_found_by_pipeline):
        kept.append(Flag.AMBIGUOUS_QUESTION.value)
    return sorted(kept)


#: What a bare number may carry besides digits: spaces, separators, signs, currency, percent.
_NUMBER_DECORATION = re.compile(r"[\s,.\-$%]")


def false_match_reason(part: str, thresholds: FlagThresholds | None = None) -> str:
    """Why one fact part is prone to false matches, or ``""`` when it is not: a short bare
    number (at most ``short_number_digits`` digits), a single short or common word, or only
    articles and punctuation — text that substring inclusion finds by accident."""
    t = thresholds or FlagThresholds()
    text = part.strip()
    bare = _NUMBER_DECORATION.sub("", text)
    if bare.isdigit() and len(bare) <= t.short_number_digits:
        return (
            f"{text!r} is a bare number of {len(bare)} digit{'s' if len(bare) > 1 else ''} "
            f"(at most {t.short_number_digits})"
        )
    words = normalise(text).split()
    if not words:
        # Only articles or punctuation ("the", "$"): the quasi-exact form is empty and matches
        # every response, and the exact form is one of the commonest substrings there is.
        return f"{text!r} is only articles or punctuation" if text else ""
    if len(words) != 1:
        return ""
    if len(words[0]) <= t.short_word_chars:
        size = plural(len(words[0]), "character")
        return f"{text!r} is a single word of {size} (at most {t.short_word_chars})"
    return f"{text!r} is a single common word" if words[0] in _COMMON_WORDS else ""


def prone_to_false_match(part: str, thresholds: FlagThresholds | None = None) -> bool:
    """Whether one fact part is prone to false matches (:func:`false_match_reason`)."""
    return bool(false_match_reason(part, thresholds))


def fact_parts(fact: str) -> list[str]:
    """Every non-blank ``<OR>``/``<AND>`` part of a fact, verbatim, in order."""
    return [p for g in fact_groups(fact) for p in g if p.strip()]


def prone_parts(fact: str, thresholds: FlagThresholds | None = None) -> list[str]:
    """The fact's parts that are prone to false matches (:func:`prone_to_false_match`)."""
    return [p for p in fact_parts(fact) if prone_to_false_match(p, thresholds)]


def answer_word_count(answer: str) -> int:
    """The golden answer's length as the verbosity guardrail counts it: the larger of its
    whitespace-separated words and its distinct FMEval words — which is always the first.

    FMEval's words never outnumber the whitespace-separated ones: lower-casing and deleting
    punctuation never turn a non-space into a space (a word can only vanish, as "—" does),
    dropping articles and empty pieces only removes words, the pieces are re-joined with a
    space (never glued), and a set only merges repeats. A property test holds this."""
    return len(answer.split())


def fact_in_answer(answer: str, fact: str) -> bool:
    """Whether some fact alternative has all its parts in the golden answer (exact inclusion,
    case-insensitive, as Factual Knowledge tests a response). A fact with no non-blank part
    counts as in the answer: that row has its own flag (empty fact part)."""
    if not fact_parts(fact):
        return True
    return groups_in(answer.lower(), lowered_groups(fact_groups(fact)))


def lowered_groups(groups: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Each alternative's non-blank parts, lower-cased (what :func:`groups_in` looks for)."""
    return [tuple(p.lower() for p in g if p.strip()) for g in groups]


def groups_in(lower: str, groups: Sequence[Sequence[str]]) -> bool:
    """Whether some group of :func:`lowered_groups` has all its parts in ``lower`` (a
    lower-cased text)."""
    return any(all(p in lower for p in g) for g in groups)


def fact_missing_everywhere(fact_found_by_pipeline: Sequence[float]) -> bool:
    """The ambiguous-question rule: there are scored responses and none contains the fact."""
    return bool(fact_found_by_pipeline) and max(fact_found_by_pipeline) < 1.0


def golden_flags(
    answer: str,
    fact: str,
    fact_found_by_pipeline: Sequence[float],
    thresholds: FlagThresholds | None = None,
) -> list[Flag]:
    """Flags for one golden row; ``fact_found_by_pipeline`` holds each response's exact FK score
    (scored ones only: with none, the row is not called ambiguous). The fact is split once for
    all the rules (:func:`prone_parts`, :func:`~goldenlens.core.lexical.factual_knowledge.empty_parts` and
    :func:`fact_in_answer` each split it again on their own): this runs for every question of
    a run."""
    t = thresholds or FlagThresholds()
    groups = fact_groups(fact)
    parts = [part for group in groups for part in group]
    kept = [part for part in parts if part.strip()]  # fact_parts(fact)
    flags: list[Flag] = []
    if fact_missing_everywhere(fact_found_by_pipeline):
        flags.append(Flag.AMBIGUOUS_QUESTION)
    if any(prone_to_false_match(part, t) for part in kept):
        flags.append(Flag.FACT_PRONE_TO_FALSE_MATCHES)
    # answer_word_count(answer) > the limit, without splitting beyond it: with at most n
    # splits, str.split gives n + 1 pieces exactly when there are more than n words.
    limit = t.verbose_answer_words
    if limit >= 0 and len(answer.split(None, limit)) > limit:
        flags.append(Flag.VERBOSE_GOLDEN_ANSWER)
    if len(kept) != len(parts):  # empty_parts(fact)
        flags.append(Flag.EMPTY_FACT_PART)
    if kept and not groups_in(answer.lower(), lowered_groups(groups)):  # not fact_in_answer(answer, fact)
        flags.append(Flag.FACT_NOT_IN_ANSWER)
    return flags

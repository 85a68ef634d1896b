"""How the advisor reads one pipeline's response to a golden row.

The interpretation flags (:mod:`goldenlens.core.lexical.flags`) decide hallucination, rephrasing and
accidental matches from the lexical scores; this module adds the numbers, the matched text
and — when the judge measured it — the semantic similarity, and turns each reading into a
:class:`~goldenlens.core.advice.values.Diagnosis`.

The advisor reads more evidence than the flags, in this order, to tell a rephrased correct
response from a wrong one when the fact is missing:

1. quasi-exact Factual Knowledge 1 — the fact is there after normalisation: rephrased;
2. **fact-word coverage** 1 — every word of some fact alternative (of two or more words) is
   among the response's FMEval words, only not contiguously ("foreign *currency* exchange
   rates"): rephrased, even where the flags say likely hallucination (high recall);
3. semantic similarity, when the judge measured it: at or above ``similar`` rephrased, below
   it not, whatever the recall;
4. otherwise the flags' recall band (``rephrased_recall`` ≤ recall < ``hallucination_recall``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from goldenlens.core.advice.corpus import excerpt
from goldenlens.core.advice.values import (
    AdviceCode,
    AdviceSeverity,
    AdviceThresholds,
    Diagnosis,
    Fix,
    FixKind,
)
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.factual_knowledge import AND, FactMatcher, fact_groups
from goldenlens.core.lexical.flags import Flag, response_flags
from goldenlens.core.lexical.normalise import word_set
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT, RECALL
from goldenlens.core.variants.generator import suggest_variants
from goldenlens.core.variants.stated_values import StatedValue, other_value


@dataclass(frozen=True)
class RowResponse:
    """One pipeline's response to a golden row with its lexical scores (as computed by the
    run) and its semantic similarity to the golden answer (``None``: not measured)."""

    pipeline: str
    text: str
    scores: Mapping[str, float | None]
    similarity: float | None = None
    #: ``word_set(text)`` when the caller has it already (the advice's corpus does).
    known_words: frozenset[str] | None = None

    @property
    def words(self) -> frozenset[str]:
        return word_set(self.text) if self.known_words is None else self.known_words

    @property
    def recall(self) -> float:
        return self.scores.get(RECALL) or 0.0

    @property
    def fact_found(self) -> float | None:
        return self.scores.get(FACTUAL_KNOWLEDGE)


def _inside_token(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is glued to letters or digits on either side (``158``
    inside ``1580``, ``2023`` inside ``doc-2023117``)."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return before.isalnum() or after.isalnum()


def fact_word_coverage(fact: str, said: frozenset[str]) -> tuple[float, str]:
    """The largest share of one fact alternative's FMEval words found among the response's
    words ``said``, over the alternatives of two or more words: ``(share, alternative)``;
    ``(0.0, "")`` when the fact has no such alternative."""
    best = (0.0, "")
    for group in fact_groups(fact):
        words = word_set(" ".join(group))
        if len(words) < 2:
            continue
        share = len(words & said) / len(words)
        if share > best[0]:
            best = (share, "<AND>".join(group))
    return best


def read_response(
    item: GoldenItem, response: RowResponse, t: AdviceThresholds, *, trimmed_recall: float | None = None
) -> tuple[Diagnosis | None, str]:
    """The response-level diagnosis of one response (or ``None``) and a one-word reading for
    the side-by-side view (``refusal``, ``empty`` or the diagnosis code; ``""``: nothing).

    ``trimmed_recall`` is the response's recall against the trimmed golden answer when the
    answer is verbose: a fact found with recall ≈ 0 is no accident when the recall against
    the fact-bearing sentence is above ``accidental_recall`` — the long answer explains it.
    """
    flags = response_flags(response.text, response.scores, t.flags)
    if Flag.EMPTY_RESPONSE in flags:
        return None, "empty"
    if Flag.REFUSAL in flags:
        return None, "refusal"
    if Flag.ACCIDENTAL_FACT_MATCH in flags:
        explained = trimmed_recall is not None and trimmed_recall > t.flags.accidental_recall
        if explained or not _accidental_match(item, response, t):
            return None, ""
        return _accidental(item, response, t), AdviceCode.ACCIDENTAL_FACT_MATCH.value
    if response.fact_found is None or response.fact_found >= 1.0:
        return None, ""
    diagnosis = _fact_missed(item, response, flags, t)
    return diagnosis, diagnosis.code.value if diagnosis is not None else ""


def _fact_missed(
    item: GoldenItem, response: RowResponse, flags: list[Flag], t: AdviceThresholds
) -> Diagnosis | None:
    """The reading of a response that misses the fact: the value in another spelling (right),
    another value of the same kind (wrong), the golden answer's words without the value (a
    hallucination, where recall can tell), or a rephrasing."""
    spelled = value_spelled(item, response.text)
    if spelled is not None:
        return _rephrased_value(item, response, spelled)
    wrong = other_value(item.fact, response.text, question=item.question)
    if wrong is not None:
        return _wrong_value(item, response, *wrong)
    covered = fact_word_coverage(item.fact, response.words)
    if Flag.LIKELY_HALLUCINATION in flags and covered[0] < 1.0 and not answer_is_an_alias(item):
        return _hallucination(item, response, t)
    return _rephrased(item, response, flags, covered, t)


def answer_is_an_alias(item: GoldenItem) -> bool:
    """Whether the golden answer is about as short as the fact: no more words than its longest
    alternative plus one. Recall against such an answer says whether the fact's words are there,
    not whether the value is (a short-answer golden set): it cannot tell a hallucination."""
    longest = max((len(word_set(" ".join(group))) for group in fact_groups(item.fact)), default=0)
    return len(word_set(item.answer)) <= longest + 1


_WORD = re.compile(r"\w+")


def _accidental_match(item: GoldenItem, response: RowResponse, t: AdviceThresholds) -> bool:
    """Whether a fact match with low recall really looks accidental: it sits inside a longer
    token ("13" in "1913"), or it went through the golden answer's own wording and the response
    shares almost none of the answer's words even read as Unicode words. A match through an
    alternative the answer does not use (an alias) explains low recall; so do curly quotes,
    which FMEval's ASCII-only punctuation keeps glued to the words ("“Dangerous Minds”")."""
    found = FactMatcher(item.fact).match(response.text)
    if not found.matches:
        return True
    if any(_inside_token(response.text, m.start, m.end) for m in found.matches):
        # Unless another alternative stands in the response as words of their own ("EGY" inside
        # "Egypt", where "Egypt" is an alternative too).
        return not _standalone_alternative(item.fact, response.text)
    matched = word_set(" ".join(m.part for m in found.matches))
    if not matched or not matched <= word_set(item.answer):
        return False
    answer_words = set(_WORD.findall(item.answer.casefold()))
    said = set(_WORD.findall(response.text.casefold()))
    recall = len(answer_words & said) / len(answer_words) if answer_words else 0.0
    return recall <= t.flags.accidental_recall


def _standalone_alternative(fact: str, text: str) -> bool:
    """Whether every part of some ``<OR>`` alternative is in ``text`` (case-insensitive) at
    least once not glued to letters or digits."""
    lower = text.lower()
    for group in fact_groups(fact):
        parts = [p.strip().lower() for p in group if p.strip()]
        if parts and all(_free_occurrence(lower, part) for part in parts):
            return True
    return False


def _free_occurrence(lower: str, part: str) -> bool:
    start = lower.find(part)
    while start >= 0:
        if not _inside_token(lower, start, start + len(part)):
            return True
        start = lower.find(part, start + 1)
    return False


def value_spelled(item: GoldenItem, text: str) -> str | None:
    """A safe spelling of the fact's value from the variant generator ("seven percent" for
    ``7%``) that ``text`` holds, as written in the fact's variants; ``None`` when there is none."""
    lowered = text.lower()
    return next((spelled for spelled, lower in _safe_spellings(item.fact) if lower in lowered), None)


@lru_cache(maxsize=1024)  # a question's responses ask about the same fact in a row
def _safe_spellings(fact: str) -> tuple[tuple[str, str], ...]:
    """The fact's safe one-part variants, each with its lower-cased text."""
    return tuple(
        (variant.text, variant.text.lower())
        for variant in suggest_variants(fact).variants
        if not variant.risky and AND not in variant.text
    )


def _score(value: float | None) -> str:
    return "not scored" if value is None else f"{value:.3f}"


def _hallucination(item: GoldenItem, r: RowResponse, t: AdviceThresholds) -> Diagnosis:
    numbers: dict[str, float | int | str] = {
        "recall": r.recall,
        "hallucination_recall": t.flags.hallucination_recall,
        "f1": r.scores.get(F1_SCORE) or 0.0,
        "factual_knowledge": 0.0,
        "factual_knowledge_quasi_exact": 0.0,
    }
    explanation = (
        f"{r.pipeline}: recall {r.recall:.3f} ≥ {t.flags.hallucination_recall:g} "
        f"(F1 {_score(r.scores.get(F1_SCORE))}) yet no fact alternative ({item.fact}) is in the "
        "response, exactly or after normalisation: the wording matches the golden answer and the "
        "key value does not."
    )
    if r.similarity is not None:
        numbers["similarity"] = r.similarity
        explanation += (
            f" Semantic similarity {r.similarity:.3f} cannot tell the two apart: the sentences "
            "differ only in the value."
        )
    return Diagnosis(
        AdviceCode.LIKELY_HALLUCINATION,
        AdviceSeverity.MEDIUM,
        item.id,
        explanation,
        "Check the response's value against the source. If it is wrong, read Factual Knowledge "
        "for this row: F1 and recall overstate it. If it is an equivalent form of the fact, add "
        "that form as a fact variant.",
        numbers,
        pipeline=r.pipeline,
        fix=Fix(FixKind.ADD_VARIANT, "fact", "Add the response's form of the value as a fact variant"),
    )


def _accidental(item: GoldenItem, r: RowResponse, t: AdviceThresholds) -> Diagnosis:
    found = FactMatcher(item.fact).match(r.text)
    numbers: dict[str, float | int | str] = {
        "recall": r.recall,
        "accidental_recall": t.flags.accidental_recall,
        "factual_knowledge": 1.0,
    }
    where = ""
    inside = False
    if found.matches:
        first = found.matches[0]
        inside = any(_inside_token(r.text, m.start, m.end) for m in found.matches)
        numbers["matched"] = found.matched_part
        where = f" ({found.matched_part!r} in “{excerpt(r.text, first.start, first.end)}”)"
    numbers["inside_longer_token"] = int(inside)
    explanation = (
        f"{r.pipeline}: the fact is found{where} but the response shares almost no words with "
        f"the golden answer (recall {r.recall:.3f} ≤ {t.flags.accidental_recall:g})"
    )
    explanation += (
        ": the match sits inside a longer token, such as an id or a bigger number."
        if inside
        else ": the match may be a coincidence, such as a document id, a phone number or a year."
    )
    return Diagnosis(
        AdviceCode.ACCIDENTAL_FACT_MATCH,
        AdviceSeverity.HIGH if inside else AdviceSeverity.MEDIUM,
        item.id,
        explanation,
        "Read the response: if it does not state the fact, override its Factual Knowledge to 0 "
        "and make the fact more specific (add its unit or context).",
        numbers,
        pipeline=r.pipeline,
        fix=Fix(
            FixKind.OVERRIDE_SCORE,
            FACTUAL_KNOWLEDGE,
            f"Override {r.pipeline}'s Factual Knowledge to 0",
            "0",
            r.pipeline,
        ),
    )


def _rephrased_value(item: GoldenItem, r: RowResponse, spelled: str) -> Diagnosis:
    return Diagnosis(
        AdviceCode.CORRECT_BUT_REPHRASED,
        AdviceSeverity.HIGH,
        item.id,
        f"{r.pipeline}: the fact ({item.fact}) is not in the response as written (Factual Knowledge 0), "
        f"but the same value spelled '{spelled}' is.",
        "If the response is right, add this spelling of the value as an <OR> variant, then re-score.",
        {"factual_knowledge": 0.0, "recall": r.recall, "spelling": spelled},
        pipeline=r.pipeline,
        fix=Fix(FixKind.ADD_VARIANT, "fact", f"Add '{spelled}' as a fact variant", spelled),
    )


def _wrong_value(item: GoldenItem, r: RowResponse, stated: StatedValue, expected: StatedValue) -> Diagnosis:
    return Diagnosis(
        AdviceCode.LIKELY_HALLUCINATION,
        AdviceSeverity.MEDIUM,
        item.id,
        f"{r.pipeline}: the response states {stated.text!r} where the fact says {expected.text!r} "
        f"(another {stated.kind}, and none of the fact's): a different value is a likely wrong answer, "
        "not a rephrasing.",
        "Check the value against the source. If it is wrong, read Factual Knowledge for this row; if the "
        "fact is out of date, fix the fact.",
        {"factual_knowledge": 0.0, "recall": r.recall, "stated": stated.value, "expected": expected.value},
        pipeline=r.pipeline,
    )


def _quasi_variant(item: GoldenItem, text: str) -> str | None:
    """The response's own text of a fact found only after normalisation (one-part
    alternatives only: a variant holds no ``<AND>``)."""
    found = FactMatcher(item.fact).match(text)
    if found.matched_by != "quasi_exact" or len(found.matches) != 1:
        return None
    match = found.matches[0]
    variant = text[match.start : match.end].strip()
    return variant or None


def _rephrased(
    item: GoldenItem, r: RowResponse, flags: list[Flag], covered: tuple[float, str], t: AdviceThresholds
) -> Diagnosis | None:
    fact_found = r.fact_found
    if fact_found is None or fact_found >= 1.0:
        return None
    quasi = (r.scores.get(FACTUAL_KNOWLEDGE_QUASI_EXACT) or 0.0) >= 1.0
    numbers: dict[str, float | int | str] = {
        "factual_knowledge": fact_found,
        "factual_knowledge_quasi_exact": float(quasi),
        "recall": r.recall,
    }
    variant: str | None = None
    if quasi:
        variant = _quasi_variant(item, r.text)
        shown = f" ('{variant}')" if variant else ""
        explanation = (
            f"{r.pipeline}: the fact is not in the response as written (Factual Knowledge 0) but "
            f"is after normalisation (quasi-exact 1){shown}: it differs only in case, punctuation "
            "or articles."
        )
        severity = AdviceSeverity.HIGH
    elif covered[0] >= 1.0:
        numbers["fact_word_coverage"] = covered[0]
        explanation = (
            f"{r.pipeline}: the fact '{covered[1]}' is not in the response as written (Factual "
            f"Knowledge 0), but every one of its words is (fact-word coverage 1.0, recall "
            f"{r.recall:.3f}): the response probably states it in other word order or with words "
            "in between."
        )
        severity = AdviceSeverity.HIGH
    elif r.similarity is not None:
        numbers |= {"similarity": r.similarity, "similar": t.similar}
        if r.similarity < t.similar:
            return None
        explanation = (
            f"{r.pipeline}: no fact alternative is in the response (Factual Knowledge 0), yet its "
            f"semantic similarity to the golden answer is {r.similarity:.3f} ≥ {t.similar:g} "
            f"(recall {r.recall:.3f}): it probably gives the fact in other words."
        )
        severity = AdviceSeverity.HIGH
    elif Flag.POSSIBLY_CORRECT_REPHRASED in flags:
        numbers |= {
            "rephrased_recall": t.flags.rephrased_recall,
            "hallucination_recall": t.flags.hallucination_recall,
        }
        explanation = (
            f"{r.pipeline}: no fact alternative is in the response (Factual Knowledge 0), yet "
            f"recall is {r.recall:.3f}, between {t.flags.rephrased_recall:g} and "
            f"{t.flags.hallucination_recall:g}: it may give the fact in other words (no semantic "
            "similarity was measured to confirm it)."
        )
        severity = AdviceSeverity.MEDIUM
        if answer_is_an_alias(item):
            # Recall against an answer as short as the fact says only that some of its words are
            # there ("state" of "Utah (State)" in "…the last state was Mississippi"): on EVOUNA such
            # readings were right on 320 of 447 responses by the person's verdict, the others 96%.
            # Articles are not among the words (a run scored with --multiset counts them too).
            shared = sorted(word_set(item.answer) & r.words)
            listed = ", ".join(repr(w) for w in shared) if shared else "only articles"
            explanation = (
                f"{r.pipeline}: no fact alternative is in the response (Factual Knowledge 0); the golden "
                f"answer is about as short as the fact, so its recall of {r.recall:.3f} says only that "
                f"some of its words are there ({listed}): the response may "
                "give the fact in other words, or name another answer (no semantic similarity was "
                "measured to tell)."
            )
            severity = AdviceSeverity.LOW
    else:
        return None
    fix = Fix(
        FixKind.ADD_VARIANT,
        "fact",
        f"Add '{variant}' as a fact variant" if variant else "Add the response's wording as a fact variant",
        variant,
    )
    return Diagnosis(
        AdviceCode.CORRECT_BUT_REPHRASED,
        severity,
        item.id,
        explanation,
        "If the response is right, add its wording of the fact as an <OR> variant, then re-score.",
        numbers,
        pipeline=r.pipeline,
        fix=fix,
    )

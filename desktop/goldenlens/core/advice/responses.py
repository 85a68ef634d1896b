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

from collections.abc import Mapping
from dataclasses import dataclass

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
from goldenlens.core.lexical.factual_knowledge import FactMatcher, fact_groups
from goldenlens.core.lexical.flags import Flag, response_flags
from goldenlens.core.lexical.normalise import word_set
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT, RECALL


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
    covered = fact_word_coverage(item.fact, response.words)
    if Flag.LIKELY_HALLUCINATION in flags and covered[0] < 1.0:
        return _hallucination(item, response, t), AdviceCode.LIKELY_HALLUCINATION.value
    if Flag.ACCIDENTAL_FACT_MATCH in flags:
        if trimmed_recall is not None and trimmed_recall > t.flags.accidental_recall:
            return None, ""
        return _accidental(item, response, t), AdviceCode.ACCIDENTAL_FACT_MATCH.value
    rephrased = _rephrased(item, response, flags, covered, t)
    return rephrased, (AdviceCode.CORRECT_BUT_REPHRASED.value if rephrased else "")


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

"""The advisor's golden-row rules: what the metric interplay across all pipelines says about
one question, its golden answer and its fact.

Definitions (all on FMEval's word sets — strip, normalise, split — unless said otherwise):

* **fact share** of an alternative A in a golden target T: ``|W(A) ∩ W(T)| / |W(T)|``, the
  largest over the fact's alternatives and the answer's ``<OR>`` targets.
* **fact-bearing part** of a golden target: its sentences (split after ``.``, ``!`` or ``?``
  followed by white space) that contain a whole fact alternative (exact inclusion, as Factual
  Knowledge tests a response); the **trimmed answer** keeps only those.
* a **concise correct response**: exact Factual Knowledge 1 and no more words than the
  verbosity guardrail (counted as :func:`~goldenlens.core.lexical.flags.answer_word_count` counts).
* **LLM-specific words** of a response: golden words (not in the question, not in the fact,
  no digits, not short or common by the false-match rule) that the response uses and that,
  over the whole project, only this response's pipeline ever writes — in answers to at
  least ``llm_specific_min_questions`` questions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from goldenlens.core.advice.corpus import Corpus, FalseMatches
from goldenlens.core.advice.responses import RowResponse
from goldenlens.core.advice.values import (
    AdviceCode,
    AdviceSeverity,
    AdviceThresholds,
    Diagnosis,
    Fix,
    FixKind,
    PipelineAnswer,
    TrimmedScores,
)
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.factual_knowledge import AND, OR, empty_parts, fact_groups
from goldenlens.core.lexical.flags import (
    answer_word_count,
    fact_in_answer,
    fact_missing_everywhere,
    fact_parts,
    false_match_reason,
)
from goldenlens.core.lexical.normalise import normalise, word_set
from goldenlens.core.lexical.scorer import TARGET_DELIMITER, LexicalScorer, prf

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def ambiguous_question(
    item: GoldenItem, responses: Sequence[RowResponse], answers: Sequence[PipelineAnswer]
) -> Diagnosis | None:
    """Every scored response misses the fact: reframe the question (or widen the fact when
    the responses look rephrased). ``answers`` are the responses side by side."""
    found = [r.fact_found for r in responses if r.fact_found is not None]
    if not fact_missing_everywhere(found):
        return None
    rephrased = sum(a.reading == AdviceCode.CORRECT_BUT_REPHRASED.value for a in answers)
    refusals = sum(a.reading == "refusal" for a in answers)
    best = max(responses, key=lambda r: r.recall)
    explanation = (
        f"None of the {len(found)} pipelines' responses contains the fact '{item.fact}' "
        f"(exact Factual Knowledge 0 for all {len(found)}; best recall {best.recall:.3f}, "
        f"{best.pipeline}): the pipelines read the question differently, or the fact is too narrow."
    )
    if rephrased:
        explanation += (
            f" {rephrased} of them may give the right answer in other words (each response's reading "
            "says how sure that is)."
        )
    if refusals:
        explanation += f" {refusals} declined to answer."
    action = (
        "Reframe the question so it has one acceptable answer (name the measure, the period, "
        "the document); compare what each pipeline answered instead."
    )
    if rephrased:
        action += " Where a response is right in other words, add its wording as a fact variant."
    return Diagnosis(
        AdviceCode.AMBIGUOUS_QUESTION,
        AdviceSeverity.HIGH,
        item.id,
        explanation,
        action,
        {
            "responses": len(found),
            "fact_found": 0,
            "rephrased": rephrased,
            "refusals": refusals,
            "best_recall": best.recall,
        },
        fix=Fix(FixKind.EDIT_QUESTION, "question", "Reframe the question"),
        answers=tuple(answers),
    )


def _without_empty_parts(fact: str) -> str:
    groups = [[p for p in g if p.strip()] for g in fact_groups(fact)]
    return OR.join(AND.join(g) for g in groups if g)


def empty_fact_part(item: GoldenItem) -> Diagnosis | None:
    """An empty ``<OR>``/``<AND>`` part: Factual Knowledge is not scored until it goes."""
    empty = empty_parts(item.fact)
    if not empty:
        return None
    cleaned = _without_empty_parts(item.fact)
    return Diagnosis(
        AdviceCode.EMPTY_FACT_PART,
        AdviceSeverity.HIGH,
        item.id,
        f"The fact '{item.fact}' has {len(empty)} empty part(s): Factual Knowledge is not scored for "
        "this question (FMEval would count an empty part as found in every response).",
        "Remove the empty part (a stray <OR> or <AND>) or write the missing alternative.",
        {"empty_parts": len(empty)},
        fix=Fix(
            FixKind.EDIT_FACT,
            "fact",
            f"Set the fact to '{cleaned}'" if cleaned else "Write the fact",
            cleaned or None,
        ),
    )


def fact_not_in_answer(item: GoldenItem) -> Diagnosis | None:
    """No fact alternative appears in the golden answer itself."""
    if fact_in_answer(item.answer, item.fact):
        return None
    alternatives = [AND.join(g) for g in fact_groups(item.fact) if all(p.strip() for p in g)]
    normalised_answer = normalise(item.answer.strip())
    loose = [a for a in alternatives if all(normalise(p.strip()) in normalised_answer for p in a.split(AND))]
    explanation = (
        f"None of the fact's {len(alternatives)} alternative(s) appears in the golden answer "
        f"(exact inclusion, ignoring case): '{item.fact}' is not in '{item.answer}'."
    )
    if loose:
        explanation += f" '{loose[0]}' appears only after normalisation (punctuation or articles differ)."
    return Diagnosis(
        AdviceCode.FACT_NOT_IN_ANSWER,
        AdviceSeverity.HIGH,
        item.id,
        explanation,
        "Make the answer and the fact agree: write the fact's value in the answer as it is in the "
        "fact, or correct the fact.",
        {"alternatives": len(alternatives), "found_after_normalisation": len(loose)},
        fix=Fix(FixKind.EDIT_FACT, "fact", "Edit the fact to match the answer"),
    )


def _short_fact(fact: str, t: AdviceThresholds) -> bool:
    groups = [g for g in fact_groups(fact) if all(p.strip() for p in g)]
    return bool(groups) and all(len(AND.join(g).strip()) <= t.false_match_scan_chars for g in groups)


def fact_prone_to_false_matches(item: GoldenItem, corpus: Corpus, t: AdviceThresholds) -> Diagnosis | None:
    """A fact part that matches by accident (short number, single common word), or a short
    fact that other questions' responses contain although their golden answers do not."""
    reasons = [reason for p in fact_parts(item.fact) if (reason := false_match_reason(p, t.flags))]
    scan = bool(reasons) or _short_fact(item.fact, t)
    found = corpus.false_matches(item) if scan else FalseMatches((), 0, 0)
    matches = found.listed
    if not reasons and found.responses < t.false_match_min_others:
        return None
    said = "; ".join(reasons)
    explanation = f"{said[:1].upper()}{said[1:]}. " if reasons else ""  # the parts keep their case
    if matches:
        where = ", ".join(f"{m.question_id}/{m.pipeline}" for m in matches[:8])
        more = f" and {found.responses - 8} more" if found.responses > 8 else ""
        explanation += (
            f"The fact is found in {found.responses} response(s) to {found.questions} other question(s) "
            f"whose golden answer does not contain it: {where}{more}."
        )
    else:
        explanation += "No response to another question contains it yet, but any may by accident."
    return Diagnosis(
        AdviceCode.FACT_PRONE_TO_FALSE_MATCHES,
        AdviceSeverity.HIGH if matches else AdviceSeverity.MEDIUM,
        item.id,
        explanation,
        "Make the fact specific: add its unit or context ('158 million shares' rather than '158'), "
        "or require a second part with <AND>.",
        {
            "prone_parts": len(reasons),
            "other_responses": found.responses,
            "other_questions": found.questions,
            "short_number_digits": t.flags.short_number_digits,
            "short_word_chars": t.flags.short_word_chars,
        },
        fix=Fix(FixKind.EDIT_FACT, "fact", "Make the fact more specific"),
        false_matches=matches,
    )


def _targets(answer: str) -> list[str]:
    return answer.split(TARGET_DELIMITER)


def fact_share(item: GoldenItem) -> tuple[float, str, int, int]:
    """The largest fact share: ``(share, alternative, shared words, answer words)``."""
    best = (0.0, "", 0, 0)
    for group in fact_groups(item.fact):
        alternative = AND.join(group)
        fact_words = word_set(" ".join(group))
        if len(fact_words) < 2:
            continue  # one word cannot be cut down further: minimal by construction
        for target in _targets(item.answer):
            answer_words = word_set(target)
            if not answer_words:
                continue
            shared = len(fact_words & answer_words)
            share = shared / len(answer_words)
            if share > best[0]:
                best = (share, alternative, shared, len(answer_words))
    return best


def fact_not_minimal(item: GoldenItem, t: AdviceThresholds) -> Diagnosis | None:
    """One fact alternative is the whole golden answer or most of it."""
    share, alternative, shared, answer_words = fact_share(item)
    if share < t.fact_answer_share or answer_words < t.fact_share_min_answer_words:
        return None
    return Diagnosis(
        AdviceCode.FACT_NOT_MINIMAL,
        AdviceSeverity.MEDIUM,
        item.id,
        f"The fact alternative '{alternative}' covers {shared} of the golden answer's {answer_words} "
        f"words ({share:.0%} ≥ {t.fact_answer_share:.0%}): Factual Knowledge then asks for nearly "
        "the whole answer verbatim, and a correct response in other words scores 0.",
        "Cut the fact down to the key value (a number with its unit, a name, a date) and list the "
        "forms a correct response may use after <OR>.",
        {
            "fact_share": share,
            "shared_words": shared,
            "answer_words": answer_words,
            "fact_answer_share": t.fact_answer_share,
        },
        fix=Fix(FixKind.EDIT_FACT, "fact", "Cut the fact down to its key value"),
    )


def trimmed_answer(answer: str, fact: str) -> str:
    """The golden answer cut to its fact-bearing sentences (per ``<OR>`` target; a target
    with no fact-bearing sentence is kept whole), or ``""`` when nothing would be cut."""
    groups = [tuple(p.lower() for p in g) for g in fact_groups(fact) if all(p.strip() for p in g)]
    if not groups:
        return ""
    trimmed: list[str] = []
    for target in _targets(answer):
        sentences = _SENTENCE_END.split(target.strip())
        kept = [s for s in sentences if any(all(p in s.lower() for p in g) for g in groups)]
        trimmed.append(" ".join(kept) if kept else target.strip())
    result = TARGET_DELIMITER.join(trimmed)
    return "" if result.split() == answer.split() else result


def verbose_golden_answer(
    item: GoldenItem, responses: Sequence[RowResponse], scorer: LexicalScorer, t: AdviceThresholds
) -> Diagnosis | None:
    """More golden words than the guardrail; the scores each concise correct response would
    get against the trimmed answer, computed with the run's scorer."""
    words = answer_word_count(item.answer)
    guardrail = t.flags.verbose_answer_words
    if words <= guardrail:
        return None
    trimmed = trimmed_answer(item.answer, item.fact)
    trimmed_words = answer_word_count(trimmed) if trimmed else words
    rows: list[TrimmedScores] = []
    if trimmed:
        for r in responses:
            if r.fact_found != 1.0 or answer_word_count(r.text) > guardrail:
                continue
            now, then = scorer.qa(r.text, item.answer), scorer.qa(r.text, trimmed)
            rows.append(
                TrimmedScores(
                    r.pipeline, now.precision, then.precision, now.recall, then.recall, now.f1, then.f1
                )
            )
    explanation = f"The golden answer has {words} words, more than the guardrail of {guardrail}"
    if not trimmed:
        explanation += "; no shorter fact-bearing sentence could be cut from it."
    else:
        explanation += f"; the sentence(s) carrying the fact have {trimmed_words}."
        if rows:
            explanation += (
                f" Against the trimmed answer the {len(rows)} concise correct response(s) would score "
                "as listed. Precision cannot rise when the answer is trimmed (a response's matched "
                "words can only be fewer): recall and F1 are what a long answer holds down."
            )
        else:
            explanation += " No response is both correct and concise, so no score change is shown."
    return Diagnosis(
        AdviceCode.VERBOSE_GOLDEN_ANSWER,
        AdviceSeverity.MEDIUM,
        item.id,
        explanation,
        f"Trim the golden answer to the sentence that carries the fact, or shorten it to at most "
        f"{guardrail} words.",
        {"answer_words": words, "verbose_answer_words": guardrail, "trimmed_words": trimmed_words},
        fix=(
            Fix(FixKind.TRIM_ANSWER, "answer", "Trim the answer to its fact-bearing sentence(s)", trimmed)
            if trimmed
            else Fix(FixKind.EDIT_ANSWER, "answer", "Shorten the answer")
        ),
        trimmed=tuple(rows),
    )


def llm_specific_wording(
    item: GoldenItem,
    responses: Sequence[RowResponse],
    corpus: Corpus,
    scorer: LexicalScorer,
    t: AdviceThresholds,
) -> list[Diagnosis]:
    """Golden words that only one pipeline ever writes, and the recall they give it here."""
    if len(corpus.pipelines) < 2:
        return []
    excluded = word_set(item.question) | word_set(" ".join(fact_parts(item.fact)))
    targets = [corpus.words(target) for target in _targets(item.answer)]
    found: list[Diagnosis] = []
    for r in responses:
        # the target the scores came from (the best F1 of several <OR> targets)
        golden = targets[scorer.qa(r.text, item.answer).target_index] if len(targets) > 1 else targets[0]
        said = corpus.words(r.text)
        specific: dict[str, int] = {}
        for word in sorted(golden & said & corpus.own_words(r.pipeline) - excluded):
            owner = corpus.only_pipeline(word)
            # A short or common word (the false-match rule's) is nobody's wording in particular.
            if owner is None or any(c.isdigit() for c in word) or false_match_reason(word, t.flags):
                continue
            if owner[1] >= t.llm_specific_min_questions:
                specific[word] = owner[1]
        if len(specific) < t.llm_specific_min_words:
            continue
        own = set(specific)
        recall, recall_without = prf(said, golden)[1], prf(said - own, golden - own)[1]
        numbers: dict[str, float | int | str] = {
            "words": len(own),
            "recall": recall,
            "recall_without": recall_without,
            "llm_specific_min_questions": t.llm_specific_min_questions,
        }
        others: list[str] = []
        for o in responses:
            if o.pipeline == r.pipeline:
                continue
            theirs = corpus.words(o.text)
            before, after = prf(theirs, golden)[1], prf(theirs - own, golden - own)[1]
            numbers[f"recall {o.pipeline}"] = before
            numbers[f"recall {o.pipeline} without"] = after
            others.append(f"{o.pipeline} {before:.3f} → {after:.3f}")
        listed = ", ".join(f"'{w}' ({n} questions)" for w, n in specific.items())
        one = len(own) == 1
        word, verb, pronoun = ("word", "appears", "it") if one else ("words", "appear", "them")
        explanation = (
            f"Golden {word} {listed} {verb} in {r.pipeline}'s responses and in no other "
            f"pipeline's: {r.pipeline}'s own wording, which lifts its recall here from "
            f"{recall_without:.3f} (without {pronoun}) to {recall:.3f}."
        )
        if others:
            explanation += f" Without {pronoun} the others' recall would be {', '.join(others)}."
        found.append(
            Diagnosis(
                AdviceCode.LLM_SPECIFIC_WORDING,
                AdviceSeverity.LOW,
                item.id,
                explanation,
                "Reword the golden answer neutrally: drop the phrasing a model added when the golden "
                "set was drafted.",
                numbers,
                pipeline=r.pipeline,
                fix=Fix(FixKind.EDIT_ANSWER, "answer", "Reword the answer without these words"),
                words=tuple(specific),
            )
        )
    return found

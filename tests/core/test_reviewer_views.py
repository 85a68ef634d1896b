"""What the reviewer said, told to each diagnosis (core/advice/reviewer_views.py), on advice built
here: which diagnoses a verdict refutes (a likely hallucination counted correct), which it
confirms, and how much of the reviewer's words a golden row's diagnosis quotes (a cell of the
Advice sheet holds 32,767 characters at most)."""

from __future__ import annotations

from dataclasses import replace

from goldenlens.core.advice.reviewer_views import (
    NOTE_CHARS,
    SHOWN_VERDICTS,
    ReviewerVerdict,
    quoted_note,
    with_demotions,
    with_reviewer_verdicts,
)
from goldenlens.core.advice.values import (
    AdviceCode,
    AdviceSeverity,
    AdviceThresholds,
    Diagnosis,
    Fix,
    FixKind,
    ProjectAdvice,
    QuestionAdvice,
)
from goldenlens.core.calibration.diagnosis_check import DiagnosisCheck


def _diagnosis(code: AdviceCode, pipeline: str = "") -> Diagnosis:
    fix = Fix(FixKind.ADD_VARIANT, "fact", "Add the response's wording as a fact variant", "Lyon")
    return Diagnosis(code, AdviceSeverity.MEDIUM, "q1", "why", "what to do", pipeline=pipeline, fix=fix)


def _advice(pipelines: list[str], *diagnoses: Diagnosis) -> ProjectAdvice:
    return ProjectAdvice((QuestionAdvice("q1", "Q?", diagnoses),), tuple(pipelines), AdviceThresholds())


def test_a_verdict_refutes_or_confirms_what_the_diagnosis_claims() -> None:
    advice = _advice(
        ["A", "B", "C"],
        _diagnosis(AdviceCode.LIKELY_HALLUCINATION, "A"),
        _diagnosis(AdviceCode.CORRECT_BUT_REPHRASED, "B"),
        _diagnosis(AdviceCode.LLM_SPECIFIC_WORDING, "C"),
        _diagnosis(AdviceCode.LIKELY_HALLUCINATION, "D"),
    )
    told = with_reviewer_verdicts(
        advice,
        {
            ("q1", "A"): ReviewerVerdict(True, "labelled by Ana"),
            ("q1", "B"): ReviewerVerdict(True, "labelled by Bo"),
            ("q1", "C"): ReviewerVerdict(False, "Factual Knowledge overridden to 0 by Ana"),
        },
    )
    hallucination, rephrased, wording, unlabelled = told.diagnoses
    assert (hallucination.refuted, hallucination.reviewer) == (
        True,
        "The reviewer counted this response correct (labelled by Ana): this diagnosis does not hold here.",
    )
    # A refuted diagnosis offers no fix: it would act on what the reviewer denied.
    assert (hallucination.fix, hallucination.action) == (
        None,
        "None: the reviewer counted this response correct.",
    )
    assert (rephrased.refuted, rephrased.reviewer) == (
        False,
        "The reviewer counted this response correct (labelled by Bo), as this diagnosis says.",
    )
    # A diagnosis that claims no verdict is told the verdict, and is never refuted by it.
    assert (wording.refuted, wording.reviewer) == (
        False,
        "The reviewer counted this response incorrect (Factual Knowledge overridden to 0 by Ana).",
    )
    assert (unlabelled.refuted, unlabelled.reviewer) == (False, "")
    assert rephrased.fix is not None
    assert wording.fix is not None
    assert unlabelled.fix is not None
    assert with_reviewer_verdicts(advice, {}) is advice


def test_a_golden_rows_diagnosis_names_a_few_verdicts_and_counts_the_rest() -> None:
    pipelines = [f"P{n}" for n in range(10)]
    verdicts = {("q1", p): ReviewerVerdict(n % 2 == 0, f"labelled by R{n}") for n, p in enumerate(pipelines)}
    (told,) = with_reviewer_verdicts(
        _advice(pipelines, _diagnosis(AdviceCode.AMBIGUOUS_QUESTION)), verdicts
    ).diagnoses
    named = "; ".join(
        f"P{n} {'correct' if n % 2 == 0 else 'incorrect'} (labelled by R{n})" for n in range(SHOWN_VERDICTS)
    )
    assert told.reviewer == f"The reviewer counted {named}; and {10 - SHOWN_VERDICTS} more pipelines."
    assert not told.refuted


def test_a_long_note_is_cut_and_its_white_space_folded() -> None:
    assert quoted_note("") == ""
    assert quoted_note("  checked\n the   filing ") == ": checked the filing"
    long = quoted_note("x" * 10_000)
    assert len(long) == len(": ") + NOTE_CHARS
    assert long.endswith("…")


def test_a_rule_the_labels_demote_has_its_diagnoses_at_low_severity() -> None:
    # "Fact prone to false matches" held on 3 of 118 labelled responses (EVOUNA's count): the
    # Wilson interval's upper end is far below one half, so the rule is demoted; "likely
    # hallucination" held on 9 of 10 and is not.
    checks = {
        "fact_prone_to_false_matches": DiagnosisCheck("fact_prone_to_false_matches", 3, 118),
        "likely_hallucination": DiagnosisCheck("likely_hallucination", 9, 10),
    }
    assert checks["fact_prone_to_false_matches"].demoted
    assert not checks["likely_hallucination"].demoted
    prone = replace(_diagnosis(AdviceCode.FACT_PRONE_TO_FALSE_MATCHES), severity=AdviceSeverity.HIGH)
    hallucination = replace(_diagnosis(AdviceCode.LIKELY_HALLUCINATION, "A"), severity=AdviceSeverity.HIGH)
    advice = replace(_advice(["A"], prone, hallucination), checks=checks)
    found = with_demotions(advice).diagnoses
    assert [(d.code, d.severity) for d in found] == [
        (AdviceCode.FACT_PRONE_TO_FALSE_MATCHES, AdviceSeverity.LOW),
        (AdviceCode.LIKELY_HALLUCINATION, AdviceSeverity.HIGH),
    ]
    assert with_demotions(replace(advice, checks={})) == replace(advice, checks={})

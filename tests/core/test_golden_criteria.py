"""The golden-review criteria: reading a judge's verdict, the stored encoding, the counted
verbosity rule, the fact as the judge reads it, and the reviewer's verdict a decision implies."""

from __future__ import annotations

from typing import Any

import pytest

from goldenlens.core.golden.criteria import (
    CRITERIA,
    JUDGED_CRITERIA,
    Criterion,
    Decision,
    Verdict,
    VerdictError,
    criterion_from_name,
    criterion_metric,
    fact_text,
    parse_verdict,
    reviewer_verdict,
    triplet_fingerprint,
    verbosity_verdict,
    verdict_from_value,
)
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.flags import Flag, FlagThresholds, golden_flags


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ({"verdict": "pass", "reason": "One year answers it."}, (Verdict.PASS, "One year answers it.")),
        ({"verdict": " FAIL ", "reason": "two\n  lines "}, (Verdict.FAIL, "two lines")),
        ({"verdict": "Unsure"}, (Verdict.UNSURE, "")),  # reason cut off: no reason, verdict kept
    ],
)
def test_a_readable_reply_gives_its_verdict(reply: dict[str, Any], expected: tuple[Verdict, str]) -> None:
    assert parse_verdict(reply) == expected


@pytest.mark.parametrize(
    "reply",
    [{"verdict": "yes"}, {"verdict": 1}, {"verdict": None}, {}, {"verdict": "pass", "reason": 3}],
)
def test_an_unreadable_reply_is_refused_never_guessed(reply: dict[str, Any]) -> None:
    with pytest.raises(VerdictError):
        parse_verdict(reply)


def test_a_long_reason_is_bounded() -> None:
    _verdict, reason = parse_verdict({"verdict": "fail", "reason": "x" * 500})
    assert len(reason) == 200


@pytest.mark.parametrize(
    ("value", "verdict"), [(1.0, Verdict.PASS), (0.0, Verdict.FAIL), (0.5, Verdict.UNSURE)]
)
def test_stored_values_read_back_as_their_verdicts(value: float, verdict: Verdict) -> None:
    assert verdict_from_value(value) is verdict


@pytest.mark.parametrize("value", [0.7, 2.0, -1.0, 0.49])
def test_any_other_stored_value_is_refused(value: float) -> None:
    with pytest.raises(VerdictError, match="not a stored verdict"):
        verdict_from_value(value)


def words(n: int) -> str:
    return " ".join(f"w{i}" for i in range(n))


@pytest.mark.parametrize(
    ("answer", "limit", "verdict", "reason"),
    [
        (words(40), 40, Verdict.PASS, "40 words, within the guardrail of 40"),
        (words(41), 40, Verdict.FAIL, "41 words; the guardrail is 40"),
        ("Net sales were $134.4 billion.", 5, Verdict.PASS, "5 words, within the guardrail of 5"),
        ("Net sales were $134.4 billion.", 4, Verdict.FAIL, "5 words; the guardrail is 4"),
    ],
)
def test_verbosity_is_counted_with_the_numbers_in_the_reason(
    answer: str, limit: int, verdict: Verdict, reason: str
) -> None:
    assert verbosity_verdict(answer, limit) == (verdict, reason)


@pytest.mark.parametrize("answer", [words(12), words(13), "a, b; c. d! e? f", "U.S. net sales rose."])
def test_verbosity_agrees_with_the_advisors_verbose_golden_answer_flag(answer: str) -> None:
    for limit in (3, 4, 12, 13):
        flagged = Flag.VERBOSE_GOLDEN_ANSWER in golden_flags(
            answer, "", [], FlagThresholds(verbose_answer_words=limit)
        )
        assert (verbosity_verdict(answer, limit)[0] is Verdict.FAIL) == flagged


def test_the_guardrail_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        verbosity_verdict("a", 0)


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        ("410 Terry Avenue North", '"410 Terry Avenue North"'),
        ("134.4 billion<OR>134,383 million", '"134.4 billion" or "134,383 million"'),
        ("AWS<AND>12", '"AWS" and "12"'),
        ("A<AND>B<OR>C", '"A" and "B" or "C"'),
        (" x <OR><OR>y", '"x" or "y"'),  # blank alternatives left out, parts stripped
    ],
)
def test_the_fact_is_spelled_out_for_the_judge(fact: str, text: str) -> None:
    assert fact_text(fact) == text


@pytest.mark.parametrize(
    ("judge", "decision", "own", "expected"),
    [
        (Verdict.PASS, Decision.ACCEPTED, None, Verdict.PASS),
        (Verdict.PASS, Decision.DISMISSED, None, Verdict.FAIL),
        (Verdict.FAIL, Decision.ACCEPTED, None, Verdict.FAIL),
        (Verdict.FAIL, Decision.DISMISSED, None, Verdict.PASS),
        (Verdict.FAIL, Decision.DISMISSED, Verdict.PASS, Verdict.PASS),  # stated and implied agree
        (Verdict.UNSURE, Decision.DISMISSED, Verdict.FAIL, Verdict.FAIL),
        (Verdict.UNSURE, Decision.ACCEPTED, Verdict.PASS, Verdict.PASS),
    ],
)
def test_a_decision_implies_the_reviewers_verdict(
    judge: Verdict, decision: Decision, own: Verdict | None, expected: Verdict
) -> None:
    assert reviewer_verdict(judge, decision, own) is expected


@pytest.mark.parametrize(
    ("judge", "decision", "own", "message"),
    [
        (Verdict.UNSURE, Decision.ACCEPTED, None, "give your own verdict"),
        (Verdict.PASS, Decision.ACCEPTED, Verdict.FAIL, "means pass, not fail"),
        (Verdict.PASS, Decision.DISMISSED, Verdict.PASS, "means fail, not pass"),
        (Verdict.FAIL, Decision.ACCEPTED, Verdict.UNSURE, "not unsure"),
        (Verdict.PASS, Decision.WITHDRAWN, None, "no verdict"),
    ],
)
def test_a_decision_that_says_two_things_is_refused(
    judge: Verdict, decision: Decision, own: Verdict | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        reviewer_verdict(judge, decision, own)


def test_the_criteria_are_named_once_and_verbosity_is_not_judged() -> None:
    assert [info.criterion for info in CRITERIA] == list(Criterion)
    assert Criterion.VERBOSITY not in JUDGED_CRITERIA
    assert len(JUDGED_CRITERIA) == 4
    assert criterion_metric(Criterion.FACT_MINIMAL) == "golden_review.fact_minimal"
    assert criterion_from_name("fact_minimal") is Criterion.FACT_MINIMAL
    with pytest.raises(ValueError, match="unknown criterion 'clarity'; use one of unambiguous_question"):
        criterion_from_name("clarity")


def test_the_triplet_fingerprint_changes_with_each_field_and_not_with_notes() -> None:
    item = GoldenItem("q1", "Who?", "Ann is.", "Ann", notes="n", source_row=2)
    base = triplet_fingerprint(item)
    assert (
        triplet_fingerprint(GoldenItem("q1", "Who?", "Ann is.", "Ann", notes="other", source_row=9)) == base
    )
    for changed in (
        GoldenItem("q1", "Who is?", "Ann is.", "Ann"),
        GoldenItem("q1", "Who?", "Ann was.", "Ann"),
        GoldenItem("q1", "Who?", "Ann is.", "Ann<OR>A."),
    ):
        assert triplet_fingerprint(changed) != base

"""How often an advisor diagnosis held, with the Wilson bound held to scipy's."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from goldenlens.core.calibration.diagnosis_check import check_diagnoses, check_flags, wilson_upper


@pytest.mark.parametrize(("k", "n"), [(0, 5), (1, 19), (43, 342), (286, 408), (10, 10)])
def test_the_wilson_upper_bound_is_scipys(k: int, n: int) -> None:
    assert wilson_upper(k, n) == pytest.approx(binomtest(k, n).proportion_ci(method="wilson").high, abs=1e-12)


def test_a_rule_right_on_1_of_19_labelled_is_demoted_with_its_reason() -> None:
    found = [("likely_hallucination", True)] * 18 + [("likely_hallucination", False)]
    found += [("correct_but_rephrased", True)] * 7 + [("correct_but_rephrased", False)] * 3
    found += [("verbose", True)] * 4  # claims no verdict: left out
    checks = check_diagnoses(found)
    assert set(checks) == {"likely_hallucination", "correct_but_rephrased"}
    hallucination = checks["likely_hallucination"]
    assert (hallucination.held, hallucination.labelled, hallucination.demoted) == (1, 19, True)
    assert hallucination.sentence("Likely hallucination").startswith(
        "Likely hallucination: right on 1 of 19 labelled — demoted"
    )
    assert not checks["correct_but_rephrased"].demoted


def test_too_few_labels_never_demote() -> None:
    assert not check_diagnoses([("accidental_fact_match", True)] * 4)["accidental_fact_match"].demoted


def test_a_flag_is_checked_once_per_verdict_not_once_per_pipeline() -> None:
    """One "correct" verdict on an answer five systems gave, each flagged a likely hallucination:
    one judgement against the flag (0 of 1, too few to demote it), not five (0 of 5, demoted,
    since the 95% Wilson upper end of 0/5 is 0.43)."""
    shared = [(("record", 7), "correct", ["likely_hallucination"]) for _system in range(5)]
    found = check_flags(shared)
    assert (found["likely_hallucination"].held, found["likely_hallucination"].labelled) == (0, 1)
    assert not found["likely_hallucination"].demoted
    five = check_flags([((f"q{n}", "A"), "correct", ["likely_hallucination"]) for n in range(5)])
    assert (five["likely_hallucination"].held, five["likely_hallucination"].labelled) == (0, 5)
    assert five["likely_hallucination"].demoted
    assert (
        check_flags(
            [(("q1", "A"), "unsure", ["likely_hallucination"]), (("q2", "A"), "correct", ["verbose"])]
        )
        == {}
    )

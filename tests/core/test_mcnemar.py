"""McNemar's exact test against scipy's binomial test on the discordant questions, counted here
from the paired values (not by the code under test)."""

from __future__ import annotations

import random

import pytest
from scipy.stats import binomtest

from goldenlens.core.lexical.scorer import EXACT_MATCH, FACTUAL_KNOWLEDGE
from goldenlens.core.stats.decide import decide
from goldenlens.core.stats.mcnemar import MIN_DISCORDANT_FOR_5_PERCENT, mcnemar_exact


@pytest.mark.parametrize(
    ("a_only", "b_only"),
    [
        (1, 0),
        (0, 1),
        (4, 0),
        (5, 0),
        (6, 0),
        (3, 7),
        (7, 3),
        (10, 11),
        (0, 12),
        (40, 62),
        (400, 450),
        (3000, 3200),
    ],
)
def test_the_p_value_is_scipys_binomial_test(a_only: int, b_only: int) -> None:
    expected = binomtest(a_only, a_only + b_only, 0.5).pvalue
    assert mcnemar_exact(a_only, b_only) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_no_discordant_question_says_nothing() -> None:
    assert mcnemar_exact(0, 0) == 1.0


def test_six_discordant_questions_are_the_fewest_that_can_reach_five_percent() -> None:
    assert binomtest(MIN_DISCORDANT_FOR_5_PERCENT - 1, MIN_DISCORDANT_FOR_5_PERCENT - 1, 0.5).pvalue >= 0.05
    assert binomtest(MIN_DISCORDANT_FOR_5_PERCENT, MIN_DISCORDANT_FOR_5_PERCENT, 0.5).pvalue < 0.05


def test_decide_reports_mcnemar_on_the_paired_binary_values() -> None:
    rng = random.Random(5)
    rows = []
    pairs = []
    for n in range(80):
        a, b = float(rng.random() < 0.7), float(rng.random() < 0.45)
        em_a, em_b = float(rng.random() < 0.2), float(rng.random() < 0.2)
        rows += [(f"q{n}", "A", [a, em_a]), (f"q{n}", "B", [b, em_b])]
        pairs.append((a, b, em_a, em_b))
    decision = decide(rows, ["A", "B"], [FACTUAL_KNOWLEDGE, EXACT_MATCH], thresholds={})
    fk, em = decision.comparisons
    a_only = sum(1 for a, b, _, _ in pairs if a == 1 and b == 0)
    b_only = sum(1 for a, b, _, _ in pairs if a == 0 and b == 1)
    assert (fk.a_only, fk.b_only) == (a_only, b_only)
    assert fk.p_value == pytest.approx(binomtest(a_only, a_only + b_only, 0.5).pvalue, rel=1e-9)
    em_a_only = sum(1 for _, _, a, b in pairs if a == 1 and b == 0)
    em_b_only = sum(1 for _, _, a, b in pairs if a == 0 and b == 1)
    assert em.p_value == pytest.approx(binomtest(em_a_only, em_a_only + em_b_only, 0.5).pvalue, rel=1e-9)


def test_a_continuous_metric_or_an_overridden_half_gets_no_mcnemar() -> None:
    rows = [
        ("q1", "A", [1.0, 0.5]),
        ("q1", "B", [0.5, 0.25]),
        ("q2", "A", [1.0, 1.0]),
        ("q2", "B", [0.0, 0.0]),
    ]
    decision = decide(rows, ["A", "B"], [FACTUAL_KNOWLEDGE, "f1_score"], thresholds={})
    assert [(c.p_value, c.a_only, c.b_only) for c in decision.comparisons] == [(None, None, None)] * 2

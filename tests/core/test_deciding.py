"""decide(): what is left out and what is paired, the pass rates, and the verdict and caveat a
decision-maker reads."""

from __future__ import annotations

import pytest

from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, RECALL
from goldenlens.core.scored_rows import summarise_values
from goldenlens.core.stats.decide import decide

METRICS = [FACTUAL_KNOWLEDGE, F1_SCORE]


def test_not_scored_values_and_missing_questions_are_left_out() -> None:
    rows = [
        ("q1", "A", [1.0, 0.5]),
        ("q1", "B", [0.0, 0.25]),
        ("q2", "A", [None, 0.75]),  # A's fact not scored on q2
        ("q2", "B", [1.0, 0.5]),
        ("q3", "A", [1.0, 1.0]),  # B never answered q3
    ]
    decision = decide(rows, ["A", "B"], METRICS)
    fk_a = decision.estimate("A", FACTUAL_KNOWLEDGE)
    f1_a = decision.estimate("A", F1_SCORE)
    assert fk_a is not None
    assert f1_a is not None
    assert (fk_a.n, fk_a.mean) == (2, 1.0)
    assert (f1_a.n, f1_a.mean) == (3, 0.75)
    fk, f1 = decision.comparisons
    assert (fk.n, fk.difference) == (1, 1.0)  # q1 only: q2 not scored for A, q3 not answered by B
    assert (f1.n, f1.difference) == (2, pytest.approx((0.5 + 0.75) / 2 - (0.25 + 0.5) / 2))


def test_the_means_are_the_summary_means_to_the_last_bit() -> None:
    values = [0.1, 0.7, 0.2, 0.30000000000000004, 0.9, 1 / 3, 2 / 3]
    rows = [(f"q{n}", "A", [1.0, v]) for n, v in enumerate(values)]
    summary = summarise_values(((p, v) for _q, p, v in rows), ["A"], METRICS)
    estimate = decide(rows, ["A"], METRICS).estimate("A", F1_SCORE)
    assert estimate is not None
    assert estimate.mean == summary["A"][F1_SCORE]


def test_pass_rates_at_the_default_and_chosen_thresholds() -> None:
    rows = [
        (f"q{n}", "A", [fk, f1, r])
        for n, (fk, f1, r) in enumerate([(1, 0.5, 0.4), (0, 0.8, 0.5), (1, 0.2, 0.9)])
    ]
    metrics = [FACTUAL_KNOWLEDGE, F1_SCORE, RECALL]
    rates = {r.metric: (r.passed, r.n, r.threshold) for r in decide(rows, ["A"], metrics).pass_rates}
    assert rates == {FACTUAL_KNOWLEDGE: (2, 3, 1.0), F1_SCORE: (2, 3, 0.5), RECALL: (2, 3, 0.5)}
    chosen = decide(rows, ["A"], metrics, thresholds={F1_SCORE: 0.8})
    assert [(r.metric, r.passed, r.rate) for r in chosen.pass_rates] == [(F1_SCORE, 1, pytest.approx(1 / 3))]
    assert chosen.thresholds == {F1_SCORE: 0.8}
    with pytest.raises(ValueError, match="bleu"):
        decide(rows, ["A"], metrics, thresholds={"bleu": 0.5})


def test_a_clear_winner_reads_as_such_with_its_numbers() -> None:
    rows = []
    for n in range(10):
        rows += [(f"q{n}", "Pipeline1", [1.0, 0.9]), (f"q{n}", "Pipeline2", [float(n < 2), 0.9])]
    fk, f1 = decide(rows, ["Pipeline1", "Pipeline2"], METRICS).comparisons
    assert fk.better == "Pipeline1"
    # 8 discordant questions, all for Pipeline1: p = 2 / 2^8.
    assert fk.verdict.startswith("Pipeline1 beats Pipeline2 on factual knowledge: +0.80, 95% CI [")
    assert fk.verdict.endswith("], p = 0.008 — 10 questions")
    assert fk.caveat == "only 10 questions: an interval this wide cannot separate small differences"
    assert f1.better is None
    assert (
        f1.verdict
        == "Cannot tell Pipeline1 and Pipeline2 apart on F1: +0.00, 95% CI [0.00, 0.00] — 10 questions"
    )


def test_the_winner_is_named_first_when_it_is_the_second_pipeline() -> None:
    rows = []
    for n in range(40):
        rows += [(f"q{n}", "A", [float(n < 5), 0.1]), (f"q{n}", "B", [1.0, 0.1])]
    fk = decide(rows, ["A", "B"], METRICS).comparisons[0]
    assert fk.difference == pytest.approx(-35 / 40)
    assert fk.better == "B"
    assert fk.verdict.startswith("B beats A on factual knowledge: +0.88, 95% CI [")
    assert "p < 0.001 — 40 questions" in fk.verdict
    assert fk.caveat == ""


def test_few_discordant_questions_are_a_caveat() -> None:
    rows = []
    for n in range(50):
        rows += [(f"q{n}", "A", [float(n < 3), 0.5]), (f"q{n}", "B", [0.0, 0.5])]
    fk = decide(rows, ["A", "B"], METRICS).comparisons[0]
    assert (fk.a_only, fk.b_only) == (3, 0)
    assert fk.caveat == "too few discordant questions (3) for McNemar's test to reach p < 0.05"


def test_nothing_in_common_says_so() -> None:
    rows = [("q1", "A", [1.0, 0.5]), ("q2", "B", [1.0, 0.5])]
    fk = decide(rows, ["A", "B"], METRICS).comparisons[0]
    assert (fk.n, fk.difference, fk.low, fk.better, fk.caveat) == (0, None, None, None, "")
    assert fk.verdict == "A and B have no question both scored on factual knowledge: nothing to compare"


def test_a_pipeline_without_rows_has_empty_estimates() -> None:
    decision = decide([("q1", "A", [1.0, 0.5])], ["A", "Empty"], METRICS)
    empty = decision.estimate("Empty", FACTUAL_KNOWLEDGE)
    assert empty is not None
    assert (empty.mean, empty.low, empty.high, empty.n) == (None, None, None, 0)


def test_an_interval_mcnemar_does_not_confirm_is_not_called_a_win() -> None:
    """A right on 8 of 10 questions, B on 4, every B-right question also A-right: the paired
    interval of +0.40 excludes 0, but with 4 discordant questions McNemar's exact p is
    2 x 0.5^4 = 0.125 (scipy's binomtest on the discordant counts), so the verdict says "may be
    ahead (not confirmed)" and names no better pipeline."""
    from scipy.stats import binomtest

    a = [1.0] * 8 + [0.0] * 2
    b = [1.0] * 4 + [0.0] * 6
    rows = [
        (f"q{n}", p, [v]) for n, (x, y) in enumerate(zip(a, b, strict=True)) for p, v in (("A", x), ("B", y))
    ]
    (fk,) = decide(rows, ["A", "B"], [FACTUAL_KNOWLEDGE]).comparisons
    assert fk.p_value == pytest.approx(binomtest(4, 4, 0.5).pvalue)
    assert fk.low is not None
    assert fk.low > 0
    assert fk.better is None
    assert fk.verdict.startswith("A may be ahead of B on factual knowledge (not confirmed): +0.40, 95% CI [")
    assert "McNemar" in fk.caveat or "discordant" in fk.caveat

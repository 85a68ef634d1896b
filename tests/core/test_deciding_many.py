"""Decisions between many pipelines (issue #22): beyond ten, each pipeline is compared with the
leader and a chosen baseline on margins that hold for every pair at once, and ranked with
simultaneous intervals — at a cost linear in pipelines.

Expected values come from outside the code under test: the true means of simulated pipelines
(coverage), scipy's binomial quantiles, and counts worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE
from goldenlens.core.stats.bootstrap import Settings, Statistic, bootstrap_intervals
from goldenlens.core.stats.decide import decide
from goldenlens.core.stats.decision import (
    ALL_PAIRS,
    ALL_PAIRS_UP_TO,
    LEADER_AND_BASELINE,
    UnknownBaselineError,
)
from goldenlens.core.stats.simultaneous import MetricField, metric_field, rank_intervals

METRICS = [FACTUAL_KNOWLEDGE, F1_SCORE]
FAST = Settings(resamples=2_000)


def _rows(accuracy: list[float], questions: int, seed: int) -> list[tuple[str, str, list[float | None]]]:
    """Pipelines answering ``questions`` questions right with the given chances (FK), with a
    question difficulty shared by all (so pairs are correlated, as real pipelines are)."""
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(0.0, 1.0, questions)
    rows: list[tuple[str, str, list[float | None]]] = []
    for p, chance in enumerate(accuracy):
        logit = np.log(chance / (1 - chance)) - difficulty
        right = rng.random(questions) < 1 / (1 + np.exp(-logit))
        f1 = np.clip(right * 0.6 + rng.random(questions) * 0.4, 0, 1)
        rows += [(f"q{q}", f"P{p:02d}", [float(right[q]), float(f1[q])]) for q in range(questions)]
    return rows


def test_up_to_ten_pipelines_every_pair_is_compared_as_before() -> None:
    decision = decide(_rows([0.6] * ALL_PAIRS_UP_TO, 40, 1), [], METRICS, settings=FAST)
    assert decision.mode == ALL_PAIRS
    assert len(decision.comparisons) == 45 * len(METRICS)
    block = decision.as_dict()
    assert block["mode"] == "all pairs"
    assert "ranks" not in block
    assert "margins" not in block


def test_beyond_ten_each_is_compared_with_the_leader_and_the_baseline_linearly() -> None:
    chances = [0.5] * 11 + [0.9]  # P11 leads by far
    decision = decide(_rows(chances, 200, 2), [], METRICS, settings=FAST, baseline="P03")
    assert decision.mode == LEADER_AND_BASELINE
    fk = [c for c in decision.comparisons if c.metric == FACTUAL_KNOWLEDGE]
    leader_pairs = [c for c in fk if c.a == "P11"]
    baseline_pairs = [c for c in fk if c.b == "P03" and c.a != "P11"]
    assert len(leader_pairs) == 11  # the leader against each of the other eleven
    assert len(baseline_pairs) == 10  # the others (not the leader, not itself) against the baseline
    assert len(fk) == 21
    assert all(c.better == "P11" for c in leader_pairs)
    assert leader_pairs[0].verdict.startswith("P11 beats P00 on factual knowledge: +")
    assert "95% simultaneous CI [" in leader_pairs[0].verdict
    # The interval is the difference plus or minus the metric's margin.
    margin = decision.margins[FACTUAL_KNOWLEDGE]
    c = leader_pairs[0]
    assert c.difference is not None
    assert (c.low, c.high) == pytest.approx((c.difference - margin, c.difference + margin))
    ranks = {r.pipeline: r for r in decision.ranks if r.metric == FACTUAL_KNOWLEDGE}
    assert (ranks["P11"].rank, ranks["P11"].low, ranks["P11"].high) == (1, 1, 1)
    assert all(r.low >= 2 for p, r in ranks.items() if p != "P11")
    block = decision.as_dict()
    assert block["mode"] == "leader and baseline"
    assert block["baseline"] == "P03"
    assert set(block["margins"]) == set(METRICS)
    assert len(block["ranks"]) == 12 * len(METRICS)


def test_the_number_of_comparisons_grows_linearly_with_pipelines() -> None:
    counts = {}
    for pipelines in (20, 40, 80):
        decision = decide(
            _rows([0.6] * pipelines, 30, 3), [], METRICS, settings=Settings(resamples=200), baseline="P00"
        )
        counts[pipelines] = len(decision.comparisons)
    # Per metric: the leader against the others, then the others against the baseline.
    assert counts == {p: len(METRICS) * (2 * (p - 1) - 1) for p in (20, 40, 80)}


def test_an_unknown_baseline_is_an_error_naming_the_pipelines() -> None:
    with pytest.raises(UnknownBaselineError, match=r"'Nope' is not one of the pipelines: P00, P01"):
        decide(_rows([0.6] * 12, 10, 4), [], METRICS, settings=FAST, baseline="Nope")


def test_the_margin_holds_for_every_pair_at_once_in_95_percent_of_simulations() -> None:
    """Coverage of the simultaneous intervals, against the true means of the simulation: 30
    pipelines of graded accuracy on 150 questions of shared difficulty; a simulation counts as
    covered only if every one of the 435 pairs' intervals holds the true difference."""
    pipelines, questions, seeds = 30, 150, 160
    rng = np.random.default_rng(2026)
    chance = np.linspace(0.45, 0.75, pipelines)
    ability = np.log(chance / (1 - chance))[:, None]
    # The estimand: each pipeline's accuracy over the population of questions (difficulty
    # N(0, 1)), to well under the intervals' resolution with 200,000 questions.
    population = rng.normal(0.0, 1.0, 200_000)
    truth = np.array([np.mean(1 / (1 + np.exp(-(a - population)))) for a in ability[:, 0]])
    covered = 0
    for seed in range(seeds):
        difficulty = rng.normal(0.0, 1.0, questions)  # this golden set's questions
        prob = 1 / (1 + np.exp(-(ability - difficulty[None, :])))
        right = (rng.random((pipelines, questions)) < prob).astype(np.float64)
        observed = right.mean(axis=1)
        everywhere = np.ones_like(right, dtype=bool)
        found = metric_field(right, everywhere, Settings(resamples=1_000, seed=seed), "fk")
        assert found is not None
        c = found.margin * found.unit
        errors = (observed[:, None] - observed[None, :]) - (truth[:, None] - truth[None, :])
        covered += bool(np.abs(errors).max() <= c)
    assert covered / seeds >= 0.90, f"covered in {covered} of {seeds} simulations"


def test_rank_intervals_count_the_pipelines_surely_above_and_below() -> None:
    sums = np.array([90.0, 80.0, 50.0, 45.0])  # means 0.90 ... 0.45 in units of 0.01
    field = MetricField((0, 1, 2, 3), np.ones(100, dtype=bool), sums, 15.0, 0.01)
    found = rank_intervals(["A", "B", "C", "D"], field, "m")
    # A: nothing is more than 0.15 above it; it is surely above C and D -> ranks 1..2.
    # B: nothing surely above; surely above C and D -> 1..2.
    # C: A and B are surely above (0.4, 0.3 > 0.15); nothing surely below -> 3..4. D alike.
    assert [(r.pipeline, r.rank, r.low, r.high) for r in found] == [
        ("A", 1, 1, 2),
        ("B", 2, 1, 2),
        ("C", 3, 3, 4),
        ("D", 4, 3, 4),
    ]
    # A difference exactly at the margin is not "surely" (strictly more is): 65 - 50 = 15.
    tied = MetricField((0, 1), np.ones(100, dtype=bool), np.array([65.0, 50.0]), 15.0, 0.01)
    assert [(r.low, r.high) for r in rank_intervals(["A", "B"], tied, "m")] == [(1, 2), (1, 2)]


def _window(pipeline: str, question: str) -> bool:
    """Whether ``pipeline`` (Pnn) is scored on ``question`` (qnn): 130 questions from nn x 10."""
    start = int(pipeline[1:]) * 10
    return start <= int(question[1:]) < start + 130


def test_comparisons_rest_on_the_questions_every_pipeline_shares() -> None:
    """Pipelines scored on overlapping windows of questions: each comparison (and the margin)
    uses the questions all of them have, so a pair's difference and its margin agree."""
    rows = [(q, p, v if _window(p, q) else [None, None]) for q, p, v in _rows([0.6] * 12, 240, 5)]
    decision = decide(rows, [], METRICS, settings=FAST)
    shared = {q for q, _p, _v in rows if _window("P00", q) and _window("P11", q)}
    assert len(shared) == 20
    assert {c.n for c in decision.comparisons} == {len(shared)}


def test_a_mean_that_is_nan_does_not_lead() -> None:
    rows = _rows([0.5] * 11 + [0.9], 100, 6)
    rows = [(q, p, [float("nan"), v[1]] if (p, q) == ("P03", "q0") else v) for q, p, v in rows]
    decision = decide(rows, [], METRICS, settings=FAST)
    fk = [c for c in decision.comparisons if c.metric == FACTUAL_KNOWLEDGE]
    assert {c.a for c in fk if c.b != "P11"} == {"P11"}
    ranks = {r.pipeline: r for r in decision.ranks if r.metric == FACTUAL_KNOWLEDGE}
    assert ranks["P11"].rank == 1


def test_verdicts_and_ranks_agree_to_the_last_bit() -> None:
    """A 0/1 metric's difference often lands exactly on the margin: the leader's interval
    against a pipeline excludes 0 exactly when that pipeline cannot rank first (someone is
    surely above it, and then the leader is), worked out from the same exact sums."""
    for seed in range(40):
        rows = _rows([0.55] * 10 + [0.7, 0.75], 60, seed)
        decision = decide(rows, [], METRICS, settings=Settings(resamples=500))
        ranks = {r.pipeline: r for r in decision.ranks if r.metric == FACTUAL_KNOWLEDGE}
        leader = next(p for p, r in ranks.items() if r.rank == 1)
        for c in decision.comparisons:
            if c.metric == FACTUAL_KNOWLEDGE and c.a == leader and c.low is not None:
                assert (c.low > 0) == (ranks[c.b].low >= 2), (seed, c.b)


@pytest.mark.parametrize(("n", "k"), [(300, 111), (30, 2), (1938, 1412), (10, 9), (50, 49)])
def test_a_two_level_interval_is_the_exact_binomial_quantiles(n: int, k: int) -> None:
    """Beyond ten pipelines a 0/1 mean's interval is the exact quantiles of its bootstrap
    distribution, Binomial(n, k/n) / n: scipy's ppf."""
    column = np.array([1.0] * k + [0.0] * (n - k))[:, None]
    statistic = [Statistic("mean|A|fk", (0,))]
    (found,) = bootstrap_intervals(lambda: "set", column, statistic, Settings(), exact_two_levels=True)
    low, high = binom.ppf([0.025, 0.975], n, k / n) / n
    assert (found.low, found.high) == pytest.approx((low, high), abs=1e-12)
    (drawn,) = bootstrap_intervals(lambda: "set", column, statistic, Settings())
    assert abs(drawn.low - low) <= 2 / n
    assert abs(drawn.high - high) <= 2 / n

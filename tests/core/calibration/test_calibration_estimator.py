"""The estimator against what the design guarantees, checked exactly by enumerating every
sample a round could have drawn, and against textbook values."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from goldenlens.core.calibration import estimator
from goldenlens.core.calibration.estimator import Population, estimate
from goldenlens.core.calibration.labels import LabelState
from goldenlens.core.calibration.sampling_plan import RoundDesign
from goldenlens.core.stats.holm import holm

C, WRONG, N, U = LabelState.CORRECT, LabelState.INCORRECT, LabelState.NONE, LabelState.UNSURE


def _population(pipeline: list[int], prior: list[float], answer: list[int] | None = None) -> Population:
    # No features: the estimator uses the fixed prior (as with fewer than ten labels).
    n = len(pipeline)
    return Population(
        np.array(pipeline, dtype=np.intp),
        tuple(f"P{p}" for p in range(max(pipeline) + 1)),
        np.array(answer if answer is not None else range(n), dtype=np.intp),
        np.zeros((n, 0)),
        np.array(prior),
    )


def _enumerate(population, truth, frame, stratum_of_unit, take, known_before=()):
    """Every stratified sample of ``take[h]`` units per stratum: (estimates, variances)."""
    strata = sorted(set(stratum_of_unit))
    per_stratum = [[u for u, h in enumerate(stratum_of_unit) if h == s] for s in strata]
    samples = [[]]
    for members, n in zip(per_stratum, take, strict=True):
        samples = [s + list(c) for s in samples for c in combinations(members, n)]
    results = []
    for sample in samples:
        state = np.full(population.size, N, dtype=np.int8)
        for r in known_before:
            state[r] = C if truth[r] else WRONG
        for u in sample:
            r = frame[u]
            state[r] = C if truth[r] else WRONG
        design = RoundDesign(
            np.array(frame), np.arange(len(frame)), np.array(stratum_of_unit), np.array(sample), seed=1
        )
        found = estimate(population, state, [design], [(0, 1)])
        results.append(found)
    return results


def test_a_round_is_exactly_unbiased_over_every_sample_it_could_draw(monkeypatch) -> None:
    # Two pipelines, ten responses; two known before the round, eight in the frame in two strata.
    monkeypatch.setattr(estimator, "SHRINK_DF", 0.0)
    pipeline = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]
    truth = np.array([1, 0, 1, 1, 0, 1, 1, 0, 0, 1], dtype=float)
    prior = [0.9, 0.1, 0.6, 0.8, 0.3, 0.9, 0.7, 0.2, 0.5, 0.9]
    population = _population(pipeline, prior)
    frame = [1, 2, 3, 4, 6, 7, 8, 9]
    stratum = [0, 0, 0, 1, 1, 1, 1, 1]
    results = _enumerate(population, truth, frame, stratum, take=(2, 3), known_before=(0, 5))
    means = np.array([[e.interval.estimate for e in r.estimates] for r in results])
    true_shares = np.array([truth[:5].mean(), truth[5:].mean()])
    np.testing.assert_allclose(means.mean(axis=0), true_shares, atol=1e-12)
    differences = np.array([r.pairs[0].interval.estimate for r in results])
    assert differences.mean() == pytest.approx(true_shares[0] - true_shares[1], abs=1e-12)
    # The variance estimator is unbiased too (no shrinkage), so its mean is the true variance.
    variances = np.array([[e.interval.se**2 for e in r.estimates] for r in results])
    np.testing.assert_allclose(variances.mean(axis=0), means.var(axis=0), rtol=1e-9)


def test_every_response_labelled_gives_the_exact_share_with_no_width() -> None:
    population = _population([0, 0, 1, 1], [0.5] * 4)
    state = np.array([C, WRONG, C, C], dtype=np.int8)
    found = estimate(population, state, [], [(0, 1)])
    assert [(e.interval.estimate, e.interval.low, e.interval.high) for e in found.estimates] == [
        (0.5, 0.5, 0.5),
        (1.0, 1.0, 1.0),
    ]
    assert found.pairs[0].interval.estimate == -0.5
    assert found.pairs[0].better == "P1"


def test_no_planned_round_gives_no_estimate_and_says_what_to_do() -> None:
    population = _population([0, 0, 1, 1], [0.5] * 4)
    state = np.array([C, N, C, N], dtype=np.int8)
    found = estimate(population, state, [])
    assert all(e.interval.estimate is None for e in found.estimates)
    assert "plan a round" in found.notes[0]


def test_an_answer_the_reviewer_was_unsure_of_may_be_either_way() -> None:
    # One stratum of six answers, all sampled (a census): four labelled, one unsure, and the
    # round is exact but for the unsure one, which moves the share by a whole 1/3.
    population = _population([0, 0, 0, 1, 1, 1], [0.5] * 6)
    state = np.array([C, C, U, WRONG, WRONG, C], dtype=np.int8)
    design = RoundDesign(np.arange(6), np.arange(6), np.zeros(6, dtype=np.intp), np.arange(6), seed=0)
    found = estimate(population, state, [design])
    first = found.estimates[0].interval
    assert (first.low, first.high) == pytest.approx((2 / 3, 1.0))
    assert found.estimates[1].interval.estimate == pytest.approx(1 / 3)


def test_answers_two_pipelines_share_cancel_in_their_difference() -> None:
    # P0 and P1 gave the same answer to every question: whatever the sample, no difference.
    population = _population([0, 1] * 6, [0.6] * 12, answer=[q for q in range(6) for _ in (0, 1)])
    truth = [1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1]
    state = np.full(12, N, dtype=np.int8)
    for r in (0, 1, 4, 5):
        state[r] = C if truth[r] else WRONG
    units = np.repeat(np.arange(6), 2)
    design = RoundDesign(np.arange(12), units, np.zeros(6, dtype=np.intp), np.array([0, 2]), seed=0)
    found = estimate(population, state, [design], [(0, 1)])
    assert found.pairs[0].interval.estimate == pytest.approx(0.0, abs=1e-12)
    assert found.pairs[0].interval.se == pytest.approx(0.0, abs=1e-12)
    assert found.pairs[0].better is None


def test_holm_matches_the_textbook_step_down() -> None:
    # Four tests: sorted p 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1, made monotone.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([]) == []
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])

"""The intervals hold: simulated reviews of a real benchmark, each labelled by the person's
verdicts, checked against the accuracy over all of that person's verdicts (issue 21's coverage
test: over at least 100 seeds the 95% intervals contain it in at least 90% of the (seed,
pipeline) cases)."""

from __future__ import annotations

import numpy as np
import pytest
from calibration_data import evouna, labelled_rounds

from goldenlens.core.calibration.estimator import estimate

SEEDS = 100


@pytest.fixture(scope="module")
def reviews() -> list[tuple[np.ndarray, np.ndarray, list[tuple[str | None, float]]]]:
    benchmark = evouna()
    population = benchmark.run.population
    k = len(population.pipelines)
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    found = []
    for seed in range(SEEDS):
        state, designs = labelled_rounds(benchmark, seed=seed, rounds=3, budget=200)
        result = estimate(population, state, designs, pairs)
        estimates = np.array([e.interval.estimate for e in result.estimates])
        bounds = np.array([(e.interval.low, e.interval.high) for e in result.estimates])
        verdicts = [
            (p.better, benchmark.truth[a] - benchmark.truth[b])
            for p, (a, b) in zip(result.pairs, pairs, strict=True)
        ]
        found.append((estimates, bounds, verdicts))
    return found


def test_the_95_percent_intervals_hold_in_at_least_90_percent_of_seeds_and_pipelines(reviews) -> None:
    truth = evouna().truth
    inside = [
        bool(low <= t <= high)
        for _e, bounds, _v in reviews
        for (low, high), t in zip(bounds, truth, strict=True)
    ]
    assert len(inside) == SEEDS * len(truth)
    assert np.mean(inside) >= 0.90, np.mean(inside)


def test_three_rounds_of_200_labels_estimate_every_system_within_a_few_points(reviews) -> None:
    # Factual Knowledge alone is 0.08-0.09 below the person's accuracy on every system.
    benchmark = evouna()
    assert np.max(np.abs(benchmark.factual_knowledge - benchmark.truth)) > 0.07
    worst = [float(np.max(np.abs(estimates - benchmark.truth))) for estimates, _b, _v in reviews]
    assert np.median(worst) <= 0.03, np.median(worst)
    assert np.quantile(worst, 0.9) <= 0.045


def test_confirmed_verdicts_are_rarely_reversed_by_all_the_labels(reviews) -> None:
    """Holm's procedure keeps the chance of any wrong "A beats B" per review at 5% at most."""
    names = evouna().run.population.pipelines
    pairs = [(names[a], names[b]) for a in range(len(names)) for b in range(a + 1, len(names))]
    confirmed = wrong_reviews = 0
    for _e, _b, verdicts in reviews:
        wrong = False
        for (a, _b2), (better, difference) in zip(pairs, verdicts, strict=True):
            if better is None:
                continue
            confirmed += 1
            wrong |= (better == a) != (difference > 0)
        wrong_reviews += wrong
    assert confirmed >= 3 * SEEDS  # the verdicts are not vacuous: most pairs get decided
    assert wrong_reviews / SEEDS <= 0.05

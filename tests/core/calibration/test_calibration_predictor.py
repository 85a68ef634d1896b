"""The predictor of a reviewer's verdict: held to scikit-learn's LogisticRegression, and its
agreement with the labels checked against the benchmark's published figures."""

from __future__ import annotations

import numpy as np
import pytest
from calibration_data import evouna
from sklearn.linear_model import LogisticRegression

from goldenlens.core.calibration.labels import LabelState
from goldenlens.core.calibration.logistic import fit_logistic
from goldenlens.core.calibration.metric_agreement import PREDICTOR, metric_agreements
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.stats.agreement import agreement


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("c", [0.1, 1.0, 10.0])
def test_the_fit_is_scikit_learns_logistic_regression(seed: int, c: float) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(300, 6))
    y = (x @ rng.normal(size=6) + rng.normal(size=300) > 0.3).astype(float)
    ours = fit_logistic(x, y, c=c)
    theirs = LogisticRegression(C=c, tol=1e-12, max_iter=10_000).fit(x, y)
    np.testing.assert_allclose(ours.weights, theirs.coef_[0], atol=1e-6)
    assert ours.intercept == pytest.approx(theirs.intercept_[0], abs=1e-6)
    np.testing.assert_allclose(ours.predict(x), theirs.predict_proba(x)[:, 1], atol=1e-7)


def test_perfectly_separated_labels_keep_finite_coefficients() -> None:
    x = np.array([[-2.0], [-1.0], [1.0], [2.0]])
    y = np.array([0.0, 0.0, 1.0, 1.0])
    ours = fit_logistic(x, y)
    theirs = LogisticRegression(tol=1e-12, max_iter=10_000).fit(x, y)
    assert ours.weights[0] == pytest.approx(theirs.coef_[0][0], abs=1e-6)


def test_one_verdict_only_cannot_be_fitted() -> None:
    with pytest.raises(ValueError, match="both verdicts"):
        fit_logistic(np.zeros((3, 1)), np.ones(3))


def test_factual_knowledge_agrees_with_the_person_as_the_benchmark_reports() -> None:
    """The data's README: agreement 0.907, Cohen's kappa 0.707 over every answer."""
    benchmark = evouna()
    population = benchmark.run.population
    state = np.where(benchmark.verdict == 1.0, LabelState.CORRECT, LabelState.INCORRECT).astype(np.int8)
    found = {
        a.name: a.agreement
        for a in metric_agreements(
            population, state, {FACTUAL_KNOWLEDGE: benchmark.lexical[FACTUAL_KNOWLEDGE]}
        )
    }
    fk = found[FACTUAL_KNOWLEDGE]
    assert round(fk.rate, 3) == 0.907
    assert round(fk.kappa, 3) == 0.707
    # The cross-fitted predictor agrees more (never scored on answers it learned from).
    predictor = found[PREDICTOR]
    assert predictor.n == population.size
    assert predictor.rate > fk.rate + 0.03
    assert predictor.kappa > fk.kappa + 0.1


def test_agreement_counts_the_labelled_responses_only() -> None:
    benchmark = evouna()
    population = benchmark.run.population
    state = np.zeros(population.size, dtype=np.int8)
    state[:240] = np.where(benchmark.verdict[:240] == 1.0, LabelState.CORRECT, LabelState.INCORRECT)
    fk_values = benchmark.lexical[FACTUAL_KNOWLEDGE]
    found = {
        a.name: a.agreement for a in metric_agreements(population, state, {FACTUAL_KNOWLEDGE: fk_values})
    }
    expected = agreement((fk_values[:240] >= 0.5).tolist(), (benchmark.verdict[:240] == 1.0).tolist())
    assert found[FACTUAL_KNOWLEDGE] == expected
    assert found[PREDICTOR].n == 240

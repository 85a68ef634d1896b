"""L2-penalised logistic regression, fitted by Newton's method: the predictor of a reviewer's
verdict from a response's automatic signals.

It minimises ``sum of log-losses + ||w||^2 / (2 C)`` with the intercept not penalised: the same
objective as scikit-learn's ``LogisticRegression(C=C)`` (the tests hold the coefficients to it).
A few hundred labels and a dozen features make the fit a handful of 13x13 solves, so a library
is not needed at run time (see the README: scikit-learn and scipy would add about a second of
import and 100 MB to the desktop bundle for this one fit).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

#: The inverse penalty strength (scikit-learn's default): with standardised features it keeps
#: a dozen coefficients finite on perfectly separated labels without biasing them much.
DEFAULT_C = 1.0
_MAX_STEPS = 100
_TOLERANCE = 1e-10


@dataclass(frozen=True)
class LogisticModel:
    """Fitted coefficients: ``P(correct | x) = 1 / (1 + exp(-(intercept + x @ weights)))``."""

    intercept: float
    weights: FloatArray

    def predict(self, features: FloatArray) -> FloatArray:
        """The probability of a "correct" verdict for each row of ``features``."""
        return _sigmoid(self.intercept + features @ self.weights)


def _sigmoid(z: FloatArray) -> FloatArray:
    out: FloatArray = np.empty_like(z)
    positive = z >= 0
    out[positive] = 1.0 / (1.0 + np.exp(-z[positive]))
    e = np.exp(z[~positive])
    out[~positive] = e / (1.0 + e)
    return out


def _objective(design: FloatArray, labels: FloatArray, beta: FloatArray, penalty: FloatArray) -> float:
    z = design @ beta
    # log(1 + exp(z)) - y z, written to stay finite for large |z|.
    loss = np.logaddexp(0.0, z) - labels * z
    return float(loss.sum() + 0.5 * np.sum(penalty * beta * beta))


def fit_logistic(features: FloatArray, labels: FloatArray, *, c: float = DEFAULT_C) -> LogisticModel:
    """Fit the model on ``features`` (rows x columns) and 0/1 ``labels``. Both classes must be
    present (with one class only the unpenalised intercept has no finite optimum)."""
    if features.ndim != 2 or features.shape[0] != labels.shape[0]:
        raise ValueError(f"{features.shape} features for {labels.shape[0]} labels")
    if not (np.any(labels == 1.0) and np.any(labels == 0.0)):
        raise ValueError("logistic regression needs both verdicts among the labels")
    rows, columns = features.shape
    design = np.hstack([np.ones((rows, 1)), features])
    penalty = np.full(columns + 1, 1.0 / c)
    penalty[0] = 0.0
    beta = np.zeros(columns + 1)
    mean = float(labels.mean())
    beta[0] = np.log(mean / (1.0 - mean))
    current = _objective(design, labels, beta, penalty)
    for _step in range(_MAX_STEPS):
        p = _sigmoid(design @ beta)
        gradient = design.T @ (p - labels) + penalty * beta
        hessian = (design * (p * (1.0 - p))[:, None]).T @ design + np.diag(penalty)
        try:
            direction = np.linalg.solve(hessian, gradient)
        except np.linalg.LinAlgError:
            direction = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
        step = 1.0
        while True:
            trial = beta - step * direction
            value = _objective(design, labels, trial, penalty)
            if value <= current or step < 1e-8:
                break
            step /= 2.0
        beta, previous, current = trial, current, value
        if previous - current <= _TOLERANCE * max(1.0, abs(current)):
            break
    return LogisticModel(float(beta[0]), beta[1:].copy())

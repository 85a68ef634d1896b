"""The predictor of the calibration: a logistic regression of the verdicts known on the
automatic signals (:mod:`~goldenlens.core.calibration.features`), falling back to a fixed prior
with too few verdicts, and its cross-fitted form, in which no labelled unit is predicted by a
model that saw it (cross-prediction-powered inference: Zrnic & Candès, PNAS 2024)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from goldenlens.core.calibration.logistic import fit_logistic

if TYPE_CHECKING:
    from goldenlens.core.calibration.estimator import Population

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

FOLDS: Final = 5
#: Labels a logistic fit needs at least (with both verdicts among them); fewer: the fixed prior.
MIN_FIT_LABELS: Final = 10


def fitted_predictions(population: Population, train: BoolArray, y: FloatArray) -> FloatArray:
    """The predictor fitted on the ``train`` responses (the fixed prior with fewer than
    :data:`MIN_FIT_LABELS` or one verdict only), evaluated on every response."""
    labels = y[train]
    if population.features.shape[1] == 0 or len(labels) < MIN_FIT_LABELS or labels.min() == labels.max():
        return population.prior.copy()
    model = fit_logistic(population.features[train], labels)
    return model.predict(population.features)


def cross_fitted(
    population: Population,
    train_base: BoolArray,
    y: FloatArray,
    unit_responses: Sequence[IntArray],
    seed: int,
) -> tuple[FloatArray, FloatArray]:
    """``(fbar, own)``: the mean of the fold models' predictions for every response, and for the
    responses of ``unit_responses`` (the labelled units) the prediction of the model that did
    not see their unit (every other response: ``fbar``)."""
    units = len(unit_responses)
    folds = min(FOLDS, units)
    if folds < 2:
        fbar = fitted_predictions(population, train_base, y)
        return fbar, fbar.copy()
    fold_of = np.random.default_rng([seed, 0xF01D]).permutation(units) % folds
    fbar = np.zeros(population.size)
    own = np.zeros(population.size)
    in_fold = [
        np.concatenate([unit_responses[u] for u in np.flatnonzero(fold_of == k).tolist()])
        for k in range(folds)
    ]
    for k in range(folds):
        train = train_base.copy()
        for j in range(folds):
            if j != k:
                train[in_fold[j]] = True
        predicted = fitted_predictions(population, train, y)
        fbar += predicted / folds
        own[in_fold[k]] = predicted[in_fold[k]]
    labelled = np.zeros(population.size, dtype=bool)
    labelled[np.concatenate(in_fold)] = True
    own[~labelled] = fbar[~labelled]
    return fbar, own

"""How well each automatic metric, and the calibrated predictor, agree with the reviewer's
labels: "Factual Knowledge agrees with your 240 labels 77% of the time (kappa 0.53); the
calibrated predictor 86% (kappa 0.70)".

A metric "says correct" when its value is at least one half (Factual Knowledge and exact match
are 0 or 1). The predictor is judged on predictions it did not learn from: five folds over the
labelled answers (responses sharing an answer stay in one fold, so a duplicate cannot grade
its own twin), each fold predicted by a model fitted on the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from goldenlens.core.calibration.estimator import Population
from goldenlens.core.calibration.labels import LabelState
from goldenlens.core.calibration.predictor import FOLDS, fitted_predictions
from goldenlens.core.stats.agreement import Agreement, agreement

FloatArray = npt.NDArray[np.float64]

#: The name the predictor's line carries among the metrics'.
PREDICTOR: Final = "calibrated predictor"


@dataclass(frozen=True)
class MetricAgreement:
    """One rater (a metric, or the predictor) against the reviewer's labels."""

    name: str
    agreement: Agreement

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, **self.agreement.as_dict()}


def metric_agreements(
    population: Population,
    state: npt.NDArray[np.int8],
    metrics: Mapping[str, FloatArray],
    *,
    seed: int = 0,
) -> tuple[MetricAgreement, ...]:
    """The predictor's cross-validated agreement first, then each metric's (NaN values, not
    scored, left out of that metric's count)."""
    known = (state == LabelState.CORRECT) | (state == LabelState.INCORRECT)
    verdict = state == LabelState.CORRECT
    labelled = np.flatnonzero(known)
    found = [MetricAgreement(PREDICTOR, _predictor_agreement(population, state, labelled, seed))]
    for name, values in metrics.items():
        scored = labelled[~np.isnan(values[labelled])]
        says = (values[scored] >= 0.5).tolist()
        found.append(MetricAgreement(name, agreement(says, verdict[scored].tolist())))
    return tuple(found)


def _predictor_agreement(
    population: Population, state: npt.NDArray[np.int8], labelled: npt.NDArray[np.intp], seed: int
) -> Agreement:
    verdict = (state == LabelState.CORRECT).astype(np.float64)
    groups = np.unique(population.answer[labelled])
    folds = min(FOLDS, len(groups))
    if folds < 2:
        return agreement([], [])
    fold_of_group = dict(
        zip(
            groups.tolist(),
            (np.random.default_rng([seed, 0xA6]).permutation(len(groups)) % folds).tolist(),
            strict=True,
        )
    )
    fold = np.array([fold_of_group[g] for g in population.answer[labelled].tolist()])
    predicted = np.zeros(len(labelled))
    for k in range(folds):
        train = np.zeros(population.size, dtype=bool)
        train[labelled[fold != k]] = True
        predicted[fold == k] = fitted_predictions(population, train, verdict)[labelled[fold == k]]
    return agreement((predicted >= 0.5).tolist(), (verdict[labelled] == 1.0).tolist())

"""The automatic signals the predictor of a reviewer's verdict reads, as one standardised matrix.

Every signal is a computed score or a property of the texts, never a reviewer's override: an
override made after seeing a label would reach the predictions of the labelled responses only and
bias the estimates. A signal that is not scored for some responses (a judge metric measured on
part of the project, Factual Knowledge with an empty fact) is filled with its mean and gets a
column of its own saying where it was missing; a signal with one value everywhere is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

#: The fallback prediction where too few labels exist to fit one: Factual Knowledge shrunk
#: towards one half. Any fixed function keeps the estimates valid; a good one makes them tighter.
PRIOR_LOW, PRIOR_HIGH = 0.1, 0.9


@dataclass(frozen=True)
class FeatureTable:
    """Responses x features, standardised (mean 0, standard deviation 1 over all responses)."""

    names: tuple[str, ...]
    matrix: FloatArray
    #: The fallback prediction per response (see :data:`PRIOR_LOW`).
    prior: FloatArray


def feature_table(columns: Mapping[str, FloatArray], *, prior_from: str) -> FeatureTable:
    """The feature table of named signal columns (NaN where not scored); ``prior_from`` names the
    0/1 column (Factual Knowledge) the fallback prediction comes from."""
    names: list[str] = []
    built: list[FloatArray] = []
    rows = len(next(iter(columns.values()))) if columns else 0
    for name, column in columns.items():
        values = np.asarray(column, dtype=np.float64)
        if values.shape != (rows,):
            raise ValueError(f"feature {name!r}: {values.shape} values for {rows} responses")
        missing = np.isnan(values)
        if missing.all():
            continue
        if missing.any():
            values = np.where(missing, float(np.nanmean(values)), values)
            names.append(f"{name} not scored")
            built.append(missing.astype(np.float64))
        names.append(name)
        built.append(values)
    keep = [i for i, column in enumerate(built) if rows and float(np.ptp(column)) > 0.0]
    if keep:
        matrix = np.column_stack([built[i] for i in keep])
        matrix = (matrix - matrix.mean(axis=0)) / matrix.std(axis=0)
    else:
        matrix = np.zeros((rows, 0))
    source = np.asarray(columns.get(prior_from, np.full(rows, np.nan)), dtype=np.float64)
    prior = np.where(np.isnan(source), 0.5, PRIOR_LOW + (PRIOR_HIGH - PRIOR_LOW) * np.clip(source, 0.0, 1.0))
    return FeatureTable(tuple(names[i] for i in keep), np.ascontiguousarray(matrix), prior)

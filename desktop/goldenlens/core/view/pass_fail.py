"""The pass/fail report of the score grid: which metrics it can show, and its totals row."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.view.grid_state import FloatArray, GridArrays, IntArray

#: From this Factual Knowledge value on, the FK report shows ✓ (found) and counts it found.
FK_FOUND_AT = 0.5


@dataclass(frozen=True)
class FkTotal:
    """One pipeline's Factual Knowledge over some rows: found (1), not found (0), not scored."""

    pipeline: str
    found: int
    not_found: int
    not_scored: int

    @property
    def scored(self) -> int:
        return self.found + self.not_found


def fk_totals(data: GridArrays, rows: IntArray, metric: str = FACTUAL_KNOWLEDGE) -> list[FkTotal]:
    """The totals row of the pass/fail report over ``rows`` (the visible ones), per pipeline,
    from the values in force; a value counts as found (passed) from :data:`FK_FOUND_AT`, as
    the report's ✓. ``metric``: Factual Knowledge, or the binary judge metric shown."""
    matrix = data.values.get(metric)
    totals: list[FkTotal] = []
    for p, pipeline in enumerate(data.pipelines):
        column = matrix[rows, p] if matrix is not None else np.full(len(rows), np.nan)
        missing = np.isnan(column)
        found = int(((column >= FK_FOUND_AT) & ~missing).sum())
        totals.append(FkTotal(pipeline, found, int((~missing).sum()) - found, int(missing.sum())))
    return totals


def is_binary_valued(matrix: FloatArray) -> bool:
    """Whether ``matrix`` holds at least one value and every value is exactly 0 or 1 (NaN:
    missing, ignored): then a pass/fail view (✓ from :data:`FK_FOUND_AT`) loses nothing."""
    present = matrix[~np.isnan(matrix)]
    return bool(present.size) and bool(np.isin(present, (0.0, 1.0)).all())


def pass_fail_metrics(data: GridArrays, judge_metrics: Sequence[str]) -> tuple[str, ...]:
    """The metrics the pass/fail report can show: Factual Knowledge, then each of
    ``judge_metrics`` the grid holds whose values are only 0 and 1 (aspect critiques,
    relevancy, a thresholded similarity — decided from the values, so a metric that gave one
    0.7 is never drawn as ✓/✗)."""
    binary = [m for m in judge_metrics if m in data.values and is_binary_valued(data.values[m])]
    return (FACTUAL_KNOWLEDGE, *binary)

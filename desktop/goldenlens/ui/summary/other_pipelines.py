"""What the Summary tab does not draw of a sweep, summed up in its title (issue #22).

Beyond a handful of pipelines the Summary draws the ones the grid shows (its pipeline picker:
the ten leaders by Factual Knowledge unless the analyst chose others); the rest are one line.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.view.grid_state import column_means
from goldenlens.queries.grid import GridData


def others_note(grid: GridData, rows: npt.NDArray[np.int64], shown: Sequence[str]) -> str:
    """What the Summary does not draw, summed up: " · 10 of 500 pipelines drawn (the grid's
    Pipelines button chooses); the other 490 have Factual Knowledge means from 0.12 to 0.35"."""
    chosen = set(shown)
    others = np.array([i for i, p in enumerate(grid.pipelines) if p not in chosen], dtype=np.int64)
    if not len(others):
        return ""
    drawn = f"{len(shown):,} of {len(grid.pipelines):,} pipelines drawn"
    note = f" · {drawn} (the grid's Pipelines button chooses)"
    fk = grid.values.get(FACTUAL_KNOWLEDGE)
    if fk is None or not len(rows):
        return note
    means = column_means(np.asarray(fk)[np.ix_(rows, others)])
    means = means[~np.isnan(means)]
    if not len(means):
        return note
    low, high = float(means.min()), float(means.max())
    return note + f"; the other {len(others):,} have Factual Knowledge means from {low:.2f} to {high:.2f}"

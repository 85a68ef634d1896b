"""The decision behind the Summary tab: the intervals and comparisons of exactly the questions
the grid shows (a filter changes the means, so it changes their intervals too).

Runs in a worker (a bootstrap over a few thousand questions takes a noticeable moment); the
tab draws the means at once and the error bars when this returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from goldenlens.core.stats.decide import decide
from goldenlens.core.stats.decision import Decision
from goldenlens.core.stats.score_table import ScoreRow
from goldenlens.jobs.progress import CancelToken, ProgressFn


def summary_decision(
    question_ids: Sequence[str],
    pipelines: Sequence[str],
    values: Mapping[str, npt.NDArray[np.float64]],
    cancel: CancelToken | None = None,
) -> Decision:
    """:func:`~goldenlens.core.stats.decide.decide` of the grid's ``values`` (metric → array of
    shape (questions, pipelines), NaN: no score) for ``question_ids``; a question a pipeline
    has no score at all for is not one of its rows."""
    metrics = list(values)
    stacked = (
        np.stack([np.asarray(values[m], dtype=np.float64) for m in metrics], axis=-1) if metrics else None
    )

    def rows() -> Iterator[ScoreRow]:
        if stacked is None:
            return
        for q, question_id in enumerate(question_ids):
            for p, pipeline in enumerate(pipelines):
                cell = stacked[q, p]
                if np.isnan(cell).all():
                    continue
                yield question_id, pipeline, [None if np.isnan(v) else float(v) for v in cell]

    rows_list = list(rows())
    if cancel is not None:
        cancel.raise_if_cancelled()
    return decide(rows_list, pipelines, metrics)


def summary_decision_job(
    question_ids: Sequence[str], pipelines: Sequence[str], values: Mapping[str, npt.NDArray[np.float64]]
) -> Callable[[ProgressFn, CancelToken], Decision]:
    """:func:`summary_decision` as a job for a worker thread."""

    def job(_progress: ProgressFn, cancel: CancelToken) -> Decision:
        return summary_decision(question_ids, pipelines, values, cancel)

    return job

"""How many labels an interval of a given width needs, before or between rounds.

The answer is for a simple random sample of the answers still to label, so the stratified plan
GoldenLens draws needs about as many or fewer. Each answer's residual variance is the current
predictor's ``f (1 - f)`` (at least the plan's floor): with labels, the predictor fitted on them;
without, the prior from Factual Knowledge, which amounts to assuming the metric and a reviewer
disagree on about one answer in ten (both public benchmarks this was checked on came out between
one in ten and one in four: more disagreement needs more labels).
"""

from __future__ import annotations

from math import ceil

import numpy as np
import numpy.typing as npt

from goldenlens.core.calibration.sampling_plan import predicted_variance, two_sided_z

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


def labels_needed(
    *,
    frame: IntArray,
    answer: IntArray,
    pipeline: IntArray,
    prediction: FloatArray,
    half_width: float,
    level: float = 0.95,
) -> int:
    """Labels (distinct answers of the ``frame``) for every pipeline's interval to be at most
    ``± half_width``; 0 when nothing is left to label."""
    if not len(frame):
        return 0
    z = two_sided_z(level)
    pipelines = int(pipeline.max()) + 1
    counts = np.bincount(pipeline, minlength=pipelines).astype(np.float64)
    _levels, unit = np.unique(answer[frame], return_inverse=True)
    units = int(unit.max()) + 1
    variance = predicted_variance(prediction[frame])
    target = (half_width / z) ** 2
    needed = 0
    for p in range(pipelines):
        mine = pipeline[frame] == p
        if not mine.any():
            continue
        # Each answer's contribution to pipeline p's share, and its variance over the units.
        totals = np.bincount(unit[mine], weights=np.sqrt(variance[mine]) / counts[p], minlength=units)
        spread = float(np.mean(totals**2))
        n = units * units * spread / (target + units * spread)
        needed = max(needed, ceil(n))
    return min(needed, units)

"""How much a difference between pipelines could change with other questions of the same kind:
the part of a verdict's uncertainty that labelling more answers never removes.

The estimates of :mod:`~goldenlens.core.calibration.estimator` are about this golden set: with
every answer labelled they are exact. A verdict "A beats B" is read as holding for questions like
these, as FMEval's own verdicts are (they resample the questions), so its interval adds the
variance of the difference over a golden set of this size drawn from the same kind of questions
(the questions taken as independent draws; by the law of total variance the two parts add):

``V_q = Q / (Q - 1) * sum_q [(m_q - mean m)^2 + v_q]``

where question ``q`` contributes ``u_q = sum_p c_p Y_pq / N_p`` to the combination (``c_p`` its
coefficients, ``N_p`` the pipeline's responses, ``Y_pq`` the verdict), ``m_q`` is its expected
value and ``v_q`` its variance given what is known: a verdict in force counts as it is, another
response as the predictor's probability, and the responses of one answer group share one verdict.
With every answer labelled ``v_q = 0`` and ``V_q`` is ``s_D^2 / Q``, the variance of the paired
test of the person's own verdicts.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


def question_variance(
    pipeline: IntArray,
    question: IntArray,
    answer: IntArray,
    probability: FloatArray,
    coefficients: FloatArray,
) -> float:
    """``V_q`` above for the combination with ``coefficients`` (one per pipeline) of the
    pipelines' shares. Per response: its ``pipeline``, ``question`` and ``answer`` group, and
    the ``probability`` that a reviewer judges it correct (1 or 0 where a verdict is known)."""
    counts = np.bincount(pipeline, minlength=len(coefficients)).astype(np.float64)
    per_response = (coefficients / np.maximum(counts, 1.0))[pipeline]
    involved = per_response != 0.0
    if not involved.any():
        return 0.0
    weight, asked = per_response[involved], question[involved]
    chance, group = probability[involved], answer[involved]
    present = np.unique(asked)
    if len(present) < 2:
        return 0.0
    expected = np.bincount(asked, weights=weight * chance)[present]
    # One verdict per answer group: its weight is its members', its probability their mean.
    groups = np.unique(group, return_inverse=True)[1]
    group_weight = np.bincount(groups, weights=weight)
    members = np.bincount(groups).astype(np.float64)
    group_chance = np.bincount(groups, weights=chance) / members
    spread = float(np.sum(group_weight**2 * group_chance * (1.0 - group_chance)))
    total = float(np.sum((expected - expected.mean()) ** 2)) + spread
    size = len(present)
    return size / (size - 1) * total

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
test of the person's own verdicts; the p-value is then McNemar's exact test on them
(:meth:`PairSpread.exact_p`), as FMEval's verdicts on a binary metric use: on a few questions the
normal tail is far too sure (4 questions won, none lost: z gives p = 0.014, the exact test 0.125).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from goldenlens.core.stats.mcnemar import mcnemar_exact

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


@dataclass(frozen=True)
class PairSpread:
    """What other questions of the same kind would do to the difference of two pipelines'
    shares: per response its ``pipeline``, ``question`` and ``answer`` group, the
    ``probability`` that a reviewer judges it correct (its verdict, 1 or 0, where ``known``)."""

    pipeline: IntArray
    question: IntArray
    answer: IntArray
    probability: FloatArray
    known: npt.NDArray[np.bool_]

    def variance(self, a: int, b: int) -> float:
        """:func:`question_variance` of the difference ``a - b``."""
        coefficients = np.zeros(int(self.pipeline.max()) + 1)
        coefficients[a], coefficients[b] = 1.0, -1.0
        return question_variance(self.pipeline, self.question, self.answer, self.probability, coefficients)

    def exact_p(self, a: int, b: int) -> float | None:
        """McNemar's exact p of ``a`` against ``b`` when every response of both has a verdict
        and they answered the same questions; else ``None`` (the normal tail stands)."""
        mine, theirs = self.pipeline == a, self.pipeline == b
        if not (self.known[mine].all() and self.known[theirs].all()):
            return None
        of_a = dict(zip(self.question[mine].tolist(), self.probability[mine].tolist(), strict=True))
        of_b = dict(zip(self.question[theirs].tolist(), self.probability[theirs].tolist(), strict=True))
        if of_a.keys() != of_b.keys():
            return None
        a_only = sum(1 for q, v in of_a.items() if v == 1.0 and of_b[q] == 0.0)
        b_only = sum(1 for q, v in of_a.items() if v == 0.0 and of_b[q] == 1.0)
        return mcnemar_exact(a_only, b_only)

"""A round of labels to collect, as every front end and writer sees it: one row per distinct
answer to label, in the order to label them (drawn by
:func:`goldenlens.jobs.labelling.plan.plan_labels`)."""

from __future__ import annotations

from dataclasses import dataclass

from goldenlens.core.calibration.sampling_plan import Mode


@dataclass(frozen=True)
class PlanRow:
    """One answer to label: the response asked about, and the pipelines whose same answer the
    verdict also covers."""

    order: int
    question_id: str
    pipeline: str
    same_answer: tuple[str, ...]
    question: str
    golden_answer: str
    fact: str
    response: str
    stratum: int
    #: The chance this answer's unit had of being drawn in this round (``n_h / N_h``).
    inclusion_probability: float


@dataclass(frozen=True)
class LabelPlan:
    """A round of labels to collect."""

    round_id: int
    round_number: int
    mode: Mode
    seed: int
    budget: int
    rows: tuple[PlanRow, ...]
    #: Responses still without a verdict (the round's frame), and the distinct answers among them.
    unlabelled: int
    unlabelled_answers: int
    #: The round was planned earlier and had no label yet: listed again, nothing new drawn.
    listed_again: bool = False

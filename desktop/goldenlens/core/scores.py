"""Stored scores: one metric's value (or why it is not scored) for one question and pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class ScoreStatus(StrEnum):
    SCORED = "scored"
    NOT_SCORED = "not_scored"


@dataclass(frozen=True, slots=True)
class ScoreRecord:
    """One stored score of one metric for one (question, pipeline).

    ``value`` is ``None`` exactly when ``status`` is ``NOT_SCORED``; ``reason`` then says why
    (no statements, judge output truncated, context missing, ...). ``signature`` is the JSON of
    a :class:`goldenlens.core.lexical.signature.Signature`. ``detail`` holds what a reviewer needs to see
    why: the token alignment and fact span for lexical metrics, statements/verdicts/reasons for
    judge metrics. It must be JSON-serialisable.
    """

    question_id: str
    pipeline: str
    metric: str
    value: float | None
    signature: str
    status: ScoreStatus = ScoreStatus.SCORED
    reason: str = ""
    detail: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

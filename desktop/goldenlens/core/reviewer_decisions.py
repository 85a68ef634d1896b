"""Reviewer decisions as a report carries them: an applied score override and a question's
review state.

The store keeps overrides as an append-only audit trail next to the untouched scores;
:mod:`goldenlens.jobs.reporting.stored_run` turns the ones in effect into :class:`AppliedOverride`
values, each holding the score it replaces, so every export can show both numbers.
Pure values, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

REVIEW_UNREVIEWED: Final = "unreviewed"
REVIEW_ACCEPTED: Final = "accepted"
REVIEW_NEEDS_CURATION: Final = "needs_curation"
#: Review states in the order reports list them.
REVIEW_ORDER: Final = (REVIEW_ACCEPTED, REVIEW_NEEDS_CURATION, REVIEW_UNREVIEWED)
REVIEW_STATUSES: Final = frozenset(REVIEW_ORDER)


def effective_value(value: float | None, passed: bool | None) -> float | None:
    """The number an override puts in force: its value, else its pass/fail verdict as 1.0/0.0;
    ``None`` for a withdrawal (neither given). The grid, the detail pane and every export
    apply this one rule."""
    if value is not None:
        return float(value)
    if passed is not None:
        return 1.0 if passed else 0.0
    return None


@dataclass(frozen=True, slots=True)
class AppliedOverride:
    """A reviewer's override in force on one score of one (question, pipeline).

    ``value`` is the effective value (what means and pass rates count); ``original`` the
    stored score it replaces (``None``: that score was not scored, or the judge never reached
    the row). ``created_at`` is the ISO-8601 UTC time the override was saved.
    """

    metric: str
    value: float
    original: float | None
    passed: bool | None
    reviewer: str
    note: str
    created_at: str

    def describe(self) -> str:
        """One line for a cell comment or a table: who, when, why, and the number replaced."""
        who = self.reviewer or "unknown reviewer"
        when = self.created_at[:16].replace("T", " ")
        was = "not scored" if self.original is None else f"{self.original:.3f}"
        verdict = "" if self.passed is None else (" (pass)" if self.passed else " (fail)")
        why = f": {self.note}" if self.note else ""
        return f"Overridden by {who} on {when} UTC{why}. Original {was}, now {self.value:.3f}{verdict}."


@dataclass(frozen=True, slots=True)
class QuestionReview:
    """The review state of one golden question (``unreviewed`` when nobody reviewed it)."""

    status: str = REVIEW_UNREVIEWED
    note: str = ""
    reviewer: str = ""
    updated_at: str = ""


def review_counts(reviews: Iterable[QuestionReview]) -> dict[str, int]:
    """How many questions are in each review state, in :data:`REVIEW_ORDER`."""
    counts = dict.fromkeys(REVIEW_ORDER, 0)
    for review in reviews:
        counts[review.status] = counts.get(review.status, 0) + 1
    return counts

"""The records a project file holds, as every layer reads them: runs, reviewer overrides and
review states, named golden-set versions, imports and decisions on the judge's golden review.

The store hands these out and the jobs, the queries and both front ends use them, so they
live here, below all of them: the desktop app and the command line name them without
importing the store. Frozen dataclasses and the constants they are read with; no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from goldenlens.core.golden.criteria import Decision
from goldenlens.core.reviewer_decisions import effective_value

RUN_RUNNING: Final = "running"
RUN_FINISHED: Final = "finished"
RUN_CANCELLED: Final = "cancelled"
RUN_FAILED: Final = "failed"
#: An unfinished run whose inputs have changed since: it can never be resumed.
RUN_SUPERSEDED: Final = "superseded"
RUN_STATUSES: Final = frozenset({RUN_RUNNING, RUN_FINISHED, RUN_CANCELLED, RUN_FAILED, RUN_SUPERSEDED})
#: The states a finished, cancelled or failed run may be moved to.
RUN_END_STATUSES: Final = RUN_STATUSES - {RUN_RUNNING}

#: ``pipeline`` value of a flag (or score) that belongs to the golden row rather than to a response.
GOLDEN_ROW: Final = ""


@dataclass(frozen=True)
class RunInfo:
    """One scoring run (lexical, judge, ...) and how far it got.

    ``status`` stays ``running`` when the process died mid-run; such runs can be resumed
    (``store.results.scored_keys`` says what is already saved). ``import_id`` is the import
    that was current when the run started, so a run on stale inputs can be recognised;
    ``inputs_sha256`` is the fingerprint of exactly what the run scores (empty for runs made
    before fingerprints), so an unfinished run is resumed only on identical inputs.
    ``golden_history_id`` is the newest golden-history entry when the run started (the
    golden-set version it scored, :mod:`goldenlens.core.golden.versions`; ``None`` for runs
    made before runs recorded it); ``golden_rescored_id`` the newest edit that was re-scored
    into the run in place since (``None``: none was).
    """

    id: int
    kind: str
    params: Mapping[str, Any]
    status: str
    started_at: str
    finished_at: str | None
    total: int
    import_id: int | None = None
    inputs_sha256: str = ""
    golden_history_id: int | None = None
    golden_rescored_id: int | None = None

    @property
    def is_finished(self) -> bool:
        """True once the run completed; cancelled, failed and crashed runs are not."""
        return self.status == RUN_FINISHED


@dataclass(frozen=True)
class Override:
    """A reviewer's correction of one score. The original score is never changed.

    ``value`` replaces the number, ``passed`` records a pass/fail verdict; either may be
    ``None``. An override with both ``None`` withdraws the earlier ones for its key.
    """

    id: int
    question_id: str
    pipeline: str
    metric: str
    value: float | None
    passed: bool | None
    note: str
    reviewer: str
    created_at: str

    @property
    def is_withdrawal(self) -> bool:
        return self.value is None and self.passed is None

    @property
    def effective_value(self) -> float | None:
        """The number this override puts in force (``None`` for a withdrawal)."""
        return effective_value(self.value, self.passed)


@dataclass(frozen=True)
class Review:
    """The review state of one golden question."""

    question_id: str
    status: str
    note: str = ""
    reviewer: str = ""
    updated_at: str = ""


@dataclass(frozen=True)
class VersionInfo:
    """A named snapshot of the whole golden set: the name of the golden-set version that
    ends at history entry ``last_history_id``, and a frozen copy of its rows.

    ``last_history_id`` is the newest ``golden_history`` entry at snapshot time (0 if none),
    which ties the snapshot into the per-item history.
    """

    id: int
    name: str
    note: str
    created_at: str
    item_count: int
    last_history_id: int = 0


@dataclass(frozen=True)
class ImportInfo:
    """One import of input files. ``score_options``: the scoring asked for with it (JSON, as
    :mod:`goldenlens.jobs.scoring.pending` writes it), ``None`` when none was recorded."""

    id: int
    golden_source: str
    responses_source: str
    imported_at: str
    golden_count: int = 0
    response_count: int = 0
    score_options: Mapping[str, Any] | None = field(default=None, hash=False)


@dataclass(frozen=True)
class GoldenReviewDecision:
    """One decision of the reviewer on one judge verdict (``withdrawn``: verdicts empty).

    ``triplet_sha256`` is the fingerprint of the golden triplet as it was when decided, so a
    decision on a row edited since can be shown as out of date.
    """

    id: int
    question_id: str
    criterion: str
    decision: str
    judge_verdict: str
    reviewer_verdict: str
    run_id: int | None
    triplet_sha256: str
    note: str
    reviewer: str
    created_at: str

    @property
    def is_withdrawal(self) -> bool:
        return self.decision == Decision.WITHDRAWN

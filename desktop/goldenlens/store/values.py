"""Values the project store hands out, its error type, and the small encoders it shares.

Everything here is a frozen dataclass or a pure function: no SQL lives in this module.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from goldenlens.core import reviewer_decisions as _review
from goldenlens.core.golden import versions as _versions
from goldenlens.core.reviewer_decisions import effective_value

RUN_RUNNING: Final = "running"
RUN_FINISHED: Final = "finished"
RUN_CANCELLED: Final = "cancelled"
RUN_FAILED: Final = "failed"
#: An unfinished run whose inputs have changed since: it can never be resumed.
RUN_SUPERSEDED: Final = "superseded"
RUN_STATUSES: Final = frozenset({RUN_RUNNING, RUN_FINISHED, RUN_CANCELLED, RUN_FAILED, RUN_SUPERSEDED})
#: The states ``runs.finish`` may move a run to.
RUN_END_STATUSES: Final = RUN_STATUSES - {RUN_RUNNING}

# Defined in the core, which reports share; named here for the store's callers.
REVIEW_UNREVIEWED: Final = _review.REVIEW_UNREVIEWED
REVIEW_ACCEPTED: Final = _review.REVIEW_ACCEPTED
REVIEW_NEEDS_CURATION: Final = _review.REVIEW_NEEDS_CURATION
REVIEW_STATUSES: Final = _review.REVIEW_STATUSES

# Defined in the core, which works out golden-set versions from the history.
HISTORY_IMPORT: Final = _versions.ACTION_IMPORT
HISTORY_EDIT: Final = _versions.ACTION_EDIT
HISTORY_ADD: Final = _versions.ACTION_ADD
HISTORY_DELETE: Final = _versions.ACTION_DELETE

#: Defined in the core with the rules that group history entries into versions; named here
#: for the store's callers, as it always was.
HistoryEntry = _versions.HistoryEntry

#: ``pipeline`` value of a flag that belongs to the golden row rather than to a response.
GOLDEN_ROW: Final = ""


class StoreError(Exception):
    """Anything that goes wrong with a project file. The message always names the file."""


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
    """One import of input files."""

    id: int
    golden_source: str
    responses_source: str
    imported_at: str
    golden_count: int = 0
    response_count: int = 0


def utc_now() -> str:
    """Current time as ISO-8601 UTC with milliseconds; sorts as text."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def to_json(value: Any) -> str:
    """Compact JSON that keeps non-ASCII text readable and refuses NaN/Infinity.

    NaN is not JSON; storing it would break every other reader of the file.
    """
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def from_json_object(text: str | None) -> dict[str, Any]:
    """Decode a JSON object column; empty or NULL gives ``{}``."""
    if not text:
        return {}
    value = json.loads(text)
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object, got {type(value).__name__}")
    return value


def check_finite(value: float | None, what: str) -> float | None:
    """``value`` as float, refusing NaN and infinities (SQLite would store NaN as NULL)."""
    if value is None:
        return None
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{what}: {number!r} is not a finite number")
    return number

"""The small encoders the project store shares, and the store's vocabulary by its old names.

The records the store hands out (runs, overrides, reviews, versions, imports) and the run
statuses live in :mod:`goldenlens.core.project_records`, its error in
:mod:`goldenlens.core.errors`, so that every layer names them without importing the store;
they are named here too for the jobs that have always imported them from here. Everything
here is a frozen value or a pure function: no SQL lives in this module.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from typing import Any, Final

from goldenlens.core import reviewer_decisions as _review
from goldenlens.core.errors import StoreError
from goldenlens.core.golden import versions as _versions
from goldenlens.core.project_records import (
    GOLDEN_ROW,
    RUN_CANCELLED,
    RUN_END_STATUSES,
    RUN_FAILED,
    RUN_FINISHED,
    RUN_RUNNING,
    RUN_STATUSES,
    RUN_SUPERSEDED,
    ImportInfo,
    Override,
    Review,
    RunInfo,
    VersionInfo,
)

__all__ = [
    "GOLDEN_ROW",
    "HISTORY_ADD",
    "HISTORY_DELETE",
    "HISTORY_EDIT",
    "HISTORY_IMPORT",
    "REVIEW_ACCEPTED",
    "REVIEW_NEEDS_CURATION",
    "REVIEW_STATUSES",
    "REVIEW_UNREVIEWED",
    "RUN_CANCELLED",
    "RUN_END_STATUSES",
    "RUN_FAILED",
    "RUN_FINISHED",
    "RUN_RUNNING",
    "RUN_STATUSES",
    "RUN_SUPERSEDED",
    "HistoryEntry",
    "ImportInfo",
    "Override",
    "Review",
    "RunInfo",
    "StoreError",
    "VersionInfo",
    "check_finite",
    "from_json_object",
    "to_json",
    "utc_now",
]

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


def json_int(value: Any) -> int | None:
    """A whole number read back from a JSON object (:func:`from_json_object`), else ``None``:
    ``true`` is not taken for 1, nor ``2.0`` for 2."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_finite(value: float | None, what: str) -> float | None:
    """``value`` as float, refusing NaN and infinities (SQLite would store NaN as NULL)."""
    if value is None:
        return None
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{what}: {number!r} is not a finite number")
    return number

"""The project file: one SQLite database per project, the only place SQL lives."""

from goldenlens.store.project import PROJECT_SUFFIX, ProjectStore
from goldenlens.store.schema import LATEST_VERSION
from goldenlens.store.values import (
    GOLDEN_ROW,
    HistoryEntry,
    ImportInfo,
    Override,
    Review,
    RunInfo,
    StoreError,
    VersionInfo,
)

__all__ = [
    "GOLDEN_ROW",
    "LATEST_VERSION",
    "PROJECT_SUFFIX",
    "HistoryEntry",
    "ImportInfo",
    "Override",
    "ProjectStore",
    "Review",
    "RunInfo",
    "StoreError",
    "VersionInfo",
]

"""The store's value types and constants as the front ends name them.

The review statuses are the core's (:mod:`goldenlens.core.reviewer_decisions`); the rest is defined in
the store (the schema's vocabulary) and re-exported here, so that ``goldenlens.ui`` can use
them without importing the store.
"""

from goldenlens.core.reviewer_decisions import (
    REVIEW_ACCEPTED,
    REVIEW_NEEDS_CURATION,
    REVIEW_STATUSES,
    REVIEW_UNREVIEWED,
)
from goldenlens.store.project import PROJECT_SUFFIX
from goldenlens.store.repositories.golden_review import GoldenReviewDecision
from goldenlens.store.values import GOLDEN_ROW, Override, Review, RunInfo, StoreError

__all__ = [
    "GOLDEN_ROW",
    "PROJECT_SUFFIX",
    "REVIEW_ACCEPTED",
    "REVIEW_NEEDS_CURATION",
    "REVIEW_STATUSES",
    "REVIEW_UNREVIEWED",
    "GoldenReviewDecision",
    "Override",
    "Review",
    "RunInfo",
    "StoreError",
]

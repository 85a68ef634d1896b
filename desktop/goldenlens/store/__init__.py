"""The project file: one SQLite database per project, the only place SQL lives.

:class:`ProjectStore` opens a project; its data is read and written through the
repositories it holds (``store.golden``, ``store.responses``, ``store.runs``,
``store.results``, ``store.reviews``, ``store.cache``, ``store.drafts``,
``store.golden_review``, ``store.grid``). The records it hands out are the core's
(:mod:`goldenlens.core.project_records`), and so is its error (:mod:`goldenlens.core.errors`,
named here too).
"""

from goldenlens.core.errors import StoreError
from goldenlens.core.golden.versions import HistoryEntry
from goldenlens.store.base import Repository
from goldenlens.store.project import PROJECT_SUFFIX, ProjectStore, store_of
from goldenlens.store.repositories.drafts import DraftRepository, NewDraft
from goldenlens.store.repositories.golden import GoldenRepository
from goldenlens.store.repositories.golden_review import GoldenReviewRepository
from goldenlens.store.repositories.grid_reads import GridQueries
from goldenlens.store.repositories.judge_cache import JudgeCacheRepository
from goldenlens.store.repositories.responses import ResponseRepository
from goldenlens.store.repositories.results import ResultRepository
from goldenlens.store.repositories.review import ReviewRepository
from goldenlens.store.repositories.runs import RunRepository
from goldenlens.store.schema import LATEST_VERSION

__all__ = [
    "LATEST_VERSION",
    "PROJECT_SUFFIX",
    "DraftRepository",
    "GoldenRepository",
    "GoldenReviewRepository",
    "GridQueries",
    "HistoryEntry",
    "JudgeCacheRepository",
    "NewDraft",
    "ProjectStore",
    "Repository",
    "ResponseRepository",
    "ResultRepository",
    "ReviewRepository",
    "RunRepository",
    "StoreError",
    "store_of",
]

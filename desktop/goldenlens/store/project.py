"""``ProjectStore``: the open project, and the one way to its repositories.

A project is one SQLite file (``*.goldenlens``). Opening it gives a :class:`ProjectStore`,
which owns the connection and the project-level operations (open, close, diagnostics, an
atomic block spanning several writes); the data lives in small repositories by concern, all
sharing that one connection:

- ``store.golden`` — golden items, their history and named versions (:mod:`.golden`);
- ``store.responses`` — pipelines, responses, imports and their problems (:mod:`.responses`);
- ``store.runs`` — scoring runs and their life cycle (:mod:`.runs`);
- ``store.results`` — scores, score notes, flags and signatures of runs (:mod:`.results`);
- ``store.reviews`` — overrides and review state (:mod:`.review`);
- ``store.cache`` — the judge cache (:mod:`.cache`);
- ``store.drafts`` — judge-drafted golden items awaiting review (:mod:`.drafts`);
- ``store.golden_review`` — the reviewer's decisions on the judge's golden review
  (:mod:`.golden_review`);
- ``store.labels`` — reviewers' verdicts on responses and the labelling rounds planned
  (:mod:`.repositories.labels`);
- ``store.grid`` — the score grid's read-only bulk reads (:mod:`.grid_queries`).

Threading: a store is owned by one thread at a time (the UI runs it on a single executor
thread). Never call one store from two threads concurrently; open a second store for a
second thread. Readers in other processes are fine (WAL). The cross-process writer lock
(:mod:`.lock`) is taken by the jobs around a whole job, not by the store.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, Self

from sqlite_utils import Database

from goldenlens.core.closing import ClosedOnExit
from goldenlens.core.errors import StoreError
from goldenlens.core.project_handle import PROJECT_SUFFIX, ProjectHandle
from goldenlens.store.base import Connection
from goldenlens.store.repositories.drafts import DraftRepository
from goldenlens.store.repositories.golden import GoldenRepository
from goldenlens.store.repositories.golden_review import GoldenReviewRepository
from goldenlens.store.repositories.grid_reads import GridQueries
from goldenlens.store.repositories.judge_cache import JudgeCacheRepository
from goldenlens.store.repositories.labels import LabelRepository
from goldenlens.store.repositories.responses import ResponseRepository
from goldenlens.store.repositories.results import ResultRepository
from goldenlens.store.repositories.review import ReviewRepository
from goldenlens.store.repositories.runs import RunRepository
from goldenlens.store.schema import open_database

__all__ = ["PROJECT_SUFFIX", "ProjectStore", "StoreError", "store_of"]


class ProjectStore(ClosedOnExit):
    """A GoldenLens project file. Open with :meth:`open`; use as a context manager.

    Its own methods are the project-level ones; reads and writes of data go through its
    repositories (``golden``, ``responses``, ``runs``, ``results``, ``reviews``, ``cache``,
    ``drafts``, ``golden_review``, ``labels``, ``grid``), see the module docstring.

    It is (structurally) the :class:`~goldenlens.core.project_handle.ProjectHandle` that
    :func:`goldenlens.jobs.open_project` hands the front ends: they hold it as that handle,
    and only the jobs and the queries reach its repositories, through :func:`store_of`.
    """

    def __init__(self, path: Path, db: Database) -> None:
        self._connection = Connection(path, db)
        self.golden: Final = GoldenRepository(self._connection)
        self.responses: Final = ResponseRepository(self._connection, self.golden)
        self.runs: Final = RunRepository(self._connection)
        self.results: Final = ResultRepository(self._connection)
        self.reviews: Final = ReviewRepository(self._connection)
        self.cache: Final = JudgeCacheRepository(self._connection)
        self.drafts: Final = DraftRepository(self._connection)
        self.golden_review: Final = GoldenReviewRepository(self._connection)
        self.labels: Final = LabelRepository(self._connection)
        self.grid: Final = GridQueries(self._connection)

    @classmethod
    def open(cls, path: Path | str, *, create: bool = False) -> Self:
        """Open the project at ``path``, upgrading an older format in one transaction.

        Without ``create`` a missing file is an error and nothing is created. Raises
        :class:`StoreError` for a missing file, a non-SQLite file, another program's SQLite
        database, or a project made by a newer GoldenLens.
        """
        file = Path(path)
        return cls(file, open_database(file, create=create))

    @property
    def path(self) -> Path:
        """The project file."""
        return self._connection.path

    def close(self) -> None:
        """Close the file; safe to call twice."""
        self._connection.close()

    def __repr__(self) -> str:
        return f"ProjectStore({str(self.path)!r})"

    @contextmanager
    def atomic(self, what: str) -> Iterator[None]:
        """Everything written inside commits together or not at all.

        Writers of every repository join the open transaction, so ``golden.update`` followed
        by ``results.save`` inside one ``atomic`` block is a single commit. ``what`` names the
        action in a :class:`StoreError` message.
        """
        with self._connection.write(what):
            yield

    def diagnostics(self) -> dict[str, Any]:
        """The connection's settings as SQLite reports them, for an "about this project" view
        and for tests: ``journal_mode``, ``foreign_keys``, ``synchronous`` (1 = NORMAL),
        ``user_version`` (the project format) and ``application_id``."""
        row = self._connection.fetch_one(
            "SELECT (SELECT journal_mode FROM pragma_journal_mode),"
            " (SELECT foreign_keys FROM pragma_foreign_keys), (SELECT synchronous FROM pragma_synchronous),"
            " (SELECT user_version FROM pragma_user_version),"
            " (SELECT application_id FROM pragma_application_id)"
        )
        names = ("journal_mode", "foreign_keys", "synchronous", "user_version", "application_id")
        return dict(zip(names, row or (), strict=True))


def store_of(project: ProjectHandle) -> ProjectStore:
    """The store behind a project handle from :func:`goldenlens.jobs.open_project`.

    For the jobs and the queries, which take the handle a front end holds and work on the
    store behind it; a front end cannot call this (it may not import the store: an
    import-linter contract). A ``TypeError`` for anything else.
    """
    if not isinstance(project, ProjectStore):
        raise TypeError(f"expected a project opened by goldenlens.jobs.open_project, got {project!r}")
    return project

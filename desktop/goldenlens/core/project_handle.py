"""An open project file as every layer above the store holds it: a handle, not the store.

:func:`goldenlens.jobs.open_project` opens (or creates) a project and returns a
:class:`ProjectHandle`. A front end — the command line, the desktop app, the Python API —
holds it, reads through :class:`goldenlens.queries.project.ProjectQueries` built on it and
hands it to the jobs functions it calls; only the jobs and the queries get the store behind
it (:func:`goldenlens.store.project.store_of`), because only they may import the store (an
import-linter contract). So a front end can name what it wants done, never reach a table.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Final, Protocol, Self

#: File name suffix of a project.
PROJECT_SUFFIX: Final = ".goldenlens"


class ProjectHandle(Protocol):
    """An open project file: where it is, and closing it (as a context manager too)."""

    @property
    def path(self) -> Path:
        """The project file."""
        ...

    def close(self) -> None:
        """Close the file; safe to call twice."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...

"""The one way into a project file, for the command line, the desktop app and the Python API.

:func:`open_project` opens a project (``create``: makes a new, empty one where there is no
file), upgrading a file an older GoldenLens wrote; a file that is missing, is not a
GoldenLens project, or was made by a newer version raises
:class:`~goldenlens.core.errors.StoreError` naming it — so opening is also how a front end
checks a file. It returns a :class:`~goldenlens.core.project_handle.ProjectHandle`, which the
front end holds and closes: it reads through
:class:`~goldenlens.queries.project.ProjectQueries` built on it, and hands it to the jobs
functions it calls. It never reaches the store behind it.

Jobs functions work on the store; :func:`takes_project` is how one becomes callable with the
handle, with its own signature otherwise unchanged. The jobs' own callers (other jobs,
tests) may still pass a store: it is a handle too.

A worker thread of the desktop app holds only the project's path: :func:`on_project_at` runs
one jobs function on a connection of its own there and closes it again (SQLite's WAL lets it
work beside the connection the GUI thread reads through).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from goldenlens.core.project_handle import ProjectHandle

# The store (and SQLite) load when a project is opened, not when this module is imported:
# ``goldenlens.jobs`` re-exports open_project, and scoring files into a report opens none.
if TYPE_CHECKING:
    from goldenlens.store.project import ProjectStore

__all__ = ["ProjectHandle", "on_project_at", "open_project", "takes_project"]

P = ParamSpec("P")
R = TypeVar("R")


def open_project(path: Path | str, *, create: bool = False) -> ProjectHandle:
    """Open the project at ``path``, or with ``create`` make a new one where there is no
    file; close it when done (it is a context manager). Raises
    :class:`~goldenlens.core.errors.StoreError` naming the file when it is missing (without
    ``create``), not a GoldenLens project, or made by a newer GoldenLens."""
    from goldenlens.store.project import ProjectStore

    return ProjectStore.open(path, create=create)


def takes_project(
    job: Callable[Concatenate[ProjectStore, P], R],
) -> Callable[Concatenate[ProjectHandle, P], R]:
    """Make ``job``, a jobs function whose first argument is the store, callable with the
    :class:`~goldenlens.core.project_handle.ProjectHandle` a front end holds; its other
    arguments, result, name and docstring stay as they are."""

    @functools.wraps(job)
    def on_project(project: ProjectHandle, /, *args: P.args, **kwargs: P.kwargs) -> R:
        from goldenlens.store.project import store_of

        return job(store_of(project), *args, **kwargs)

    return on_project


def on_project_at(
    path: Path, job: Callable[Concatenate[ProjectHandle, P], R], /, *args: P.args, **kwargs: P.kwargs
) -> R:
    """``job(project, *args, **kwargs)`` on a connection of its own to the project at ``path``,
    closed when the job returns or raises (for a worker thread)."""
    with open_project(path) as project:
        return job(project, *args, **kwargs)

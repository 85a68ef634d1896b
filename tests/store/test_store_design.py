"""Design guard: the store is one small project object over narrow repositories by concern.

``ProjectStore`` once grew to 53 data methods from six mixins. These tests fail when it
starts to grow again: data methods belong on a repository (``store.golden``,
``store.results``, ...), and a repository that outgrows a narrow interface should be split
rather than extended. They check the shape, not a list of every method, so adding a method
to a repository is free until the repository stops being small.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import goldenlens.store
from goldenlens.core.closing import ClosedOnExit
from goldenlens.store import ProjectStore, Repository

#: What a project object does itself; everything else is a repository's business.
PROJECT_LEVEL = {"open", "close", "path", "atomic", "diagnostics"}

#: A repository with more public methods than this is doing more than one thing.
MAX_REPOSITORY_METHODS = 15


def _public(obj: object) -> set[str]:
    return {name for name in dir(obj) if not name.startswith("_")}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ProjectStore]:
    with ProjectStore.open(tmp_path / "design.goldenlens", create=True) as opened:
        yield opened


def _repositories(store: ProjectStore) -> dict[str, Repository]:
    return {name: value for name in _public(store) if isinstance(value := getattr(store, name), Repository)}


def test_the_project_object_has_only_project_level_methods(store: ProjectStore) -> None:
    """Besides its repositories, ``ProjectStore`` offers exactly the project-level set; a data
    method added to it (or a mixin bringing some) fails here."""
    repositories = _repositories(store)
    assert len(repositories) >= 5, sorted(repositories)  # golden, responses, runs, reviews, cache at least
    assert _public(store) - set(repositories) == PROJECT_LEVEL
    # Its one base gives ``with store:`` (``__enter__``/``__exit__`` around its own ``close``) and
    # no data method; any other base is a mixin again.
    assert ProjectStore.__mro__ == (ProjectStore, ClosedOnExit, object), (
        "ProjectStore is built from mixins again"
    )
    assert {name for name in vars(ClosedOnExit) if not name.startswith("_")} == {"close"}


def test_every_repository_has_a_narrow_interface(store: ProjectStore) -> None:
    for name, repository in _repositories(store).items():
        public = _public(repository)
        methods = {m for m in public if inspect.isroutine(getattr(repository, m))}
        assert public == methods, f"store.{name} exposes state, not just methods: {sorted(public - methods)}"
        assert 0 < len(methods) <= MAX_REPOSITORY_METHODS, f"store.{name} has {len(methods)} methods"
        bases = type(repository).__bases__
        assert bases == (Repository,), f"store.{name} is a {type(repository).__name__} built from {bases}"


def test_repositories_are_distinct_and_share_one_connection(store: ProjectStore) -> None:
    """One repository object per concern, all over the project's one connection (so their
    writers join one transaction)."""
    repositories = list(_repositories(store).values())
    assert len({type(r) for r in repositories}) == len(repositories)
    assert len({id(r._connection) for r in repositories}) == 1


def test_every_repository_class_of_the_store_is_opened_by_the_project(store: ProjectStore) -> None:
    """A repository class that ``ProjectStore`` does not open is dead code or a second way in."""
    for module in pkgutil.iter_modules(goldenlens.store.__path__):
        importlib.import_module(f"goldenlens.store.{module.name}")
    defined = {cls for cls in Repository.__subclasses__() if cls.__module__.startswith("goldenlens.store.")}
    assert {type(r) for r in _repositories(store).values()} == defined

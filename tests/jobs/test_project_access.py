"""The one way into a project (``goldenlens.jobs.open_project``) and the handle it returns,
on real project files: opening, creating, refusing what is not a project, and the jobs and
queries working through the handle on the store behind it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from goldenlens.core.errors import StoreError
from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.project_handle import PROJECT_SUFFIX, ProjectHandle
from goldenlens.core.reviewer_decisions import REVIEW_ACCEPTED
from goldenlens.jobs import open_project
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.curation.golden_versions import list_versions
from goldenlens.jobs.project_access import takes_project
from goldenlens.queries.project import ProjectQueries
from goldenlens.store.project import ProjectStore, store_of

DESKTOP = str(Path(__file__).resolve().parents[2] / "desktop")


@pytest.fixture
def project_path(tmp_path: Path) -> Path:
    """A project with two golden items and one pipeline's responses, written by the store."""
    path = tmp_path / f"two{PROJECT_SUFFIX}"
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace(
            [GoldenItem("q1", "Who?", "Ann did.", "Ann"), GoldenItem("q2", "When?", "In 2020.", "2020")],
            source="test",
        )
        responses = [PipelineResponse("q1", "P1", "Ann"), PipelineResponse("q2", "P1", "2019")]
        store.responses.replace(responses, ["P1"])
    return path


def test_a_missing_file_is_a_store_error_naming_it_and_nothing_is_created(tmp_path: Path) -> None:
    missing = tmp_path / "missing.goldenlens"
    with pytest.raises(StoreError, match=r"missing\.goldenlens"):
        open_project(missing)
    assert not missing.exists()


def test_a_file_that_is_not_a_project_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    notes = tmp_path / "notes.goldenlens"
    notes.write_text("not a database\n", encoding="utf-8")
    with pytest.raises(StoreError, match=r"notes\.goldenlens"):
        open_project(notes)
    assert notes.read_text(encoding="utf-8") == "not a database\n"


def test_create_makes_an_empty_project_that_opens_again(tmp_path: Path) -> None:
    path = tmp_path / f"new{PROJECT_SUFFIX}"
    with open_project(path, create=True) as project:
        assert project.path == path
        assert ProjectQueries(project).question_count() == 0
    assert path.is_file()
    with open_project(path) as again:
        assert ProjectQueries(again).pipelines() == []


def test_the_queries_and_the_jobs_share_the_handles_connection(project_path: Path) -> None:
    with open_project(project_path) as project:
        queries = ProjectQueries(project)
        assert queries.question_count() == 2
        assert queries.review_of_question("q1") is None
        saved = curation.set_review(project, "q1", REVIEW_ACCEPTED, "checked", reviewer="Ana")
        assert queries.review_of_question("q1") == saved
        assert (saved.status, saved.note, saved.reviewer) == (REVIEW_ACCEPTED, "checked", "Ana")
    with ProjectStore.open(project_path) as store:  # committed, not only seen on that connection
        review = store.reviews.of_question("q1")
        assert review is not None
        assert review.status == REVIEW_ACCEPTED


def test_a_jobs_function_gets_the_store_behind_the_handle(project_path: Path) -> None:
    seen: list[ProjectStore] = []

    @takes_project
    def count_items(store: ProjectStore, *, plus: int = 0) -> int:
        """How many golden items, plus ``plus``."""
        seen.append(store)
        return len(store.golden.items()) + plus

    assert count_items.__name__ == "count_items"
    assert count_items.__doc__ == "How many golden items, plus ``plus``."
    with open_project(project_path) as project:
        assert count_items(project, plus=1) == 3
        assert seen == [store_of(project)]
        # A jobs function called with a store (by another job, a test) gets that store.
        assert list_versions(store_of(project)) == list_versions(project)


def test_only_a_project_from_open_project_is_a_handle(project_path: Path) -> None:
    class Lookalike:
        """Has a path and closes, but is no project the jobs opened."""

        path = project_path

        def close(self) -> None:
            pass

    fake: ProjectHandle = Lookalike()  # type: ignore[assignment]
    with pytest.raises(TypeError, match="open_project"):
        store_of(fake)
    with pytest.raises(TypeError, match="open_project"):
        list_versions(fake)
    with pytest.raises(TypeError, match="open_project"):
        ProjectQueries(fake)


def test_importing_the_jobs_package_loads_no_store_until_a_project_opens(project_path: Path) -> None:
    probe = (
        "import sys\n"
        "from goldenlens.jobs import open_project\n"
        "before = [m for m in ('goldenlens.store', 'sqlite3', 'sqlite_utils') if m in sys.modules]\n"
        f"open_project({str(project_path)!r}).close()\n"
        "print(before, 'goldenlens.store' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env={"PYTHONPATH": DESKTOP}, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[] True"

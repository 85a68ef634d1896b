"""The GUI thread's read API and the jobs it writes through, on a real scored sample project.

Expected values come from the sample CSVs read here with the csv module, and from the sample's
known case: Pipeline3 misses q03's fact (it writes "410 Terry Ave. N.").
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import openpyxl
import pytest

from goldenlens.core.errors import StoreError
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.problems import InputError
from goldenlens.core.project_handle import ProjectHandle
from goldenlens.core.reviewer_decisions import REVIEW_ACCEPTED
from goldenlens.jobs import open_project
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.importing.import_and_score import import_and_score
from goldenlens.jobs.project_access import on_project_at
from goldenlens.jobs.reporting.report_job import export_golden, export_report
from goldenlens.queries.project import ProjectQueries


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture
def project_path(tmp_path: Path, sample_dir: Path) -> Path:
    """The sample imported and scored into a new project by the job the import wizard runs."""
    path = tmp_path / "sample.goldenlens"
    done = import_and_score(
        path, sample_dir / "golden.csv", sample_dir / "responses.csv", report_scoring_errors=True
    )
    assert done.scoring_error is None
    assert done.imported.golden_count == len(_rows(sample_dir / "golden.csv"))
    assert done.scored == len(_rows(sample_dir / "responses.csv"))
    return path


@pytest.fixture
def handle(project_path: Path) -> Iterator[ProjectHandle]:
    with open_project(project_path) as opened:
        yield opened


@pytest.fixture
def project(handle: ProjectHandle) -> ProjectQueries:
    return ProjectQueries(handle)


def test_reads_match_the_sample_files(project: ProjectQueries, sample_dir: Path) -> None:
    golden = _rows(sample_dir / "golden.csv")
    responses = _rows(sample_dir / "responses.csv")
    assert project.question_count() == len(golden)
    assert project.pipelines() == list(dict.fromkeys(r["pipeline"] for r in responses))
    item = project.golden_item("q03")
    assert item is not None
    assert (item.question, item.answer, item.fact) == next(
        (r["question"], r["answer"], r["fact"]) for r in golden if r["id"] == "q03"
    )
    assert project.golden_item("no-such-question") is None
    run_id = project.latest_run_id(finished_only=True)
    assert run_id is not None
    assert project.unfinished_runs() == []
    records = project.scores_of_question(run_id, "q03")
    pipelines_of_q03 = {r["pipeline"] for r in responses if r["question_id"] == "q03"}
    assert {r.pipeline for r in records} == pipelines_of_q03
    assert {r.metric for r in records} >= set(LEXICAL_SCORE_NAMES)


def test_grid_head_is_the_first_rows_of_the_whole_grid(project: ProjectQueries, sample_dir: Path) -> None:
    golden_ids = [r["id"] for r in _rows(sample_dir / "golden.csv")]
    run_id = project.latest_run_id(finished_only=True)
    full = project.grid(run_id, LEXICAL_SCORE_NAMES)
    head = project.grid_head(run_id, LEXICAL_SCORE_NAMES, limit=2)
    assert list(full.question_ids) == golden_ids
    assert full.complete
    assert list(head.question_ids) == golden_ids[:2]
    assert not head.complete
    assert head.total == len(golden_ids)
    np.testing.assert_array_equal(head.values[FACTUAL_KNOWLEDGE], full.values[FACTUAL_KNOWLEDGE][:2])


def test_question_detail(project: ProjectQueries) -> None:
    run_id = project.latest_run_id(finished_only=True)
    detail = project.question_detail(run_id, "q03")
    assert detail is not None
    assert detail.item.id == "q03"
    assert [p.pipeline for p in detail.pipelines] == project.pipelines()
    assert project.question_detail(run_id, "no-such-question") is None


def test_an_override_written_through_jobs_shows_in_the_patched_grid(
    project: ProjectQueries, handle: ProjectHandle
) -> None:
    run_id = project.latest_run_id(finished_only=True)
    grid = project.grid(run_id, LEXICAL_SCORE_NAMES)
    row, column = grid.index_of("q03"), grid.pipelines.index("Pipeline3")
    assert row is not None
    assert grid.values[FACTUAL_KNOWLEDGE][row, column] == 0.0  # the abbreviated address

    curation.set_override(
        handle, "q03", "Pipeline3", FACTUAL_KNOWLEDGE, value=1.0, passed=True, note="abbrev.", reviewer="Ana"
    )
    patched = project.grid_with_updates(grid, run_id, ["q03"])
    assert patched.values[FACTUAL_KNOWLEDGE][row, column] == 1.0
    assert patched.overridden[FACTUAL_KNOWLEDGE][row, column]
    override = project.override_in_effect("q03", "Pipeline3", FACTUAL_KNOWLEDGE)
    assert override is not None
    assert (override.value, override.note, override.reviewer) == (1.0, "abbrev.", "Ana")

    curation.restore_override(handle, "q03", "Pipeline3", FACTUAL_KNOWLEDGE, None, reviewer="Ana")
    assert project.override_in_effect("q03", "Pipeline3", FACTUAL_KNOWLEDGE) is None
    restored = project.grid_with_updates(patched, run_id, ["q03"])
    assert restored.values[FACTUAL_KNOWLEDGE][row, column] == 0.0


def test_a_review_written_through_jobs_is_read_back_and_undone(
    project: ProjectQueries, handle: ProjectHandle
) -> None:
    assert project.review_of_question("q02") is None
    curation.set_review(handle, "q02", REVIEW_ACCEPTED, "checked", reviewer="Ana")
    review = project.review_of_question("q02")
    assert review is not None
    assert (review.status, review.note, review.reviewer) == (REVIEW_ACCEPTED, "checked", "Ana")
    curation.restore_review(handle, "q02", None, reviewer="Ana")
    assert project.review_of_question("q02") is None
    with pytest.raises(ValueError, match="unknown review status"):
        curation.check_review(handle, "q02", "maybe")


def test_exports_at_a_path(project_path: Path, tmp_path: Path, sample_dir: Path) -> None:
    golden = _rows(sample_dir / "golden.csv")
    out = tmp_path / "golden.xlsx"
    assert on_project_at(project_path, export_golden, out, question_ids={"q01", "q03"}) == 2
    sheet = openpyxl.load_workbook(out, read_only=True).worksheets[0]
    ids = [row[0] for row in sheet.iter_rows(min_row=2, values_only=True) if row[0] is not None]
    assert ids == [r["id"] for r in golden if r["id"] in {"q01", "q03"}]

    responses = _rows(sample_dir / "responses.csv")
    listed = on_project_at(project_path, export_report, tmp_path / "report.xlsx")
    assert len(listed.rows) == len(responses)
    assert (tmp_path / "report.xlsx").stat().st_size > 0


def test_opening_a_missing_project_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"missing\.goldenlens"):
        open_project(tmp_path / "missing.goldenlens")
    assert not (tmp_path / "missing.goldenlens").exists()


def test_a_failed_import_into_a_new_project_leaves_no_file(tmp_path: Path) -> None:
    bad = tmp_path / "golden.csv"
    bad.write_bytes(b"not,a,golden,header\n1,2,3,4\n")
    path = tmp_path / "new.goldenlens"
    with pytest.raises(InputError, match=r"golden\.csv"):
        import_and_score(path, bad, None)
    assert not path.exists()

"""``-o report.html`` from ``score`` (files and project) and ``report``, and the app's export."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from goldenlens.cli.main import main
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.reporting.report_job import export_report
from goldenlens.store.project import ProjectStore
from sample_expectations import FK_REPORT, PIPELINES


def _check_page(path: Path) -> None:
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<tr data-pipeline=") == 30
    assert not re.search(r"https?://", page)
    # Pipeline1 found 8 of the 10 facts (the sample's Factual Knowledge Report).
    found = sum(v[PIPELINES.index("Pipeline1")] for v in FK_REPORT.values())
    assert f'<td class="num">{found / len(FK_REPORT):.3f}' in page
    # Intervals drawn, or said to be unavailable: never a silent gap.
    assert ('id="no-intervals"' in page) != ('<small class="ci">' in page)


def test_score_files_to_html(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    args = [str(sample_dir() / "golden.csv"), str(sample_dir() / "responses.csv")]
    assert main(["score", *args, "-o", str(out), "-q"]) == 0
    _check_page(out)


def test_score_into_a_project_and_report_to_html(tmp_path: Path) -> None:
    project = tmp_path / "p.goldenlens"
    args = [str(sample_dir() / "golden.csv"), str(sample_dir() / "responses.csv")]
    out = tmp_path / "scored.html"
    assert main(["score", *args, "--project", str(project), "-o", str(out), "-q"]) == 0
    _check_page(out)
    again = tmp_path / "again.HTML"
    assert main(["report", str(project), "-o", str(again)]) == 0
    _check_page(again)


def test_export_picks_html_by_suffix(tmp_path: Path) -> None:
    project = tmp_path / "p.goldenlens"
    args = [str(sample_dir() / "golden.csv"), str(sample_dir() / "responses.csv")]
    assert main(["score", *args, "--project", str(project), "-q"]) == 0
    out = tmp_path / "export.html"
    with ProjectStore.open(project) as store:
        export_report(store, out, question_ids={"q01", "q02"})
    page = out.read_text(encoding="utf-8")
    assert page.count("<tr data-pipeline=") == 6


def test_an_unknown_suffix_names_the_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(sample_dir() / "golden.csv"), str(sample_dir() / "responses.csv")]
    assert main(["score", *args, "-o", str(tmp_path / "r.pdf"), "-q"]) == 2
    assert ".html" in capsys.readouterr().err

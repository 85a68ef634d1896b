"""Project files written by the code of formats 1, 2 and 3 open in the current format with all
their data: golden items, history and versions, responses, runs, scores, flags, overrides,
reviews, problems and the judge cache.

The files in ``fixtures/`` were written by ``fixtures/make_old_projects.py`` running on the
code of each format, and ``*.expected.json`` is what that same code read back from them: the
expectations come from the old code, not from the code under test.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from tests.store.fixtures.make_old_projects import contents

from goldenlens.jobs.reporting.stored_run import build_report
from goldenlens.store import LATEST_VERSION, ProjectStore

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(params=[1, 2, 3], ids=["format1", "format2", "format3"])
def old_project(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, dict[str, object]]:
    version: int = request.param
    path = tmp_path / f"format{version}.goldenlens"
    shutil.copyfile(FIXTURES / f"format{version}.goldenlens", path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == version  # really the old format
    conn.close()
    expected = json.loads((FIXTURES / f"format{version}.expected.json").read_text(encoding="utf-8"))
    return path, expected


def test_an_old_project_opens_with_all_its_data(old_project: tuple[Path, dict[str, object]]) -> None:
    path, expected = old_project
    with ProjectStore.open(path) as store:
        assert store.diagnostics()["user_version"] == LATEST_VERSION == 7
        got = json.loads(json.dumps(contents(store)))  # tuples as lists, like the JSON file
    assert got == expected
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_an_upgraded_project_reports_and_rescores_like_the_old_code(
    old_project: tuple[Path, dict[str, object]],
) -> None:
    """The report of the upgraded lexical run has the old numbers (overrides applied) and its
    spans are derived again from the texts; scoring anew gives the same numbers."""
    path, expected = old_project
    stored = {(q, p, m): v for q, p, m, v, *_rest in expected["scores"]["1"]}  # type: ignore[index]
    with ProjectStore.open(path) as store:
        report = build_report(store, 1)
        for row in report.rows:
            for metric, value in row.result.scores.items():
                assert value == stored[(row.item.id, row.response.pipeline, metric)]
            assert row.explained.alignment is not None
        overridden = report.row("q2", "RAG-B")
        assert overridden is not None
        assert overridden.scores["factual_knowledge"] == 1.0
        assert overridden.result.scores["factual_knowledge"] == stored[("q2", "RAG-B", "factual_knowledge")]
        # The withdrawn f1 override of (q1, RAG-B) is not in force.
        withdrawn = report.row("q1", "RAG-B")
        assert withdrawn is not None
        assert "f1_score" not in withdrawn.overrides

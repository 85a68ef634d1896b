"""``goldenlens versions`` and ``goldenlens diff`` on a project the test builds from the sample:
the table, ``--json``, ``-o FILE.json``, naming, and bad input (one line, exit code 2). The
commands run as real subprocesses."""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from cli_process import run_goldenlens
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.store.project import ProjectStore

NEW_Q03_FACT = "410 Terry Avenue North<OR>410 Terry Ave. N."


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_goldenlens(*args)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Imported (v1), scored, then Ana's session (v2: q03's fact, q06's notes), then Ben's (v3:
    q09 deleted)."""
    path = tmp_path / "sample.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        score_project(store)
        q03, q06 = store.golden.item("q03"), store.golden.item("q06")
        assert q03 is not None
        assert q06 is not None
        curation.edit_golden_item(store, replace(q03, fact=NEW_Q03_FACT), reviewer="Ana")
        curation.edit_golden_item(store, replace(q06, notes="two lines\nof notes"), reviewer="Ana")
        store.golden.delete("q09", reviewer="Ben")
    return path


def test_versions_table(project: Path) -> None:
    done = _cli("versions", str(project))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Golden-set versions: 3 (current: v3)"
    assert lines[1].split() == ["version", "name", "when", "who", "rows", "changes", "runs"]
    rows = [line.split() for line in lines[3:]]
    # who, rows, changes, runs: the run started from v1 and Ana's fact edit re-scored it to v2
    assert [(r[0], r[1], r[5], r[6], r[7], " ".join(r[8:])) for r in rows] == [
        ("v1", "-", "import", "golden.csv", "10", "10 -"),
        ("v2", "-", "Ana", "10", "2", "1 (from v1)"),
        ("v3", "-", "Ben", "9", "1", "-"),
    ]


def test_versions_name_and_json(project: Path, tmp_path: Path) -> None:
    done = _cli("versions", str(project), "--name", "curated by Ana", "--version", "2", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == 'Named v2 "curated by Ana"'
    data = json.loads(done.stdout)
    assert [
        (v["number"], v["name"], v["who"], v["rows"], v["changes"], v["runs"]) for v in data["versions"]
    ] == [
        (1, "", "import golden.csv", 10, 10, []),
        (2, "curated by Ana", "Ana", 10, 2, [1]),
        (3, "", "Ben", 9, 1, []),
    ]
    assert data["runs"][0] | {"started_at": ""} == {
        "run": 1,
        "kind": "lexical",
        "status": "finished",
        "started_at": "",
        "version": 1,
        "rescored_version": 2,
        "recorded": True,
    }
    out = tmp_path / "versions.json"
    written = _cli("versions", str(project), "-o", str(out))
    assert written.returncode == 0, written.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["versions"][1]["name"] == "curated by Ana"


def test_diff_text_and_json(project: Path, tmp_path: Path) -> None:
    done = _cli("diff", str(project), "1", "latest")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "v1 -> v3: 0 added, 1 removed, 2 changed (2 fields)",
        "",
        "removed (1):",
        "  q09  As of June 30, 2023, how many shares of Rivian's Class A common stock did Amazon hold?",
        "",
        "changed (2):",
        "  q03  fact",
        "    - 410 Terry Avenue North",
        f"    + {NEW_Q03_FACT}",
        "  q06  notes",
        "    - (empty)",
        "    + two lines",
        "      of notes",
    ]
    out = tmp_path / "diff.json"
    written = _cli("diff", str(project), "v2", "v1", "-o", str(out))
    assert written.returncode == 0, written.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["from"]["number"], data["to"]["number"], data["added"], data["removed"]) == (2, 1, [], [])
    assert data["changed"] == [
        {
            "id": "q03",
            "changes": [{"field": "fact", "before": NEW_Q03_FACT, "after": "410 Terry Avenue North"}],
        },
        {"id": "q06", "changes": [{"field": "notes", "before": "two lines\nof notes", "after": ""}]},
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("diff", "{p}", "1", "7"),
            "sample.goldenlens: there is no golden-set version '7' (versions: 1 to 3)",
        ),
        (("diff", "{p}", "draft", "2"), "there is no golden-set version 'draft'"),
        (("versions", "{p}", "--name", "v2"), "'v2' reads as a version number"),
        (("versions", "{p}", "--name", "x", "--version", "12"), "there is no golden-set version '12'"),
        (("diff", "{p}", "1", "2", "-o", "{t}/diff.txt"), "diff.txt: the output file must be .json"),
        (("versions", "{missing}"), "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    project: Path, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    filled = [a.format(p=project, t=tmp_path, missing=tmp_path / "none.goldenlens") for a in args]
    done = _cli(*filled)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "diff.txt").exists()
    with ProjectStore.open(project) as store:
        assert store.golden.versions() == []  # no name was given

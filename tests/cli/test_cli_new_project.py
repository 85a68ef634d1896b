"""A failed import into a project that did not exist leaves no file behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from tests.badinputs import GOLDEN_HEADER, GOLDEN_ROWS, RESPONSES_HEADER, make_bad_inputs, write_csv

from goldenlens.cli.main import main
from goldenlens.store.project import ProjectStore


def _leftovers(folder: Path, name: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(name))


def test_a_bad_golden_set_leaves_no_project_file(tmp_path: Path) -> None:
    bad = write_csv(tmp_path / "bad.csv", [["id", "prompt text"], ["q01", "Who?"]])
    responses = write_csv(tmp_path / "responses.csv", [RESPONSES_HEADER, ["q01", "p1", "He is the CEO.", ""]])
    out = tmp_path / "out"
    out.mkdir()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "goldenlens",
            "score",
            str(bad),
            str(responses),
            "--project",
            str(out / "new.goldenlens"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert "bad.csv" in proc.stderr
    assert "no question column" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert list(out.iterdir()) == []


def test_every_fatal_bad_input_leaves_no_new_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [case for case in make_bad_inputs(tmp_path / "bad") if case.expect_fatal]
    assert len(cases) >= 15
    out = tmp_path / "projects"
    out.mkdir()
    for case in cases:
        responses = case.responses_path or write_csv(
            tmp_path / "ok" / "responses.csv",
            [RESPONSES_HEADER, ["q01", "p1", "He is the CEO of Amazon.", ""]],
        )
        args = [
            "score",
            str(case.golden_path),
            str(responses),
            "--project",
            str(out / f"{case.name}.goldenlens"),
            "-q",
        ]
        if case.golden_sheet:
            args += ["--golden-sheet", case.golden_sheet]
        assert main(args) == 2, case.name
        assert _leftovers(out, case.name) == [], case.name
    capsys.readouterr()


def test_a_failed_import_into_an_existing_project_keeps_it(tmp_path: Path) -> None:
    golden = write_csv(tmp_path / "golden.csv", [GOLDEN_HEADER, *GOLDEN_ROWS])
    responses = write_csv(
        tmp_path / "responses.csv", [RESPONSES_HEADER, ["q01", "p1", "He is the CEO of Amazon.", ""]]
    )
    project = tmp_path / "kept.goldenlens"
    assert main(["score", str(golden), str(responses), "--project", str(project), "-q"]) == 0
    bad = write_csv(tmp_path / "bad.csv", [["id", "prompt text"], ["q01", "Who?"]])
    assert main(["score", str(bad), str(responses), "--project", str(project), "-q"]) == 2
    with ProjectStore.open(project) as store:
        assert len(store.golden.items()) == 3
        assert len(store.responses.imports()) == 1
    assert not (tmp_path / "kept.goldenlens.lock").exists()

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


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("newproj", "a new project's file name ends in .goldenlens: did you mean newproj.goldenlens?"),
        ("report.xlsx", "a new project's file name ends in .goldenlens, not .xlsx"),
    ],
)
def test_a_new_project_must_be_named_goldenlens(
    tmp_path: Path, name: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--project report.xlsx` (meant for -o) used to create an SQLite project under that name,
    which the app's Open dialog never lists. A new file must end in .goldenlens; an existing
    project is opened whatever its name (its content is checked)."""
    golden = write_csv(tmp_path / "golden.csv", [GOLDEN_HEADER, *GOLDEN_ROWS])
    responses = write_csv(tmp_path / "responses.csv", [RESPONSES_HEADER, ["q01", "p1", "He is the CEO.", ""]])
    with pytest.raises(SystemExit) as stopped:
        main(["score", str(golden), str(responses), "--project", str(tmp_path / name), "-q"])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / name).exists()

    kept = tmp_path / "kept.goldenlens"
    assert main(["score", str(golden), str(responses), "--project", str(kept), "-q"]) == 0
    renamed = kept.rename(tmp_path / "kept.db")
    assert main(["score", str(golden), str(responses), "--project", str(renamed), "-q"]) == 0
    with ProjectStore.open(renamed) as store:
        assert len(store.runs.all()) == 2

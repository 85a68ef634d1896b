"""``goldenlens review-golden``: the table, ``--json`` and ``-o FILE.json``, resume after an
interrupted review, the agreement line, and bad input as one line with exit code 2.

Through ``main()`` the judge is the scripted one of the job tests (the engine opener is
replaced), so the expected verdicts are the script's; one real subprocess runs the counted
criterion alone, which needs no model.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from tests.jobs.test_golden_review_job import scripted_reply, write_golden
from tests.judge.scripted import ScriptedEngine

import goldenlens
from goldenlens.cli.main import main
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN
from goldenlens.jobs.curation import golden_review_decisions
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.judging import run_driver
from goldenlens.judge.engines.protocol import ChatMessage
from goldenlens.store.project import ProjectStore


class Opened:
    """What the replaced engine opener was asked for, and the engine it handed out."""

    def __init__(self, engine: ScriptedEngine) -> None:
        self.engine = engine
        self.specs: list[JudgeEngineSpec] = []

    @contextmanager
    def __call__(self, spec: JudgeEngineSpec) -> Iterator[ScriptedEngine]:
        self.specs.append(spec)
        yield self.engine


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Opened:
    opener = Opened(ScriptedEngine(responder=scripted_reply))
    monkeypatch.setattr(run_driver, "open_judge_engine", opener)
    return opener


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "g.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        import_inputs(store, write_golden(tmp_path))
    return path


def test_the_table_marks_each_verdict_and_explains_the_others(
    project: Path, opened: Opened, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review-golden", str(project), "-q", "--max-words", "30", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Golden review (run 1): 3 golden rows"
    assert lines[1:5] == ["id  1  2  3  4  5", "g1  P  P  P  P  P", "g2  F  P  ?  P  P", "g3  P  P  P  F  F"]
    assert (
        "5  Verbosity within the guardrail (counted, not judged): 2 pass, 1 fail, 0 unsure, 0 not rated"
        in out
    )
    assert "  g2 unambiguous_question: fail — scripted unambiguous_question" in out
    assert "  g3 verbosity_within_guardrail: fail — 40 words; the guardrail is 30" in out
    assert "agree" not in out  # no decision yet: no agreement line
    assert opened.specs == [
        JudgeEngineSpec(judge_model=None, judge_url=None, n_ctx=4096, n_threads=1, temperature=0.0, seed=42)
    ]


def test_json_on_stdout_and_in_a_file(
    project: Path, opened: Opened, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review-golden", str(project), "-q", "--json", "--criteria", "fact_minimal"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["project"] == str(project)
    assert data["criteria"] == ["fact_minimal"]
    assert [row["verdicts"][0]["verdict"] for row in data["rows"]] == ["pass", "unsure", "pass"]
    out = tmp_path / "review.json"
    assert main(["review-golden", str(project), "-q", "-o", str(out), "--criteria", "fact_minimal"]) == 0
    assert "Wrote the review of 3 golden rows" in capsys.readouterr().err
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["rows"] == data["rows"]
    assert written["run"]["id"] != data["run"]["id"]  # a new run, answered from the cache
    assert len(opened.engine.calls) == 3


def test_an_interrupted_review_resumes_when_run_again(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[int] = []

    def interrupted(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> str:
        calls.append(1)
        if len(calls) == 6:  # g2's second criterion: Ctrl+C
            raise KeyboardInterrupt
        return scripted_reply(messages, schema)

    monkeypatch.setattr(run_driver, "open_judge_engine", Opened(ScriptedEngine(responder=interrupted)))
    assert main(["review-golden", str(project), "-q"]) == 130
    assert "run the same review-golden command again to resume" in capsys.readouterr().err
    with ProjectStore.open(project) as store:
        (run,) = store.runs.unfinished(GOLDEN_REVIEW_RUN)
        assert store.results.scored_keys(run.id) == {("g1", "")}
    rest = Opened(ScriptedEngine(responder=scripted_reply))
    monkeypatch.setattr(run_driver, "open_judge_engine", rest)
    assert main(["review-golden", str(project), "-q", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["run"]["id"] == run.id
    assert data["run"]["status"] == "finished"
    assert len(rest.engine.calls) == 8 - 1  # g2 and g3; g2's first criterion came from the cache


def test_the_agreement_line_appears_once_the_reviewer_decided(
    project: Path, opened: Opened, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review-golden", str(project), "-q"]) == 0
    capsys.readouterr()
    with ProjectStore.open(project) as store:
        golden_review_decisions.decide(store, "g1", "fact_minimal", "accepted")
        golden_review_decisions.decide(store, "g2", "unambiguous_question", "dismissed")
    assert main(["review-golden", str(project), "-q"]) == 0
    # Pairs (pass, pass) and (fail, pass): p_o 1/2, p_e = (1*2 + 1*0)/4 = 1/2, kappa 0.
    assert "Judge and reviewer agree on 1 of 2 decided verdicts (50%); Cohen's kappa 0.00" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "review.txt"], "review.txt: the review file must be .json"),
        (["--criteria", "clarity"], "unknown criterion 'clarity'"),
        (["--judge-model", "missing.gguf"], "--judge-model: model file not found: missing.gguf"),
        (["--max-words", "0"], "the word guardrail must be at least 1"),
        (["--reason-chars", "5"], "reason_chars must be between 20 and 200"),
    ],
)
def test_bad_options_are_one_line_with_exit_code_2(
    project: Path, opened: Opened, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review-golden", str(project), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("goldenlens: error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert opened.engine.calls == []


def test_a_missing_project_is_bad_input(
    tmp_path: Path, opened: Opened, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review-golden", str(tmp_path / "none.goldenlens")]) == 2
    assert "none.goldenlens does not exist" in capsys.readouterr().err


def test_a_model_file_and_a_server_together_are_refused(project: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["review-golden", str(project), "--judge-model", "m.gguf", "--judge-url", "http://x"])
    assert exit_info.value.code == 2


def test_the_counted_criterion_runs_in_a_subprocess_without_a_model(project: Path) -> None:
    env = dict(os.environ)
    package_root = str(Path(goldenlens.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([package_root, env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-m", "goldenlens", "review-golden", str(project), "--criteria",
         "verbosity_within_guardrail", "--max-words", "30", "-q"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:5] == ["id  1", "g1  P", "g2  P", "g3  F"]
    assert "llama_cpp" not in done.stderr


def test_goldenlens_resume_finishes_an_interrupted_review(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[int] = []

    def interrupted(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> str:
        calls.append(1)
        if len(calls) == 9:  # g3's first criterion
            raise KeyboardInterrupt
        return scripted_reply(messages, schema)

    monkeypatch.setattr(run_driver, "open_judge_engine", Opened(ScriptedEngine(responder=interrupted)))
    assert main(["review-golden", str(project), "-q", "--max-words", "30"]) == 130
    rest = Opened(ScriptedEngine(responder=scripted_reply))
    monkeypatch.setattr(run_driver, "open_judge_engine", rest)
    capsys.readouterr()
    assert main(["resume", str(project), "-q"]) == 0
    err = capsys.readouterr().err
    assert "resuming golden review 1" in err
    assert "golden review 1 finished" in err
    assert len(rest.engine.calls) == 4  # g3 alone
    with ProjectStore.open(project) as store:
        run = store.runs.get(1)
        assert run is not None
        assert (run.status, run.params["max_answer_words"]) == ("finished", 30)  # its own options
    assert main(["resume", str(project), "-q"]) == 0
    assert "no interrupted run to resume" in capsys.readouterr().err

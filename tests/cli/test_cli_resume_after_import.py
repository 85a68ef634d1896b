"""``goldenlens score --project`` killed right after its import committed, then ``goldenlens
resume``: the scoring it asked for runs with the options it was given, and the report is the one
the uninterrupted ``score`` writes (issue 22). Also what an import that recorded nothing (a
project of format 5) and a judge run that never began are told and given."""

from __future__ import annotations

import csv
import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from tests.cli_process import PACKAGE_ROOT, run_goldenlens
from tests.judge.scripted import ScriptedEngine

from goldenlens.cli.main import main
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.runs.run_kinds import JUDGE_RUN, LEXICAL_RUN
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.judging import judge_options
from goldenlens.jobs.judging.judge_options import JudgeOptions
from goldenlens.jobs.scoring.pending import pending_scoring, recorded_scoring
from goldenlens.jobs.scoring.score_rows import ScoreOptions
from goldenlens.store.project import ProjectStore

#: ``goldenlens score`` whose scoring is replaced by a SIGKILL of its own process: it dies at
#: the one point the test is about, right after the import committed and before a run starts.
#: A deterministic kill, where polling the file for the import row and killing then would race
#: the run's start.
_KILLED_AFTER_IMPORT = """
import os, signal, sys
import goldenlens.jobs.importing.import_and_score as workflow
def killed(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
workflow.score_project = killed
from goldenlens.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def _killed_after_import(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_ROOT, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", _KILLED_AFTER_IMPORT, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def _workload(folder: Path, questions: int) -> tuple[Path, Path]:
    """The sample's ten questions repeated to ``questions`` (ids made unique), with its three
    pipelines' responses: a golden set and a long responses file."""
    with (sample_dir() / "golden.csv").open(newline="", encoding="utf-8") as handle:
        golden_rows = list(csv.reader(handle))
    with (sample_dir() / "responses.csv").open(newline="", encoding="utf-8") as handle:
        response_rows = list(csv.reader(handle))
    golden, responses = folder / "golden.csv", folder / "responses.csv"
    with (
        golden.open("w", newline="", encoding="utf-8") as g,
        responses.open("w", newline="", encoding="utf-8") as r,
    ):
        g_out, r_out = csv.writer(g), csv.writer(r)
        g_out.writerow(golden_rows[0])
        r_out.writerow(response_rows[0])
        for n in range(questions):
            item = golden_rows[1 + n % (len(golden_rows) - 1)]
            new_id = f"{item[0]}-{n:05d}"
            g_out.writerow([new_id, *item[1:]])
            r_out.writerows([new_id, *row[1:]] for row in response_rows[1:] if row[0] == item[0])
    return golden, responses


def test_a_score_killed_after_its_import_is_finished_by_resume_with_its_options(tmp_path: Path) -> None:
    golden, responses = _workload(tmp_path, 2_000)  # 6,000 responses
    killed, whole = tmp_path / "killed.goldenlens", tmp_path / "whole.goldenlens"
    options = ["--multiset", "--map", "fact=fact"]  # options the resumed run must keep

    argv = ["score", str(golden), str(responses), "-q", *options]
    done = _killed_after_import(*argv, "--project", str(killed))
    assert done.returncode == -signal.SIGKILL, done.stderr
    with ProjectStore.open(killed) as store:  # the import committed, no run began
        assert [i.response_count for i in store.responses.imports()] == [6_000]
        assert store.runs.all() == []
        pending = pending_scoring(store)
        assert pending is not None
        assert pending.lexical
        assert pending.options == ScoreOptions(multiset=True)

    report = run_goldenlens("report", str(killed), "-o", str(tmp_path / "early.json"))
    assert report.returncode == 2
    assert f"`goldenlens resume {killed}` finishes it" in report.stderr
    assert not (tmp_path / "early.json").exists()

    resumed = run_goldenlens("resume", str(killed), "-q")
    assert resumed.returncode == 0, resumed.stderr
    assert "`score` stopped after import 1; scoring it with the options it was given" in resumed.stderr
    assert run_goldenlens("report", str(killed), "-o", str(tmp_path / "resumed.json")).returncode == 0

    straight = run_goldenlens(*argv, "--project", str(whole))
    assert straight.returncode == 0, straight.stderr
    assert run_goldenlens("report", str(whole), "-o", str(tmp_path / "whole.json")).returncode == 0

    got = json.loads((tmp_path / "resumed.json").read_text(encoding="utf-8"))
    want = json.loads((tmp_path / "whole.json").read_text(encoding="utf-8"))
    assert len(got["rows"]) == 6_000
    assert got["rows"] == want["rows"]
    assert got["summary"] == want["summary"]
    assert got == want  # the whole report: it names no run id, time or project path
    with ProjectStore.open(killed) as store:
        (run,) = store.runs.all()
        assert (run.kind, run.status, run.params["multiset"]) == (LEXICAL_RUN, "finished", True)

    again = run_goldenlens("resume", str(killed), "-q")
    assert (again.returncode, again.stderr.strip()) == (0, "killed.goldenlens: no interrupted run to resume.")


def _as_format_5(project: Path) -> None:
    """Make ``project`` a file of format 5, as the GoldenLens before issue 22 wrote it."""
    conn = sqlite3.connect(project)
    try:
        conn.execute("ALTER TABLE imports DROP COLUMN score_options")
        conn.execute("ALTER TABLE golden_items DROP COLUMN extra")  # format 7's
        conn.execute("PRAGMA user_version = 5")
        conn.commit()
    finally:
        conn.close()


def test_an_old_import_never_scored_is_told_the_command_that_scores_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, responses = _workload(tmp_path, 20)
    project = tmp_path / "old project.goldenlens"
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, golden, responses)  # an import that recorded nothing
    _as_format_5(project)

    assert main(["resume", str(project), "-q"]) == 2
    err = capsys.readouterr().err
    command = shlex.join(["goldenlens", "score", str(golden), str(responses), "--project", str(project)])
    assert "its import 1 was never scored and did not record how" in err
    assert f"`{command}` scores it" in err
    with ProjectStore.open(project) as store:  # upgraded, nothing scored on a guess
        assert store.diagnostics()["user_version"] == 7
        assert store.responses.imports()[0].score_options is None
        assert store.runs.all() == []
    assert main(["report", str(project)]) == 2
    assert f"`{command}` scores it" in capsys.readouterr().err

    # The command printed does finish the job.
    assert main([*shlex.split(command)[1:], "-q"]) == 0
    assert main(["report", str(project), "-o", str(tmp_path / "r.json")]) == 0
    assert len(json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["rows"]) == 60


def test_a_golden_set_imported_alone_waits_for_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, _responses = _workload(tmp_path, 5)
    project = tmp_path / "p.goldenlens"
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, golden)
        assert pending_scoring(store) is None
    assert main(["resume", str(project), "-q"]) == 0
    assert "no interrupted run to resume" in capsys.readouterr().err


class _Opened:
    def __init__(self, engine: ScriptedEngine) -> None:
        self.engine = engine

    @contextmanager
    def __call__(self, spec: JudgeEngineSpec) -> Iterator[ScriptedEngine]:
        yield self.engine


def _left_by_killed_score(project: Path, inputs: tuple[Path, Path], judge: JudgeOptions) -> None:
    """What ``score --metrics ... --project`` killed after its import leaves: the import, with
    the scoring it asked for recorded, and no run."""
    with ProjectStore.open(project, create=True) as store:
        recorded = recorded_scoring(ScoreOptions(), judge.params(), None)
        import_inputs(store, inputs[0], inputs[1], score_options=recorded)


def test_resume_starts_the_judge_run_that_score_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GOLDENLENS_DATA_DIR", str(tmp_path / "data"))
    engine = ScriptedEngine(responder=lambda _messages, _schema: json.dumps({"verdict": 1, "reason": "x"}))
    monkeypatch.setattr(judge_options, "open_judge_engine", _Opened(engine))
    project = tmp_path / "p.goldenlens"
    judge = JudgeOptions(metrics=("context_precision",), engine=JudgeEngineSpec(n_ctx=2048, seed=7))
    _left_by_killed_score(project, _workload(tmp_path, 3), judge)

    assert main(["resume", str(project), "-q"]) == 0
    err = capsys.readouterr().err
    assert "starting the judge run that `score` asked for with import 1 (context_precision)" in err
    assert engine.calls
    with ProjectStore.open(project) as store:
        lexical, judged = store.runs.all()
        assert (lexical.kind, lexical.status) == (LEXICAL_RUN, "finished")
        assert (judged.kind, judged.status, judged.params) == (JUDGE_RUN, "finished", judge.params())
        assert pending_scoring(store) is None


def test_a_judge_run_asked_for_with_a_model_now_gone_names_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = tmp_path / "gone.gguf"
    project = tmp_path / "p.goldenlens"
    golden, responses = _workload(tmp_path, 3)
    judge = JudgeOptions(metrics=("relevancy",), engine=JudgeEngineSpec(judge_model=gone, seed=7))
    _left_by_killed_score(project, (golden, responses), judge)

    assert main(["resume", str(project), "-q"]) == 2
    err = capsys.readouterr().err
    command = shlex.join(
        ["goldenlens", "score", str(golden), str(responses), "--project", str(project),
         "--metrics", "relevancy", "--judge-model", str(gone), "--seed", "7"]
    )  # fmt: skip
    assert (
        f"the judge model of the judge run that `score` asked for with import 1 no longer exists: {gone}; "
        f"put it back, or start it anew with `{command}`"
    ) in err
    with ProjectStore.open(project) as store:  # the lexical run it could do is done
        assert [(run.kind, run.status) for run in store.runs.all()] == [(LEXICAL_RUN, "finished")]


def test_the_options_of_a_newer_import_win_over_an_older_interrupted_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run killed midway, then ``score --multiset`` killed after its import: resume scores the
    new import with --multiset, not with the options of the run it interrupted before."""
    golden, responses = _workload(tmp_path, 4)
    project = tmp_path / "p.goldenlens"
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, golden, responses, score_options=recorded_scoring(ScoreOptions(), None, None))
        store.runs.start(LEXICAL_RUN, ScoreOptions().params(), total=12)  # killed midway
        recorded = recorded_scoring(ScoreOptions(multiset=True), None, None)
        import_inputs(store, golden, responses, score_options=recorded)
    assert main(["resume", str(project), "-q"]) == 0
    assert "`score` stopped after import 2" in capsys.readouterr().err
    with ProjectStore.open(project) as store:
        old, new = store.runs.all()
        assert (old.status, new.status, new.import_id, new.params["multiset"]) == (
            "superseded",
            "finished",
            2,
            True,
        )


def test_a_report_is_refused_while_newer_inputs_wait_for_their_scoring(tmp_path: Path) -> None:
    """A project scored once, then given a new golden set and responses whose ``score`` was
    killed: ``report`` took the older run's scores for the new inputs (every mean 0.000 over 0
    responses, exit 0, and ``--fail-under`` failed on those zeros). It now says that the newest
    inputs wait and what finishes them; ``resume`` does, and the report is the new inputs'."""
    first_golden, first_responses = _workload(tmp_path, 3)
    later = tmp_path / "later"
    later.mkdir()
    golden, responses = _workload(later, 40)
    project = tmp_path / "p.goldenlens"
    assert main(["score", str(first_golden), str(first_responses), "-q", "--project", str(project)]) == 0

    done = _killed_after_import("score", str(golden), str(responses), "-q", "--project", str(project))
    assert done.returncode == -signal.SIGKILL, done.stderr
    report = run_goldenlens("report", str(project), "--fail-under", "factual_knowledge=0.1")
    assert report.returncode == 2
    assert (
        "p.goldenlens: its import 2 was never scored; the last finished run (1) scored earlier "
        f"inputs, so its numbers are not the project's now. `goldenlens resume {project}` finishes it."
    ) in report.stderr
    assert "0.000" not in report.stdout
    assert run_goldenlens("plan-labels", str(project), "--budget", "5", "--json").returncode == 2

    # A scoring of the new inputs begun and killed midway: the same refusal, naming the run.
    with ProjectStore.open(project) as store:
        store.runs.start(LEXICAL_RUN, ScoreOptions().params(), total=120)
    report = run_goldenlens("report", str(project))
    assert report.returncode == 2
    assert "its scoring run 2 did not finish (it was interrupted, or runs now)" in report.stderr

    assert run_goldenlens("resume", str(project), "-q").returncode == 0
    report = run_goldenlens("report", str(project), "-o", str(tmp_path / "r.json"))
    assert report.returncode == 0, report.stderr
    written = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert len(written["rows"]) == 120
    assert {row["question_id"].rsplit("-", 1)[0] for row in written["rows"]} <= {
        f"q{n:02d}" for n in range(1, 11)
    }

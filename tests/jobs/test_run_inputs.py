"""A run never mixes inputs: fingerprints, kill-and-rescore, one writer process at a time.

Every check runs real processes on real project files: a scorer that is SIGKILLed mid-run, a
scorer that holds the project while the CLI tries to score it, a crashed holder.
"""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.runs.fingerprint import inputs_fingerprint
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.judging.judge_job import JudgeOptions, judge_project
from goldenlens.jobs.judging.judge_options import Engines
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.store.lock import ProjectBusyError, lock_path, project_lock
from goldenlens.store.project import ProjectStore

PIPELINES = ("alpha", "beta", "gamma")
QUESTIONS = 400  # x 3 pipelines = 1,200 responses: many batches of 100
BUSY = "project is being scored by another process"

Scores = dict[tuple[str, str, str], tuple[float | None, str, str]]


def _response(i: int, pipeline: int, variant: int) -> str:
    """Three kinds of response, so changed responses really change the numbers."""
    kind = (i + pipeline + variant) % 3
    if kind == 0:
        return f"The value of item {i} is V{i} units, as reported."
    if kind == 1:
        return f"Item {i} has a value of about {i + 7} units."
    return f"I could not find the value of item {i} in the documents."


def write_inputs(folder: Path, *, variant: int = 0, name: str = "responses.csv") -> tuple[Path, Path]:
    """A golden set of QUESTIONS rows and long-layout responses for three pipelines."""
    folder.mkdir(parents=True, exist_ok=True)
    golden = folder / "golden.csv"
    with golden.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "question", "answer", "fact"])
        for i in range(QUESTIONS):
            writer.writerow(
                [
                    f"q{i:04d}",
                    f"What is the value of item {i}?",
                    f"The value of item {i} is V{i} units.",
                    f"V{i}",
                ]
            )
    responses = folder / name
    with responses.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "pipeline", "response"])
        for i in range(QUESTIONS):
            for p, pipeline in enumerate(PIPELINES):
                writer.writerow([f"q{i:04d}", pipeline, _response(i, p, variant)])
    return golden, responses


def run_values(store: ProjectStore, run_id: int) -> Scores:
    return {
        (r.question_id, r.pipeline, r.metric): (r.value, str(r.status), r.reason)
        for r in store.results.scores(run_id)
    }


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "goldenlens", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_fingerprint_follows_the_text_not_the_row_order() -> None:
    items = [GoldenItem("q1", "Q one?", "A one", "one"), GoldenItem("q2", "Q two?", "A two", "two")]
    responses = [PipelineResponse("q1", "p", "one", ("ctx",)), PipelineResponse("q2", "p", "two")]
    base = inputs_fingerprint(items, responses)
    assert inputs_fingerprint(items[::-1], responses[::-1]) == base
    changed = [responses[0], replace(responses[1], response="two!")]
    assert inputs_fingerprint(items, changed) != base
    assert inputs_fingerprint([replace(items[0], fact="one<OR>1"), items[1]], responses) != base
    # The lexical metrics read neither questions nor contexts; the judge metrics read both.
    new_question = [replace(items[0], question="Another?"), items[1]]
    assert inputs_fingerprint(new_question, responses) == base
    assert inputs_fingerprint(new_question, responses, questions=True) != inputs_fingerprint(
        items, responses, questions=True
    )
    other_context = [replace(responses[0], contexts=("other",)), responses[1]]
    assert inputs_fingerprint(items, other_context) == base
    assert inputs_fingerprint(items, other_context, contexts=True) != inputs_fingerprint(
        items, responses, contexts=True
    )
    # Field boundaries cannot be forged by moving text between fields.
    a = [PipelineResponse("q1", "p", "x y")]
    b = [PipelineResponse("q1", "p x", "y")]
    assert inputs_fingerprint(items, a) != inputs_fingerprint(items, b)


KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from goldenlens.jobs.scoring.score_job import score_project
    from goldenlens.store.project import ProjectStore

    def die_mid_run(progress):
        if progress.done >= 300:
            os.kill(os.getpid(), signal.SIGKILL)

    with ProjectStore.open(Path(sys.argv[1])) as store:
        score_project(store, progress=die_mid_run, batch_size=100)
    """
)


def _killed_mid_run(project: Path, golden: Path, responses: Path) -> tuple[int, Scores]:
    """Import, then score in a subprocess that SIGKILLs itself after 300 of 1,200 rows."""
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, golden, responses)
    proc = subprocess.run(
        [sys.executable, "-c", KILLER, str(project)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    with ProjectStore.open(project) as store:
        [killed] = store.runs.unfinished("lexical")
        assert len(store.results.scored_keys(killed.id)) == 300
        return killed.id, run_values(store, killed.id)


def _clean_values(tmp_path: Path, golden: Path, responses: Path) -> tuple[Scores, list[tuple[str, str, str]]]:
    clean_project = tmp_path / "clean.goldenlens"
    clean = cli("score", golden, responses, "--project", clean_project, "-q", "-o", tmp_path / "clean.json")
    assert clean.returncode == 0, clean.stderr
    with ProjectStore.open(clean_project) as store:
        clean_run = store.runs.latest("lexical", finished_only=True)
        assert clean_run is not None
        return run_values(store, clean_run.id), sorted(store.results.flags(clean_run.id))


def test_killed_run_then_changed_responses_equals_a_clean_run_of_the_new_inputs(tmp_path: Path) -> None:
    golden, old_responses = write_inputs(tmp_path / "in")
    _, new_responses = write_inputs(tmp_path / "in", variant=1, name="responses_new.csv")
    project = tmp_path / "killed.goldenlens"
    killed_id, old_values = _killed_mid_run(project, golden, old_responses)

    # Score again with changed responses: the CLI re-imports them into the same project.
    done = cli("score", golden, new_responses, "--project", project, "-q", "-o", tmp_path / "again.json")
    assert done.returncode == 0, done.stderr
    want, want_flags = _clean_values(tmp_path, golden, new_responses)
    with ProjectStore.open(project) as store:
        rescored = store.runs.latest("lexical", finished_only=True)
        assert rescored is not None
        assert rescored.id != killed_id
        assert len(store.results.scored_keys(rescored.id)) == QUESTIONS * len(PIPELINES)
        got, got_flags = run_values(store, rescored.id), sorted(store.results.flags(rescored.id))
        killed = store.runs.get(killed_id)
        assert killed is not None
        assert not killed.is_finished
    assert len(want) == QUESTIONS * len(PIPELINES) * 7
    assert got == want
    assert got_flags == want_flags
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == (tmp_path / "clean.json").read_text(
        encoding="utf-8"
    )
    # The test can fail: the killed run's old scores differ from the new ones for many keys
    # it had already scored, so keeping any of them would show above.
    differing = [key for key, value in old_values.items() if want[key] != value]
    assert len(differing) > 100


def test_resume_after_a_kill_and_changed_responses_scores_the_new_inputs(tmp_path: Path) -> None:
    golden, old_responses = write_inputs(tmp_path / "in")
    _, new_responses = write_inputs(tmp_path / "in", variant=1, name="responses_new.csv")
    project = tmp_path / "killed.goldenlens"
    killed_id, _old = _killed_mid_run(project, golden, old_responses)
    with ProjectStore.open(project) as store:
        import_inputs(store, golden, new_responses)  # the analyst re-imports, then resumes
    resumed = cli("resume", project, "-q")
    assert resumed.returncode == 0, resumed.stderr
    assert f"the inputs changed since run {killed_id} was interrupted" in resumed.stderr
    want, want_flags = _clean_values(tmp_path, golden, new_responses)
    with ProjectStore.open(project) as store:
        run = store.runs.latest("lexical", finished_only=True)
        assert run is not None
        assert run.id != killed_id
        assert run_values(store, run.id) == want
        assert sorted(store.results.flags(run.id)) == want_flags


def test_same_inputs_resume_the_run_and_an_edited_fact_starts_a_new_one(tmp_path: Path) -> None:
    golden, responses = write_inputs(tmp_path / "in")
    token = CancelToken()

    def cancel_early(progress: Progress) -> None:
        if progress.done >= 200:
            token.cancel()

    with ProjectStore.open(tmp_path / "p.goldenlens", create=True) as store:
        import_inputs(store, golden, responses)
        with pytest.raises(Cancelled):
            score_project(store, progress=cancel_early, cancel=token, batch_size=100)
        [cancelled] = store.runs.unfinished("lexical")
        assert cancelled.inputs_sha256
        # Same inputs: the run is resumed.
        token = CancelToken()
        with pytest.raises(Cancelled):
            score_project(store, progress=cancel_early, cancel=token, batch_size=100)
        assert [r.id for r in store.runs.unfinished("lexical")] == [cancelled.id]
        # An edited fact: a new run, which scores everything.
        item = store.golden.item("q0000")
        assert item is not None
        store.golden.update(replace(item, fact="V0<OR>zero"), reviewer="test")
        fresh = score_project(store, batch_size=100)
        assert fresh != cancelled.id
        assert len(store.results.scored_keys(fresh)) == QUESTIONS * len(PIPELINES)
        stale = store.runs.get(cancelled.id)
        assert stale is not None
        # Its inputs are gone: it is marked superseded and never offered for resuming again.
        assert (stale.is_finished, stale.status) == (False, "superseded")
        assert store.runs.unfinished("lexical") == []
        assert score_project(store, batch_size=100) != fresh  # a finished run is not resumed either
        assert store.runs.unfinished("lexical") == []


def test_a_judge_run_is_resumed_only_on_identical_inputs(tmp_path: Path) -> None:
    golden, responses = write_inputs(tmp_path / "in")
    # No engines: every row is saved as not scored, which is all the run bookkeeping needs.
    options = JudgeOptions(metrics=("relevancy",))
    token = CancelToken()

    def cancel_early(progress: Progress) -> None:
        if progress.done >= 5:
            token.cancel()

    with ProjectStore.open(tmp_path / "p.goldenlens", create=True) as store:
        import_inputs(store, golden, responses)
        with pytest.raises(Cancelled):
            judge_project(store, options, engines=Engines(), progress=cancel_early, cancel=token)
        [cancelled] = store.runs.unfinished("judge")
        assert cancelled.inputs_sha256
        # A context changed (the judge reads contexts): a new run.
        changed = [
            replace(r, contexts=("new context",)) if r.question_id == "q0000" else r
            for r in store.responses.all()
        ]
        store.responses.replace(changed, list(PIPELINES))
        fresh = judge_project(store, options, engines=Engines())
        assert fresh != cancelled.id
        assert len(store.results.scored_keys(fresh)) == QUESTIONS * len(PIPELINES)


# -- one writer process at a time ---------------------------------------------------------------

HOLDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from goldenlens.jobs.scoring.score_job import score_project
    from goldenlens.store.project import ProjectStore

    project, ready, release = map(Path, sys.argv[1:4])

    def hold(progress):
        if progress.done > 0 and not ready.exists():
            ready.write_text("scoring")
            while not release.exists():
                time.sleep(0.05)

    with ProjectStore.open(project) as store:
        score_project(store, progress=hold, batch_size=100)
    """
)


def _start_holder(tmp_path: Path, project: Path) -> tuple[subprocess.Popen[str], Path]:
    ready, release = tmp_path / "ready", tmp_path / "release"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(project), str(ready), str(release)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not ready.exists():
        assert holder.poll() is None, holder.communicate()
        assert time.monotonic() < deadline, "the holder never started scoring"
        time.sleep(0.05)
    return holder, release


def test_a_second_process_is_refused_while_a_project_is_scored(tmp_path: Path) -> None:
    golden, responses = write_inputs(tmp_path / "in")
    project = tmp_path / "shared.goldenlens"
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, golden, responses)
    holder, release = _start_holder(tmp_path, project)
    try:
        for args in (("score", golden, responses, "--project", project, "-q"), ("resume", project, "-q")):
            second = cli(*args)
            assert second.returncode == 2, second.stderr
            assert second.stderr.strip().splitlines() == [f"goldenlens: error: {project}: {BUSY}"]
        judge = subprocess.run(
            [
                sys.executable,
                "-c",
                textwrap.dedent(
                    f"""
                    from pathlib import Path
                    from goldenlens.jobs.judging.judge_job import JudgeOptions, judge_project
                    from goldenlens.jobs.judging.judge_options import Engines
                    from goldenlens.store.lock import ProjectBusyError
                    from goldenlens.store.project import ProjectStore
                    with ProjectStore.open(Path({str(project)!r})) as store:
                        try:
                            judge_project(store, JudgeOptions(metrics=("relevancy",)), engines=Engines())
                        except ProjectBusyError as error:
                            print("refused:", error)
                    """
                ),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert judge.returncode == 0, judge.stderr
        assert judge.stdout.strip() == f"refused: {project}: {BUSY}"
        with ProjectStore.open(project) as store:
            assert len(store.runs.unfinished("lexical")) == 1  # nobody started or joined a run
            assert store.runs.unfinished("judge") == []
            assert len(store.responses.imports()) == 1  # the refused `score` did not re-import either
    finally:
        release.write_text("go")
        _out, err = holder.communicate(timeout=120)
    assert holder.returncode == 0, err
    with ProjectStore.open(project) as store:
        [run] = list(store.runs.unfinished("lexical")) or [store.runs.latest("lexical")]
        assert run is not None
        assert run.is_finished
        assert len(store.results.scored_keys(run.id)) == QUESTIONS * len(PIPELINES)
    assert not lock_path(project).exists()
    # Once the holder is done, the second process scores normally.
    after = cli("score", golden, responses, "--project", project, "-q")
    assert after.returncode == 0, after.stderr


def test_a_crashed_holder_leaves_no_lock_behind(tmp_path: Path) -> None:
    golden, responses = write_inputs(tmp_path / "in")
    project = tmp_path / "crashed.goldenlens"
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, golden, responses)
    holder, _release = _start_holder(tmp_path, project)
    os.kill(holder.pid, signal.SIGKILL)
    holder.communicate(timeout=60)
    assert holder.returncode == -signal.SIGKILL
    after = cli("resume", project, "-q")
    assert after.returncode == 0, after.stderr
    with ProjectStore.open(project) as store:
        run = store.runs.latest("lexical")
        assert run is not None
        assert run.is_finished
        assert len(store.results.scored_keys(run.id)) == QUESTIONS * len(PIPELINES)


def test_another_thread_waits_for_the_lock_and_the_holder_thread_reenters(tmp_path: Path) -> None:
    project = tmp_path / "p.goldenlens"
    order: list[str] = []
    with project_lock(project):
        with project_lock(project):  # the CLI nests import and scoring in one hold
            order.append("nested")
        thread = threading.Thread(target=lambda: _take(project, order))
        thread.start()
        time.sleep(0.3)
        order.append("released")
    thread.join(10)
    assert order == ["nested", "released", "taken"]
    assert not lock_path(project).exists()


def _take(project: Path, order: list[str]) -> None:
    with project_lock(project):
        order.append("taken")


def test_a_waiting_job_can_be_cancelled(tmp_path: Path) -> None:
    project = tmp_path / "p.goldenlens"
    token = CancelToken()
    caught: list[BaseException] = []

    def wait() -> None:
        try:
            with project_lock(project, while_waiting=token.raise_if_cancelled):
                pass
        except Cancelled as error:
            caught.append(error)

    with project_lock(project):
        thread = threading.Thread(target=wait)
        thread.start()
        token.cancel()
        thread.join(10)
    assert len(caught) == 1


def test_a_lock_held_by_another_process_is_refused_in_process(tmp_path: Path) -> None:
    project = tmp_path / "p.goldenlens"
    script = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from goldenlens.store.lock import project_lock
        with project_lock(Path({str(project)!r})):
            print("held", flush=True)
            sys.stdin.readline()
        """
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ProjectBusyError, match=BUSY), project_lock(project):
            pass
    finally:
        holder.communicate("\n", timeout=30)
    with project_lock(project):
        pass

"""The import and score jobs on a real project file: numbers, commits, cancel and resume."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, PRECISION, RECALL
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress
from goldenlens.jobs.reporting.stored_run import build_report
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.jobs.scoring.score_rows import ScoreOptions
from goldenlens.store.project import ProjectStore
from sample_expectations import FK_REPORT


def _imported(path: Path) -> ProjectStore:
    store = ProjectStore.open(path, create=True)
    import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
    return store


def test_scoring_the_sample_reproduces_the_factual_knowledge_report(tmp_path: Path) -> None:
    with _imported(tmp_path / "p.goldenlens") as store:
        run_id = score_project(store)
        matrix = store.results.score_matrix(run_id, FACTUAL_KNOWLEDGE)
        report = build_report(store)
    got = {
        qid: tuple(int(matrix[(qid, p)] or 0) for p in ("Pipeline1", "Pipeline2", "Pipeline3"))
        for qid in FK_REPORT
    }
    assert got == FK_REPORT
    q10 = report.row("q10", "Pipeline1")
    assert q10 is not None
    assert round(q10.scores[PRECISION], 3) == 0.238
    assert round(q10.scores[F1_SCORE], 3) == 0.364
    assert q10.explained.alignment is not None
    assert [f.value for f in q10.flags] == ["verbose"]
    assert "ambiguous_question" in [f.value for f in report.golden_flags["q03"]]


def test_progress_is_reported_and_reaches_the_total(tmp_path: Path) -> None:
    seen: list[Progress] = []
    with _imported(tmp_path / "p.goldenlens") as store:
        score_project(store, progress=seen.append, batch_size=7)
    assert seen[-1].done == seen[-1].total == 30
    assert [p.done for p in seen] == sorted(p.done for p in seen)


def test_cancel_keeps_finished_batches_and_resume_completes_them(tmp_path: Path) -> None:
    token = CancelToken()

    def cancel_after_first_batch(progress: Progress) -> None:
        if progress.done >= 10:
            token.cancel()

    with _imported(tmp_path / "p.goldenlens") as store:
        with pytest.raises(Cancelled):
            score_project(store, progress=cancel_after_first_batch, cancel=token, batch_size=10)
        [run] = store.runs.unfinished("lexical")
        assert run.status == "cancelled"
        assert len(store.results.scored_keys(run.id)) == 10
        resumed = score_project(store, batch_size=10)
        assert resumed == run.id
        assert len(store.results.scored_keys(run.id)) == 30


def test_killed_run_keeps_committed_rows_and_resume_equals_uninterrupted(tmp_path: Path) -> None:
    project = tmp_path / "killed.goldenlens"
    _imported(project).close()
    script = textwrap.dedent(
        f"""
        import os, signal
        from pathlib import Path
        from goldenlens.jobs.scoring.score_job import score_project
        from goldenlens.store.project import ProjectStore

        def die_after_two_batches(progress):
            if progress.done >= 8:
                os.kill(os.getpid(), signal.SIGKILL)

        with ProjectStore.open(Path({str(project)!r})) as store:
            score_project(store, progress=die_after_two_batches, batch_size=4)
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert proc.returncode == -9, proc.stderr
    with ProjectStore.open(project) as store:
        [run] = store.runs.unfinished("lexical")
        assert len(store.results.scored_keys(run.id)) == 8
        assert score_project(store) == run.id
        resumed = {(r.question_id, r.pipeline, r.metric): r.value for r in store.results.scores(run.id)}
        resumed_flags = sorted(store.results.flags(run.id))
    with _imported(tmp_path / "clean.goldenlens") as store:
        clean_run = score_project(store)
        clean = {(r.question_id, r.pipeline, r.metric): r.value for r in store.results.scores(clean_run)}
        clean_flags = sorted(store.results.flags(clean_run))
    assert resumed == clean
    assert resumed_flags == clean_flags


def test_multiset_option_is_a_separate_run_with_its_own_signature(tmp_path: Path) -> None:
    with _imported(tmp_path / "p.goldenlens") as store:
        set_run = score_project(store)
        multiset_run = score_project(store, ScoreOptions(multiset=True))
        assert set_run != multiset_run
        report = build_report(store, multiset_run)
    assert "counting=multiset" in report.signatures[RECALL].short()
    row = report.row("q10", "Pipeline3")
    assert row is not None
    assert row.explained.alignment is not None
    assert row.explained.alignment.counts() == {"tp": 11, "fp": 7, "fn": 3}


def test_bad_inputs_leave_an_existing_project_untouched(tmp_path: Path) -> None:
    from tests.badinputs import make_bad_inputs

    from goldenlens.core.problems import InputError

    project = tmp_path / "existing.goldenlens"
    with _imported(project) as store:
        score_project(store)
    before = project.read_bytes()
    cases = [case for case in make_bad_inputs(tmp_path / "bad") if case.expect_fatal]
    assert len(cases) >= 15
    for case in cases:
        with ProjectStore.open(project) as store:
            with pytest.raises(InputError) as caught:
                import_inputs(store, case.golden_path, case.responses_path, selection=case.selection())
            for fragment in case.message_fragments:
                assert fragment.lower() in str(caught.value).lower(), (case.name, str(caught.value))
            assert len(store.golden.items()) == 10
            assert len(store.responses.all()) == 30
    # WAL checkpoints may rewrite pages, so compare content rather than bytes when they differ.
    if project.read_bytes() != before:
        with ProjectStore.open(project) as store:
            assert [i.id for i in store.golden.items()] == [f"q{n:02d}" for n in range(1, 11)]
            assert store.runs.latest("lexical", finished_only=True) is not None
    assert project.exists()

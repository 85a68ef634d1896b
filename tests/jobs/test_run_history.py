"""jobs.run_history on real project files scored by the real jobs: the run list (fingerprint,
golden version), run references, the comparison of two runs against independent FMEval values,
what only one run holds, the trend, and runs of a project made by an older GoldenLens."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from tests.run_projects import (
    CHANGED_RESPONSES,
    changed_responses,
    reference_scores,
    score_with,
    two_run_project,
)

from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE
from goldenlens.core.runs.run_comparison import IMPROVED, REGRESSED, UNCHANGED, classify
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.reporting.run_history import (
    UNKNOWN,
    RunReferenceError,
    compare_project_runs,
    list_runs,
    resolve_run,
    run_trend,
)
from goldenlens.store.project import ProjectStore

FIXTURES = Path(__file__).parents[1] / "store" / "fixtures"


def _sha(rows: list[list[str]]) -> str:
    """The documented fingerprint encoding, written out here: sorted JSON lines per golden item
    (id, answer, fact) and response (question id, pipeline, response)."""
    digest = hashlib.sha256(b"goldenlens-inputs-1")
    golden, responses = rows[0], rows[1]
    digest.update(f"\ngolden {len(golden)}\n".encode())
    for line in sorted(golden):
        digest.update(json.dumps(line, ensure_ascii=False).encode() + b"\n")
    digest.update(f"responses {len(responses)}\n".encode())
    for line in sorted(responses):
        digest.update(json.dumps(line, ensure_ascii=False).encode() + b"\n")
    return digest.hexdigest()


def _csv_fingerprint(responses: Path) -> str:
    import csv

    with (sample_dir() / "golden.csv").open(encoding="utf-8", newline="") as file:
        golden = [[r["id"], r["answer"], r["fact"]] for r in csv.DictReader(file)]
    with responses.open(encoding="utf-8", newline="") as file:
        answers = [[r["question_id"], r["pipeline"], r["response"]] for r in csv.DictReader(file)]
    return _sha([golden, answers])


def test_runs_are_listed_with_options_fingerprint_and_golden_version(tmp_path: Path) -> None:
    path = two_run_project(tmp_path)
    with ProjectStore.open(path) as store:
        runs = list_runs(store)
    assert [(r.id, r.kind, r.status, r.rows) for r in runs] == [
        (1, "lexical", "finished", 30),
        (2, "lexical", "finished", 30),
    ]
    assert runs[0].fingerprint == _csv_fingerprint(sample_dir() / "responses.csv")
    assert runs[1].fingerprint == _csv_fingerprint(tmp_path / "responses-run2.csv")
    assert runs[0].fingerprint_short == runs[0].fingerprint[:12]  # type: ignore[index]
    assert [r.golden_version for r in runs] == ["v1", "v1"]  # the same golden set both times
    assert runs[0].options["multiset"] is False
    assert "thresholds" in runs[0].options
    assert runs[0].options_summary.startswith("multiset=False, thresholds: ")


def test_latest_previous_and_ids_resolve_and_bad_references_say_why(tmp_path: Path) -> None:
    path = two_run_project(tmp_path)
    with ProjectStore.open(path) as store:
        assert resolve_run(store, "latest").id == 2
        assert resolve_run(store, "previous").id == 1
        assert resolve_run(store, " 1 ").id == 1
        with pytest.raises(RunReferenceError, match=r"there is no run 7 \(runs are 1, 2\)"):
            resolve_run(store, "7")
        with pytest.raises(RunReferenceError, match="'newest' is not a run"):
            resolve_run(store, "newest")
    single = tmp_path / "single.goldenlens"
    score_with(single, sample_dir() / "responses.csv")
    with (
        ProjectStore.open(single) as store,
        pytest.raises(RunReferenceError, match="only one finished lexical run"),
    ):
        resolve_run(store, "previous")


def test_two_runs_compared_cell_by_cell_against_independent_fmeval_values(tmp_path: Path) -> None:
    path = two_run_project(tmp_path)
    before, after = reference_scores(), reference_scores(CHANGED_RESPONSES)
    with ProjectStore.open(path) as store:
        compared = compare_project_runs(store)  # previous -> latest
    comparison = compared.comparison
    assert (compared.base.id, compared.head.id) == (1, 2)
    assert len(comparison.cells) == len(before) == 10 * 3 * 7
    for cell in comparison.cells:
        key = (cell.question_id, cell.pipeline, cell.metric)
        assert cell.before == pytest.approx(before[key]), key
        assert cell.after == pytest.approx(after[key]), key
        assert cell.change == classify(before[key], after[key]), key
    # The changed responses, in words: q01/Pipeline2 up, q02/Pipeline1 and q04/Pipeline3 down.
    assert comparison.cell("q01", "Pipeline2", F1_SCORE).change == IMPROVED  # type: ignore[union-attr]
    assert comparison.cell("q02", "Pipeline1", FACTUAL_KNOWLEDGE).change == REGRESSED  # type: ignore[union-attr]
    assert comparison.cell("q04", "Pipeline3", FACTUAL_KNOWLEDGE).change == REGRESSED  # type: ignore[union-attr]
    assert comparison.cell("q03", "Pipeline3", F1_SCORE).change == UNCHANGED  # type: ignore[union-attr]
    p1_fk = comparison.metric_change("Pipeline1", FACTUAL_KNOWLEDGE)
    assert p1_fk is not None
    assert (p1_fk.improved, p1_fk.regressed, p1_fk.unchanged) == (0, 1, 9)
    questions = sorted({k[0] for k in before})
    mean = lambda scores: sum(scores[(q, "Pipeline1", FACTUAL_KNOWLEDGE)] for q in questions) / 10  # noqa: E731
    assert p1_fk.mean_before == pytest.approx(mean(before))
    assert p1_fk.mean_after == pytest.approx(mean(after))
    assert p1_fk.mean_change == pytest.approx(-0.1)
    assert comparison.pipelines == ("Pipeline1", "Pipeline2", "Pipeline3")
    assert comparison.questions[:3] == ("q01", "q02", "q03")
    assert compared.notes == ()  # same golden version, same options, different inputs


def test_questions_and_pipelines_only_in_one_run(tmp_path: Path) -> None:
    path = tmp_path / "p.goldenlens"
    score_with(path, sample_dir() / "responses.csv")
    dropped = {(f"q{i:02d}", "Pipeline3") for i in range(1, 11)} | {
        ("q10", p) for p in ("Pipeline1", "Pipeline2")
    }
    score_with(path, changed_responses(tmp_path / "fewer.csv", {}, drop=dropped))
    with ProjectStore.open(path) as store:
        compared = compare_project_runs(store, "1", "2")
    comparison = compared.comparison
    assert comparison.only_in_base.pipelines == ("Pipeline3",)
    assert comparison.only_in_base.questions == ("q10",)
    assert comparison.only_in_head.pipelines == ()
    assert comparison.only_in_head.questions == ()
    assert comparison.pipelines == ("Pipeline1", "Pipeline2")
    assert len(comparison.cells) == 9 * 2 * 7
    assert comparison.counts() == {"improved": 0, "regressed": 0, "unchanged": 9 * 2 * 7, "not_scored": 0}


def test_runs_of_another_kind_are_refused(tmp_path: Path) -> None:
    """The format-1 fixture holds a lexical run 1 and a judge run 2 (made by the old code)."""
    path = tmp_path / "old.goldenlens"
    shutil.copyfile(FIXTURES / "format1.goldenlens", path)
    with (
        ProjectStore.open(path) as store,
        pytest.raises(RunReferenceError, match="run 1 is a lexical run and run 2 a judge run"),
    ):
        compare_project_runs(store, "1", "2")


def test_runs_of_an_old_project_show_what_was_not_recorded_as_unknown(tmp_path: Path) -> None:
    """Format-1 runs recorded neither fingerprint nor golden version; format-3 runs record the
    fingerprint but not the version. The file is upgraded on open; nothing is guessed."""
    for version, fingerprint in (
        (1, None),
        (3, "714150c392f46ffe14ae89a168444fe98f4777e524a3f4e37f3d82a6d5973bdc"),
    ):
        path = tmp_path / f"format{version}.goldenlens"
        shutil.copyfile(FIXTURES / f"format{version}.goldenlens", path)
        with ProjectStore.open(path) as store:
            runs = list_runs(store)
        assert [(r.id, r.kind) for r in runs] == [(1, "lexical"), (2, "judge")]
        assert runs[0].fingerprint == fingerprint
        assert runs[0].fingerprint_short == (UNKNOWN if fingerprint is None else fingerprint[:12])
        assert runs[1].fingerprint is None
        assert runs[1].fingerprint_short == UNKNOWN
        assert [r.golden_version for r in runs] == [UNKNOWN, UNKNOWN]
        assert all(r.golden_version_number is None for r in runs)


def test_different_golden_versions_are_noted(tmp_path: Path) -> None:
    path = two_run_project(tmp_path)
    with ProjectStore.open(path) as store:
        item = store.golden.item("q03")
        assert item is not None
        from dataclasses import replace

        store.golden.update(replace(item, fact=item.fact + "<OR>410 Terry Ave. N."), reviewer="ana")
    from goldenlens.jobs.scoring.score_job import score_project

    with ProjectStore.open(path) as store:
        score_project(store)
        compared = compare_project_runs(store)
    assert (compared.base.golden_version, compared.head.golden_version) == ("v1", "v2")
    assert any("different golden-set versions (v1 and v2)" in note for note in compared.notes)


def test_the_trend_has_each_runs_mean_per_pipeline_and_metric(tmp_path: Path) -> None:
    path = two_run_project(tmp_path)
    before, after = reference_scores(), reference_scores(CHANGED_RESPONSES)
    with ProjectStore.open(path) as store:
        trend = run_trend(store)
    assert [run.id for run in trend.runs] == [1, 2]
    assert trend.pipelines == ("Pipeline1", "Pipeline2", "Pipeline3")
    assert len(trend.metrics) == 7
    for (pipeline, metric), means in trend.means.items():
        expected = [
            sum(v for k, v in scores.items() if k[1] == pipeline and k[2] == metric) / 10
            for scores in (before, after)
        ]
        assert means == pytest.approx(expected), (pipeline, metric)

"""``goldenlens score --metrics ...`` and ``goldenlens resume`` with judge runs."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from goldenlens.cli.main import main
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.judging.judge_job import JUDGE_RUN, JudgeOptions
from goldenlens.judge.registry import build_metrics
from goldenlens.store.project import ProjectStore


def _subset(folder: Path, questions: tuple[str, ...] = ("q01", "q02")) -> tuple[Path, Path]:
    paths = []
    for name in ("golden.csv", "responses.csv"):
        with (sample_dir() / name).open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        path = folder / name
        with path.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([rows[0], *(r for r in rows[1:] if r[0] in questions)])
        paths.append(path)
    return paths[0], paths[1]


def test_score_with_judge_metrics_writes_judge_values_to_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("llama_cpp", reason="judge metrics need the [judge] extra")
    monkeypatch.setenv("GOLDENLENS_DATA_DIR", str(tmp_path / "data"))
    golden, responses = _subset(tmp_path)
    out = tmp_path / "out.json"
    argv = [
        "score", str(golden), str(responses), "-q", "-o", str(out),
        "--metrics", "context_relevance,semantic_similarity", "--threads", "1", "--n-ctx", "2048",
    ]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len(data["rows"]) == 6
    for row in data["rows"]:
        assert "f1_score" in row
        assert "flags" in row
        assert set(row["judge"]) == {"context_relevance", "semantic_similarity"}
        for metric, value in row["judge"].items():
            status = row["judge_status"][metric]
            assert (value is None) == (status == "not_scored")
            if value is None:
                assert row["judge_reasons"][metric]
    assert "judge_sha256" in data["judge_signatures"]["context_relevance"]
    assert "embedding_sha256" in data["judge_signatures"]["semantic_similarity"]


def test_csv_report_gets_judge_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("llama_cpp", reason="judge metrics need the [judge] extra")
    monkeypatch.setenv("GOLDENLENS_DATA_DIR", str(tmp_path / "data"))
    golden, responses = _subset(tmp_path, ("q01",))
    out = tmp_path / "out.csv"
    assert main(["score", str(golden), str(responses), "-q", "-o", str(out), "--metrics", "embedding"]) == 0
    with out.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3
    assert {"semantic_similarity", "semantic_similarity_reason", "bertscore", "f1_score"} <= set(rows[0])
    assert all(0.0 < float(row["bertscore"]) <= 1.0 for row in rows)


def test_unknown_metric_is_bad_input_listing_the_valid_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, responses = _subset(tmp_path)
    assert main(["score", str(golden), str(responses), "--metrics", "relevancy,nonsense"]) == 2
    err = capsys.readouterr().err
    assert "unknown metric 'nonsense'" in err
    assert "faithfulness" in err
    assert "all" in err


def test_bad_metric_parameter_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden, responses = _subset(tmp_path)
    argv = ["score", str(golden), str(responses), "--metrics", "relevancy", "--param", "relevancy.n=3"]
    assert main(argv) == 2
    assert "takes no parameter n" in capsys.readouterr().err


def test_registry_groups_params_and_errors() -> None:
    names = [m.name for m in build_metrics(["embedding"])]
    assert names == ["semantic_similarity", "bertscore"]
    judge = [m.name for m in build_metrics(["judge"])]
    assert "faithfulness" in judge
    assert not any(n.startswith("aspect_") for n in judge)
    (metric,) = build_metrics(["answer_relevancy"], {"answer_relevancy": {"n": 2}})
    assert metric.params() == {"n": 2}
    custom = build_metrics(["aspects"], {}, {"Politeness": "Is the response polite?"})
    assert "aspect_politeness" in [m.name for m in custom]
    with pytest.raises(ValueError, match=r"choose from: .*bertscore"):
        build_metrics(["bogus"])
    with pytest.raises(ValueError, match="not selected"):
        build_metrics(["relevancy"], {"faithfulness": {}})
    with pytest.raises(ValueError, match="strictness"):
        build_metrics(["aspect_coherence"], {"aspect_coherence": {"strictness": 2}})


def test_resume_with_a_missing_judge_model_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, responses = _subset(tmp_path)
    project = tmp_path / "p.goldenlens"
    gone = tmp_path / "gone.gguf"
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, golden, responses)
        options = JudgeOptions(metrics=("relevancy",), engine=JudgeEngineSpec(judge_model=gone))
        store.runs.start(JUDGE_RUN, options.params(), total=6)
    assert main(["resume", str(project), "-q"]) == 2
    err = capsys.readouterr().err
    assert "no longer exists" in err
    assert str(gone) in err


def test_resume_of_a_run_with_a_setting_now_out_of_range_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, responses = _subset(tmp_path)
    project = tmp_path / "p.goldenlens"
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, golden, responses)
        params = {**JudgeOptions(metrics=("relevancy",)).params(), "temperature": 3.0}  # once accepted
        run_id = store.runs.start(JUDGE_RUN, params, total=6)
    assert main(["resume", str(project), "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert (
        f"the interrupted judge run {run_id} cannot be resumed: the temperature must be between 0 and 2"
        in err[0]
    )
    assert "start a new run with `goldenlens score ... --metrics`" in err[0]


def test_quiet_judge_run_keeps_llama_logs_off_stderr_and_summarises_judge_means(tmp_path: Path) -> None:
    # A real subprocess, so the C library's own stderr writes are caught too. Before the fix
    # llama.cpp printed "llama_init_from_model: model default pooling_type is [1], but [0]
    # was specified" while loading the embedding model, even under -q.
    pytest.importorskip("llama_cpp", reason="judge metrics need the [judge] extra")
    golden, responses = _subset(tmp_path, ("q01",))
    out = tmp_path / "out.json"
    argv = [
        sys.executable, "-m", "goldenlens", "score", str(golden), str(responses), "-q", "-o", str(out),
        "--metrics", "context_relevance,semantic_similarity", "--threads", "1", "--n-ctx", "2048",
    ]  # fmt: skip
    env = {**os.environ, "GOLDENLENS_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "llama" not in done.stderr
    assert done.stderr.strip().splitlines() == [f"Wrote 3 scored responses to {out}"]
    data = json.loads(out.read_text(encoding="utf-8"))
    # The judge means per pipeline, computed here from the rows the report holds.
    for pipeline in ("Pipeline1", "Pipeline2", "Pipeline3"):
        for metric in ("context_relevance", "semantic_similarity"):
            values = [
                r["judge"][metric]
                for r in data["rows"]
                if r["pipeline"] == pipeline and r["judge"][metric] is not None
            ]
            expected = sum(values) / len(values) if values else None
            assert data["judge_summary"][pipeline][metric] == pytest.approx(expected)
    assert data["judge_models"]["judge_model"] == ["SmolLM2-135M-Instruct.Q4_1.gguf"]
    assert data["judge_models"]["embedding_model"]
    assert "not measurements" in data["judge_caveat"]


def test_only_and_where_reach_the_judge_options() -> None:
    from goldenlens.cli.judge_options import judge_options
    from goldenlens.cli.main import build_parser

    argv = ["score", "g.csv", "r.csv", "--metrics", "relevancy", "--only", "q1, q2", "--where", "f1 < 0.5"]
    options = judge_options(build_parser().parse_args(argv))
    assert options is not None
    assert (options.only, options.where) == (("q1", "q2"), "f1 < 0.5")


def test_printed_judge_summary_names_the_model_caveat_and_agreement() -> None:
    from goldenlens.cli.output import format_judge_summary
    from goldenlens.core.inputs import GoldenItem, PipelineResponse
    from goldenlens.core.lexical.scorer import score_response
    from goldenlens.core.lexical.signature import Signature
    from goldenlens.core.reviewer_decisions import AppliedOverride, QuestionReview
    from goldenlens.core.scored_rows import Report, ScoredRow
    from goldenlens.core.scores import ScoreRecord

    signature = Signature("faithfulness", "2", {"judge_model": "judge-7b.gguf"}).to_json()
    rows = []
    judge = {}
    for qid, value in (("q1", 0.9), ("q2", 0.5)):
        item = GoldenItem(qid, "?", "a", "a")
        overrides = {}
        if qid == "q1":  # the reviewer disagreed: 0.9 (pass) became 0.0 (fail)
            overrides["faithfulness"] = AppliedOverride(
                "faithfulness", 0.0, 0.9, None, "ana", "", "2026-12-01T10:00"
            )
        rows.append(
            ScoredRow(
                item, PipelineResponse(qid, "P", "a"), score_response("a", "a", "a"), overrides=overrides
            )
        )
        judge[(qid, "P")] = {"faithfulness": ScoreRecord(qid, "P", "faithfulness", value, signature)}
    report = Report(
        golden=tuple(r.item for r in rows),
        pipelines=("P",),
        rows=tuple(rows),
        reviews={"q2": QuestionReview(status="accepted")},
    )
    text = format_judge_summary(report, judge)
    assert "0.700" in text  # mean of the stored 0.9 and 0.5
    assert "Judge model: judge-7b.gguf" in text
    assert "not measurements" in text
    # q1 overridden (pass -> fail), q2 accepted (pass = pass): 1 of 2 agree.
    assert "faithfulness 1/2" in text

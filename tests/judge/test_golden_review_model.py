"""The golden review on the real default judge (SmolLM2-135M-Instruct), kept short: two
sample triplets, two criteria, reasons of at most 20 characters; and the CLI in a subprocess
on one triplet and one criterion.

What a 135M model says is not asserted (it is weak at this); what is asserted is that every
verdict is a real one of its replies or *not rated* with the cause, that it carries the
model's signature, and that a rerun is answered from the cache with the same verdicts.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from goldenlens.core.golden.criteria import Criterion
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.lexical.signature import Signature
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.judging.golden_review_job import GoldenReviewOptions, review_golden_set
from goldenlens.judge.engines.llama import LlamaCppEngine
from goldenlens.queries.golden_review import load_golden_review
from goldenlens.store.project import ProjectStore

pytest.importorskip("llama_cpp", reason="the golden review on a real model needs the [judge] extra")

OPTIONS = GoldenReviewOptions(
    criteria=(Criterion.UNAMBIGUOUS_QUESTION, Criterion.FACT_MINIMAL),
    reason_chars=20,
    engine=JudgeEngineSpec(n_threads=1),
)


def sample_golden(folder: Path, questions: Sequence[str]) -> Path:
    with (sample_dir() / "golden.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    path = folder / "golden.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([rows[0], *(r for r in rows[1:] if r[0] in questions)])
    return path


class Counting:
    def __init__(self, inner: LlamaCppEngine) -> None:
        self.inner = inner
        self.calls = 0
        self.model_name = inner.model_name
        self.model_sha256 = inner.model_sha256

    def complete_json(self, messages, schema, **kwargs):  # type: ignore[no-untyped-def]
        self.calls += 1
        return self.inner.complete_json(messages, schema, **kwargs)


def test_the_default_judge_rates_two_sample_triplets(judge_engine: LlamaCppEngine, tmp_path: Path) -> None:
    engine = Counting(judge_engine)
    with ProjectStore.open(tmp_path / "s.goldenlens", create=True) as store:
        import_inputs(store, sample_golden(tmp_path, ("q01", "q06")))
        run_id = review_golden_set(store, OPTIONS, engine=engine)  # type: ignore[arg-type]
        assert engine.calls == 2 * 2
        review = load_golden_review(store, run_id)
        for row in review.rows:
            for verdict in row.verdicts:
                if verdict.verdict is None:
                    assert verdict.reason.startswith("judge output unusable")
                else:
                    assert verdict.source == "judge"
                    assert len(verdict.reason) <= 20 or verdict.reason.startswith("(the judge's reason")
        for record in store.results.scores(run_id):
            params = Signature.from_json(record.signature).params
            assert params["judge_model"] == "SmolLM2-135M-Instruct.Q4_1.gguf"
            assert len(params["judge_sha256"]) == 64
        first = {
            (r.question_id, r.metric): (r.value, r.detail.get("reason")) for r in store.results.scores(run_id)
        }
        again = review_golden_set(store, OPTIONS, engine=engine)  # type: ignore[arg-type]
        assert engine.calls == 4  # all from the cache
        assert {
            (r.question_id, r.metric): (r.value, r.detail.get("reason")) for r in store.results.scores(again)
        } == first


def test_the_cli_reviews_with_the_default_model_in_a_subprocess(
    judge_model_path: Path, tmp_path: Path
) -> None:
    project = tmp_path / "c.goldenlens"
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, sample_golden(tmp_path, ("q03",)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "goldenlens", "review-golden", str(project), "--criteria",
         "answer_consistent_with_fact", "--reason-chars", "20", "--threads", "1", "--n-ctx", "1024",
         "-q", "--json"],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    (row,) = data["rows"]
    (verdict,) = row["verdicts"]
    assert row["question_id"] == "q03"
    assert verdict["verdict"] in ("pass", "fail", "unsure") or verdict["reason"].startswith(
        "judge output unusable"
    )
    assert data["run"]["params"]["judge_model"] is None  # the bundled default

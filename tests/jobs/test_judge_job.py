"""The judge job on real default models (SmolLM2-135M judge, MiniLM embeddings), few rows.

2 questions x 3 pipelines of the sample, metrics ``relevancy`` (one judge call per row) and
``semantic_similarity`` (embeddings): a run, a rerun from the cache, an edited golden
answer, cancel, a killed run resumed, and the engine-error stop (scripted engine).
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.scores import ScoreStatus
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.judging.judge_job import (
    Engines,
    JudgeOptions,
    JudgeRunError,
    judge_project,
    open_engines,
)
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress
from goldenlens.judge.engines.embedding import EmbeddingEngine, FloatMatrix
from goldenlens.judge.engines.protocol import CancelCheck, ChatMessage, JudgeEngine, JudgeReply, make_reply
from goldenlens.store.project import ProjectStore

pytest.importorskip("llama_cpp", reason="the judge job tests need the [judge] extra")

QUESTIONS = ("q01", "q02")
OPTIONS = JudgeOptions(
    metrics=("relevancy", "semantic_similarity"), engine=JudgeEngineSpec(n_ctx=2048, n_threads=1)
)
Values = dict[tuple[str, str, str], float | None]


class CountingEngine:
    """Delegates to a real judge engine and counts the calls."""

    def __init__(self, inner: JudgeEngine) -> None:
        self.inner = inner
        self.calls = 0

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def model_sha256(self) -> str:
        return self.inner.model_sha256

    def complete_json(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        seed: int = 42,
        cancel: CancelCheck | None = None,
    ) -> JudgeReply:
        self.calls += 1
        return self.inner.complete_json(
            messages, schema, max_tokens=max_tokens, temperature=temperature, seed=seed, cancel=cancel
        )


class CountingEmbedder:
    def __init__(self, inner: EmbeddingEngine) -> None:
        self.inner = inner
        self.calls = 0

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def model_sha256(self) -> str:
        return self.inner.model_sha256

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        self.calls += 1
        return self.inner.embed(texts)

    def token_vectors(self, text: str) -> FloatMatrix:
        self.calls += 1
        return self.inner.token_vectors(text)


def write_subset(folder: Path, questions: Sequence[str] = QUESTIONS) -> tuple[Path, Path]:
    """golden.csv and responses.csv of the sample restricted to ``questions``."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in ("golden.csv", "responses.csv"):
        with (sample_dir() / name).open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        path = folder / name
        with path.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([rows[0], *(r for r in rows[1:] if r[0] in questions)])
        out.append(path)
    return out[0], out[1]


def new_project(path: Path, inputs: tuple[Path, Path]) -> ProjectStore:
    store = ProjectStore.open(path, create=True)
    import_inputs(store, inputs[0], inputs[1])
    return store


def values(store: ProjectStore, run_id: int) -> Values:
    return {(r.question_id, r.pipeline, r.metric): r.value for r in store.results.scores(run_id)}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return write_subset(tmp_path_factory.mktemp("inputs"))


@pytest.fixture(scope="module")
def counting(data_dir: Path) -> Iterator[tuple[CountingEngine, CountingEmbedder]]:
    with open_engines(OPTIONS, data_dir) as engines:
        assert engines.judge is not None
        assert engines.embedder is not None
        yield CountingEngine(engines.judge), CountingEmbedder(engines.embedder)


@pytest.fixture
def engines(counting: tuple[CountingEngine, CountingEmbedder]) -> Engines:
    judge, embedder = counting
    judge.calls = embedder.calls = 0
    return Engines(judge=judge, embedder=embedder)


@pytest.fixture(scope="module")
def baseline(
    tmp_path_factory: pytest.TempPathFactory,
    inputs: tuple[Path, Path],
    counting: tuple[CountingEngine, CountingEmbedder],
) -> tuple[Path, int, Values, list[Progress]]:
    """An uninterrupted run: the project file, run id, values and progress reports."""
    path = tmp_path_factory.mktemp("baseline") / "p.goldenlens"
    seen: list[Progress] = []
    with new_project(path, inputs) as store:
        run_id = judge_project(store, OPTIONS, engines=Engines(*counting), progress=seen.append)
        return path, run_id, values(store, run_id), seen


def test_a_run_scores_every_row_and_metric_with_its_signature(
    baseline: tuple[Path, int, Values, list[Progress]],
) -> None:
    path, run_id, got, seen = baseline
    assert len(got) == 6 * 2
    with ProjectStore.open(path) as store:
        records = store.results.scores(run_id)
        assert store.runs.get(run_id).status == "finished"  # type: ignore[union-attr]
    for record in records:
        assert (record.value is None) == (record.status is ScoreStatus.NOT_SCORED)
        if record.value is None:
            assert record.reason
        else:
            assert 0.0 <= record.value <= 1.0
        assert "usage" in record.detail
        params = Signature.from_json(record.signature).params
        assert "prompt_version" in params
        if record.metric == "relevancy":
            assert params["judge_model"] == "SmolLM2-135M-Instruct.Q4_1.gguf"
            assert len(params["judge_sha256"]) == 64
            assert (params["temperature"], params["seed"]) == (0.0, 42)
            assert "reason" in record.detail or "verdict" in record.detail or record.value is None
        else:
            assert params["embedding_model"].endswith(".gguf")
            assert len(params["embedding_sha256"]) == 64
    assert seen[-1].done == seen[-1].total == 6
    assert re.fullmatch(r"judged 6/6 rows · [\d.]+ tok/s", seen[-1].message)
    assert any(re.search(r"· ETA \d+(m\d\ds)?s?$", p.message) for p in seen[1:-1])


def test_a_rerun_calls_no_model_and_gives_identical_values(
    baseline: tuple[Path, int, Values, list[Progress]], engines: Engines, tmp_path: Path
) -> None:
    path, _run_id, expected, _seen = baseline
    copy = tmp_path / "rerun.goldenlens"
    shutil.copy(path, copy)
    with ProjectStore.open(copy) as store:
        run_id = judge_project(store, OPTIONS, engines=engines)
        assert values(store, run_id) == expected
    assert (engines.judge.calls, engines.embedder.calls) == (0, 0)  # type: ignore[union-attr]


def test_editing_a_golden_answer_rejudges_only_what_reads_it(
    baseline: tuple[Path, int, Values, list[Progress]], engines: Engines, tmp_path: Path
) -> None:
    path, _run_id, expected, _seen = baseline
    copy = tmp_path / "edited.goldenlens"
    shutil.copy(path, copy)
    with ProjectStore.open(copy) as store:
        item = store.golden.item("q01")
        assert item is not None
        store.golden.update(replace(item, answer="Andy Jassy runs Amazon as its chief executive."))
        run_id = judge_project(store, OPTIONS, engines=engines)
        got = values(store, run_id)
    # relevancy reads question, response and contexts, not the golden answer: all cached.
    assert engines.judge.calls == 0  # type: ignore[union-attr]
    # semantic similarity reads the golden answer: only q01's three rows are embedded again.
    assert engines.embedder.calls == 3  # type: ignore[union-attr]
    changed = {key for key in got if got[key] != expected[key]}
    assert changed
    assert all(key[0] == "q01" and key[2] == "semantic_similarity" for key in changed)


def test_cancel_keeps_finished_rows_and_resume_completes_the_run(
    baseline: tuple[Path, int, Values, list[Progress]],
    engines: Engines,
    inputs: tuple[Path, Path],
    tmp_path: Path,
) -> None:
    token = CancelToken()

    def cancel_after_two(progress: Progress) -> None:
        if progress.done >= 2:
            token.cancel()

    with new_project(tmp_path / "c.goldenlens", inputs) as store:
        with pytest.raises(Cancelled):
            judge_project(store, OPTIONS, engines=engines, progress=cancel_after_two, cancel=token)
        run = store.runs.latest("judge")
        assert run is not None
        assert run.status == "cancelled"
        assert len(store.results.scored_keys(run.id)) == 2
        calls_before = engines.judge.calls  # type: ignore[union-attr]
        assert calls_before == 2
        resumed = judge_project(store, OPTIONS, engines=engines)
        assert resumed == run.id
        assert engines.judge.calls - calls_before == 4  # type: ignore[union-attr]
        assert values(store, resumed) == baseline[2]


KILLED_RUN = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from goldenlens.core.judge_engine_spec import JudgeEngineSpec
    from goldenlens.jobs.judging.judge_job import JudgeOptions, judge_project
    from goldenlens.store.project import ProjectStore

    options = JudgeOptions(
        metrics=("relevancy", "semantic_similarity"), engine=JudgeEngineSpec(n_ctx=2048, n_threads=1)
    )

    def progress(p):
        if p.done >= 3:
            os.kill(os.getpid(), signal.SIGKILL)

    with ProjectStore.open(Path(sys.argv[1])) as store:
        judge_project(store, options, progress=progress, data_dir=Path(sys.argv[2]))
    """
)


def test_a_killed_run_resumes_to_the_uninterrupted_numbers(
    baseline: tuple[Path, int, Values, list[Progress]],
    engines: Engines,
    inputs: tuple[Path, Path],
    data_dir: Path,
    tmp_path: Path,
) -> None:
    path = tmp_path / "k.goldenlens"
    new_project(path, inputs).close()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", KILLED_RUN, str(path), str(data_dir)], env=env, timeout=120, check=False
    )
    assert done.returncode == -9
    with ProjectStore.open(path) as store:
        (run,) = store.runs.unfinished("judge")
        assert run.status == "running"
        assert len(store.results.scored_keys(run.id)) == 3
        resumed = judge_project(store, OPTIONS, engines=engines)
        assert resumed == run.id
        assert store.runs.get(run.id).status == "finished"  # type: ignore[union-attr]
        assert values(store, resumed) == baseline[2]
    assert engines.judge.calls == 3  # type: ignore[union-attr]


class FailingEngine:
    """A server that is down: every call comes back as an error reply."""

    model_name = "down"
    model_sha256 = "server:down"

    def __init__(self) -> None:
        self.calls = 0

    def complete_json(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        seed: int = 42,
        cancel: CancelCheck | None = None,
    ) -> JudgeReply:
        self.calls += 1
        return make_reply("", "error", schema, error="connection refused")


def test_consecutive_engine_errors_stop_the_run_without_saving_those_rows(
    inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    engine = FailingEngine()
    options = JudgeOptions(metrics=("relevancy",))
    with new_project(tmp_path / "e.goldenlens", inputs) as store:
        with pytest.raises(JudgeRunError, match="connection refused"):
            judge_project(store, options, engines=Engines(judge=engine), max_engine_errors=3)
        run = store.runs.latest("judge")
        assert run is not None
        assert run.status == "failed"
        assert store.results.scored_keys(run.id) == set()
    assert engine.calls == 3

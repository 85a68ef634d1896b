"""Benchmark: judge runs (``judge_project``) on the default model against raw llama-cpp-python.

    python tests/bench/bench_judge.py [--rows 10] [--threads 1] [--skip-http]

Four measurements on SmolLM2-135M-Instruct, each with a target:

* **job overhead**: wall time per judged row of ``judge_project`` (``context_relevance``, two
  judge calls per row, fresh project so nothing is cached) against replaying the very same
  calls — messages, schema, ``max_tokens``, temperature, seed, recorded by a proxy engine —
  through a plain ``Llama.create_chat_completion`` on a second instance. Target <= 1.10.
* **prefix reuse**: ``bench_judge_engine.bench_prefix`` (cold calls alternate two long
  prefixes, warm calls share one). Target >= 1.5.
* **parse failures**: every judge reply of a run over the whole sample with several metrics
  (plus the overhead run) without usable data. Target 0 over >= 200 calls.
* **HTTP throughput**: ``judge_project`` through ``python -m llama_cpp.server`` started here on
  127.0.0.1, with 1 and then 4 parallel requests. Reported (no target: llama-cpp-python's
  server runs one request at a time, so 4 parallel requests show the client's concurrency
  works, not a speed-up).

Prints one line per measurement and exits 2 if a target is missed. Not a pytest test.
"""

from __future__ import annotations

import argparse
import importlib
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parents[1]
for extra in (ROOT / "desktop", BENCH):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

# The prefix-reuse measurement of the engine benchmark, reused as it is.
bench_judge_engine = importlib.import_module("bench_judge_engine")

from goldenlens.io.sample import sample_dir  # noqa: E402
from goldenlens.jobs.import_job import import_inputs  # noqa: E402
from goldenlens.jobs.judge_job import Engines, JudgeOptions, judge_project  # noqa: E402
from goldenlens.judge.engine import CancelCheck, ChatMessage, JudgeReply  # noqa: E402
from goldenlens.judge.llama_engine import LlamaCppEngine, default_judge_model  # noqa: E402
from goldenlens.store.project import ProjectStore  # noqa: E402

TARGET_OVERHEAD = 1.10
TARGET_PREFIX_SPEEDUP = 1.5
MIN_PARSE_CALLS = 200
PARSE_METRICS = ("context_relevance", "relevancy", "fact_check", "aspect_coherence", "aspect_conciseness")


class RecordingEngine:
    """Delegates to a real engine; records every call and whether its reply had data."""

    def __init__(self, inner: LlamaCppEngine | Any) -> None:
        self.inner = inner
        self.calls: list[dict[str, Any]] = []
        self.failures: list[str] = []

    @property
    def model_name(self) -> str:
        return str(self.inner.model_name)

    @property
    def model_sha256(self) -> str:
        return str(self.inner.model_sha256)

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
        self.calls.append(
            {"messages": list(messages), "schema": dict(schema), "max_tokens": max_tokens,
             "temperature": temperature, "seed": seed}
        )  # fmt: skip
        reply: JudgeReply = self.inner.complete_json(
            messages, schema, max_tokens=max_tokens, temperature=temperature, seed=seed, cancel=cancel
        )
        if reply.data is None:
            self.failures.append(f"{reply.finish_reason}: {reply.error}: {reply.text[:120]!r}")
        return reply


def _project(folder: Path, name: str, rows: int | None) -> ProjectStore:
    store = ProjectStore.open(folder / f"{name}.goldenlens", create=True)
    import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
    if rows is not None:
        keep = store.responses()[:rows]
        store.replace_responses(keep, store.pipelines())
    return store


def bench_overhead(
    engine: LlamaCppEngine, llama: Any, folder: Path, rows: int
) -> tuple[float, RecordingEngine]:
    options = JudgeOptions(metrics=("context_relevance",))
    recorder = RecordingEngine(engine)
    with _project(folder, "overhead", rows) as store:
        started = time.perf_counter()
        judge_project(store, options, engines=Engines(judge=recorder))
        job = time.perf_counter() - started
    started = time.perf_counter()
    for call in recorder.calls:
        llama.create_chat_completion(
            messages=[dict(m) for m in call["messages"]],
            response_format={"type": "json_object", "schema": call["schema"]},
            max_tokens=call["max_tokens"],
            temperature=call["temperature"],
            seed=call["seed"],
        )
    raw = time.perf_counter() - started
    ratio = job / raw
    print(
        f"job overhead: {rows} rows x context_relevance ({len(recorder.calls)} calls): judge_project "
        f"{job / rows:.2f} s/row, raw llama-cpp-python {raw / rows:.2f} s/row -> ratio {ratio:.3f} "
        f"(target <= {TARGET_OVERHEAD})"
    )
    return ratio, recorder


def bench_parse(engine: LlamaCppEngine, folder: Path, earlier: RecordingEngine) -> int:
    recorder = RecordingEngine(engine)
    options = JudgeOptions(metrics=PARSE_METRICS)
    with _project(folder, "parse", None) as store:
        started = time.perf_counter()
        judge_project(store, options, engines=Engines(judge=recorder))
        seconds = time.perf_counter() - started
    calls = len(recorder.calls) + len(earlier.calls)
    failures = recorder.failures + earlier.failures
    for failure in failures[:10]:
        print(f"  parse failure: {failure}")
    print(
        f"parse failures: {len(failures)} in {calls} judge calls ({', '.join(PARSE_METRICS)} on 30 rows "
        f"in {seconds:.0f} s, + the overhead run) (target 0 over >= {MIN_PARSE_CALLS})"
    )
    return len(failures) if calls >= MIN_PARSE_CALLS else max(1, len(failures))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bench_http(model: Path, folder: Path, rows: int, threads: int) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "2048", "--n_threads", str(threads), "--verbose", "False"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)
        url = f"http://127.0.0.1:{port}/v1"
        for parallel in (1, 4):
            options = JudgeOptions(metrics=("relevancy",), judge_url=url, parallel=parallel)
            with _project(folder, f"http{parallel}", rows) as store:
                started = time.perf_counter()
                run_id = judge_project(store, options, data_dir=folder)
                seconds = time.perf_counter() - started
                scored = sum(r.value is not None for r in store.scores(run_id))
            print(
                f"http throughput, parallel={parallel}: {rows} rows x relevancy in {seconds:.1f} s "
                f"= {rows / seconds:.2f} rows/s ({scored} scored)"
            )
    finally:
        server.terminate()
        server.wait(timeout=20)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--only-http", action="store_true", help="just the HTTP throughput")
    args = parser.parse_args(argv)
    from llama_cpp import Llama

    model = default_judge_model()
    missed: list[str] = []
    if args.only_http:
        with tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp:
            bench_http(model, Path(tmp), args.rows, args.threads)
        return 0
    with (
        tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp,
        LlamaCppEngine(model, n_ctx=2048, n_threads=args.threads) as engine,
    ):
        folder = Path(tmp)
        engine.ensure_loaded()
        llama = Llama(model_path=str(model), n_ctx=2048, n_threads=args.threads,
                      n_threads_batch=args.threads, seed=42, verbose=False)  # fmt: skip
        ratio, recorder = bench_overhead(engine, llama, folder, args.rows)
        if ratio > TARGET_OVERHEAD:
            missed.append("overhead")
        del llama
        speedup, _ = bench_judge_engine.bench_prefix(engine, bench_judge_engine._rows(10, 1234))
        print(f"prefix reuse speed-up: {speedup:.2f}x (target >= {TARGET_PREFIX_SPEEDUP})")
        if speedup < TARGET_PREFIX_SPEEDUP:
            missed.append("prefix reuse")
        if bench_parse(engine, folder, recorder):
            missed.append("parse failures")
        if not args.skip_http:
            bench_http(model, folder, args.rows, args.threads)
    print("all targets met" if not missed else f"missed: {', '.join(missed)}")
    return 2 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

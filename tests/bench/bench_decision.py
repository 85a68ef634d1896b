"""Benchmark: :func:`goldenlens.core.stats.decide.decide` on a large project's scores.

    python tests/bench/bench_decision.py [--questions 12000] [--pipelines 5] [--repeat 3]

Builds ``--questions`` x ``--pipelines`` rows of the seven lexical scores: the four binary
metrics 0/1, F1/precision/recall ratios of small word counts (hundreds of distinct values, as
real answers give), then times decide() (10,000 resamples) and prints the median and the
fastest run.

Not a pytest test (the name is ``bench_*.py``, outside pytest's ``test_*.py`` pattern).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "desktop"))

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES  # noqa: E402
from goldenlens.core.stats.decide import decide  # noqa: E402


def make_rows(questions: int, pipelines: int, seed: int) -> list[tuple[str, str, list[float | None]]]:
    rng = random.Random(seed)
    rows: list[tuple[str, str, list[float | None]]] = []
    for q in range(questions):
        answer_words = rng.randint(5, 40)
        for p in range(pipelines):
            fk = float(rng.random() < 0.3 + 0.02 * p)
            response_words = rng.randint(3, 80)
            hit = rng.randint(0, min(answer_words, response_words))
            precision, recall = hit / response_words, hit / answer_words
            f1 = 2 * hit / (response_words + answer_words)
            em = float(rng.random() < 0.02)
            rows.append((f"Q{q:06d}", f"Pipeline{p + 1}", [fk, fk, f1, precision, recall, em, em]))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=12_000)
    parser.add_argument("--pipelines", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = make_rows(args.questions, args.pipelines, seed=1)
    names = [f"Pipeline{p + 1}" for p in range(args.pipelines)]
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        decision = decide(rows, names, LEXICAL_SCORE_NAMES)
        times.append(time.perf_counter() - start)
    size = f"{args.questions} questions x {args.pipelines} pipelines x {len(LEXICAL_SCORE_NAMES)} metrics"
    took = f"median {statistics.median(times):.2f} s, fastest {min(times):.2f} s"
    print(f"decide(): {size}, {len(decision.comparisons)} pairs: {took}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

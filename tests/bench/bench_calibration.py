"""Benchmark: human-calibrated estimates on EVOUNA TriviaQA, end to end as an analyst runs them.

    python tests/bench/bench_calibration.py [--seeds 1 2 3] [--rounds 3] [--budget 200] [--by question]

For each seed, in a fresh folder, through the command line only:

1. ``goldenlens score golden.csv responses.csv --project P -q``;
2. ``--rounds`` times: ``goldenlens plan-labels P --budget B --seed S -o plan.csv``, then the
   reviewer (the person's verdicts in ``human.csv``) fills ``labels.csv`` with the plan's rows
   (``question_id,pipeline,verdict``) and ``goldenlens label P --from labels.csv``;
3. ``goldenlens report P -o r.json`` and the ``human_calibrated`` block read back.

It prints, per seed and as medians: the worst pipeline's |estimate - accuracy over all the
person's verdicts| against Factual Knowledge's (the baseline, in the same run), how many
pipelines' intervals hold the all-labels accuracy, confirmed "A beats B" verdicts that all the
labels reverse, and the time each step took. Targets (issue 21): worst error <= 0.03, coverage,
no wrong confirmed verdict.

Not a pytest test (the name is ``bench_*.py``, outside pytest's ``test_*.py`` pattern).
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "evouna_tq"


def _goldenlens(*args: str | Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "goldenlens", *map(str, args)], capture_output=True, text=True, check=False
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"goldenlens {' '.join(map(str, args))} failed ({done.returncode}):\n{done.stderr}")
    return took, done


def _truth() -> tuple[dict[tuple[str, str], str], dict[str, float], dict[str, float]]:
    with (DATA / "human.csv").open(encoding="utf-8", newline="") as handle:
        human = {(r["id"], r["pipeline"]): r["acceptable"] for r in csv.DictReader(handle)}
    by_pipeline: dict[str, list[float]] = defaultdict(list)
    for (_q, p), v in human.items():
        by_pipeline[p].append(float(v))
    accuracy = {p: statistics.fmean(v) for p, v in by_pipeline.items()}
    return human, accuracy, {}


def one_seed(seed: int, rounds: int, budget: int, by: str, work: Path) -> dict[str, float]:
    human, accuracy, _ = _truth()
    project = work / "evouna.goldenlens"
    times: dict[str, float] = defaultdict(float)
    times["score"], _ = _goldenlens(
        "score", DATA / "golden.csv", DATA / "responses.csv", "--project", project, "-q"
    )
    for r in range(rounds):
        plan = work / f"plan{r}.csv"
        extra = ["--by", "question"] if by == "question" else []
        took, _ = _goldenlens(
            "plan-labels", project, "--budget", budget, "--seed", seed * 100 + r, "-o", plan, *extra
        )
        times["plan-labels"] += took
        with plan.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        labels = work / f"labels{r}.csv"
        with labels.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["question_id", "pipeline", "verdict"])
            for row in rows:
                verdict = human[(row["question_id"], row["pipeline"])]
                writer.writerow(
                    [row["question_id"], row["pipeline"], "correct" if verdict == "1" else "incorrect"]
                )
        took, _ = _goldenlens("label", project, "--from", labels)
        times["label"] += took
    report = work / "r.json"
    times["report"], _ = _goldenlens("report", project, "-o", report)
    data = json.loads(report.read_text(encoding="utf-8"))
    block = data["human_calibrated"]
    fk = {
        e["pipeline"]: e["mean"]
        for e in data["comparisons"]["estimates"]
        if e["metric"] == "factual_knowledge"
    }
    errors, fk_errors, inside = [], [], 0
    for pipeline, found in block["estimates"].items():
        truth = accuracy[pipeline]
        errors.append(abs(found["estimate"] - truth))
        fk_errors.append(abs(fk[pipeline] - truth))
        inside += found["low"] <= truth <= found["high"]
    wrong = sum(
        1
        for pair in block["pairs"]
        if pair["better"] is not None
        and (accuracy[pair["a"]] - accuracy[pair["b"]] > 0) != (pair["better"] == pair["a"])
    )
    confirmed = sum(1 for pair in block["pairs"] if pair["better"] is not None)
    return {
        "worst": max(errors),
        "fk_worst": max(fk_errors),
        "inside": inside,
        "pipelines": len(errors),
        "confirmed": confirmed,
        "wrong": wrong,
        "labelled": block["labelled"],
        **{f"time {k}": v for k, v in times.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", type=int, default=200)
    parser.add_argument("--by", choices=("response", "question"), default="response")
    args = parser.parse_args()
    results = []
    for seed in args.seeds:
        with tempfile.TemporaryDirectory() as folder:
            found = one_seed(seed, args.rounds, args.budget, args.by, Path(folder))
        results.append(found)
        print(
            f"seed {seed}: worst |estimate - all-labels accuracy| {found['worst']:.3f} "
            f"(Factual Knowledge alone {found['fk_worst']:.3f}); "
            f"intervals hold {found['inside']}/{found['pipelines']}; "
            f"confirmed verdicts {found['confirmed']}, reversed by all the labels {found['wrong']}; "
            f"{found['labelled']:.0f} responses labelled; "
            + ", ".join(f"{k[5:]} {v:.1f} s" for k, v in found.items() if k.startswith("time "))
        )
    worst = statistics.median(r["worst"] for r in results)
    fk = statistics.median(r["fk_worst"] for r in results)
    inside = sum(r["inside"] for r in results) / sum(r["pipelines"] for r in results)
    wrong = sum(r["wrong"] for r in results)
    print(
        f"median worst error {worst:.3f} against Factual Knowledge's {fk:.3f} "
        f"({fk / worst:.1f}x closer; target <= 0.03); "
        f"coverage {inside:.0%}; wrong confirmed verdicts {wrong} (target 0)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

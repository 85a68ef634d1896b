"""Benchmark: ``goldenlens score`` end to end (CSV in, JSON out) against a per-row FMEval loop.

    python tests/bench/bench_end_to_end.py [--questions 12000] [--pipelines 5] [--repeat 3]
    python tests/bench/bench_end_to_end.py --big [--questions 40000]    # 200,000 responses
    python tests/bench/bench_end_to_end.py --project [--questions 20000] # project file size
    ... [--code DIR]   # time the CLI of another checkout's desktop/ folder (the "before")

Writes a golden set and a long responses CSV (``question_id, pipeline, response``) into a
temporary folder: ``--questions`` golden items with 10-60 word answers (``<OR>`` targets now and
then) and facts with ``<OR>`` variants (a few ``<AND>``), each answered by ``--pipelines``
pipelines (the generator of ``bench_lexical.py``). Then, in the same run, ``--repeat`` times each:

* (a) the baseline: a plain Python transcription of FMEval's algorithm doing the same job —
  read both CSVs with the ``csv`` module, score every row with ``tests/fmeval_reference.py``
  one row at a time, write the seven scores of every row as JSON;
* (b) ``python -m goldenlens score golden.csv responses.csv -o out.json -q`` as a subprocess.

(a) and (b) run in turn, so a drift of the machine's speed touches both alike.

Every number of (b)'s JSON must equal (a)'s (``==``, same type), else it exits 1. It prints the
median seconds of both, the ratio of the medians (target: (b) at least 10x faster; exit 2 if
missed) and each pair's ratio.

``--big`` times (b) alone on 200,000 responses and reports the child's peak resident memory
(``resource.getrusage(RUSAGE_CHILDREN)``; target 500 MB). ``--project`` runs (b) with
``--project FILE`` on 100,000 responses and reports the project file's size (target 60 MB).

Not a pytest test (the name is ``bench_*.py``, outside pytest's ``test_*.py`` pattern).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
for _path in (ROOT / "desktop", TESTS, TESTS / "bench"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from bench_lexical import make_item, make_response  # noqa: E402

import fmeval_reference as ref  # noqa: E402
from csv_inputs import input_writers  # noqa: E402

SCORE_NAMES = ref.ALL_SCORE_NAMES
TARGET_RATIO = 10.0
TARGET_RSS_MB = 500.0
TARGET_FILE_MB = 60.0


def write_inputs(folder: Path, questions: int, pipelines: int, seed: int) -> tuple[Path, Path]:
    """``golden.csv`` and ``responses.csv`` (long layout) of valid inputs only: no empty
    responses (an empty cell is an import problem for GoldenLens) and no fact part that
    normalises to nothing (not scored by GoldenLens, on purpose)."""
    rng = random.Random(seed)
    names = [f"Pipeline{n + 1}" for n in range(pipelines)]
    with input_writers(folder) as (golden, responses, gw, rw):
        for n in range(questions):
            item = make_item(rng)
            while not _valid_fact(item.fact):
                item = make_item(rng)
            qid = f"Q{n + 1:06d}"
            gw.writerow([qid, f"What does row {n + 1} of the filing report?", item.answer, item.fact])
            for name in names:
                text = make_response(rng, item).strip() or "No answer."
                rw.writerow([qid, name, text])
    return golden, responses


def _valid_fact(fact: str) -> bool:
    """A fact FMEval and GoldenLens both score: no part that normalisation empties (an
    ``<AND>`` part such as "the"; GoldenLens reports those as not scored, on purpose)."""
    parts = fact.replace("<AND>", "<OR>").split("<OR>")
    return all(ref.normalize_text_quac_protocol(part.strip()) for part in parts)


def baseline(golden: Path, responses: Path, out: Path) -> None:
    """(a): read with ``csv``, score each row with the FMEval transcription, write JSON."""
    with golden.open(newline="", encoding="utf-8") as handle:
        items = {row["id"]: row for row in csv.DictReader(handle)}
    rows = []
    with responses.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            item = items[row["question_id"]]
            scores = ref.all_scores(row["response"], item["answer"], item["fact"])
            rows.append({"question_id": row["question_id"], "pipeline": row["pipeline"], **scores})
    out.write_text(json.dumps({"rows": rows}, indent=2) + "\n", encoding="utf-8")


def run_cli(code: Path, args: Sequence[str]) -> tuple[float, float]:
    """Run ``python -m goldenlens ARGS`` with ``code`` first on the path; seconds and the peak
    RSS in MB of the child (the only child this process has waited for when it is measured)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "goldenlens", *args], env=env, capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"goldenlens failed ({done.returncode}):\n{done.stderr[-3000:]}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) / 1024.0


def scores_by_key(path: Path) -> dict[tuple[str, str], list[object]]:
    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    return {(r["question_id"], r["pipeline"]): [r[name] for name in SCORE_NAMES] for r in rows}


def compare(expected: Path, got: Path) -> list[str]:
    want, have = scores_by_key(expected), scores_by_key(got)
    problems = [f"missing row {key}" for key in want if key not in have]
    problems += [f"extra row {key}" for key in have if key not in want]
    for key, values in want.items():
        for name, a, b in zip(SCORE_NAMES, values, have.get(key, values), strict=True):
            if a != b or type(a) is not type(b):
                problems.append(f"{key} {name}: reference {a!r}, goldenlens {b!r}")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=None)
    parser.add_argument("--pipelines", type=int, default=5)
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each side, in turn; medians are reported"
    )
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--big", action="store_true", help="200,000 responses: time and peak memory")
    parser.add_argument("--project", action="store_true", help="100,000 responses: project file size")
    parser.add_argument("--code", type=Path, default=ROOT / "desktop", help="the desktop/ folder to run")
    args = parser.parse_args(argv)
    default_questions = 40_000 if args.big else 20_000 if args.project else 12_000
    questions = args.questions or default_questions

    with tempfile.TemporaryDirectory(prefix="bench-e2e-") as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        golden, responses = write_inputs(folder, questions, args.pipelines, args.seed)
        total = questions * args.pipelines
        print(f"inputs: {questions} questions x {args.pipelines} pipelines = {total} response rows "
              f"({responses.stat().st_size / 1e6:.1f} MB CSV) in {time.perf_counter() - start:.1f} s; "
              f"code: {args.code}")  # fmt: skip
        out = folder / "out.json"
        cli = [str(golden), str(responses), "-o", str(out), "-q"]
        if args.big or args.project:
            project = folder / "bench.goldenlens"
            extra = ["--project", str(project)] if args.project else []
            seconds, rss = run_cli(args.code, ["score", *cli, *extra])
            print(f"goldenlens score: {total} responses in {seconds:.1f} s, peak RSS {rss:.0f} MB"
                  + (f" (target <= {TARGET_RSS_MB:.0f} MB)" if args.big else ""))  # fmt: skip
            if args.project:
                size = sum(p.stat().st_size for p in folder.glob("bench.goldenlens*")) / 1e6
                print(
                    f"project file: {size:.1f} MB for {total} responses (target <= {TARGET_FILE_MB:.0f} MB)"
                )
            return 0

        expected = folder / "reference.json"
        t_ref: list[float] = []
        t_cli: list[float] = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            baseline(golden, responses, expected)
            t_ref.append(time.perf_counter() - start)
            t_cli.append(run_cli(args.code, ["score", *cli])[0])
        problems = compare(expected, out)
        ref_s, cli_s = statistics.median(t_ref), statistics.median(t_cli)
        print(f"(a) per-row FMEval transcription (csv, score, json): {ref_s:6.2f} s  runs {t_ref}")
        print(f"(b) python -m goldenlens score ... -o out.json:       {cli_s:6.2f} s  runs {t_cli}")
        if problems:
            print(f"MISMATCH: {len(problems)} differences", file=sys.stderr)
            for line in problems[:10]:
                print("  " + line, file=sys.stderr)
            return 1
        ratio = ref_s / cli_s
        print(f"identical: all {total * len(SCORE_NAMES)} scores equal the reference")
        if args.repeat > 1:  # the machine's speed drifts: each pair's ratio shows how much
            pairs = sorted(r / c for r, c in zip(t_ref, t_cli, strict=True))
            print(f"ratio of each pair (a then b): {', '.join(f'{p:.2f}x' for p in pairs)}")
        print(f"end to end: {total} rows, ratio {ratio:.2f}x (target >= {TARGET_RATIO:.0f}x) "
              + ("OK" if ratio >= TARGET_RATIO else "TOO SLOW"))  # fmt: skip
        return 0 if ratio >= TARGET_RATIO else 2


if __name__ == "__main__":
    sys.exit(main())

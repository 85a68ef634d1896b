"""Benchmark: the advice of a yes/no golden set grows linearly in questions.

    python tests/bench/bench_advice.py [--questions 2000] [--scale 4] [--repeat 3] [--code DIR]

A yes/no set (BoolQ-like: thousands of questions whose fact is "yes" or "no", answered by
three pipelines) is the hardest case of the advisor's false-match rule: every question's short
fact is in a third to two thirds of all responses. It writes two such projects, ``--questions``
and ``--scale`` times as many, scores each (``goldenlens score … --project``), then times
``python -m goldenlens advise PROJECT --json`` on each, interleaved ``--repeat`` times, as a
user runs it.

It prints the medians, the time per question of each, their ratio (target: at most 1.5, i.e.
linear; a per-question search of all responses makes it ``--scale``) and checks the two JSON
texts count the false matches a yes/no set must have. ``--code`` runs the advice of another
checkout's ``desktop/`` folder (the "before"). Exits 2 when the target is missed.

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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from csv_inputs import input_writers  # noqa: E402

TARGET_RATIO = 1.5
PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")


def write_project_inputs(folder: Path, questions: int) -> tuple[Path, Path]:
    """A yes/no golden set and the long responses of three pipelines (one always right, one
    always "yes", one that hedges)."""
    with input_writers(folder) as (golden, responses, gw, rw):
        for i in range(questions):
            truth = "yes" if i % 3 else "no"
            gw.writerow(
                [f"q{i}", f"Is statement {i} true?", f"{truth.capitalize()}, statement {i} holds.", truth]
            )
            rw.writerow([f"q{i}", PIPELINES[0], f"{truth.capitalize()}."])
            rw.writerow([f"q{i}", PIPELINES[1], f"Yes, statement {i} is true."])
            rw.writerow([f"q{i}", PIPELINES[2], f"Probably {truth}, but I am not sure."])
    return golden, responses


def _run(code: Path, args: list[str], out: Path | None = None) -> float:
    """Wall seconds of one ``python -m goldenlens ARGS`` child with ``code`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    start = time.perf_counter()
    with (out or Path(os.devnull)).open("wb") as sink:
        child = subprocess.Popen(
            [sys.executable, "-m", "goldenlens", *args], stdout=sink, stderr=subprocess.PIPE, env=env
        )
        _out, err = child.communicate()
    took = time.perf_counter() - start
    if child.returncode != 0:
        raise SystemExit(f"goldenlens {' '.join(args)} failed ({child.returncode}):\n{err.decode()[-2000:]}")
    return took


def _false_matches(advice_json: Path) -> int:
    advice = json.loads(advice_json.read_text(encoding="utf-8"))
    return sum(
        1
        for question in advice["questions"]
        for diagnosis in question["diagnoses"]
        if diagnosis["code"] == "fact_prone_to_false_matches"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=2000)
    parser.add_argument("--scale", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--code", type=Path, default=ROOT / "desktop", help="the desktop/ folder to run")
    args = parser.parse_args()
    sizes = {"small": args.questions, "large": args.questions * args.scale}
    with tempfile.TemporaryDirectory(prefix="bench-advice-") as tmp:
        projects: dict[str, Path] = {}
        for name, questions in sizes.items():
            folder = Path(tmp, name)
            folder.mkdir()
            golden, responses = write_project_inputs(folder, questions)
            projects[name] = folder / "p.goldenlens"
            _run(
                ROOT / "desktop",
                ["score", str(golden), str(responses), "--project", str(projects[name]), "-q"],
            )
        times: dict[str, list[float]] = {name: [] for name in sizes}
        for _ in range(args.repeat):
            for name, project in projects.items():
                times[name].append(
                    _run(args.code, ["advise", str(project), "--json"], Path(tmp, f"{name}.json"))
                )
        found = {name: _false_matches(Path(tmp, f"{name}.json")) for name in sizes}
    per_question = {name: statistics.median(times[name]) / sizes[name] for name in sizes}
    ratio = per_question["large"] / per_question["small"]
    for name, questions in sizes.items():
        print(
            f"{questions} questions x 3 pipelines: advise {statistics.median(times[name]):.2f} s "
            f"({per_question[name] * 1e3:.2f} ms a question), {found[name]} facts prone to false matches"
        )
    print(f"time per question, large / small: {ratio:.2f} (target <= {TARGET_RATIO}; code: {args.code})")
    missed = ratio > TARGET_RATIO
    # Every question's fact ("yes" or "no") is in responses to other questions whose answer lacks it.
    if any(found[name] != questions for name, questions in sizes.items()):
        print("not every yes/no fact was diagnosed as prone to false matches")
        missed = True
    return 2 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

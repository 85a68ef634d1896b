"""The CI gate end to end: ``goldenlens score --fail-under`` and ``--fail-on-regression`` as a
CI job runs them (a subprocess on CSV files written here), with its exit codes: 0 every check
passed, 1 a check failed (a line each), 2 bad input. The report is written either way."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import goldenlens
from goldenlens.store.project import ProjectStore

DESKTOP = str(Path(goldenlens.__file__).resolve().parents[1])

#: Twelve questions whose fact is a city; a response naming it has factual knowledge 1.
CITIES = [
    "Paris",
    "Rome",
    "Madrid",
    "Berlin",
    "Vienna",
    "Lisbon",
    "Dublin",
    "Oslo",
    "Athens",
    "Prague",
    "Warsaw",
    "Bern",
]


def _golden(folder: Path) -> Path:
    path = folder / "golden.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "question", "answer", "fact"])
        for n, city in enumerate(CITIES):
            writer.writerow(
                [f"q{n + 1:02d}", f"Which capital is number {n + 1}?", f"The capital is {city}.", city]
            )
    return path


def _responses(folder: Path, name: str, right: dict[str, int]) -> Path:
    """Each pipeline names the right city on its first ``right[pipeline]`` questions, a wrong
    one on the others: its factual knowledge mean is ``right / 12``."""
    path = folder / name
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "pipeline", "response"])
        for n, city in enumerate(CITIES):
            for pipeline, count in right.items():
                writer.writerow(
                    [f"q{n + 1:02d}", pipeline, f"The capital is {city if n < count else 'Nowhere'}."]
                )
    return path


def _score(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": DESKTOP}
    return subprocess.run(
        [sys.executable, "-m", "goldenlens", "score", *args, "-q"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def _fail_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(("FAIL", "REGRESSION"))]


@pytest.mark.parametrize("project", [False, True], ids=["files", "project"])
def test_fail_under_exits_1_with_a_line_per_failure_after_writing_the_report(
    tmp_path: Path, project: bool
) -> None:
    golden = _golden(tmp_path)
    responses = _responses(tmp_path, "responses.csv", {"Good": 12, "Weak": 6})
    out = tmp_path / "report.json"
    extra = ["--project", str(tmp_path / "p.goldenlens")] if project else []
    done = _score(
        str(golden), str(responses), "-o", str(out), "--fail-under", "factual_knowledge=0.75", *extra
    )
    assert done.returncode == 1, done.stderr
    assert _fail_lines(done.stderr) == ["FAIL Weak factual_knowledge 0.50 < 0.75"]
    assert json.loads(out.read_text(encoding="utf-8"))["summary"]["Weak"]["factual_knowledge"] == 0.5


def test_fail_under_passes_names_a_pipeline_and_reads_labels(tmp_path: Path) -> None:
    golden = _golden(tmp_path)
    responses = _responses(tmp_path, "responses.csv", {"Good": 12, "Weak.v2": 6})
    passing = _score(
        str(golden), str(responses), "--fail-under", "fk=0.5", "--fail-under", "Good.Factual knowledge=1"
    )
    assert passing.returncode == 0, passing.stderr
    assert _fail_lines(passing.stderr) == []
    # A dotted pipeline name: the metric is what follows the last dot.
    one = _score(str(golden), str(responses), "--fail-under", "Weak.v2.fk=0.6", "--fail-under", "Good.fk=0.6")
    assert one.returncode == 1
    assert _fail_lines(one.stderr) == ["FAIL Weak.v2 factual_knowledge 0.50 < 0.60"]
    # Close to the minimum: enough digits that the two numbers differ.
    close = _score(str(golden), str(responses), "--fail-under", "Weak.v2.fk=0.501")
    assert _fail_lines(close.stderr) == ["FAIL Weak.v2 factual_knowledge 0.500 < 0.501"]


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("bleu=0.5", "unknown metric 'bleu'"),
        ("fk=high", "'high' is not a number"),
        ("fk", "expected METRIC=VALUE"),
        ("Nobody.fk=0.5", "names pipeline 'Nobody'"),
        # A percentage where a share is meant: it could never pass (it used to fail every pipeline).
        ("f1=60", "a mean of f1_score is a share from 0 to 1; did you mean f1=0.6?"),
        ("Good.calibrated=-0.1", "a mean of calibrated is a share from 0 to 1"),
    ],
)
def test_a_bad_gate_exits_2(tmp_path: Path, spec: str, fragment: str) -> None:
    golden = _golden(tmp_path)
    responses = _responses(tmp_path, "responses.csv", {"Good": 12})
    done = _score(str(golden), str(responses), "--fail-under", spec)
    assert done.returncode == 2
    assert fragment in done.stderr
    assert "Traceback" not in done.stderr


def test_fail_on_regression_needs_a_project(tmp_path: Path) -> None:
    golden = _golden(tmp_path)
    done = _score(str(golden), str(_responses(tmp_path, "r.csv", {"Good": 12})), "--fail-on-regression")
    assert done.returncode == 2
    assert "--fail-on-regression needs --project" in done.stderr


def test_fail_on_regression_compares_with_the_previous_run(tmp_path: Path) -> None:
    golden = _golden(tmp_path)
    project = tmp_path / "p.goldenlens"
    first = _score(
        str(golden),
        str(_responses(tmp_path, "r1.csv", {"A": 12, "B": 6})),
        "--project",
        str(project),
        "--fail-on-regression",
    )
    assert first.returncode == 0, first.stderr
    assert "first scoring run" in first.stderr
    # The same responses again: nothing fell.
    same = _score(
        str(golden),
        str(_responses(tmp_path, "r1.csv", {"A": 12, "B": 6})),
        "--project",
        str(project),
        "--fail-on-regression",
    )
    assert same.returncode == 0, same.stderr
    assert _fail_lines(same.stderr) == []
    # A loses the fact on all twelve questions, B on one: only A's fall is significant.
    worse = tmp_path / "r2.csv"
    _responses(tmp_path, "r2.csv", {"A": 0, "B": 5})
    out = tmp_path / "after.json"
    done = _score(str(golden), str(worse), "--project", str(project), "--fail-on-regression", "-o", str(out))
    assert done.returncode == 1, done.stderr
    lines = _fail_lines(done.stderr)
    fk = [line for line in lines if " factual_knowledge " in line]
    assert fk == [
        "REGRESSION A factual_knowledge run 3 - run 2 = -1.00, 95% CI [-1.00, -1.00], p = 0.000488"
        " — 12 questions"
    ]
    assert all(line.startswith("REGRESSION A ") for line in lines)
    assert json.loads(out.read_text(encoding="utf-8"))["summary"]["A"]["factual_knowledge"] == 0.0


@pytest.mark.parametrize("report", ["report.xlsx", "report.json", "report.html", "report.csv"])
@pytest.mark.parametrize("with_project", [False, True])
def test_a_gate_naming_an_unknown_pipeline_leaves_no_report(
    tmp_path: Path, report: str, with_project: bool
) -> None:
    """A typo in the pipeline of --fail-under is bad input: exit 2 and no report written, which
    an analyst could otherwise take for the output of a command that worked (the report used
    to be written first). With --project it is caught once the inputs are read, before they
    are written or scored (a judge run can take hours): a new project is not made, an existing
    one keeps what it had. `report` checks it the same way."""
    golden = _golden(tmp_path)
    responses = _responses(tmp_path, "responses.csv", {"Good": 12})
    out = tmp_path / report
    path = tmp_path / "p.goldenlens"
    project = ["--project", str(path)] if with_project else []
    done = _score(str(golden), str(responses), "-o", str(out), *project, "--fail-under", "Goood.fk=0.5")
    assert done.returncode == 2
    assert "--fail-under names pipeline 'Goood'; the report has: Good; no report was written" in done.stderr
    assert not out.exists()
    assert not path.exists()
    if not with_project:
        return
    assert _score(str(golden), str(responses), *project).returncode == 0
    with ProjectStore.open(path) as store:
        before = (len(store.responses.imports()), len(store.runs.all()))
    again = _score(str(golden), str(responses), *project, "--fail-under", "Goood.fk=0.5")
    assert again.returncode == 2
    with ProjectStore.open(path) as store:
        assert (len(store.responses.imports()), len(store.runs.all())) == before == (1, 1)
    env = {**os.environ, "PYTHONPATH": DESKTOP}
    command = [
        sys.executable,
        "-m",
        "goldenlens",
        "report",
        str(path),
        "-o",
        str(out),
        "--fail-under",
        "Goood.fk=0.5",
    ]
    reported = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert reported.returncode == 2, reported.stderr
    assert not out.exists()


@pytest.mark.parametrize("project", [False, True], ids=["files", "project"])
def test_fail_on_input_errors_counts_the_errors_after_writing_the_report(
    tmp_path: Path, project: bool
) -> None:
    """Two response rows that cannot be scored (one with no question id, one naming a question
    the golden set lacks) are errors: the report is written without them, and the gate fails
    with one line counting them; the same files pass without the option, clean files with it."""
    golden = _golden(tmp_path)
    responses = _responses(tmp_path, "responses.csv", {"A": 12, "B": 6})
    with responses.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["", "A", "The capital is Paris."])  # no question id
        writer.writerow(["q99", "A", "The capital is Nowhere."])  # no such question
    out = tmp_path / "report.json"
    where = ["--project", str(tmp_path / "p.goldenlens")] if project else []
    done = _score(str(golden), str(responses), "-o", str(out), "--fail-on-input-errors", *where)
    assert done.returncode == 1, done.stderr
    errors = [line for line in done.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 2, done.stderr
    assert _fail_lines(done.stderr) == [
        "FAIL inputs: 2 errors reading the input files (listed above): rows left out or values not scored"
    ]
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert len(rows) == 24  # the twelve questions of A and B; neither error row
    assert {row["pipeline"] for row in rows} == {"A", "B"}
    assert json.loads(out.read_text(encoding="utf-8"))["summary"]["A"]["factual_knowledge"] == 1.0

    again = _score(str(golden), str(responses), "-o", str(tmp_path / "again.json"), *where)
    assert again.returncode == 0, again.stderr
    assert _fail_lines(again.stderr) == []

    clean = _responses(tmp_path, "clean.csv", {"A": 12, "B": 6})
    passed = _score(str(golden), str(clean), "-o", str(tmp_path / "clean.json"), "--fail-on-input-errors")
    assert passed.returncode == 0, passed.stderr
    assert _fail_lines(passed.stderr) == []

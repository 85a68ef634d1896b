"""``goldenlens score GOLDEN RESPONSES -o FILE`` with no ``--project`` scores the files straight
into the report (no SQLite in between): every report format must be exactly what the
project-backed path writes for the same inputs — the JSON and CSV byte for byte, the workbook
cell for cell — on the sample, on inputs with problems, not-scored facts and several flags a
row, with set and multiset counting, scored in this process and in the worker pool.

The expected files come from the project path (``--project``), which the rest of the suite
checks against FMEval's algorithm; this test pins the two paths to each other.
"""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from tests.csv_inputs import input_writers

import goldenlens
from goldenlens.cli.main import main
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.scoring import score_rows

DESKTOP = str(Path(goldenlens.__file__).resolve().parents[1])


def _awkward_inputs(folder: Path) -> tuple[Path, Path]:
    """A golden set and long responses with what makes a report interesting: an empty fact
    part (not scored), ``<OR>``/``<AND>`` facts, a refusal, a verbose answer, a response for an
    unknown question (an import problem), a repeated response (a warning), a question nobody
    answered (its golden flags alone), and enough rows to need several chunks."""
    golden, responses = folder / "golden.csv", folder / "responses.csv"
    rows = [
        ["id", "question", "answer", "fact"],
        ["q1", "Net sales?", "Net sales were 134.4 billion dollars.", "134.4 billion<OR>134,383 million"],
        [
            "q2",
            "Where?",
            "The principal office is at 410 Terry Avenue North, Seattle.",
            "410 Terry Ave<AND>Seattle",
        ],
        ["q3", "Empty part?", "The answer is five.", "five<AND>the"],
        ["q4", "Nobody answers", "A verbose golden answer " + "with many words " * 20, "words"],
    ]
    rows += [[f"x{n}", f"Filler {n}?", f"Filler answer {n} is {n * 7}.", f"{n * 7}"] for n in range(1, 700)]
    with golden.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    answers = [
        ["question_id", "pipeline", "response"],
        ["q1", "A", "Amazon reported net sales of $134.4 billion."],
        ["q1", "B", "Net sales were 134,383 million."],
        ["q1", "C", "I don't know; the context does not include this information."],
        ["q2", "A", "410 Terry Ave N, Seattle"],
        ["q2", "B", "Seattle, Washington."],
        ["q2", "C", "The principal office is at 410 Terry Avenue North, Seattle."],
        ["q3", "A", "five"],
        ["q3", "B", "The answer is five."],
        ["q3", "B", "a repeated response for q3 and B"],
        ["zz", "A", "a response to a question that is not in the golden set"],
    ]
    for n in range(1, 700):
        for pipeline, text in (
            ("A", f"It is {n * 7}."),
            ("B", f"Filler answer {n} is {n * 7 + 1}."),
            ("C", "No."),
        ):
            answers.append([f"x{n}", pipeline, text])
    with responses.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(answers)
    return golden, responses


def _both(tmp_path: Path, golden: Path, responses: Path, suffix: str, *extra: str) -> tuple[Path, Path]:
    lean, stored = tmp_path / f"lean{suffix}", tmp_path / f"stored{suffix}"
    assert main(["score", str(golden), str(responses), "-o", str(lean), "-q", *extra]) == 0
    project = tmp_path / "p.goldenlens"
    args = ["score", str(golden), str(responses), "-o", str(stored), "-q", "--project", str(project), *extra]
    assert main(args) == 0
    for file in tmp_path.glob("p.goldenlens*"):
        file.unlink()
    return lean, stored


@pytest.mark.parametrize("suffix", [".json", ".csv"])
@pytest.mark.parametrize("extra", [(), ("--multiset",)], ids=["set", "multiset"])
def test_awkward_inputs_report_exactly_as_the_project_path(
    tmp_path: Path, suffix: str, extra: tuple[str, ...]
) -> None:
    golden, responses = _awkward_inputs(tmp_path)
    lean, stored = _both(tmp_path, golden, responses, suffix, *extra)
    assert lean.read_bytes() == stored.read_bytes()
    text = lean.read_text(encoding="utf-8-sig")
    if suffix == ".json":
        _check_comparisons(json.loads(text), json.loads(stored.read_text(encoding="utf-8")))
    assert "not_scored" in text or suffix == ".csv"  # the empty fact part of q3
    assert ("refusal" in text and "a second response" in text) or suffix == ".csv"


def _check_comparisons(lean: dict[str, Any], stored: dict[str, Any]) -> None:
    """Both paths carry the same ``comparisons`` block: intervals for every pipeline and
    metric, and each pair of the three pipelines on each metric, paired over the questions
    both scored (q3's fact part is not scored: one question fewer on the fact metrics)."""
    assert lean["comparisons"] == stored["comparisons"]
    block = lean["comparisons"]
    assert (block["resamples"], block["level"]) == (10_000, 0.95)
    assert len(block["estimates"]) == 3 * 7
    pairs = {(p["a"], p["b"], p["metric"]): p for p in block["pairs"]}
    assert len(pairs) == 3 * 7
    answered = {(r["question_id"], r["pipeline"]): r for r in lean["rows"]}
    for (a, b, metric), pair in pairs.items():
        both = [q for (q, p) in answered if p == a and (q, b) in answered]
        scored = [
            q for q in both if answered[(q, a)][metric] is not None and answered[(q, b)][metric] is not None
        ]
        assert pair["n"] == len(scored), (a, b, metric)


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_the_worker_pool_writes_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start_method: str
) -> None:
    """Chunks scored by worker processes (several chunks, none splitting a question) give the
    same bytes as the project path scored in this process: forked workers that build their
    chunks from their copy of the read inputs (the command line), and spawned ones that are
    sent the rows (the desktop app's worker thread)."""
    if start_method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start_method} on this platform")
    monkeypatch.setattr(score_rows, "child_context", lambda: multiprocessing.get_context(start_method))
    golden, responses = _awkward_inputs(tmp_path)
    expected = tmp_path / "stored.json"
    project = tmp_path / "p.goldenlens"
    assert (
        main(["score", str(golden), str(responses), "-o", str(expected), "-q", "--project", str(project)])
        == 0
    )
    monkeypatch.setattr(score_rows, "POOL_MIN_ROWS", 1)
    assert score_rows.workers_for(2000) >= 2 or (os.cpu_count() or 1) < 2  # a pool, unless one core
    pooled = tmp_path / "pooled.json"
    assert main(["score", str(golden), str(responses), "-o", str(pooled), "-q"]) == 0
    assert pooled.read_bytes() == expected.read_bytes()


def test_the_sample_workbook_has_the_same_cells(tmp_path: Path) -> None:
    folder = sample_dir()
    lean, stored = _both(tmp_path, folder / "golden.csv", folder / "responses.csv", ".xlsx")
    a, b = openpyxl.load_workbook(lean), openpyxl.load_workbook(stored)
    assert a.sheetnames == b.sheetnames
    for name in a.sheetnames:
        cells_a = [[c.value for c in row] for row in a[name].iter_rows()]
        cells_b = [[c.value for c in row] for row in b[name].iter_rows()]
        # The time each was written differs, and only a project has golden-set versions
        # (the stored report names v1); nothing else.
        assert [r[1] for r in cells_b if r and r[0] == "Golden-set version"] == (
            ["v1"] if name == "About" else []
        )
        skip = ("Generated at", "Golden-set version")
        cells_a = [r for r in cells_a if not (r and (r[0] in skip or " · generated " in str(r[0])))]
        cells_b = [r for r in cells_b if not (r and (r[0] in skip or " · generated " in str(r[0])))]
        assert cells_a == cells_b, name


def test_a_bad_input_writes_nothing_and_names_the_cell(tmp_path: Path) -> None:
    golden = tmp_path / "golden.csv"
    golden.write_text("id,question,answer,fact\nq1,Q?,A,#N/A\n", encoding="utf-8")
    responses = tmp_path / "responses.csv"
    responses.write_text("question_id,pipeline,response\nq9,A,x\n", encoding="utf-8")
    out = tmp_path / "out.json"
    done = subprocess.run(
        [sys.executable, "-m", "goldenlens", "score", str(golden), str(responses), "-o", str(out), "-q"],
        env={"PYTHONPATH": DESKTOP, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("goldenlens: error: responses.csv: no row of responses.csv matches")
    assert not out.exists()
    assert list(tmp_path.glob("*.goldenlens*")) == []


def _scoring_files_probe(folder: Path, seen: str, *, before: str = "") -> Any:
    """What the expression ``seen`` (JSON) gives at the end of a fresh ``python -m goldenlens
    score GOLDEN RESPONSES -o out.json -q`` process (a subprocess: this one has imported
    everything); ``before``: lines run before the command line is imported."""
    golden, responses = _awkward_inputs(folder)
    out = folder / "out.json"
    # What the console script runs but its end (after a JSON report it ends at once, before
    # anything could be printed).
    probe = (
        "import json, sys; sys.argv = ['goldenlens', *sys.argv[1:]]\n"
        f"{before}"
        "from goldenlens.cli.main import main\n"
        "try:\n    main()\n"
        f"finally:\n    print(json.dumps({seen}))"
    )
    argv = ["score", str(golden), str(responses), "-o", str(out), "-q"]
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv], env={"PYTHONPATH": DESKTOP, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["rows"], "the run wrote no rows"
    return json.loads(done.stdout)


def _loaded_by_scoring_files(folder: Path, modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` a fresh ``score`` to JSON process has imported when it is done."""
    loaded: list[str] = _scoring_files_probe(folder, f"sorted(m for m in {modules!r} if m in sys.modules)")
    return loaded


def test_scoring_files_imports_neither_sqlite_nor_pandas(tmp_path: Path) -> None:
    """The lean path's start-up: a CSV → JSON run loads no store, no SQLite, no pandas and no
    workbook library or reader of workbook formats (each costs milliseconds to tenths of a
    second before the first row is read), and neither ftfy nor rapidfuzz when no cell looks like
    mojibake and the join is by id."""
    modules = (
        "sqlite3", "sqlite_utils", "pandas", "openpyxl", "xlrd", "zipfile", "xml.etree.ElementTree",
        "goldenlens.io.sheets.xlsx_facts", "goldenlens.io.sheets.xls_facts", "goldenlens.io.sheets.ods_facts",
        "goldenlens.store", "ftfy", "rapidfuzz",
    )  # fmt: skip
    assert _loaded_by_scoring_files(tmp_path, modules) == []


#: Modules only other commands need: the command line registers every command's options, but
#: their handlers' modules load when that command runs (each costs milliseconds to tens of
#: milliseconds of a scoring run that takes about two seconds).
OTHER_COMMANDS_ONLY = (
    "goldenlens.core.advice.values",  # advise
    "goldenlens.core.variants.generator",  # variants
    "goldenlens.core.variants.flip_preview",
    "goldenlens.core.variants.dates",
    "goldenlens.core.golden.drafts",  # draft, drafts
    "goldenlens.core.golden.source_chunks",
    "goldenlens.core.golden.versions",  # versions, diff, runs
    "goldenlens.core.golden.diff",
    "goldenlens.io.reports.judge_summary",  # a judge run's summary
    "goldenlens.core.stats.judge_agreement",
    "goldenlens.jobs.doctor",  # doctor, gui
    "goldenlens.judge",
    "goldenlens.queries",
)


def test_scoring_files_imports_no_other_commands_modules(tmp_path: Path) -> None:
    """``score`` to a JSON file imports none of the modules that only other commands use."""
    assert _loaded_by_scoring_files(tmp_path, OTHER_COMMANDS_ONLY) == []


def test_scoring_files_imports_numpy_only_once_the_scoring_has_started(tmp_path: Path) -> None:
    """numpy (a tenth of a second to import) is for the report's tail: the means and the decision.
    A small ``score`` to JSON works them out in this process and imports it once the rows are
    scored, not before the reading (a label type named by the report's rows once brought it in
    ahead of everything, 7% of the benchmark's time); a large one leaves it to the statistics
    process (tests/jobs/test_report_statistics.py)."""
    before = (
        "import goldenlens.jobs.scoring.score_files as score_files\n"
        "seen = []\n"
        "scoring = score_files.score_slices\n"
        "def score_slices(*args, **kwargs):\n"
        "    seen.append('numpy' in sys.modules)\n"
        "    return scoring(*args, **kwargs)\n"
        "score_files.score_slices = score_slices\n"
    )
    at_scoring, at_end = _scoring_files_probe(tmp_path, "[seen, 'numpy' in sys.modules]", before=before)
    assert at_scoring == [False]
    assert at_end is True  # the decision needed it in the end: the probe saw the run through


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def _pool_sized_inputs(tmp_path: Path) -> tuple[Path, Path]:
    questions = 10_000  # 50,000 rows: above the pool's threshold, seconds of scoring on two cores
    with input_writers(tmp_path) as (golden, responses, gw, rw):
        for n in range(questions):
            gw.writerow(
                [
                    f"q{n}",
                    f"Question {n}?",
                    f"The value in row {n} is {n * 3} million dollars.",
                    f"{n * 3} million",
                ]
            )
            for p in range(5):
                rw.writerow(
                    [f"q{n}", f"P{p}", f"Pipeline {p} says the value in row {n} is {n * 3 + p} million. " * 3]
                )
    return golden, responses


#: A progress line of the scoring, as a terminal shows it: ``score: Scoring responses 500/50,000``.
_SCORING_LINE = re.compile(r"score: Scoring responses ([\d,]+)/([\d,]+)")


class _ScoringInATerminal:
    """``goldenlens score`` on pool-sized inputs with stderr on a terminal (a pty, so progress
    comes every 0.1 s, as a user sees it), in a process group of its own as a terminal gives a
    command. :meth:`wait_mid_run` returns once a progress line shows chunks scored and most
    still to come: a signal sent then lands while the pool scores, however fast the machine
    (a fixed sleep after the workers started used to miss the run on a fast one)."""

    def __init__(self, tmp_path: Path) -> None:
        golden, responses = _pool_sized_inputs(tmp_path)
        self.out = tmp_path / "out.json"
        self._master, terminal = pty.openpty()
        self.child = subprocess.Popen(
            [sys.executable, "-m", "goldenlens", "score", str(golden), str(responses), "-o", str(self.out)],
            env={"PYTHONPATH": DESKTOP, "PATH": "/usr/bin:/bin"},
            stderr=terminal,
            start_new_session=True,
        )
        os.close(terminal)  # the child holds the terminal now: reading ends when it is gone
        self._read = b""

    def wait_mid_run(self) -> None:
        """Read stderr up to a progress line with 0 < scored <= half of the rows."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if not self._read_some(deadline):
                break
            counts = [
                (int(done.replace(",", "")), int(total.replace(",", "")))
                for done, total in _SCORING_LINE.findall(self.stderr())
            ]
            scoring = [(done, total) for done, total in counts if 0 < done < total]
            if scoring:
                done, total = scoring[0]
                assert done <= total // 2, f"{done}/{total} scored at the first line: make the input larger"
                return
        raise AssertionError(f"no progress line of the scoring while it ran:\n{self.stderr()}")

    def finish(self) -> str:
        """Everything the command printed on stderr, once it has ended."""
        deadline = time.monotonic() + 60
        while self._read_some(deadline):
            pass
        self.child.wait(timeout=max(deadline - time.monotonic(), 1))
        os.close(self._master)
        return self.stderr()

    def stderr(self) -> str:
        """What was read so far, each terminal line on a line of its own."""
        return re.sub(r"\r\n?|\x1b\[2K", "\n", self._read.decode("utf-8", "replace"))

    def _read_some(self, deadline: float) -> bool:
        """Read what the terminal holds (waiting up to ``deadline``); ``False`` at its end."""
        ready, _, _ = select.select([self._master], [], [], max(deadline - time.monotonic(), 0))
        if not ready:
            return False
        try:
            chunk = os.read(self._master, 65536)
        except OSError:  # EIO: every process holding the terminal has ended
            return False
        self._read += chunk
        return bool(chunk)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
def test_sigterm_to_the_command_alone_cleans_up_like_ctrl_c(tmp_path: Path) -> None:
    """``kill PID`` (SIGTERM to the parent only, as ``timeout`` or a CI cancel sends it):
    no temporary report is left beside the target and the workers end with the parent."""
    scoring = _ScoringInATerminal(tmp_path)
    scoring.wait_mid_run()
    workers = [int(pid) for pid in _children(scoring.child.pid)]
    scoring.child.send_signal(signal.SIGTERM)
    stderr = scoring.finish()
    assert scoring.child.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["golden.csv", "responses.csv"]
    _assert_gone(workers)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_do_not_outlive_a_killed_command(tmp_path: Path) -> None:
    """SIGKILL of the command (nothing of it runs any more): its pool workers end too,
    instead of waiting for work forever."""
    scoring = _ScoringInATerminal(tmp_path)
    scoring.wait_mid_run()
    workers = [int(pid) for pid in _children(scoring.child.pid)]
    assert len(workers) >= 2
    scoring.child.kill()
    scoring.finish()
    _assert_gone(workers)


def _assert_gone(pids: list[int]) -> None:
    deadline = time.monotonic() + 20
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in alive if _running(pid)]
        time.sleep(0.05)
    assert alive == [], f"worker processes still running: {alive}"


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its exit status is left


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
def test_ctrl_c_while_the_pool_scores_writes_nothing_and_prints_no_traceback(tmp_path: Path) -> None:
    """Ctrl+C reaches the whole process group, workers included: the command says it was
    cancelled (exit 130), leaves no report and no temporary file, and no worker prints a
    traceback."""
    scoring = _ScoringInATerminal(tmp_path)
    scoring.wait_mid_run()  # chunks are scored and most are still to come
    os.killpg(scoring.child.pid, signal.SIGINT)
    stderr = scoring.finish()
    assert scoring.child.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "cancelled; nothing was written" in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["golden.csv", "responses.csv"]


def test_a_json_score_ends_at_once_with_everything_said_and_its_status(tmp_path: Path) -> None:
    """After a JSON report the process ends without tearing the interpreter down
    (:func:`goldenlens.cli.main.run`: no exit handler runs): the report is whole, the messages
    are all printed, and the exit status is the gate's. Any other report ends as usual."""
    sample = sample_dir()
    out = tmp_path / "out.json"
    argv = ["score", str(sample / "golden.csv"), str(sample / "responses.csv"), "-q"]
    # What the console script runs, with an exit handler that says when the interpreter ends.
    script = (
        "import atexit, sys; atexit.register(print, 'torn down', file=sys.stderr); "
        "from goldenlens.cli.main import run; run()"
    )

    def score(*more: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", script, *argv, *more],
            env={"PYTHONPATH": DESKTOP, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=False,
        )

    done = score("-o", str(out), "--fail-under", "factual_knowledge=0.99")
    assert done.returncode == 1, done.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert len(report["rows"]) == 30
    lines = done.stderr.splitlines()
    assert lines[0] == f"Wrote 30 scored responses to {out}"
    assert [line.split()[0] for line in lines[1:]] == ["FAIL"] * 3, done.stderr  # and no "torn down"
    as_csv = score("-o", str(tmp_path / "out.csv"))
    assert as_csv.returncode == 0, as_csv.stderr
    assert as_csv.stderr.splitlines()[-1] == "torn down"


@pytest.mark.parametrize("command", ["score", "score --project", "report"])
def test_writing_a_workbook_reports_progress_unless_quiet(tmp_path: Path, command: str) -> None:
    """A workbook of ten thousand responses takes tens of seconds: the command says how far it
    is on stderr (a line every few seconds off a terminal, and the last one always). The sample's
    30 responses: the Scores and Highlights sheets are 60 rows; ``-q`` keeps it silent."""
    out = tmp_path / "report.xlsx"
    inputs = [str(sample_dir() / "golden.csv"), str(sample_dir() / "responses.csv")]
    project = str(tmp_path / "p.goldenlens")
    if command == "report":
        assert main(["score", *inputs, "--project", project, "-q"]) == 0
        args = ["report", project, "-o", str(out)]
    else:
        args = ["score", *inputs, "-o", str(out), *(["--project", project] if "--project" in command else [])]

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "goldenlens", *args, *extra],
            env={"PYTHONPATH": DESKTOP, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=False,
        )

    done = run()
    assert done.returncode == 0, done.stderr
    assert "writing the workbook: rows of its sheets 60/60 (100%, ETA 0s)\n" in done.stderr
    assert out.stat().st_size > 0
    quiet = run("-q")
    assert quiet.returncode == 0, quiet.stderr
    assert "writing the workbook" not in quiet.stderr

"""The statistics of a JSON report scored straight from files, worked out in a process started
with the read (:mod:`goldenlens.jobs.scoring.report_statistics`): the report is the same to the
byte as when they are worked out in the command's own process — when the process answers, when
it dies before or while working, when it fails — the command then never imports numpy itself,
and the process ends on its own (exit status 0, not ended by the command) with every run that
needs it no more: a fatal input, a refused gate, a report in another format.

Each run is a fresh ``python -m goldenlens score`` process (a fork needs a process running no
other thread, which a test session cannot promise); the expected report is written by the
same command with the statistics worked out in its own process and by the project path, which
the other command-line tests hold to FMEval.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.csv_inputs import input_writers

import goldenlens
from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.jobs.scoring import report_statistics

DESKTOP = str(Path(goldenlens.__file__).resolve().parents[1])

#: Lines the probes run first: the statistics process for any file (``threshold``: from that
#: many bytes), the scoring pool for any run, and records of what happened: the statistics
#: worked out in the command's own process, the processes started, and how each ended.
_RECORDED = (
    "import goldenlens.jobs.scoring.report_statistics as statistics\n"
    "import goldenlens.jobs.scoring.score_files as score_files\n"
    "import goldenlens.jobs.scoring.score_rows as score_rows\n"
    "statistics.PROCESS_FROM_BYTES = {threshold}\n"
    "score_rows.POOL_MIN_ROWS = 1\n"
    "here, started, ended = [], [], set()\n"
    "worked_out_here = score_files.report_statistics\n"
    "def counted(*arguments):\n"
    "    here.append(1)\n"
    "    return worked_out_here(*arguments)\n"
    "score_files.report_statistics = counted\n"
    "starting = statistics.StatisticsProcess.start_for.__func__\n"
    "def start_for(cls, *arguments):\n"
    "    found = starting(cls, *arguments)\n"
    "    started.append(found is not None)\n"
    "    return found\n"
    "statistics.StatisticsProcess.start_for = classmethod(start_for)\n"
    "closing = statistics.StatisticsProcess.close\n"
    "def close(self):\n"
    "    closing(self)\n"
    "    ended.add(self._process.exitcode)\n"
    "statistics.StatisticsProcess.close = close\n"
)
#: What a probe prints at its end: the statistics worked out here, whether numpy was imported
#: here, the statistics processes started and still running, and their exit statuses.
_SEEN = (
    "{'here': len(here), 'numpy': 'numpy' in sys.modules, 'started': sum(started), "
    "'running': [p.name for p in __import__('multiprocessing').active_children()], "
    "'ended': sorted(ended)}"
)


def _inputs(folder: Path) -> tuple[Path, Path]:
    """400 questions answered by three pipelines that differ (so the comparisons have
    something to say), 40 whose fact no response holds, a question nobody answers and
    not-scored fact parts."""
    with input_writers(folder) as (golden, responses, gw, rw):
        for n in range(400):
            fact = f"{n * 7} million<OR>{n * 7}M" if n % 5 else f"{n * 7} million<AND>the"
            if n % 10 == 3:  # no response holds it: an ambiguous question
                fact = f"{n * 7} billion"
            gw.writerow([f"q{n}", f"How much in {n}?", f"It was {n * 7} million dollars in {n}.", fact])
            rw.writerow([f"q{n}", "A", f"It was {n * 7} million."])
            about = f"About {n * 7 + n % 3} million dollars in {n}."
            rw.writerow([f"q{n}", "B", about if n % 4 else "No idea."])
            rw.writerow([f"q{n}", "C", f"{n * 7}M" if n % 2 else "I cannot say."])
        gw.writerow(["q-none", "Nobody?", "Nobody answers this one.", "nobody"])
    return golden, responses


def _score(
    folder: Path,
    out: Path,
    *,
    threshold: int,
    before: str = "",
    extra: tuple[str, ...] = (),
    status: int = 0,
    responses: Path | None = None,
) -> dict[str, Any]:
    """Run ``score`` to ``out`` in a fresh process (exit ``status``); what :data:`_SEEN` gives
    at its end."""
    golden, written = _inputs(folder)
    files = (str(golden), str(responses or written))
    probe = (
        "import json, sys; sys.argv = ['goldenlens', *sys.argv[1:]]\n"
        + _RECORDED.format(threshold=threshold)
        + before
        + "from goldenlens.cli.main import main\n"
        "try:\n    code = main()\n"
        f"finally:\n    print(json.dumps({_SEEN}))\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "score", *files, "-o", str(out), "-q", *extra],
        env={"PYTHONPATH": DESKTOP, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    seen: dict[str, Any] = json.loads(done.stdout)
    return seen


@pytest.fixture
def expected(tmp_path: Path) -> bytes:
    """The report with its statistics worked out in the command's own process."""
    out = tmp_path / "here.json"
    seen = _score(tmp_path, out, threshold=1 << 60)
    assert seen == {"here": 1, "numpy": True, "started": 0, "running": [], "ended": []}
    return out.read_bytes()


@pytest.mark.parametrize("baseline", [(), ("--baseline", "B")], ids=["plain", "baseline"])
def test_the_statistics_process_gives_the_same_report_and_spares_this_process_numpy(
    tmp_path: Path, baseline: tuple[str, ...]
) -> None:
    """Against the project path too (which works the golden rows' flags out from the stored
    scores, and which the rest of the suite holds to FMEval)."""
    out_here, out_there = tmp_path / "here.json", tmp_path / "there.json"
    stored = tmp_path / "stored.json"
    project = ("--project", str(tmp_path / "p.goldenlens"))
    _score(tmp_path, stored, threshold=1 << 60, extra=(*baseline, *project))
    assert _score(tmp_path, out_here, threshold=1 << 60, extra=baseline)["here"] == 1
    seen = _score(tmp_path, out_there, threshold=1, extra=baseline)
    assert seen == {"here": 0, "numpy": False, "started": 1, "running": [], "ended": [0]}
    assert out_there.read_bytes() == out_here.read_bytes() == stored.read_bytes()
    report = json.loads(out_there.read_text(encoding="utf-8"))
    assert {pair["a"] + pair["b"] for pair in report["comparisons"]["pairs"]} == {"AB", "AC", "BC"}
    assert report["human_calibrated"]["responses"] == 1200
    # Ambiguous: the question has scored responses and none holds the fact.
    found: dict[str, list[float]] = {}
    for row in report["rows"]:
        if row["factual_knowledge"] is not None:
            found.setdefault(row["question_id"], []).append(row["factual_knowledge"])
    ambiguous = sorted(q for q, values in found.items() if max(values) < 1)
    assert {f"q{n}" for n in range(3, 400, 10)} <= set(ambiguous)  # the "billion" facts at least
    flagged = [q for q, flags in report["golden_flags"].items() if "ambiguous_question" in flags]
    assert sorted(flagged) == ambiguous  # q-none: no response, so not ambiguous


#: Lines that end the statistics process badly, and the exit status it then has: killed as the
#: rows are handed over; killed while it works (it is made to wait, so the kill lands then);
#: failing in there (an error it tells the command, which works the statistics out itself and
#: meets the error there, if there is one).
_ENDED_BADLY = {
    "killed before": (
        "import os, signal\n"
        "handing_over = statistics.StatisticsProcess.send\n"
        "def killed_first(self, inputs):\n"
        "    os.kill(self._process.pid, signal.SIGKILL)\n"
        "    self._process.join()\n"
        "    handing_over(self, inputs)\n"
        "statistics.StatisticsProcess.send = killed_first\n",
        -9,
    ),
    "killed while working": (
        "import os, signal, time\n"
        "command = os.getpid()\n"
        "working_out = statistics.report_statistics\n"
        "def slow_elsewhere(*arguments):\n"
        "    if os.getpid() != command:\n"
        "        time.sleep(600)\n"
        "    return working_out(*arguments)\n"
        "statistics.report_statistics = slow_elsewhere\n"
        "asking = statistics.StatisticsProcess.answer\n"
        "def killed_while_working(self):\n"
        "    os.kill(self._process.pid, signal.SIGKILL)\n"
        "    self._process.join()\n"
        "    return asking(self)\n"
        "statistics.StatisticsProcess.answer = killed_while_working\n",
        -9,
    ),
    "failing": (
        "import os\n"
        "command = os.getpid()\n"
        "working_out = statistics.report_statistics\n"
        "def failing_elsewhere(*arguments):\n"
        "    if os.getpid() != command:\n"
        "        raise MemoryError('no room for the bootstrap')\n"
        "    return working_out(*arguments)\n"
        "statistics.report_statistics = failing_elsewhere\n",
        0,
    ),
}


@pytest.mark.parametrize("ending", sorted(_ENDED_BADLY))
def test_a_statistics_process_that_cannot_answer_changes_nothing(
    tmp_path: Path, expected: bytes, ending: str
) -> None:
    out = tmp_path / "there.json"
    before, status = _ENDED_BADLY[ending]
    seen = _score(tmp_path, out, threshold=1, before=before)
    assert seen == {"here": 1, "numpy": True, "started": 1, "running": [], "ended": [status]}
    assert out.read_bytes() == expected


def test_runs_that_stop_before_the_statistics_end_the_process_at_once(tmp_path: Path) -> None:
    """A fatal problem in the responses (read after the golden set, once the process started)
    and a gate naming a pipeline the inputs lack (refused before the report): the process ends
    on its own (status 0) when the command closes its end, and nothing is written."""
    empty = tmp_path / "empty.csv"
    empty.write_text("question_id,pipeline,response\n", encoding="utf-8")
    out = tmp_path / "out.json"
    for extra, responses in (((), empty), (("--fail-under", "Nope.factual_knowledge=0.5"), None)):
        seen = _score(tmp_path, out, threshold=1, extra=extra, status=2, responses=responses)
        assert seen == {"here": 0, "numpy": False, "started": 1, "running": [], "ended": [0]}
        assert not out.exists()


def test_reports_in_other_formats_and_the_python_api_start_no_process(tmp_path: Path) -> None:
    """Their statistics come with the full report: a process would only import numpy twice."""
    out = tmp_path / "out.csv"
    seen = _score(tmp_path, out, threshold=1)
    assert (seen["started"], seen["running"]) == (0, [])
    golden, responses = _inputs(tmp_path)
    probe = (
        _RECORDED.format(threshold=1) + "import sys\n"
        "from goldenlens.evaluation import evaluate\n"
        "print(len(evaluate(sys.argv[1], sys.argv[2]).rows), sum(started))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(golden), str(responses)],
        env={"PYTHONPATH": DESKTOP, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1200", "0"]


def test_the_process_imports_all_the_statistics_need_before_the_rows_come(tmp_path: Path) -> None:
    """Whatever the statistics import on their first use (numpy loads parts of itself lazily)
    is in STATISTICS_MODULES, so the process has it before the rows come, not after."""
    golden, responses = _inputs(tmp_path)
    probe = (
        "import importlib, json, sys\n"
        "from pathlib import Path\n"
        "import goldenlens.jobs.scoring.report_statistics as statistics\n"
        "import goldenlens.jobs.scoring.score_files as score_files\n"
        "statistics.PROCESS_FROM_BYTES = 1 << 60\n"
        "handed = []\n"
        "score_files.report_statistics = lambda *arguments: handed.append(arguments) or 1 / 0\n"
        "scored = score_files.score_files(Path(sys.argv[1]), Path(sys.argv[2]), json_report=True)\n"
        "try:\n"
        "    scored.write_json(Path(sys.argv[3]))\n"
        "except ZeroDivisionError:\n"
        "    pass\n"
        "for name in statistics.STATISTICS_MODULES:\n"
        "    importlib.import_module(name)\n"
        "before = set(sys.modules)\n"
        "found = statistics.report_statistics(*handed[0])\n"
        "print(json.dumps([sorted(set(sys.modules) - before), found.human_calibrated['responses']]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(golden), str(responses), str(tmp_path / "out.json")],
        env={"PYTHONPATH": DESKTOP, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[], 1200]
    assert not (tmp_path / "out.json").exists()  # the failed report left nothing


def test_small_files_keep_their_statistics_here(tmp_path: Path) -> None:
    """Below PROCESS_FROM_BYTES no process starts (it would cost more than it saves); a file
    that cannot be measured starts none either."""
    _golden, responses = _inputs(tmp_path)
    assert responses.stat().st_size < report_statistics.PROCESS_FROM_BYTES
    start = report_statistics.StatisticsProcess.start_for
    assert start(responses, [], FlagThresholds()) is None
    assert start(tmp_path / "missing.csv", [], FlagThresholds()) is None


def test_ctrl_c_as_the_process_starts_waits_until_it_is_settled(tmp_path: Path, expected: bytes) -> None:
    """Ctrl+C reaching the process between the fork and its settling (here: sent by itself at
    that moment) is held until it ignores Ctrl+C: it goes on and answers, with no traceback
    (before, it ran the command's handler and failed)."""
    interrupted = (
        "import os, signal\n"
        "settling = statistics.settle_child\n"
        "def interrupted_first():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    settling()\n"
        "statistics.settle_child = interrupted_first\n"
    )
    out = tmp_path / "there.json"
    seen = _score(tmp_path, out, threshold=1, before=interrupted)
    assert seen == {"here": 0, "numpy": False, "started": 1, "running": [], "ended": [0]}
    assert out.read_bytes() == expected

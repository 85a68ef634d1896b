"""``goldenlens score`` on files built to hurt, as a user runs it: the issue's 410 KB workbook
whose one shared string unpacks to 400 MB (it took 116 s and 23.4 GB, then exited 0 with no
report) is refused with exit 2 in seconds and a few tens of MB, naming the cell, and a project
that already holds a scored run is left exactly as it was; an over-long CSV field likewise.

The time and peak memory are those of the real ``goldenlens`` process (``os.wait4`` returns
the resource usage of that one child, started from a small launcher process).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.cli_process import PACKAGE_ROOT
from tests.io.hostile_files import write_responses_csv, write_xlsx_bomb, write_xlsx_repeated

from goldenlens.io.importing.sample import sample_dir

# Run from a small process: Linux keeps a process's peak memory across fork and exec, so a
# child of this test process would count pytest's own peak as its own.
_LAUNCHER = """
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(os.waitstatus_to_exitcode(status), time.perf_counter() - start, usage.ru_maxrss)
"""


def _measured(*args: str) -> tuple[int, str, float, float]:
    """Run ``python -m goldenlens ARGS``: exit code, stderr, seconds, peak resident MB."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([PACKAGE_ROOT, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, sys.executable, "-m", "goldenlens", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=300,
        check=True,
    )
    code, seconds, peak_kb = done.stdout.split()
    return int(code), done.stderr, float(seconds), int(peak_kb) / 1024


def test_the_bomb_is_refused_fast_and_small_and_the_project_untouched(tmp_path: Path) -> None:
    project, before = tmp_path / "study.goldenlens", tmp_path / "before.json"
    sample = sample_dir()
    code, err, _, _ = _measured(
        "score", str(sample / "golden.csv"), str(sample / "responses.csv"), "--project", str(project),
        "-o", str(before), "-q",
    )  # fmt: skip
    assert code == 0, err
    stored = project.read_bytes()

    bomb = write_xlsx_bomb(tmp_path / "golden.xlsx")
    responses = write_responses_csv(tmp_path / "responses.csv")
    out = tmp_path / "after.json"
    code, err, seconds, peak_mb = _measured(
        "score", str(bomb), str(responses), "--project", str(project), "-o", str(out)
    )
    assert code == 2, err
    assert "golden.xlsx, sheet 'Sheet1', row 2" in err
    assert "cell Sheet1!B2 (and 29 other cells with the same text) holds more than the 32,767" in err
    assert "Traceback" not in err
    print(f"the bomb refused in {seconds:.2f} s, peak {peak_mb:.0f} MB")
    assert seconds < 5, seconds
    assert peak_mb < 300, peak_mb
    assert not out.exists()
    assert project.read_bytes() == stored

    again = tmp_path / "again.json"
    code, err, _, _ = _measured("report", str(project), "-o", str(again))
    assert code == 0, err
    assert again.read_bytes() == before.read_bytes()


def test_an_over_long_csv_field_is_exit_2_naming_row_and_column(tmp_path: Path) -> None:
    golden = tmp_path / "golden.csv"
    golden.write_text(
        "id,question,answer,fact\nq2,Short?,yes,yes\nq3,Long?,yes," + "y" * 40_000 + "\n", encoding="utf-8"
    )
    responses = write_responses_csv(tmp_path / "responses.csv", rows=(2, 3))
    code, err, _, _ = _measured("score", str(golden), str(responses), "-q")
    assert code == 2, err
    assert "golden.csv, row 3: the field in row 3, column D, holds 40,000 characters" in err
    assert "Traceback" not in err


def test_a_string_repeated_into_a_gigabyte_is_refused_before_it_is_copied(tmp_path: Path) -> None:
    """40,000 cells naming one string of 32,000 characters (200 KB on disk, 1.28 GB of cell
    text once copied into each cell): exit 2 naming the sheet, in seconds and little memory."""
    workbook = write_xlsx_repeated(tmp_path / "golden.xlsx", cells=40_000, length=32_000)
    responses = write_responses_csv(tmp_path / "responses.csv")
    out = tmp_path / "report.json"
    code, err, seconds, peak_mb = _measured("score", str(workbook), str(responses), "-o", str(out), "-q")
    assert code == 2, err
    assert "golden.xlsx, sheet 'Sheet1'" in err
    assert "repeat its shared strings so often that they would hold over" in err
    assert "Traceback" not in err
    assert seconds < 5, seconds
    assert peak_mb < 300, peak_mb
    assert not out.exists()

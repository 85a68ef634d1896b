"""A report that cannot be written because the disk is full: one line, exit 2, old report kept.

Two real ways to run out of room, both through ``python -m goldenlens`` in a subprocess:

* a tiny tmpfs filled to the last byte (real ENOSPC; needs root to mount, else skipped);
* a file-size limit (``RLIMIT_FSIZE`` with SIGXFSZ ignored, so writes fail with EFBIG) — the same
  ``OSError`` path, and it needs no privileges.

Each writes a real report first, so "the existing report" is a real one, then checks it is
byte for byte unchanged and that no temporary file is left beside it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.badinputs import write_csv

from goldenlens.cli.main import main
from goldenlens.io.importing.sample import sample_dir

resource = pytest.importorskip("resource")  # POSIX only

OUTPUTS = [("report", ".xlsx"), ("report", ".json"), ("report", ".csv"), ("export-golden", ".xlsx")]
_SIZE_LIMIT = 48 * 1024  # above SQLite's 32 KiB shared-memory file, below every report written here


@pytest.fixture(scope="module")
def sample_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scored sample project: its reports fit a small tmpfs."""
    path = tmp_path_factory.mktemp("sample") / "sample.goldenlens"
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    assert main(["score", str(golden), str(responses), "--project", str(path), "-q"]) == 0
    return path


_WORDS = ("revenue", "margin", "cloud", "retail", "shares", "quarter", "growth", "segment", "income", "cash")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scored project (400 questions, 3 pipelines) whose reports are larger than the limit.

    Its words come from a small vocabulary: random words would make the stored highlight
    spans so large that SQLite's own temporary sort files hit the limit before the report.
    """
    folder = tmp_path_factory.mktemp("project")
    noise = random.Random(20230630)
    golden = [["id", "question", "answer", "fact"]]
    responses = [["question_id", "pipeline", "response"]]
    for i in range(1, 401):
        answer = " ".join(noise.choices(_WORDS, k=25))
        golden.append([f"q{i:03d}", f"What was item {i} in Q2?", answer, answer.split()[3]])
        responses += [[f"q{i:03d}", p, " ".join(noise.choices(_WORDS, k=20))] for p in ("P1", "P2", "P3")]
    path = folder / "p.goldenlens"
    code = main(
        [
            "score",
            str(write_csv(folder / "golden.csv", golden)),
            str(write_csv(folder / "responses.csv", responses)),
            "--project",
            str(path),
            "-q",
        ]
    )
    assert code == 0
    return path


@pytest.fixture(scope="module")
def big_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A golden-set CSV whose exported workbook is larger than the limit (words that do not compress)."""
    noise = random.Random(7)
    words = ["".join(noise.choices("abcdefghijklmnopqrstuvwxyz", k=noise.randint(3, 9))) for _ in range(5000)]
    rows = [["id", "question", "answer", "fact"]]
    rows += [
        [f"q{i:03d}", f"Item {i}?", " ".join(noise.choices(words, k=30)), words[i]] for i in range(1, 401)
    ]
    return write_csv(tmp_path_factory.mktemp("golden") / "golden.csv", rows)


def _run(
    command: str, source: Path, out: Path, preexec: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "goldenlens", command, str(source), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=preexec,
    )


def _assert_refused(proc: subprocess.CompletedProcess[str], out: Path, old: bytes, reason: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        f"goldenlens: error: Cannot write {out}: {reason} (the existing file is unchanged)."
    ]
    assert proc.stdout == ""
    assert out.read_bytes() == old
    leftovers = [p.name for p in out.parent.iterdir() if p.name.startswith(".~")]
    assert leftovers == []


@contextlib.contextmanager
def _tiny_tmpfs(folder: Path) -> Iterator[Path]:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)], capture_output=True, check=False
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode(errors='replace').strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def _fill(folder: Path) -> None:
    """Write a filler file until the file system has no byte left."""
    chunk = b"\0" * 4096
    with (folder / "filler").open("wb", buffering=0) as handle:
        try:
            while True:
                handle.write(chunk)
        except OSError as error:
            full = error
    assert full.errno == errno.ENOSPC


@pytest.mark.parametrize(("command", "suffix"), OUTPUTS)
def test_a_full_disk_is_one_line_and_keeps_the_old_report(
    sample_project: Path, tmp_path: Path, command: str, suffix: str
) -> None:
    with _tiny_tmpfs(tmp_path / "disk") as disk:
        out = disk / f"report{suffix}"
        first = _run(command, sample_project, out)
        assert first.returncode == 0, first.stderr
        old = out.read_bytes()
        _fill(disk)
        _assert_refused(_run(command, sample_project, out), out, old, "No space left on device")
        assert sorted(p.name for p in disk.iterdir()) == ["filler", out.name]


def _limit_file_size() -> None:
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # fail the write with EFBIG instead of dying
    resource.setrlimit(resource.RLIMIT_FSIZE, (_SIZE_LIMIT, _SIZE_LIMIT))


@pytest.mark.parametrize(("command", "suffix"), OUTPUTS)
def test_a_file_size_limit_is_one_line_and_keeps_the_old_report(
    project: Path, big_golden: Path, tmp_path: Path, command: str, suffix: str
) -> None:
    # export-golden reads a spreadsheet here: a project's SQLite temporary files would hit the limit too.
    source = big_golden if command == "export-golden" else project
    out = tmp_path / f"report{suffix}"
    first = _run(command, source, out)
    assert first.returncode == 0, first.stderr
    old = out.read_bytes()
    assert len(old) > _SIZE_LIMIT  # else the limited run could not fail
    # The limit holds for every file: a workbook's rows, streamed to the temporary folder, hit it first.
    where = f" in the temporary folder {tempfile.gettempdir()}" if suffix == ".xlsx" else ""
    _assert_refused(_run(command, source, out, _limit_file_size), out, old, f"File too large{where}")

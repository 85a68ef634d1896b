"""A non-editable install must carry the package data: the sample project and py.typed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_contains_the_sample_project_and_entry_points(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    [wheel] = tmp_path.glob("goldenlens-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        scripts = archive.read(entry_points).decode()
    for data in ("golden.csv", "responses.csv", "responses_wide.csv", "source_chunks.csv"):
        assert f"goldenlens/resources/sample/{data}" in names
    assert "goldenlens/py.typed" in names
    # The desktop entry and the icons the app's window and the bundle use (resources/icons).
    assert "goldenlens/resources/goldenlens.desktop" in names
    assert "goldenlens/resources/icons/goldenlens.svg" in names
    for size in (16, 32, 48, 64, 128, 256):
        assert f"goldenlens/resources/icons/goldenlens-{size}.png" in names
    assert "goldenlens/core/lexical/scorer.py" in names
    # Every sub-package of the source tree ships (setuptools lists them by hand in pyproject).
    source = ROOT / "desktop" / "goldenlens"
    # Nested ones too: goldenlens.judge.engines and goldenlens.judge.metrics.
    for init in sorted(source.glob("**/__init__.py")):
        relative = init.relative_to(source).as_posix()
        assert f"goldenlens/{relative}" in names, relative
    assert "goldenlens = goldenlens.cli.main:run" in scripts

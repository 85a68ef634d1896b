"""Fixtures shared by the command-line tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cli_process import run_goldenlens

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


@pytest.fixture
def sample_project(tmp_path: Path) -> Path:
    """The bundled sample scored into a new project by ``goldenlens score --project``."""
    project = tmp_path / "sample.goldenlens"
    done = run_goldenlens(
        "score", str(SAMPLE / "golden.csv"), str(SAMPLE / "responses.csv"), "--project", str(project), "-q"
    )
    assert done.returncode == 0, done.stderr
    return project

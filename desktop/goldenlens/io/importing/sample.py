"""Where the bundled sample project lives (installed with the package, no download)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

SAMPLE_GOLDEN = "golden.csv"
SAMPLE_RESPONSES = "responses.csv"
SAMPLE_RESPONSES_WIDE = "responses_wide.csv"


def sample_dir() -> Path:
    """The folder holding the Amazon Q2 2023 sample golden set and responses."""
    return Path(str(files("goldenlens.resources") / "sample"))

"""Fixtures shared by every test folder.

``tests`` is a package so shared helpers import as ``tests.badinputs``; this folder is also
put on ``sys.path`` so they import as plain ``badinputs`` (like ``fmeval_reference``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# Qt widgets are tested offscreen; set before any test imports PySide6.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    """The bundled sample project: golden.csv, responses.csv, responses_wide.csv."""
    return TESTS.parent / "resources" / "sample"

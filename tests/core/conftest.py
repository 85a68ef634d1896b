"""Fixtures for the core tests, and import paths for their plain helper modules.

``tests/fmeval_reference.py`` (the FMEval oracle) and the ``core_*.py`` helpers here are plain
modules, so their folders are put on ``sys.path`` (whatever the pytest import mode).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

CORE_TESTS = Path(__file__).resolve().parent
for _path in (CORE_TESTS.parents[1] / "desktop", CORE_TESTS.parent, CORE_TESTS):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from core_sample import SampleRows, read_sample  # noqa: E402


@pytest.fixture(scope="session")
def sample() -> SampleRows:
    """The bundled sample project: 10 golden items x 3 pipelines."""
    return read_sample()

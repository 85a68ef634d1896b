"""Scoring with or without GoldenLens's C extension, in one test run: what an install without a
C compiler computes (hypothesis runs many examples in one test call, so this is a context
manager, not a fixture)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from goldenlens.core.lexical import batch as lexical_batch
from goldenlens.core.lexical import normalise

#: Both paths where the extension was built; the Python one alone otherwise.
PATHS = ["c", "python"] if normalise.ASCII_IN_C else ["python"]


@contextmanager
def scoring_path(path: str) -> Iterator[None]:
    """Score with the C extension (``"c"``, as installed) or with Python steps only."""
    saved = (
        lexical_batch.ASCII_IN_C,
        normalise._ascii_normalised_words,
        normalise._ascii_normalised,
        normalise.ascii_lower_contains_each,
    )
    if path == "python":
        lexical_batch.ASCII_IN_C = False
        normalise._ascii_normalised_words = normalise._ascii_normalised = None
        normalise.ascii_lower_contains_each = None
    try:
        yield
    finally:
        (
            lexical_batch.ASCII_IN_C,
            normalise._ascii_normalised_words,
            normalise._ascii_normalised,
            normalise.ascii_lower_contains_each,
        ) = saved

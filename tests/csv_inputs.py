"""A golden set and long-layout responses written as CSV by a test or a benchmark."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def input_writers(folder: Path) -> Iterator[tuple[Path, Path, Any, Any]]:
    """``golden.csv`` and ``responses.csv`` (long layout) in ``folder``, open for writing with
    their header rows written: ``(golden, responses, golden writer, responses writer)``."""
    golden, responses = folder / "golden.csv", folder / "responses.csv"
    with (
        golden.open("w", newline="", encoding="utf-8") as g,
        responses.open("w", newline="", encoding="utf-8") as r,
    ):
        gw, rw = csv.writer(g), csv.writer(r)
        gw.writerow(["id", "question", "answer", "fact"])
        rw.writerow(["question_id", "pipeline", "response"])
        yield golden, responses, gw, rw

"""The sample project (resources/sample) read with the csv module, for the core tests."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


@dataclass(frozen=True)
class SampleRows:
    """The sample golden set and responses as plain strings, in file order."""

    golden: dict[str, dict[str, str]]
    responses: dict[tuple[str, str], dict[str, str]]
    pipelines: tuple[str, ...]

    def row(self, question_id: str, pipeline: str) -> tuple[str, str, str]:
        """(response, golden answer, fact) of one sample row."""
        item = self.golden[question_id]
        return self.responses[question_id, pipeline]["response"], item["answer"], item["fact"]


def read_sample() -> SampleRows:
    with (SAMPLE / "golden.csv").open(newline="", encoding="utf-8") as f:
        golden = {r["id"]: r for r in csv.DictReader(f)}
    with (SAMPLE / "responses.csv").open(newline="", encoding="utf-8") as f:
        responses = {(r["question_id"], r["pipeline"]): r for r in csv.DictReader(f)}
    pipelines = tuple(dict.fromkeys(p for _, p in responses))
    return SampleRows(golden, responses, pipelines)

"""A sweep of many pipelines over the sample's golden set (issue #22), written by the tests."""

from __future__ import annotations

import csv
from pathlib import Path

from goldenlens.io.importing.sample import sample_dir

#: Pipelines of the sweep: ``Echo`` and ``Tuned01``…``Tuned13``.
SWEEP_PIPELINES = 14


def write_sweep(folder: Path, pipelines: int = SWEEP_PIPELINES) -> tuple[Path, Path]:
    """The sample's golden set and a long responses file answered by ``pipelines`` pipelines:
    ``Echo`` gives every golden answer (its fact always found); ``TunedNN`` answers "I do not
    know." but for one or two questions each, where it gives the golden answer."""
    golden = sample_dir() / "golden.csv"
    with golden.open(encoding="utf-8", newline="") as handle:
        items = list(csv.DictReader(handle))
    responses = folder / "sweep.csv"
    with responses.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "pipeline", "response"])
        for n, item in enumerate(items):
            writer.writerow([item["id"], "Echo", item["answer"]])
            for p in range(1, pipelines):
                right = n in {p % len(items), (p * 3) % len(items)}
                writer.writerow([item["id"], f"Tuned{p:02d}", item["answer"] if right else "I do not know."])
    return golden, responses

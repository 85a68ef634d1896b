"""Projects with several scoring runs, made by the real jobs, for the run-history tests.

:func:`two_run_project`: the bundled sample imported and scored (run 1), then the responses
CSV rewritten with :data:`CHANGED_RESPONSES`, re-imported and scored again (run 2). The
expected scores of every cell come from :mod:`tests.fmeval_reference` (an independent FMEval
1.2.3 transcription) on the CSV texts, not from the code under test.

Import as ``from tests.run_projects import two_run_project``.
"""

from __future__ import annotations

import csv
from pathlib import Path

from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.store.project import ProjectStore
from tests.fmeval_reference import all_scores

#: ``(question_id, pipeline) -> response`` of run 2: q01/Pipeline2 names the CEO in full (F1
#: up), q02/Pipeline1 gives up (every score down), q04/Pipeline3 drops the number (FK down).
CHANGED_RESPONSES = {
    ("q01", "Pipeline2"): "Andrew R. Jassy is the President and Chief Executive Officer of Amazon.com, Inc.",
    ("q02", "Pipeline1"): "I do not know.",
    ("q04", "Pipeline3"): "Amazon reported its operating income for the quarter.",
}


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


def write_rows(path: Path, rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def changed_responses(
    out: Path, changes: dict[tuple[str, str], str], *, drop: set[tuple[str, str]] | None = None
) -> Path:
    """The sample's responses CSV with ``changes`` applied and the ``drop`` keys left out."""
    rows = [
        {**row, "response": changes.get((row["question_id"], row["pipeline"]), row["response"])}
        for row in read_rows(sample_dir() / "responses.csv")
        if (row["question_id"], row["pipeline"]) not in (drop or set())
    ]
    return write_rows(out, rows)


def score_with(path: Path, responses: Path) -> int:
    """Import the sample golden set with ``responses`` into ``path`` and score it; the run id."""
    with ProjectStore.open(path, create=True) as store:
        import_inputs(store, sample_dir() / "golden.csv", responses)
        return score_project(store)


def two_run_project(folder: Path) -> Path:
    """The sample scored (run 1), three responses changed and scored again (run 2)."""
    path = folder / "two-runs.goldenlens"
    score_with(path, sample_dir() / "responses.csv")
    score_with(path, changed_responses(folder / "responses-run2.csv", CHANGED_RESPONSES))
    return path


def reference_scores(
    changes: dict[tuple[str, str], str] | None = None,
) -> dict[tuple[str, str, str], float]:
    """``{(question_id, pipeline, metric): value}`` of the sample's responses (with ``changes``)
    as the independent FMEval transcription scores them."""
    golden = {row["id"]: row for row in read_rows(sample_dir() / "golden.csv")}
    out: dict[tuple[str, str, str], float] = {}
    for row in read_rows(sample_dir() / "responses.csv"):
        key = (row["question_id"], row["pipeline"])
        response = (changes or {}).get(key, row["response"])
        item = golden[row["question_id"]]
        for metric, value in all_scores(response, item["answer"], item["fact"]).items():
            out[(*key, metric)] = value
    return out

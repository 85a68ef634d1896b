"""A small project for the fact-variant preview tests: a workbook written here, imported and
scored by the real import-then-score job.

Each response was written to be (or not be) rescued by a known variant of its question's
fact, so the expected flips are known from the text alone (see ``EXPECTED_FLIPS``).

Import as ``from tests.variant_project import build_project``.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl

from goldenlens.core.input_selection import InputSelection
from goldenlens.jobs.importing.import_and_score import import_and_score

GOLDEN = [
    ("q1", "What were net sales?", "Net sales were $134.4 billion.", "134.4 billion"),
    ("q2", "Where is the office?", "The office is at 410 Terry Avenue North, Seattle.",
     "410 Terry Avenue North"),
    ("q3", "When did the deal close?", "The deal closed on 2023-02-22.", "2023-02-22"),
    ("q4", "What was Amazon's operating income?", "Amazon's operating income was $12.5 billion.",
     "Amazon<AND>12.5 billion"),
    ("q5", "When was the report filed?", "The report was filed on July 28, 2023.", "July 28, 2023"),
]  # fmt: skip
RESPONSES = [
    ("q1", "Pipeline1", "Net sales were $134,400 million."),  # 134,400 million: 0 -> 1
    ("q1", "Pipeline2", "Net sales were $134.4 billion."),  # already 1
    ("q1", "Pipeline3", "Net sales were about $134 billion."),  # rounded: stays 0
    ("q2", "Pipeline1", "The offices are at 410 Terry Ave. N., Seattle."),  # 410 Terry Ave. N.: 0 -> 1
    ("q2", "Pipeline2", "The office is in Seattle, WA."),  # no address: stays 0
    ("q2", "Pipeline3", "The offices are at 410 Terry Ave N, Seattle."),  # 410 Terry Ave N: 0 -> 1
    ("q3", "Pipeline1", "It closed on February 22, 2023."),  # February 22, 2023: 0 -> 1
    ("q3", "Pipeline2", "It closed on 2023-02-22."),  # already 1
    ("q3", "Pipeline3", "It closed in early 2023."),  # no day: stays 0
    ("q4", "Pipeline1", "Amazon's operating income was $12,500 million."),  # AND group: 0 -> 1
    ("q4", "Pipeline2", "Operating income was $12,500 million."),  # no "Amazon": stays 0
    ("q4", "Pipeline3", "Amazon's operating income was $12.5 billion."),  # already 1
    ("q5", "Pipeline1", "It was filed on July 28, 2023, after the deal closed on February 22, 2023."),
    ("q5", "Pipeline2", "Filed 2023-07-28."),  # 2023-07-28: 0 -> 1 for q5
    ("q5", "Pipeline3", "It reported net sales of $134,400 million."),  # q1's variant, elsewhere
]
#: question -> the pipelines that some variant of its fact rescues (0 -> 1), from the texts.
EXPECTED_FLIPS = {
    "q1": {"Pipeline1"},
    "q2": {"Pipeline1", "Pipeline3"},
    "q3": {"Pipeline1"},
    "q4": {"Pipeline1"},
    "q5": {"Pipeline2"},
}


def write_workbook(path: Path) -> Path:
    """The golden set and the responses as two sheets of one workbook (openpyxl)."""
    book = openpyxl.Workbook()
    golden = book.active
    assert golden is not None
    golden.title = "Golden"
    golden.append(["id", "question", "answer", "fact"])
    for row in GOLDEN:
        golden.append(list(row))
    responses = book.create_sheet("Responses")
    responses.append(["question_id", "pipeline", "response"])
    for row in RESPONSES:
        responses.append(list(row))
    book.save(path)
    return path


def build_project(folder: Path) -> Path:
    """Write the workbook, import and score it; return the project file."""
    workbook = write_workbook(folder / "variants.xlsx")
    project = folder / "variants.goldenlens"
    import_and_score(
        project,
        workbook,
        workbook,
        selection=InputSelection(golden_sheet="Golden", responses_sheet="Responses"),
    )
    return project

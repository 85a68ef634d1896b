"""What the bundled sample must score: the "Factual Knowledge Report" of resources/sample/README.md.

Exact inclusion of the fact, per question, for Pipeline1, Pipeline2 and Pipeline3.
"""

from __future__ import annotations

PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")

FK_REPORT: dict[str, tuple[int, int, int]] = {
    "q01": (1, 1, 1),
    "q02": (1, 0, 0),
    "q03": (0, 0, 0),
    "q04": (1, 1, 1),
    "q05": (1, 0, 1),
    "q06": (0, 0, 0),
    "q07": (1, 0, 0),
    "q08": (1, 0, 0),
    "q09": (1, 1, 1),
    "q10": (1, 1, 1),
}

#: The report workbook's sheets for the sample, in order (no judge run, no problems).
REPORT_SHEETS = [
    "Decision",
    "Summary",
    "Scores",
    "Factual Knowledge Report",
    "Highlights",
    "Flags",
    "Advice",
    "Comparisons",
    "About",
]

"""The report as CSV, for spreadsheets and scripts: one line per (question, pipeline), UTF-8
with a BOM so Excel opens accented text correctly.

Its text cells (ids, pipeline names, reasons, flags, review and override notes, reviewers) are
written so that a spreadsheet shows them as text: one that begins like a formula gets a leading
apostrophe (:mod:`~goldenlens.io.reports.csv_cells`), so a pipeline named ``=1+1`` opens as
``=1+1``, not 2. Nothing reads this file back; its numbers (scores, judge values, the originals
of overrides) are written as numbers, a score of -0.5 included.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from goldenlens.core.lexical.scorer import FACT_SCORE_NAMES, LEXICAL_SCORE_NAMES
from goldenlens.core.scored_rows import Report
from goldenlens.io.atomic_files import write_atomically
from goldenlens.io.reports.csv_cells import neutralised
from goldenlens.io.reports.row_fields import JudgeScores, iter_report_rows, judge_metric_names

#: Per overridden metric, the CSV columns after the value: ``<metric>_<suffix>``.
OVERRIDE_CSV_SUFFIXES: tuple[str, ...] = ("original", "override_by", "override_at", "override_note")
#: The override columns that hold a number (the others are text).
_NUMBER_SUFFIXES: tuple[str, ...] = ("original",)


def overridden_metrics(report: Report) -> list[str]:
    """Metrics overridden at least once in the report: lexical ones in score order, then
    judge ones in first-seen order."""
    found = {metric for row in report.rows for metric in row.overrides}
    judge = [m for row in report.rows for m in row.overrides if m not in LEXICAL_SCORE_NAMES]
    return [m for m in LEXICAL_SCORE_NAMES if m in found] + list(dict.fromkeys(judge))


def _override_cells(overrides: Mapping[str, Any], metrics: Sequence[str]) -> dict[str, Any]:
    cells: dict[str, Any] = {"overridden": ";".join(m for m in metrics if m in overrides)}
    for metric in metrics:
        found = overrides.get(metric)
        values = (
            ("", "", "", "")
            if found is None
            else (found["original"], found["reviewer"], found["created_at"], found["note"])
        )
        cells |= {f"{metric}_{suffix}": v for suffix, v in zip(OVERRIDE_CSV_SUFFIXES, values, strict=True)}
    return cells


#: A response's label in the CSV: the verdict in force, who gave it, when, why, and the pipeline
#: whose same answer it was given to (empty: this one).
LABEL_COLUMNS: tuple[str, ...] = ("label", "label_by", "label_at", "label_note", "label_same_answer_as")


def _label_cells(label: dict[str, str] | None) -> dict[str, str]:
    if label is None:
        return dict.fromkeys(LABEL_COLUMNS, "")
    keys = ("verdict", "reviewer", "created_at", "note", "same_answer_as")
    return {column: label[key] for column, key in zip(LABEL_COLUMNS, keys, strict=True)}


def write_report_csv(report: Report, path: Path, judge: JudgeScores | None = None) -> None:
    """UTF-8 with BOM so Excel opens accented text correctly; flags joined with ``;``.

    Scores are the effective values (reviewer overrides applied); a not-scored lexical value is
    an empty cell, with the reason in ``<metric>_reason`` (the two Factual Knowledge metrics,
    the only lexical ones that can be not scored). ``review_status`` and ``review_note`` give
    the question's review, ``label`` the response's verdict in force (``label_by``, ``label_at``
    and ``label_note``: who gave it, when and why), ``overridden`` the row's overridden
    metrics (``;``-joined), and each
    metric overridden anywhere in the report adds the columns ``<metric>_original`` (empty when
    it was not scored), ``_override_by``, ``_override_at`` and ``_override_note``. With
    ``judge``, each judge metric adds a value column (empty when not scored) and a
    ``<metric>_reason`` column (why it was not scored). Written whole or not at all
    (:class:`ExportError`)."""
    write_atomically(path, lambda temporary: _write_csv(report, temporary, judge))


def _write_csv(report: Report, path: Path, judge: JudgeScores | None) -> None:
    metrics = judge_metric_names(judge) if judge else []
    judge_columns = [column for name in metrics for column in (name, f"{name}_reason")]
    fact_reasons = [f"{name}_reason" for name in FACT_SCORE_NAMES]
    overridden = overridden_metrics(report)
    override_columns = [f"{m}_{suffix}" for m in overridden for suffix in OVERRIDE_CSV_SUFFIXES]
    fields = [
        "question_id",
        "pipeline",
        *LEXICAL_SCORE_NAMES,
        *fact_reasons,
        "flags",
        *judge_columns,
        "review_status",
        "review_note",
        "overridden",
        *override_columns,
        *LABEL_COLUMNS,
    ]
    # Decided by column, not by each value's type: a pipeline named "-1" is text all the same.
    numbers = {
        *LEXICAL_SCORE_NAMES,
        *metrics,
        *(f"{m}_{suffix}" for m in overridden for suffix in _NUMBER_SUFFIXES),
    }
    texts = [name for name in fields if name not in numbers]
    with path.open("w", newline="", encoding="utf-8-sig") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for row in iter_report_rows(report, judge):
            values = row.pop("judge", {})
            reasons = row.pop("judge_reasons", {})
            row.pop("judge_status", None)
            row.pop("status")
            lexical_reasons = row.pop("reasons")
            cells_lexical = {f"{name}_reason": lexical_reasons.get(name, "") for name in FACT_SCORE_NAMES}
            cells = {name: values.get(name) for name in metrics}
            cells |= {f"{name}_reason": reasons.get(name, "") for name in metrics}
            cells |= _override_cells(row.pop("overrides"), overridden)
            cells |= _label_cells(row.pop("label"))
            line = {**row, **cells_lexical, "flags": ";".join(row["flags"]), **cells}
            for name in texts:
                text = line[name]
                if isinstance(text, str):
                    line[name] = neutralised(text)
            writer.writerow(line)

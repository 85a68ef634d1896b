"""The report as one JSON document, for scripts and CI pipelines (the workbook is
:mod:`goldenlens.io.reports.xlsx.workbook`, the CSV :mod:`goldenlens.io.reports.csv_report`).

The document is streamed: the entries before ``rows``, then the rows one a line (each already
a line of JSON, :mod:`goldenlens.io.reports.json_rows`) as they come, then the entries after
them (means, comparisons, reviews, flags, signatures, problems), so the rows are never all in
memory. Entries with one element per row or question are written one element a line, the
rest indented.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, TextIO

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.flags import Flag
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.problems import Problem
from goldenlens.core.reviewer_decisions import QuestionReview, review_counts
from goldenlens.core.scored_rows import Report
from goldenlens.io.atomic_files import write_atomically
from goldenlens.io.reports.json_rows import ROW_SEPARATOR, dumps, row_json
from goldenlens.io.reports.row_fields import JudgeScores, iter_report_rows, judge_signatures, review_fields


def report_head(judge: JudgeScores | None) -> dict[str, Any]:
    """The JSON report's entries before ``rows`` that the judge brings."""
    return {"judge_signatures": judge_signatures(judge)} if judge else {}


def _report_parts(report: Report, judge: JudgeScores | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The JSON report's entries before and after ``rows``: the judge's signatures, means per
    pipeline, models and caveat come first."""
    head = report_head(judge)
    if judge:
        # Only a report with judge scores needs it: `goldenlens score` never loads it.
        from goldenlens.io.reports.judge_summary import judge_summary_entries

        head |= judge_summary_entries(report, judge)
    return head, report_tail(
        report.golden,
        summary=report.summary(),
        comparisons=report.decision().as_dict(),
        overridden=report.override_counts(),
        review=report.review,
        golden_flags=report.golden_flags,
        signatures=report.signatures,
        problems=report.problems,
        human_calibrated=None if report.human_calibrated is None else report.human_calibrated.as_dict(),
    )


def report_tail(
    golden: Sequence[GoldenItem],
    *,
    summary: Mapping[str, Mapping[str, float | None]],
    comparisons: Mapping[str, Any],
    overridden: Mapping[str, Mapping[str, int]],
    review: Callable[[str], QuestionReview],
    golden_flags: Mapping[str, Sequence[Flag]],
    signatures: Mapping[str, Signature],
    problems: Sequence[Problem],
    human_calibrated: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON report's entries after ``rows``: what reviewers would judge
    (``human_calibrated``, the block
    :meth:`~goldenlens.core.calibration.human_calibrated.HumanCalibrated.as_dict` gives),
    per-pipeline means of the effective scores, their intervals and the pipelines' paired
    comparisons (``comparisons``,
    :meth:`goldenlens.core.stats.decision.Decision.as_dict`), overridden values, every question's
    review state, flags, signatures, input problems."""
    # Equal reviews (most questions are unreviewed) and equal flag lists share one value, which
    # the writer then encodes once (:func:`_write_entry`).
    review_values: dict[QuestionReview, dict[str, str]] = {}
    flag_values: dict[tuple[Flag, ...], list[str]] = {}
    reviews = [review(item.id) for item in golden]
    calibrated = {} if human_calibrated is None else {"human_calibrated": human_calibrated}
    return calibrated | {
        "summary": summary,
        "comparisons": comparisons,
        "overridden": overridden,
        "overridden_total": sum(sum(by_metric.values()) for by_metric in overridden.values()),
        "reviews": {
            item.id: review_values.get(found) or review_values.setdefault(found, review_fields(found))
            for item, found in zip(golden, reviews, strict=True)
        },
        "review_counts": review_counts(reviews),
        "golden_flags": {
            qid: flag_values.get(key) or flag_values.setdefault(key, [f.value for f in key])
            for qid, flags in golden_flags.items()
            if (key := tuple(flags))
        },
        "signatures": {name: sig.short() for name, sig in signatures.items()},
        "problems": [p.as_dict() for p in problems],
    }


#: Entries of the JSON report with one element per row or question: written one element a
#: line (compact JSON, C-encoded), the rest indented.
_PER_LINE = frozenset({"rows", "reviews", "golden_flags", "problems"})


def write_report_json(report: Report, path: Path, judge: JudgeScores | None = None) -> None:
    """The report as one JSON document, streamed row by row (one row a line, never the whole
    document in memory), written whole or not at all (:class:`ExportError`)."""
    head, tail = _report_parts(report, judge)
    lines = (row_json(row) for row in iter_report_rows(report, judge))
    write_json_document(path, head, lines, lambda: tail)


def write_json_document(
    path: Path,
    head: Mapping[str, Any],
    row_lines: Iterable[str],
    tail: Callable[[], Mapping[str, Any]],
    *,
    rows_to_disk_first: bool = False,
) -> None:
    """The JSON report from its parts: ``head`` entries, ``rows`` (each already one line of
    JSON, :func:`row_json`), then the entries ``tail()`` returns once every row is written
    (so rows can be written as they are scored); written whole or not at all.
    ``rows_to_disk_first``: flush the rows to the disk before asking for the tail, which is
    worked out elsewhere meanwhile (the final flush then has only the tail to write)."""
    write_atomically(
        path, lambda temporary: _write_json(temporary, head, row_lines, tail, rows_to_disk_first)
    )


def _write_json(
    path: Path,
    head: Mapping[str, Any],
    row_lines: Iterable[str],
    tail: Callable[[], Mapping[str, Any]],
    rows_to_disk_first: bool,
) -> None:
    with path.open("w", encoding="utf-8") as handle:
        handle.write("{")
        for name, value in head.items():
            _write_entry(handle, name, value)
            handle.write(",")
        handle.write(f"\n  {dumps('rows')}: ")
        _write_lines(handle, iter(row_lines), "[", "]")
        if rows_to_disk_first:
            handle.flush()
            os.fsync(handle.fileno())
        for name, value in tail().items():
            handle.write(",")
            _write_entry(handle, name, value)
        handle.write("\n}\n")


def _write_entry(handle: TextIO, name: str, value: Any) -> None:
    handle.write(f"\n  {dumps(name)}: ")
    if name in _PER_LINE and isinstance(value, dict):
        # A value object met again is the same value: encoded once (the report's tail shares
        # one value among the questions with equal reviews or flags).
        encoded: dict[int, str] = {}

        def entry(key: Any, item: Any) -> str:
            found = encoded.get(id(item))
            if found is None:
                found = encoded[id(item)] = dumps(item)
            return f"{encode_basestring(key) if type(key) is str else dumps(key)}: {found}"

        _write_lines(handle, (entry(k, v) for k, v in value.items()), "{", "}")
    elif name in _PER_LINE and isinstance(value, list):
        _write_lines(handle, (dumps(v) for v in value), "[", "]")
    else:
        handle.write(json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  "))


def _write_lines(handle: TextIO, lines: Iterator[str], opening: str, closing: str) -> None:
    handle.write(opening)
    first = True
    for line in lines:
        handle.write("\n    " if first else ROW_SEPARATOR)
        handle.write(line)  # not added to the separator first: a line may be a chunk of rows
        first = False
    handle.write(closing if first else f"\n  {closing}")

"""The report as JSON or CSV, for scripts and CI pipelines (the workbook is report_writer)."""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from goldenlens.core.lexical import LEXICAL_SCORE_NAMES
from goldenlens.core.model import ScoreRecord, ScoreStatus
from goldenlens.core.report import Report
from goldenlens.io.output_files import write_atomically

#: Judge scores of a run: ``{(question_id, pipeline): {metric: record}}``.
JudgeScores = Mapping[tuple[str, str], Mapping[str, ScoreRecord]]


def judge_metric_names(judge: JudgeScores) -> list[str]:
    """The judge metrics present, in first-seen order."""
    names: list[str] = []
    for by_metric in judge.values():
        names.extend(name for name in by_metric if name not in names)
    return names


def _judge_fields(
    key: tuple[str, str], judge: JudgeScores, metrics: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """``judge`` {metric: value|None}, ``judge_status`` {metric: status|None} and
    ``judge_reasons`` {metric: reason} (not-scored metrics only) of one row."""
    by_metric = judge.get(key, {})
    values: dict[str, float | None] = {}
    status: dict[str, str | None] = {}
    reasons: dict[str, str] = {}
    for name in metrics:
        record = by_metric.get(name)
        values[name] = None if record is None else record.value
        status[name] = None if record is None else ScoreStatus(record.status).value
        if record is not None and record.status is ScoreStatus.NOT_SCORED:
            reasons[name] = record.reason
    return {"judge": values, "judge_status": status, "judge_reasons": reasons}


def report_rows(report: Report, judge: JudgeScores | None = None) -> list[dict[str, Any]]:
    """One dict per (question, pipeline): ids, the seven scores and the flag names; with
    ``judge``, also ``judge``/``judge_status``/``judge_reasons`` per row."""
    metrics = judge_metric_names(judge) if judge else []
    return [
        {
            "question_id": row.item.id,
            "pipeline": row.response.pipeline,
            **{name: row.scores[name] for name in LEXICAL_SCORE_NAMES},
            "flags": [flag.value for flag in row.flags],
            **(_judge_fields(row.key, judge, metrics) if judge else {}),
        }
        for row in report.rows
    ]


def judge_signatures(judge: JudgeScores) -> dict[str, str]:
    """Each judge metric's signature JSON (the first record's), in first-seen order."""
    found: dict[str, str] = {}
    for by_metric in judge.values():
        for name, record in by_metric.items():
            found.setdefault(name, record.signature)
    return found


def report_to_dict(report: Report, judge: JudgeScores | None = None) -> dict[str, Any]:
    extra: dict[str, Any] = {"judge_signatures": judge_signatures(judge)} if judge else {}
    return {
        **extra,
        "rows": report_rows(report, judge),
        "summary": report.summary(),
        "golden_flags": {
            qid: [f.value for f in flags] for qid, flags in report.golden_flags.items() if flags
        },
        "signatures": {name: sig.short() for name, sig in report.signatures.items()},
        "problems": [p.as_dict() for p in report.problems],
    }


def write_report_json(report: Report, path: Path, judge: JudgeScores | None = None) -> None:
    """The report as one JSON document, written whole or not at all (:class:`ExportError`)."""
    text = json.dumps(report_to_dict(report, judge), indent=2, ensure_ascii=False) + "\n"
    write_atomically(path, lambda temporary: _write_text(temporary, text))


def _write_text(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8") as handle:
        handle.write(text)


def write_report_csv(report: Report, path: Path, judge: JudgeScores | None = None) -> None:
    """UTF-8 with BOM so Excel opens accented text correctly; flags joined with ``;``.

    With ``judge``, each judge metric adds a value column (empty when not scored) and a
    ``<metric>_reason`` column (why it was not scored). Written whole or not at all
    (:class:`ExportError`)."""
    write_atomically(path, lambda temporary: _write_csv(report, temporary, judge))


def _write_csv(report: Report, path: Path, judge: JudgeScores | None) -> None:
    metrics = judge_metric_names(judge) if judge else []
    judge_columns = [column for name in metrics for column in (name, f"{name}_reason")]
    fields = ["question_id", "pipeline", *LEXICAL_SCORE_NAMES, "flags", *judge_columns]
    with path.open("w", newline="", encoding="utf-8-sig") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for row in report_rows(report, judge):
            values = row.pop("judge", {})
            reasons = row.pop("judge_reasons", {})
            row.pop("judge_status", None)
            cells = {name: values.get(name) for name in metrics}
            cells |= {f"{name}_reason": reasons.get(name, "") for name in metrics}
            writer.writerow({**row, "flags": ";".join(row["flags"]), **cells})

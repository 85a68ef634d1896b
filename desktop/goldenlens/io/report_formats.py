"""The report as JSON or CSV, for scripts and CI pipelines (the workbook is report_writer)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from goldenlens.core.lexical import LEXICAL_SCORE_NAMES
from goldenlens.core.report import Report


def report_rows(report: Report) -> list[dict[str, Any]]:
    """One dict per (question, pipeline): ids, the seven scores and the flag names."""
    return [
        {
            "question_id": row.item.id,
            "pipeline": row.response.pipeline,
            **{name: row.scores[name] for name in LEXICAL_SCORE_NAMES},
            "flags": [flag.value for flag in row.flags],
        }
        for row in report.rows
    ]


def report_to_dict(report: Report) -> dict[str, Any]:
    return {
        "rows": report_rows(report),
        "summary": report.summary(),
        "golden_flags": {
            qid: [f.value for f in flags] for qid, flags in report.golden_flags.items() if flags
        },
        "signatures": {name: sig.short() for name, sig in report.signatures.items()},
        "problems": [p.as_dict() for p in report.problems],
    }


def write_report_json(report: Report, path: Path) -> None:
    path.write_text(json.dumps(report_to_dict(report), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_report_csv(report: Report, path: Path) -> None:
    """UTF-8 with BOM so Excel opens accented text correctly; flags joined with ``;``."""
    fields = ["question_id", "pipeline", *LEXICAL_SCORE_NAMES, "flags"]
    with path.open("w", newline="", encoding="utf-8-sig") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for row in report_rows(report):
            writer.writerow({**row, "flags": ";".join(row["flags"])})

"""Build a :class:`Report` from what a project stored, and export it."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from goldenlens.core.flags import Flag, FlagThresholds
from goldenlens.core.lexical import LEXICAL_SCORE_NAMES
from goldenlens.core.model import ScoreRecord
from goldenlens.core.report import Report, ScoredRow
from goldenlens.core.serial import result_from_records
from goldenlens.core.signature import Signature
from goldenlens.io.golden_writer import write_golden_workbook
from goldenlens.io.report_writer import write_report_workbook
from goldenlens.jobs.progress import Progress, ProgressFn, no_progress
from goldenlens.jobs.score_job import LEXICAL_RUN
from goldenlens.store.project import ProjectStore


class NoScoresError(Exception):
    """The project has no finished lexical run to report on."""


def build_report(store: ProjectStore, run_id: int | None = None) -> Report:
    """The report of ``run_id`` (default: the latest finished lexical run) from stored values."""
    if run_id is None:
        run = store.latest_run(LEXICAL_RUN, finished_only=True)
        if run is None:
            raise NoScoresError(f"{store.path.name} has no finished scoring run; score it first.")
        run_id = run.id
    run_info = store.run(run_id)
    items = store.golden_items()
    by_id = {item.id: item for item in items}
    pipelines = store.pipelines()
    grouped: dict[tuple[str, str], list[ScoreRecord]] = defaultdict(list)
    for record in store.scores(run_id, metrics=LEXICAL_SCORE_NAMES):
        grouped[(record.question_id, record.pipeline)].append(record)
    response_flags: dict[tuple[str, str], list[Flag]] = defaultdict(list)
    row_flags: dict[str, list[Flag]] = defaultdict(list)
    for question_id, pipeline, flag in store.flags(run_id):
        if pipeline:
            response_flags[(question_id, pipeline)].append(Flag(flag))
        else:
            row_flags[question_id].append(Flag(flag))
    rows: list[ScoredRow] = []
    signatures: dict[str, Signature] = {}
    for response in store.responses():
        records = grouped.get((response.question_id, response.pipeline))
        if not records or response.question_id not in by_id:
            continue
        for record in records:
            signatures.setdefault(record.metric, Signature.from_json(record.signature))
        rows.append(
            ScoredRow(
                by_id[response.question_id],
                response,
                result_from_records(records),
                tuple(response_flags.get((response.question_id, response.pipeline), ())),
            )
        )
    thresholds = FlagThresholds()
    if run_info is not None and isinstance(run_info.params.get("thresholds"), dict):
        thresholds = FlagThresholds(**run_info.params["thresholds"])
    return Report(
        golden=tuple(items),
        pipelines=tuple(pipelines),
        rows=tuple(rows),
        golden_flags={item.id: tuple(row_flags.get(item.id, ())) for item in items},
        problems=tuple(store.problems()),
        signatures=signatures,
        thresholds=thresholds,
    )


def export_report(
    store: ProjectStore, out: Path, run_id: int | None = None, *, progress: ProgressFn = no_progress
) -> Report:
    """Write the report workbook of a scored project."""
    progress(Progress("export", 0, 1, f"Writing {out.name}"))
    report = build_report(store, run_id)
    write_report_workbook(report, out)
    progress(Progress("export", 1, 1, f"Wrote {out.name}"))
    return report


def export_golden(store: ProjectStore, out: Path) -> int:
    """Write the project's (curated) golden set as a clean workbook; returns the row count."""
    items = store.golden_items()
    reviews = {qid: (r.status, r.note) for qid, r in store.reviews().items()}
    write_golden_workbook(items, out, review=reviews or None)
    return len(items)

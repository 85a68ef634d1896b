"""Build a :class:`Report` from what a project stored, and export it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection
from dataclasses import replace
from pathlib import Path

from goldenlens.core.flags import Flag, FlagThresholds
from goldenlens.core.lexical import (
    F1_SCORE,
    LEXICAL_SCORE_NAMES,
)
from goldenlens.core.model import ScoreRecord, ScoreStatus
from goldenlens.core.report import Report, ScoredRow, row_from_scores
from goldenlens.core.review import AppliedOverride, QuestionReview
from goldenlens.core.run_kinds import JUDGE_RUN, LEXICAL_RUN
from goldenlens.core.signature import Signature
from goldenlens.io.golden_writer import write_golden_workbook
from goldenlens.io.report_formats import JudgeScores
from goldenlens.io.report_html import write_report_html
from goldenlens.io.report_writer import write_report_workbook
from goldenlens.jobs.golden_versions import golden_change_log, run_version_label
from goldenlens.jobs.progress import Progress, ProgressFn, no_progress
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import Override

#: The run kind of judge scores (``goldenlens.jobs.judge_job.JUDGE_RUN``; not imported from
#: there, which would load the judge packages for every report).
JUDGE_RUN_KIND = JUDGE_RUN


#: Suffixes that export the HTML report rather than the workbook.
HTML_SUFFIXES = (".html", ".htm")


class NoScoresError(Exception):
    """The project has no finished lexical run to report on."""


def _judge_run(store: ProjectStore, judge_run_id: int | None) -> int | None:
    """``judge_run_id``, else the newest judge run (finished or not), else ``None``."""
    if judge_run_id is not None:
        return judge_run_id
    latest = store.runs.latest(JUDGE_RUN_KIND)
    return None if latest is None else latest.id


def _judge_overrides(store: ProjectStore) -> list[Override]:
    return [o for o in store.reviews.overrides() if o.metric not in LEXICAL_SCORE_NAMES]


def judge_scores(store: ProjectStore, judge_run_id: int | None = None) -> JudgeScores:
    """The judge scores of ``judge_run_id`` (default: the newest judge run) by row and metric,
    with the reviewer's overrides of judge metrics applied (an overridden record holds the
    effective value and counts as scored; :func:`build_report` keeps the original). Empty
    when the project has no judge run. Every report format (xlsx, JSON, CSV) reads them from
    here."""
    run_id = _judge_run(store, judge_run_id)
    if run_id is None:
        return {}
    found: dict[tuple[str, str], dict[str, ScoreRecord]] = {}
    for record in store.results.scores(run_id):
        found.setdefault((record.question_id, record.pipeline), {})[record.metric] = record
    for override in _judge_overrides(store):
        key = (override.question_id, override.pipeline)
        by_metric = found.setdefault(key, {})
        stored = by_metric.get(override.metric)
        # A row the judge never reached gets a record too, so the reviewer's value counts;
        # its empty signature is left out of the report's signature list.
        base = stored or ScoreRecord(override.question_id, override.pipeline, override.metric, None, "")
        by_metric[override.metric] = replace(
            base, value=override.effective_value, status=ScoreStatus.SCORED, reason=""
        )
    return found


def _applied_overrides(
    store: ProjectStore,
    lexical: Callable[[tuple[str, str], str], float | None],
    judge_run_id: int | None,
) -> dict[tuple[str, str], dict[str, AppliedOverride]]:
    """The overrides in effect by row and metric, each with the stored score it replaces
    (lexical: ``lexical(key, metric)``; judge: from the judge run, read per overridden question)."""
    judge_run = _judge_run(store, judge_run_id)
    judge_originals: dict[str, dict[tuple[str, str], float | None]] = {}
    applied: dict[tuple[str, str], dict[str, AppliedOverride]] = defaultdict(dict)
    for override in store.reviews.overrides():
        value = override.effective_value
        if value is None:  # pragma: no cover - store.reviews.overrides() leaves withdrawals out
            continue
        key = (override.question_id, override.pipeline)
        if override.metric in LEXICAL_SCORE_NAMES:
            original = lexical(key, override.metric)
        else:
            if override.question_id not in judge_originals:
                records = (
                    []
                    if judge_run is None
                    else store.results.scores_of_question(judge_run, override.question_id)
                )
                judge_originals[override.question_id] = {(r.pipeline, r.metric): r.value for r in records}
            original = judge_originals[override.question_id].get((override.pipeline, override.metric))
        applied[key][override.metric] = AppliedOverride(
            metric=override.metric,
            value=value,
            original=original,
            passed=override.passed,
            reviewer=override.reviewer,
            note=override.note,
            created_at=override.created_at,
        )
    return applied


def report_reviews(store: ProjectStore) -> dict[str, QuestionReview]:
    """The review state of every reviewed question (the others read as unreviewed)."""
    return {
        qid: QuestionReview(status=r.status, note=r.note, reviewer=r.reviewer, updated_at=r.updated_at)
        for qid, r in store.reviews.all().items()
    }


def build_report(
    store: ProjectStore, run_id: int | None = None, *, judge_run_id: int | None = None
) -> Report:
    """The report of ``run_id`` (default: the latest finished lexical run) from stored values,
    with the reviewer's overrides applied (lexical and judge metrics; judge originals from
    ``judge_run_id``, default the newest judge run) and each question's review state."""
    if run_id is None:
        run = store.runs.latest(LEXICAL_RUN, finished_only=True)
        if run is None:
            raise NoScoresError(f"{store.path.name} has no finished scoring run; score it first.")
        run_id = run.id
    run_info = store.runs.get(run_id)
    items = store.golden.items()
    by_id = {item.id: item for item in items}
    pipelines = store.responses.pipelines()
    # Plain numbers, one query per metric: no record objects, signatures once per metric.
    keys, columns = store.results.score_columns(run_id, LEXICAL_SCORE_NAMES)
    row_of = {key: n for n, key in enumerate(keys)}
    reasons = store.results.score_reasons(run_id, LEXICAL_SCORE_NAMES)
    stored_signatures = store.results.signatures(run_id)
    signatures = {  # in score order, as a report scored without a project lists them
        metric: Signature.from_json(stored_signatures[metric])
        for metric in LEXICAL_SCORE_NAMES
        if metric in stored_signatures
    }
    f1 = signatures.get(F1_SCORE)
    params: dict[str, object] = dict(f1.params) if f1 is not None else {}
    response_flags: dict[tuple[str, str], list[Flag]] = defaultdict(list)
    row_flags: dict[str, list[Flag]] = defaultdict(list)
    for question_id, pipeline, flag in store.results.flags(run_id):
        if pipeline:
            response_flags[(question_id, pipeline)].append(Flag(flag))
        else:
            row_flags[question_id].append(Flag(flag))

    def stored(key: tuple[str, str], metric: str) -> float | None:
        n = row_of.get(key)
        column = columns.get(metric)
        return None if n is None or column is None else column[n]

    overrides = _applied_overrides(store, stored, judge_run_id)
    rows: list[ScoredRow] = []
    for response in store.responses.all():
        key = (response.question_id, response.pipeline)
        n = row_of.get(key)
        if n is None or response.question_id not in by_id:
            continue
        scores = {name: columns[name][n] for name in LEXICAL_SCORE_NAMES}
        why = {name: reasons.get((*key, name), "") for name in LEXICAL_SCORE_NAMES if scores[name] is None}
        rows.append(
            row_from_scores(
                by_id[response.question_id],
                response,
                scores,
                reasons=why,
                params=params,
                flags=tuple(response_flags.get(key, ())),
                overrides=overrides.get(key, {}),
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
        problems=tuple(store.responses.problems()),
        signatures=signatures,
        thresholds=thresholds,
        reviews=report_reviews(store),
        golden_version=run_version_label(store, run_id),
    )


def report_sources(store: ProjectStore) -> list[str]:
    """The files of the project's latest import, for the report's About block."""
    imports = store.responses.imports()
    if not imports:
        return []
    latest = imports[-1]
    return [Path(name).name for name in (latest.golden_source, latest.responses_source) if name]


def only_questions(report: Report, question_ids: Collection[str]) -> Report:
    """The report restricted to some questions (the desktop app's "export filtered rows")."""
    keep = set(question_ids)
    return replace(
        report,
        golden=tuple(item for item in report.golden if item.id in keep),
        rows=tuple(row for row in report.rows if row.item.id in keep),
        golden_flags={qid: flags for qid, flags in report.golden_flags.items() if qid in keep},
        reviews={qid: review for qid, review in report.reviews.items() if qid in keep},
    )


def export_report(
    store: ProjectStore,
    out: Path,
    run_id: int | None = None,
    *,
    question_ids: Collection[str] | None = None,
    progress: ProgressFn = no_progress,
    judge_run_id: int | None = None,
) -> Report:
    """Write the report workbook of a scored project (optionally only some questions), with
    the scores of ``judge_run_id`` (default: the newest judge run, if any) on a Judge sheet;
    an ``out`` ending in ``.html`` gets the self-contained HTML report instead."""
    progress(Progress("export", 0, 1, f"Writing {out.name}"))
    report = build_report(store, run_id, judge_run_id=judge_run_id)
    if question_ids is not None:
        report = only_questions(report, question_ids)
    if out.suffix.lower() in HTML_SUFFIXES:
        write_report_html(report, out, sources=report_sources(store))
    else:
        write_report_workbook(
            report, out, sources=report_sources(store), judge=judge_scores(store, judge_run_id)
        )
    progress(Progress("export", 1, 1, f"Wrote {out.name}"))
    return report


def export_golden(store: ProjectStore, out: Path, *, question_ids: Collection[str] | None = None) -> int:
    """Write the project's (curated) golden set as a clean workbook, with the change log of
    its versions on a second sheet; returns the row count."""
    items = store.golden.items()
    if question_ids is not None:
        keep = set(question_ids)
        items = [item for item in items if item.id in keep]
    reviews = {qid: (r.status, r.note) for qid, r in store.reviews.all().items()}
    # The log covers the whole set's history, even when only some rows are exported: it says
    # how the set got to where it is.
    log = golden_change_log(store)
    write_golden_workbook(items, out, review=reviews or None, change_log=log)
    return len(items)

"""Export a project's reports: the JSON report straight from the stored run (row by row), the
workbook or HTML report of a run (optionally some questions only), and the curated golden set."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from goldenlens.core.advice.values import ProjectAdvice
from goldenlens.core.calibration.human_calibrated import HumanCalibrated
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.reviewer_decisions import AppliedOverride, QuestionReview
from goldenlens.core.runs.run_kinds import JUDGE_RUN, LEXICAL_RUN
from goldenlens.core.scored_rows import Report, count_overrides, effective_scores, summarise_values
from goldenlens.io.reports.html.page import write_report_html
from goldenlens.io.reports.json_report import (
    report_head,
    report_tail,
    write_json_document,
    write_report_json,
)
from goldenlens.io.reports.json_rows import fresh_row_json, row_json
from goldenlens.io.reports.row_fields import row_fields
from goldenlens.io.reports.xlsx.golden_workbook import write_golden_workbook
from goldenlens.io.reports.xlsx.workbook import write_report_workbook
from goldenlens.jobs.curation.advice_job import build_advice
from goldenlens.jobs.curation.golden_versions import golden_change_log
from goldenlens.jobs.labelling.calibration import calibrate, calibrated_report, label_rows
from goldenlens.jobs.progress import Progress, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.reporting.stored_run import build_report, judge_scores, load_stored_run
from goldenlens.store.project import ProjectStore

#: Suffixes that export the HTML report rather than the workbook.
HTML_SUFFIXES = (".html", ".htm")


@dataclass(frozen=True)
class WrittenJson:
    """What :func:`write_stored_json` wrote: the number of rows, the summary (each pipeline's
    means, as the document holds them) and what reviewers would judge."""

    rows: int
    summary: dict[str, dict[str, float | None]]
    human_calibrated: HumanCalibrated | None


@takes_project
def write_stored_json(
    store: ProjectStore,
    out: Path,
    run_id: int | None = None,
    *,
    judge_run_id: int | None = None,
    baseline: str | None = None,
) -> WrittenJson:
    """The JSON report of a run straight from the project, row by row (what
    :func:`~goldenlens.io.reports.json_report.write_report_json` writes for :func:`build_report`,
    byte for byte, without reading the response texts or holding a row object per response:
    a 200,000-response project's report stays far below the memory a :class:`Report` takes).
    ``baseline``: see :func:`~goldenlens.core.stats.decide.decide`."""
    judge = judge_scores(store, judge_run_id)
    if judge:  # the judge's means and agreement are worked out over the Report's rows
        report, _advice = report_and_advice(store, run_id, judge_run_id=judge_run_id, baseline=baseline)
        write_report_json(report, out, judge)
        return WrittenJson(len(report.rows), report.summary(), report.human_calibrated)
    human_calibrated = calibrate(store)
    labels = label_rows(store)
    run = load_stored_run(store, run_id, judge_run_id=judge_run_id)
    keys = [key for key in store.responses.row_keys() if run.has(*key)]
    values: list[tuple[str, list[float | None]]] = []
    question_ids: list[str] = []
    overridden: list[tuple[str, dict[str, AppliedOverride]]] = []
    summary: dict[str, dict[str, float | None]] = {}

    def lines() -> Iterator[str]:
        for key in keys:
            scores, why, flags = run.row(key)
            overrides = run.overrides.get(key, {})
            effective = effective_scores(scores, overrides)
            values.append((key[1], [effective[name] for name in LEXICAL_SCORE_NAMES]))
            question_ids.append(key[0])
            if overrides:
                overridden.append((key[1], overrides))
            elif key[0] not in run.reviews and key not in labels:  # the usual row: from the template
                yield fresh_row_json(*key, values[-1][1], flags=[flag.value for flag in flags], reasons=why)
                continue
            review = run.reviews.get(key[0]) or QuestionReview()
            yield row_json(
                row_fields(
                    key,
                    effective,
                    reasons=why,
                    flags=[flag.value for flag in flags],
                    review=review,
                    overrides=overrides,
                    label=labels.get(key),
                )
            )

    def tail() -> dict[str, object]:
        from goldenlens.core.stats.decide import decide  # numpy: only for reports that show it

        summary.update(summarise_values(values, run.pipelines))
        rows = ((qid, pipeline, scores) for qid, (pipeline, scores) in zip(question_ids, values, strict=True))
        return report_tail(
            run.items,
            summary=summary,
            comparisons=decide(rows, run.pipelines, baseline=baseline).as_dict(),
            overridden=count_overrides(overridden, run.pipelines),
            review=lambda question_id: run.reviews.get(question_id) or QuestionReview(),
            golden_flags=run.golden_flags,
            signatures=run.signatures,
            problems=tuple(store.responses.problems()),
            human_calibrated=None if human_calibrated is None else human_calibrated.as_dict(),
        )

    write_json_document(out, report_head(None), lines(), tail)
    return WrittenJson(len(keys), summary, human_calibrated)


@takes_project
def report_sources(store: ProjectStore) -> list[str]:
    """The files of the project's latest import, for the report's About block."""
    imports = store.responses.imports()
    if not imports:
        return []
    latest = imports[-1]
    return [Path(name).name for name in (latest.golden_source, latest.responses_source) if name]


def only_questions_advice(advice: ProjectAdvice, question_ids: Collection[str]) -> ProjectAdvice:
    """The advice of the questions exported (the desktop app's "export filtered rows")."""
    keep = set(question_ids)
    return replace(advice, questions=tuple(q for q in advice.questions if q.question_id in keep))


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


@takes_project
def report_and_advice(
    store: ProjectStore,
    run_id: int | None = None,
    *,
    judge_run_id: int | None = None,
    baseline: str | None = None,
    with_advice: bool = False,
) -> tuple[Report, ProjectAdvice | None]:
    """The full report of a run (labels and what reviewers would judge included) and, with
    ``with_advice`` (a workbook's Advice sheet), the advice on the same rows.

    What reviewers would judge is the project's as it stands: the latest run's responses, and
    its diagnosis checks the advice of that run with the newest judge run, whichever run the
    report shows. When the report is that one the advice is worked out once at most, from
    the report, for the sheet and the checks alike (the checks need it where a label gives a
    verdict)."""
    built = replace(build_report(store, run_id, judge_run_id=judge_run_id), baseline=baseline)
    current = _is_current(store, run_id, judge_run_id)
    advice = build_advice(store, report=built, judge_run_id=judge_run_id) if with_advice else None
    report = calibrated_report(store, built, advice=advice if current else None, current=current)
    return report, advice


def _is_current(store: ProjectStore, run_id: int | None, judge_run_id: int | None) -> bool:
    """Whether a report of ``run_id`` with ``judge_run_id`` is of the project as it stands:
    the latest finished lexical run, the newest judge run (the defaults of both)."""
    if run_id is not None:
        latest = store.runs.latest(LEXICAL_RUN, finished_only=True)
        if latest is None or latest.id != run_id:
            return False
    if judge_run_id is not None:
        newest = store.runs.latest(JUDGE_RUN)
        return newest is not None and newest.id == judge_run_id
    return True


@takes_project
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
    an ``out`` ending in ``.html`` gets the self-contained HTML report instead (with the same
    judge scores)."""
    progress(Progress("export", 0, 1, f"Writing {out.name}"))
    workbook = out.suffix.lower() not in HTML_SUFFIXES
    report, advice = report_and_advice(store, run_id, judge_run_id=judge_run_id, with_advice=workbook)
    if question_ids is not None:
        report = only_questions(report, question_ids)
        # The whole project's advice, on the rows exported: its false matches and its label
        # checks are the project's, as the Decision sheet's are.
        advice = None if advice is None else only_questions_advice(advice, question_ids)
    judge = judge_scores(store, judge_run_id)
    if not workbook:
        write_report_html(report, out, sources=report_sources(store), judge=judge)
    else:
        write_report_workbook(report, out, sources=report_sources(store), judge=judge, advice=advice)
    progress(Progress("export", 1, 1, f"Wrote {out.name}"))
    return report


@takes_project
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

"""The curation advice of a project: its latest finished lexical run read through the
advisor (:mod:`goldenlens.core.advice.advisor`), with the semantic similarity of the newest judge
run when that run measured it.

Everything read from the store goes through :func:`read_advice_inputs`, one small adapter;
:func:`build_advice` is the one way to the advice, for the app, the command line and the reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from goldenlens.core.advice.advisor import SEMANTIC_SIMILARITY, advise, similarity_from_records
from goldenlens.core.advice.reviewer_views import (
    ReviewerVerdict,
    quoted_note,
    with_demotions,
    with_reviewer_verdicts,
)
from goldenlens.core.advice.values import AdviceThresholds, ProjectAdvice
from goldenlens.core.calibration.diagnosis_check import check_diagnoses, labelled_diagnoses
from goldenlens.core.calibration.labels import LabelSource, LabelState
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.scored_rows import Report
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.reporting.stored_run import build_report
from goldenlens.store.project import ProjectStore


@dataclass(frozen=True)
class AdviceInputs:
    """What the advisor reads from a project: the report of the latest finished lexical run
    and the semantic similarity by ``(question_id, pipeline)`` (empty: not measured)."""

    report: Report
    similarity: Mapping[tuple[str, str], float] = field(default_factory=dict)
    similarity_source: str = ""
    #: The reviewer's word per ``(question_id, pipeline)``: the label in force, else an
    #: override of Factual Knowledge.
    verdicts: Mapping[tuple[str, str], ReviewerVerdict] = field(default_factory=dict)


@takes_project
def read_advice_inputs(
    store: ProjectStore, report: Report | None = None, *, judge_run_id: int | None = None
) -> AdviceInputs:
    """The store reads of the advice, all here: the latest finished lexical run's report
    (:class:`~goldenlens.jobs.scoring.pending.NoScoresError` without one; ``report``: one
    already built, as a report workbook has it), the reviewer's verdicts and the
    ``semantic_similarity`` scores of judge run ``judge_run_id`` (default: the newest)."""
    report = report if report is not None else build_report(store)
    verdicts = {**_overridden(report), **_labelled(store)}
    judge = store.runs.latest(JUDGE_RUN) if judge_run_id is None else store.runs.get(judge_run_id)
    if judge is None:
        return AdviceInputs(report, verdicts=verdicts)
    similarity = similarity_from_records(store.results.scores(judge.id, metrics=[SEMANTIC_SIMILARITY]))
    source = f"{SEMANTIC_SIMILARITY} of judge run {judge.id}" if similarity else ""
    return AdviceInputs(report, similarity, source, verdicts)


def _labelled(store: ProjectStore) -> dict[tuple[str, str], ReviewerVerdict]:
    if not store.labels.count():
        return {}
    found = store.labels.in_force()
    verdicts = {}
    for key, label in zip(found.keys, found.labels, strict=True):
        if not label.known or label.record is None:
            continue
        record = label.record
        said = f"labelled by {record.reviewer or 'a reviewer'}"
        if label.source is LabelSource.SAME_ANSWER:
            said += f" on the same answer from {record.pipeline}"
        verdicts[key] = ReviewerVerdict(
            label.state is LabelState.CORRECT,
            said + quoted_note(record.note),
            labelled=True,
        )
    return verdicts


def _overridden(report: Report) -> dict[tuple[str, str], ReviewerVerdict]:
    verdicts = {}
    for row in report.rows:
        override = row.overrides.get(FACTUAL_KNOWLEDGE)
        if override is not None:
            said = (
                f"Factual Knowledge overridden to {override.value:g} by {override.reviewer or 'a reviewer'}"
            )
            verdicts[row.key] = ReviewerVerdict(override.value >= 1.0, said + quoted_note(override.note))
    return verdicts


@takes_project
def build_advice(
    store: ProjectStore,
    changes: Mapping[str, float] | None = None,
    *,
    report: Report | None = None,
    judge_run_id: int | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> ProjectAdvice:
    """The advice of an open project (:func:`read_advice_inputs`; of ``report`` when given):
    the run's own flag thresholds and the advisor's defaults, with ``changes`` (flat threshold names,
    :meth:`AdviceThresholds.with_values`) applied. ``progress`` hears of every question; a set
    ``cancel`` stops it after the question under way (:class:`~goldenlens.jobs.progress.Cancelled`)."""
    inputs = read_advice_inputs(store, report, judge_run_id=judge_run_id)
    thresholds = AdviceThresholds(flags=inputs.report.thresholds).with_values(changes or {})

    def on_question(done: int, total: int) -> None:
        if cancel is not None:
            cancel.raise_if_cancelled()
        progress(Progress("advice", done, total))

    advice = advise(
        inputs.report,
        similarity=inputs.similarity,
        thresholds=thresholds,
        similarity_source=inputs.similarity_source,
        on_question=on_question,
    )
    if not inputs.verdicts:
        return advice
    advice = with_reviewer_verdicts(advice, inputs.verdicts)
    labelled = {key: v.correct for key, v in inputs.verdicts.items() if v.labelled}
    fact_found: dict[str, list[str]] = {}
    for row in inputs.report.rows:  # the fact matched as scored, whatever a reviewer overrode
        if row.result.scores.get(FACTUAL_KNOWLEDGE) == 1.0:
            fact_found.setdefault(row.item.id, []).append(row.response.pipeline)
    found = labelled_diagnoses(
        ((d.code.value, d.question_id, d.pipeline) for d in advice.diagnoses),
        lambda question_id, pipeline: labelled.get((question_id, pipeline)),
        lambda question_id: fact_found.get(question_id, ()),
    )
    return with_demotions(replace(advice, checks=check_diagnoses(found)))

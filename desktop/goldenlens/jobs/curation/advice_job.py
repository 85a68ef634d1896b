"""The curation advice of a project: its latest finished lexical run read through the
advisor (:mod:`goldenlens.core.advice.advisor`), with the semantic similarity of the newest judge
run when that run measured it.

Everything read from the store goes through :func:`read_advice_inputs`, one small adapter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from goldenlens.core.advice.advisor import SEMANTIC_SIMILARITY, advise, similarity_from_records
from goldenlens.core.advice.values import AdviceThresholds, ProjectAdvice
from goldenlens.core.calibration.diagnosis_check import check_diagnoses, labelled_diagnoses
from goldenlens.core.calibration.labels import LabelState
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
    #: The reviewer's verdict in force per ``(question_id, pipeline)`` (True: correct).
    verdicts: Mapping[tuple[str, str], bool] = field(default_factory=dict)


@takes_project
def read_advice_inputs(store: ProjectStore) -> AdviceInputs:
    """The store reads of the advice, all here: the latest finished lexical run's report
    (:class:`~goldenlens.jobs.reporting.stored_run.NoScoresError` without one) and the newest judge
    run's ``semantic_similarity`` scores."""
    report = build_report(store)
    verdicts = _verdicts(store)
    judge = store.runs.latest(JUDGE_RUN)
    if judge is None:
        return AdviceInputs(report, verdicts=verdicts)
    similarity = similarity_from_records(store.results.scores(judge.id, metrics=[SEMANTIC_SIMILARITY]))
    source = f"{SEMANTIC_SIMILARITY} of judge run {judge.id}" if similarity else ""
    return AdviceInputs(report, similarity, source, verdicts)


def _verdicts(store: ProjectStore) -> dict[tuple[str, str], bool]:
    if not store.labels.count():
        return {}
    found = store.labels.in_force()
    return {
        key: label.state is LabelState.CORRECT
        for key, label in zip(found.keys, found.labels, strict=True)
        if label.known
    }


def advice_from_inputs(
    inputs: AdviceInputs,
    changes: Mapping[str, float] | None = None,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> ProjectAdvice:
    """The advice of read inputs: the run's own flag thresholds and the advisor's defaults,
    with ``changes`` (flat threshold names, :meth:`AdviceThresholds.with_values`) applied.
    ``progress`` hears of every question; ``cancel`` is checked after each one."""
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
    fact_found: dict[str, list[str]] = {}
    for row in inputs.report.rows:
        if row.scores.get(FACTUAL_KNOWLEDGE) == 1.0:
            fact_found.setdefault(row.item.id, []).append(row.response.pipeline)
    found = labelled_diagnoses(
        ((d.code.value, d.question_id, d.pipeline) for d in advice.diagnoses),
        lambda question_id, pipeline: inputs.verdicts.get((question_id, pipeline)),
        lambda question_id: fact_found.get(question_id, ()),
    )
    return replace(advice, checks=check_diagnoses(found))


@takes_project
def build_advice(
    store: ProjectStore,
    changes: Mapping[str, float] | None = None,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> ProjectAdvice:
    """The advice of an open project (see :func:`advice_from_inputs`); a set ``cancel`` stops
    it after the question under way (:class:`~goldenlens.jobs.progress.Cancelled`)."""
    return advice_from_inputs(read_advice_inputs(store), changes, progress=progress, cancel=cancel)

"""The human-calibrated estimates of a project: its labels, its usable rounds and its signals
through :mod:`goldenlens.core.calibration`, ready for every report.

With up to :data:`ALL_PAIRS_UP_TO` pipelines every pair is compared; with more, each pipeline
against the one estimated best (Holm's correction is over the comparisons made).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

import numpy as np

from goldenlens.core.advice.values import ProjectAdvice
from goldenlens.core.calibration.estimate_notes import NO_ROUND_YET
from goldenlens.core.calibration.estimator import estimate
from goldenlens.core.calibration.human_calibrated import PLANNED_WIDTHS, HumanCalibrated, not_checked
from goldenlens.core.calibration.labels import (
    ANSWER_CHANGED,
    STATE_OF_VERDICT,
    LabelSource,
    LabelState,
    ResponseLabel,
)
from goldenlens.core.calibration.labels_needed import labels_needed
from goldenlens.core.calibration.metric_agreement import metric_agreements
from goldenlens.core.calibration.predictor import fitted_predictions
from goldenlens.core.lexical.scorer import (
    EXACT_MATCH,
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    QUASI_EXACT_MATCH,
    RECALL,
)
from goldenlens.core.scored_rows import Report
from goldenlens.core.stats.decision import ALL_PAIRS_UP_TO
from goldenlens.io.reports.row_fields import label_fields
from goldenlens.jobs.curation.advice_job import build_advice
from goldenlens.jobs.labelling.population import ProjectResponses, load_responses, usable_rounds
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.scoring.pending import scored_run
from goldenlens.store.project import ProjectStore

#: The metrics whose agreement with the labels a report shows.
AGREEMENT_METRICS: Final = (
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    EXACT_MATCH,
    QUASI_EXACT_MATCH,
    F1_SCORE,
    RECALL,
)


def _pairs(k: int, estimates: Sequence[float | None]) -> list[tuple[int, int]]:
    if k <= ALL_PAIRS_UP_TO:
        return [(a, b) for a in range(k) for b in range(a + 1, k)]
    scored = [(e, p) for p, e in enumerate(estimates) if e is not None]
    if not scored:
        return []
    best = max(scored)[1]
    return [(best, p) for p in range(k) if p != best]


@takes_project
def calibrate(store: ProjectStore, *, with_diagnoses: bool = True) -> HumanCalibrated:
    """The project's :class:`HumanCalibrated` (raises ``NoScoresError`` with no finished run).
    A project nobody labelled yet is read in one pass over its Factual Knowledge scores: no
    response text, no predictor (what every report of a big project pays)."""
    if not store.labels.count():
        return _not_checked(store)
    responses = load_responses(store)
    return calibrate_responses(store, responses, (lambda: build_advice(store)) if with_diagnoses else None)


@takes_project
def calibrated_report(
    store: ProjectStore, report: Report, *, advice: ProjectAdvice | None = None, current: bool = False
) -> Report:
    """``report`` with what reviewers would judge (:attr:`Report.human_calibrated`) and each
    response's verdict in force (:attr:`Report.labels`), as every report of a project shows them.
    ``advice``: the project's advice when the caller has it already (a workbook's Advice sheet),
    so the diagnosis checks are not worked out twice; ``current``: ``report`` is of the project
    as it stands (the latest run, the newest judge run), so the advice the checks need, when
    labels with a verdict need it, is worked out from it rather than from a report built again."""
    if not store.labels.count():
        return replace(report, human_calibrated=_not_checked(store))

    def project_advice() -> ProjectAdvice:
        return advice if advice is not None else build_advice(store, report=report if current else None)

    responses = load_responses(store)
    in_force = [
        (key, label)
        for key, label in zip(responses.keys, responses.labels, strict=True)
        if label.state is not LabelState.NONE
    ]
    return replace(
        report,
        human_calibrated=calibrate_responses(store, responses, project_advice),
        labels={key: LABEL_WORDS[label.state] for key, label in in_force},
        label_records={key: label.record for key, label in in_force if label.record is not None},
    )


#: How a verdict in force is written in reports.
LABEL_WORDS: Final = {state: verdict.value for verdict, state in STATE_OF_VERDICT.items()}


@takes_project
def label_rows(store: ProjectStore) -> dict[tuple[str, str], dict[str, str]]:
    """Each labelled response's label in force as the reports write it
    (:func:`~goldenlens.io.reports.row_fields.label_fields`), by ``(question_id, pipeline)``."""
    if not store.labels.count():
        return {}
    found = store.labels.in_force()
    return {
        key: label_fields(LABEL_WORDS[label.state], label.record, key[1])
        for key, label in zip(found.keys, found.labels, strict=True)
        if label.state is not LabelState.NONE
    }


def _not_checked(store: ProjectStore) -> HumanCalibrated:
    """No label yet (:func:`~goldenlens.core.calibration.human_calibrated.not_checked`), from
    the latest run's Factual Knowledge."""
    run = scored_run(store)
    keys, columns = store.results.score_columns(run.id, [FACTUAL_KNOWLEDGE])
    names = list(dict.fromkeys([*store.responses.pipelines(), *(p for _q, p in keys)]))
    index = {name: i for i, name in enumerate(names)}
    pipeline = np.fromiter((index[p] for _q, p in keys), dtype=np.intp, count=len(keys))
    fk = np.array([np.nan if v is None else v for v in columns[FACTUAL_KNOWLEDGE]], dtype=np.float64)
    return not_checked(names, pipeline, fk)


def calibrate_responses(
    store: ProjectStore, responses: ProjectResponses, advice_of: Callable[[], ProjectAdvice] | None
) -> HumanCalibrated:
    """What reviewers would judge of ``responses``; ``advice_of`` gives the project's advice for
    the diagnosis checks, asked only where a label gives a verdict (``None``: no checks)."""
    population = responses.run.population
    state = responses.state()
    rounds = usable_rounds(store, responses)
    first = estimate(population, state, rounds.designs)
    pairs = _pairs(len(population.pipelines), [e.interval.estimate for e in first.estimates])
    result = estimate(population, state, rounds.designs, pairs) if pairs else first
    known = (state == LabelState.CORRECT) | (state == LabelState.INCORRECT)
    agreements = (
        metric_agreements(
            population,
            state,
            {name: responses.lexical[name] for name in AGREEMENT_METRICS if name in responses.lexical},
        )
        if known.any()
        else ()
    )
    prediction = fitted_predictions(population, known, (state == LabelState.CORRECT).astype(np.float64))
    frame = np.flatnonzero(state == LabelState.NONE).astype(np.intp)
    needed = {
        width: labels_needed(
            frame=frame,
            answer=population.answer,
            pipeline=population.pipeline,
            prediction=prediction,
            half_width=width,
        )
        for width in PLANNED_WIDTHS
    }
    notes = list(result.notes)
    # A round planned and not labelled yet: the next cannot be planned before it is.
    round_waiting = len(rounds.designs) > result.rounds_used
    if rounds.repeated:
        notes.append(
            f"{rounds.repeated} round(s) drew exactly the sample of an earlier round (planned again before "
            "any label) and are left out: one sample counted twice would narrow the intervals"
        )
    if rounds.outdated:
        # First, and instead of "no planned sample labelled yet": it says what to do next — label
        # the round planned since, or plan one.
        notes = [note for note in notes if not note.startswith(NO_ROUND_YET)]
        next_step = ""
        if not result.rounds_used:
            next_step = (
                "; label the answers of the round planned since"
                if round_waiting
                else "; plan a new round to estimate"
            )
        notes.insert(
            0,
            f"{rounds.outdated} round(s) of labels were planned before the responses changed and are "
            "left out (their labels still count where they hold)" + next_step,
        )
    return HumanCalibrated(
        level=result.level,
        labelled=int(np.count_nonzero(known)),
        responses=population.size,
        estimates=result.estimates,
        pairs=result.pairs,
        rounds=result.rounds_used,
        rounds_outdated=rounds.outdated,
        predictor_features=responses.run.feature_names,
        agreements=agreements,
        diagnoses=dict(advice_of().checks) if advice_of is not None and known.any() else {},
        labels_needed=needed,
        round_waiting=round_waiting,
        stale=sum(1 for label in responses.labels if label.source is LabelSource.STALE),
        stale_answers=sum(1 for label in responses.labels if _stale_answer(label)),
        unsure=int(np.count_nonzero(state == LabelState.UNSURE)),
        notes=tuple(notes),
    )


def _stale_answer(label: ResponseLabel) -> bool:
    """A stale label given on another answer text than the response's now."""
    return label.source is LabelSource.STALE and label.stale_reason == ANSWER_CHANGED

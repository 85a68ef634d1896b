"""``goldenlens plan-labels``: draw and keep the next round of responses to label.

A round is drawn from the responses with no verdict in force (see
:mod:`goldenlens.core.calibration.sampling_plan`), kept in the project with everything its
estimator reads back, and listed one row per distinct answer to label, in the order to label
them (stopping part-way still leaves a smaller stratified sample).
"""

from __future__ import annotations

import numpy as np

from goldenlens.core.calibration.estimator import fitted_predictions
from goldenlens.core.calibration.label_plan import LabelPlan, PlanRow
from goldenlens.core.calibration.labels import LabelState
from goldenlens.core.calibration.sampling_plan import Mode, RoundDesign, plan_round
from goldenlens.jobs.labelling.population import ProjectResponses, load_responses, usable_rounds
from goldenlens.jobs.project_access import takes_project
from goldenlens.store.project import ProjectStore
from goldenlens.store.repositories.labels import StoredRound


@takes_project
def plan_labels(store: ProjectStore, *, budget: int, seed: int = 0, mode: Mode = "response") -> LabelPlan:
    """Draw, keep and list the next round of about ``budget`` labels."""
    responses = load_responses(store)
    population = responses.run.population
    state = responses.state()
    known = (state == LabelState.CORRECT) | (state == LabelState.INCORRECT)
    prediction = fitted_predictions(population, known, (state == LabelState.CORRECT).astype(np.float64))
    frame = np.flatnonzero(state == LabelState.NONE).astype(np.intp)
    design = plan_round(
        frame=frame,
        question=responses.run.question,
        answer=population.answer,
        pipeline=population.pipeline,
        prediction=prediction,
        budget=budget,
        seed=seed,
        mode=mode,
    )
    position = np.full(design.units, -1, dtype=np.int64)
    position[design.sampled] = np.arange(len(design.sampled))
    stored_frame = [
        (
            responses.keys[r][0],
            responses.keys[r][1],
            int(u),
            int(design.stratum[u]),
            int(position[u]) if position[u] >= 0 else None,
        )
        for r, u in zip(design.frame.tolist(), design.unit.tolist(), strict=True)
    ]
    round_id = store.labels.add_round(
        StoredRound(responses.run_id, mode, seed, budget, responses.fingerprint, design.strata, stored_frame)
    )
    number = len(store.labels.rounds())
    return LabelPlan(
        round_id,
        number,
        mode,
        seed,
        budget,
        tuple(_rows(responses, design)),
        len(frame),
        len(set(population.answer[frame].tolist())),
    )


def _rows(responses: ProjectResponses, design: RoundDesign) -> list[PlanRow]:
    population = responses.run.population
    sizes = np.bincount(design.stratum, minlength=design.strata)
    taken = np.bincount(design.stratum[design.sampled], minlength=design.strata)
    order = np.argsort(design.unit, kind="stable")
    bounds = np.searchsorted(design.unit[order], np.arange(design.units + 1))
    rows: list[PlanRow] = []
    for u in design.sampled.tolist():
        members = design.frame[order[bounds[u] : bounds[u + 1]]].tolist()
        by_answer: dict[int, list[int]] = {}
        for r in members:
            by_answer.setdefault(int(population.answer[r]), []).append(r)
        h = int(design.stratum[u])
        for group in by_answer.values():
            first = group[0]
            question_id, pipeline = responses.keys[first]
            item = responses.items[question_id]
            rows.append(
                PlanRow(
                    len(rows) + 1,
                    question_id,
                    pipeline,
                    tuple(responses.keys[r][1] for r in group[1:]),
                    item.question,
                    item.answer,
                    item.fact,
                    responses.texts[first],
                    h,
                    float(taken[h] / sizes[h]),
                )
            )
    return rows


@takes_project
def rounds_in_use(store: ProjectStore) -> int:
    """How many stored rounds were planned on the responses there are now."""
    return len(usable_rounds(store, load_responses(store)).designs)

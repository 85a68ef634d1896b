"""``goldenlens plan-labels``: draw and keep the next round of responses to label.

A round is drawn from the responses with no verdict in force (see
:mod:`goldenlens.core.calibration.sampling_plan`), kept in the project with everything its
estimator reads back, and listed one row per distinct answer to label, in the order to label
them (stopping part-way still leaves a smaller stratified sample).

While the newest round has no label yet, planning again draws nothing new: with the same
budget, seed and mode the round is listed again; otherwise :class:`RoundWaitingError` says so,
and ``replace=True`` draws it anew in its place. A second round drawn beside an unlabelled one
would come from the same frame as the first, and two samples of one frame, labelled once, are
not the independent rounds whose variances the estimator adds.
"""

from __future__ import annotations

import numpy as np

from goldenlens.core.calibration.label_plan import LabelPlan, PlanRow
from goldenlens.core.calibration.labels import LabelSource, LabelState
from goldenlens.core.calibration.predictor import fitted_predictions
from goldenlens.core.calibration.sampling_plan import Mode, RoundDesign, check_budget, check_seed, plan_round
from goldenlens.core.errors import GoldenLensError
from goldenlens.jobs.labelling.population import ProjectResponses, Rounds, load_responses, usable_rounds
from goldenlens.jobs.project_access import takes_project
from goldenlens.store.project import ProjectStore
from goldenlens.store.repositories.labels import RoundInfo, StoredRound


class RoundWaitingError(GoldenLensError):
    """The newest round has no label yet and another plan was asked for (see the module)."""

    def __init__(self, number: int, info: RoundInfo) -> None:
        self.number = number
        self.info = info
        super().__init__(
            f"round {number} ({info.budget} labels, seed {info.seed}, --by {info.mode}, planned "
            f"{info.created_at[:16].replace('T', ' ')} UTC) has no label yet: label it first. Planning "
            "with its budget, seed and --by lists it again; replacing it draws it anew "
            "(goldenlens plan-labels --replace), and its earlier list is then void."
        )


class NothingToReplaceError(GoldenLensError):
    """``replace=True`` with no unlabelled round to replace."""


@takes_project
def plan_labels(
    store: ProjectStore, *, budget: int, seed: int = 0, mode: Mode = "response", replace: bool = False
) -> LabelPlan:
    """Draw, keep and list the next round of about ``budget`` labels; while the newest round has
    no label, list it again or (``replace``) draw it anew (see the module)."""
    check_budget(budget)  # before a waiting round is looked at, let alone replaced
    check_seed(seed)
    responses = load_responses(store)
    stored = store.labels.rounds()
    waiting = _waiting_round(stored, usable_rounds(store, responses), responses)
    replacing: list[int] = []
    if waiting is not None:
        info, design = waiting
        number = stored.index(info) + 1
        if replace:
            # Forgotten in the transaction that saves the new draw, with the rounds that repeat it.
            replacing = [r.id for r in stored[number - 1 :]]
            stored = stored[: number - 1]
        elif (info.budget, info.seed, info.mode) == (budget, seed, mode):
            return _plan(responses, design, info.id, number, budget, listed_again=True)
        else:
            raise RoundWaitingError(number, info)
    elif replace:
        raise NothingToReplaceError(
            "there is no unlabelled round to replace: the newest round has labels already (or none "
            "was planned); plan the next round instead, replacing none"
        )
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
        stream=len(stored),
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
        StoredRound(responses.run_id, mode, seed, budget, responses.fingerprint, design.strata, stored_frame),
        replacing=replacing,
    )
    return _plan(responses, design, round_id, len(stored) + 1, budget)


def _plan(
    responses: ProjectResponses,
    design: RoundDesign,
    round_id: int,
    number: int,
    budget: int,
    *,
    listed_again: bool = False,
) -> LabelPlan:
    frame = design.frame
    return LabelPlan(
        round_id,
        number,
        design.mode,
        design.seed,
        budget,
        tuple(_rows(responses, design)),
        len(frame),
        len(set(responses.run.population.answer[frame].tolist())),
        listed_again=listed_again,
    )


def _waiting_round(
    stored: list[RoundInfo], rounds: Rounds, responses: ProjectResponses
) -> tuple[RoundInfo, RoundDesign] | None:
    """The newest round and its design when it is planned on the responses there are now and
    no response it sampled has a label yet (a verdict, unsure, or one gone stale). Rounds stored
    after it that repeat an earlier draw do not count: they are left out of every estimate."""
    if not rounds.infos:
        return None
    newest = rounds.infos[-1]
    if any(info.id > newest.id and info.id not in rounds.repeated_ids for info in stored):
        return None  # a newer round, planned on other responses
    design = rounds.designs[-1]
    sampled = design.frame[np.isin(design.unit, design.sampled)]
    labels = responses.labels
    if any(labels[r].state is not LabelState.NONE or labels[r].source is LabelSource.STALE for r in sampled):
        return None
    return newest, design


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

"""The EVOUNA TriviaQA benchmark (tests/data/evouna_tq: 1,938 questions x 5 systems, a person's
verdict on every answer) as the calibration tests use it, and a simulated reviewer.

The responses are scored with GoldenLens's own lexical scorer (the same values a run stores) and
turned into a :class:`RunResponses` by the code the product uses; ``human.csv`` plays the reviewer:
asked about one response, it answers with that response's recorded verdict, and the verdict then
holds for the same answer from another pipeline, as a label in the app does.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from goldenlens.core.calibration.estimator import Population
from goldenlens.core.calibration.labels import LabelState
from goldenlens.core.calibration.population import RunResponses, run_responses
from goldenlens.core.calibration.predictor import fitted_predictions
from goldenlens.core.calibration.sampling_plan import Mode, RoundDesign, plan_round
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES, LexicalScorer

DATA = Path(__file__).resolve().parents[2] / "data" / "evouna_tq"


@dataclass(frozen=True)
class Benchmark:
    run: RunResponses
    #: The person's verdict on each response (1 correct, 0 not), in the run's response order.
    verdict: npt.NDArray[np.float64]
    #: Per pipeline, the share of its responses the person judged correct (the truth).
    truth: npt.NDArray[np.float64]
    #: Per pipeline, the Factual Knowledge mean.
    factual_knowledge: npt.NDArray[np.float64]
    lexical: dict[str, npt.NDArray[np.float64]]


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@cache
def evouna() -> Benchmark:
    golden = {row["id"]: row for row in _rows("golden.csv")}
    responses = _rows("responses.csv")
    human = {(row["id"], row["pipeline"]): float(row["acceptable"]) for row in _rows("human.csv")}
    scorer = LexicalScorer()
    values = np.array(
        [
            [
                np.nan if v is None else v
                for v in scorer.values(r["response"], golden[r["id"]]["answer"], golden[r["id"]]["fact"])
            ]
            for r in responses
        ],
        dtype=np.float64,
    )
    lexical = {name: values[:, i] for i, name in enumerate(LEXICAL_SCORE_NAMES)}
    run = run_responses(
        question_ids=[r["id"] for r in responses],
        pipelines=[r["pipeline"] for r in responses],
        texts=[r["response"] for r in responses],
        facts=[golden[r["id"]]["fact"] for r in responses],
        signals=lexical,
    )
    verdict = np.array([human[(r["id"], r["pipeline"])] for r in responses])
    pipeline = run.population.pipeline
    k = len(run.population.pipelines)
    truth = np.array([verdict[pipeline == p].mean() for p in range(k)])
    fk = np.array([values[pipeline == p, 0].mean() for p in range(k)])
    return Benchmark(run, verdict, truth, fk, lexical)


def reviewer_labels(
    population: Population, verdict: npt.NDArray[np.float64], design: RoundDesign, state: npt.NDArray[np.int8]
) -> None:
    """The reviewer labels the round's sampled answers: asked once per distinct answer (about the
    first response that gave it), whose verdict then holds for every response with that answer."""
    members = np.isin(design.unit, design.sampled)
    asked: dict[int, float] = {}
    for r in design.frame[members].tolist():
        group = int(population.answer[r])
        value = asked.setdefault(group, float(verdict[r]))
        state[r] = LabelState.CORRECT if value == 1.0 else LabelState.INCORRECT


def labelled_rounds(
    benchmark: Benchmark, *, seed: int, rounds: int, budget: int, mode: Mode = "response"
) -> tuple[npt.NDArray[np.int8], list[RoundDesign]]:
    """``rounds`` rounds of ``budget`` labels, planned as ``goldenlens plan-labels`` plans them
    and labelled by the simulated reviewer; the label states and the round designs."""
    population = benchmark.run.population
    state = np.zeros(population.size, dtype=np.int8)
    designs = []
    for t in range(rounds):
        known = (state == LabelState.CORRECT) | (state == LabelState.INCORRECT)
        prediction = fitted_predictions(population, known, (state == LabelState.CORRECT).astype(np.float64))
        design = plan_round(
            frame=np.flatnonzero(state == LabelState.NONE),
            question=benchmark.run.question,
            answer=population.answer,
            pipeline=population.pipeline,
            prediction=prediction,
            budget=budget,
            seed=seed,
            mode=mode,
            stream=t,  # one --seed for every round, as a user gives it: each its own stream
        )
        reviewer_labels(population, benchmark.verdict, design, state)
        designs.append(design)
    return state, designs

"""The sampling plan: what it may and may not ask, its budget, its strata and its seed."""

from __future__ import annotations

import numpy as np
import pytest
from calibration_data import evouna
from scipy.stats import hypergeom

from goldenlens.core.calibration.labels import LabelState
from goldenlens.core.calibration.predictor import fitted_predictions
from goldenlens.core.calibration.sampling_plan import MIN_PER_STRATUM, plan_round, unit_scores


def _plan(budget: int, seed: int = 7, mode: str = "response", known: int = 600, stream: int = 0):
    """A plan after the person's verdicts on the first ``known`` responses (the predictor fitted
    on them)."""
    benchmark = evouna()
    population = benchmark.run.population
    state = np.zeros(population.size, dtype=np.int8)
    state[:known] = np.where(benchmark.verdict[:known] == 1.0, LabelState.CORRECT, LabelState.INCORRECT)
    frame = np.flatnonzero(state == LabelState.NONE)
    prediction = fitted_predictions(population, state != LabelState.NONE, benchmark.verdict)
    design = plan_round(
        frame=frame,
        question=benchmark.run.question,
        answer=population.answer,
        pipeline=population.pipeline,
        prediction=prediction,
        budget=budget,
        seed=seed,
        mode=mode,  # type: ignore[arg-type]
        stream=stream,
    )
    return benchmark, design, prediction


def test_a_response_plan_asks_exactly_the_budget_of_distinct_answers_none_known() -> None:
    benchmark, design, _p = _plan(200, known=500)
    assert len(design.sampled) == len(set(design.sampled.tolist())) == 200
    asked = design.frame[np.isin(design.unit, design.sampled)]
    assert asked.min() >= 500  # never a response whose verdict is known
    groups = benchmark.run.population.answer[asked]
    assert len(set(groups.tolist())) == 200  # one question per distinct answer


def test_every_stratum_gets_at_least_two_labels_and_more_where_labels_tell_more() -> None:
    benchmark, design, prediction = _plan(200)
    sizes = np.bincount(design.stratum)
    taken = np.bincount(design.stratum[design.sampled], minlength=len(sizes))
    assert design.strata == 8
    assert (taken >= MIN_PER_STRATUM).all()
    # Strata are ordered by how much a label is expected to tell: the more, the larger the share
    # of the stratum asked (Neyman), the most uncertain answers several times the surest.
    fractions = taken / sizes
    assert (np.diff(fractions) > -0.002).all()
    assert fractions[-1] > 2.5 * fractions[0]
    scores = unit_scores(
        design.frame, design.unit, design.units, benchmark.run.population.pipeline, prediction
    )
    assert scores[design.stratum == 7].min() >= scores[design.stratum == 0].max()


def test_the_same_seed_gives_the_same_plan_and_another_seed_another() -> None:
    _b, first, _p = _plan(120, seed=3)
    _b, again, _p = _plan(120, seed=3)
    _b, other, _p = _plan(120, seed=4)
    assert first.sampled.tolist() == again.sampled.tolist()
    assert first.sampled.tolist() != other.sampled.tolist()


def test_the_plan_order_interleaves_the_strata() -> None:
    _b, design, _p = _plan(200)
    first_quarter = design.stratum[design.sampled[:50]]
    assert len(set(first_quarter.tolist())) == design.strata


def test_a_question_plan_takes_whole_questions_for_about_the_budget() -> None:
    benchmark, design, _p = _plan(200, mode="question")
    asked = design.frame[np.isin(design.unit, design.sampled)]
    questions = set(benchmark.run.question[asked].tolist())
    # Every response of a chosen question is asked about (each distinct answer once).
    everyone = np.isin(benchmark.run.question, list(questions))
    assert set(np.flatnonzero(everyone).tolist()) == set(asked.tolist())
    labels = len(set(benchmark.run.population.answer[asked].tolist()))
    assert 170 <= labels <= 200


def test_a_budget_larger_than_what_is_left_labels_everything_left() -> None:
    benchmark = evouna()
    population = benchmark.run.population
    state = np.full(population.size, LabelState.CORRECT, dtype=np.int8)
    state[:30] = LabelState.NONE
    design = plan_round(
        frame=np.flatnonzero(state == LabelState.NONE),
        question=benchmark.run.question,
        answer=population.answer,
        pipeline=population.pipeline,
        prediction=np.full(population.size, 0.5),
        budget=500,
        seed=1,
    )
    assert sorted(design.sampled.tolist()) == list(range(design.units))
    assert design.weight == float("inf")


def test_a_plan_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        _plan(0)


def test_a_seed_is_one_32_bit_word_so_no_round_repeats_another_seeds() -> None:
    """numpy reads the words ``[seed, k]`` of round k + 1 as the number seed + k * 2**32: round 2 of
    seed 5 would draw exactly round 1 of seed 5 + 2**32. Such a seed, and a negative one (which
    numpy refuses with a traceback), are refused with the range; the largest word is taken."""
    words, number = np.random.default_rng([5, 1]), np.random.default_rng(5 + 2**32)
    assert np.array_equal(words.integers(0, 2**62, 8), number.integers(0, 2**62, 8))
    for seed in (-1, 2**32, 5 + 2**32):
        with pytest.raises(ValueError, match=r"seed is a whole number from 0 to 4,294,967,295"):
            _plan(50, seed=seed)
    assert len(_plan(50, seed=2**32 - 1, stream=1)[1].sampled) > 0


def test_rounds_with_one_seed_draw_independently_of_each_other() -> None:
    """Rounds planned with the same --seed from the same frame (nothing labelled in between) share
    no draws: each pair of samples overlaps per stratum as two independent simple random samples
    do (hypergeometric: scipy's mean and variance), where one stream for all gave the same sample."""
    designs = [_plan(200, seed=5, stream=t)[1] for t in range(4)]
    first = designs[0]
    assert all(np.array_equal(d.stratum, first.stratum) for d in designs)  # the same frame and strata
    sizes = np.bincount(first.stratum)
    for a in range(4):
        for b in range(a + 1, 4):
            one, other = designs[a], designs[b]
            mean = variance = 0.0
            overlap = 0
            for h in range(len(sizes)):
                mine = set(one.sampled[one.stratum[one.sampled] == h].tolist())
                theirs = set(other.sampled[other.stratum[other.sampled] == h].tolist())
                assert len(mine) == len(theirs)
                law = hypergeom(int(sizes[h]), len(mine), len(theirs))
                mean += float(law.mean())
                variance += float(law.var())
                overlap += len(mine & theirs)
            assert abs(overlap - mean) <= 4 * np.sqrt(variance), (a, b, overlap, mean)
            assert overlap < len(one.sampled) / 2


def test_the_first_round_draws_from_the_seed_alone() -> None:
    """Plans made before rounds had streams of their own are drawn again as they were."""
    _b, design, prediction = _plan(200, seed=5)
    benchmark = evouna()
    population = benchmark.run.population
    again = plan_round(
        frame=design.frame,
        question=benchmark.run.question,
        answer=population.answer,
        pipeline=population.pipeline,
        prediction=prediction,
        budget=200,
        seed=5,
    )
    assert np.array_equal(again.sampled, design.sampled)
    assert not np.array_equal(_plan(200, seed=5, stream=1)[1].sampled, design.sampled)

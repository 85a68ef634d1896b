"""The seeded percentile bootstrap: intervals that contain the observed value and narrow with
more questions, the same numbers for the same seed, and resamples drawn per level (binary
metrics, their paired differences) or jointly per question set (continuous metrics) with the
distribution of plain index resampling, written out here with numpy and checked against
``scipy.stats.bootstrap``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import bootstrap

from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE
from goldenlens.core.stats.bootstrap import (
    NORMAL_FROM,
    Settings,
    Statistic,
    approximated,
    percentile_interval,
    resample_counts,
    resampled_means,
)
from goldenlens.core.stats.decide import decide

QUANTILES = [0.025, 0.1, 0.25, 0.5, 0.75, 0.9, 0.975]


def _rows(
    fk_a: list[float], fk_b: list[float], f1_a: list[float], f1_b: list[float]
) -> list[tuple[str, str, list[float | None]]]:
    rows: list[tuple[str, str, list[float | None]]] = []
    for n, values in enumerate(zip(fk_a, fk_b, f1_a, f1_b, strict=True)):
        rows += [(f"q{n}", "A", [values[0], values[2]]), (f"q{n}", "B", [values[1], values[3]])]
    return rows


def _pattern(times: int) -> list[tuple[str, str, list[float | None]]]:
    """Ten questions (A right on 8, B on 4; F1 values spread out) repeated ``times`` times, so
    the observed means and difference stay the same while the questions multiply."""
    fk_a = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0] * times
    fk_b = [1, 0, 1, 0, 0, 1, 0, 0, 1, 0] * times
    f1_a = [0.9, 0.8, 0.75, 0.6, 0.95, 0.5, 0.7, 0.85, 0.2, 0.3] * times
    f1_b = [0.7, 0.4, 0.8, 0.3, 0.5, 0.6, 0.2, 0.35, 0.9, 0.1] * times
    return _rows([float(v) for v in fk_a], [float(v) for v in fk_b], f1_a, f1_b)


@pytest.mark.parametrize("metric", [FACTUAL_KNOWLEDGE, F1_SCORE])
def test_intervals_contain_the_observed_value_and_narrow_with_more_questions(metric: str) -> None:
    widths = []
    for times in (1, 10, 100):
        decision = decide(_pattern(times), ["A", "B"], [FACTUAL_KNOWLEDGE, F1_SCORE])
        pair = next(c for c in decision.comparisons if c.metric == metric)
        estimate = decision.estimate("A", metric)
        assert estimate is not None
        assert (pair.n, estimate.n) == (10 * times, 10 * times)
        assert pair.difference is not None
        assert pair.low is not None
        assert pair.high is not None
        # The observed difference, computed here from the pattern: FK 0.8 - 0.4, F1 its means.
        expected = 0.4 if metric == FACTUAL_KNOWLEDGE else (6.55 - 4.85) / 10
        assert pair.difference == pytest.approx(expected, abs=1e-12)
        assert pair.low <= pair.difference <= pair.high
        assert estimate.low is not None
        assert estimate.high is not None
        assert estimate.mean is not None
        assert estimate.low <= estimate.mean <= estimate.high
        widths.append(pair.high - pair.low)
    # The width shrinks about as 1/sqrt(n): tenfold questions, about a third the width.
    assert widths[1] < widths[0] * 0.5
    assert widths[2] < widths[1] * 0.5


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others() -> None:
    rows = _pattern(3)
    first = decide(rows, ["A", "B"], [FACTUAL_KNOWLEDGE, F1_SCORE]).as_dict()
    again = decide(list(rows), ["A", "B"], [FACTUAL_KNOWLEDGE, F1_SCORE]).as_dict()
    other = decide(rows, ["A", "B"], [FACTUAL_KNOWLEDGE, F1_SCORE], settings=Settings(seed=7)).as_dict()
    assert first == again
    assert other["seed"] == 7
    bounds = [(e["low"], e["high"]) for e in first["estimates"]] + [
        (p["low"], p["high"]) for p in first["pairs"]
    ]
    moved = [(e["low"], e["high"]) for e in other["estimates"]] + [
        (p["low"], p["high"]) for p in other["pairs"]
    ]
    assert bounds != moved
    assert [e["mean"] for e in other["estimates"]] == [e["mean"] for e in first["estimates"]]


def test_another_pipeline_does_not_move_an_interval() -> None:
    rows = _pattern(2)
    more = rows + [(question_id, "C", values) for question_id, pipeline, values in rows if pipeline == "B"]
    alone = decide(rows, ["A", "B"], [FACTUAL_KNOWLEDGE, F1_SCORE])
    with_c = decide(more, ["A", "B", "C"], [FACTUAL_KNOWLEDGE, F1_SCORE])
    assert alone.estimate("A", F1_SCORE) == with_c.estimate("A", F1_SCORE)
    assert alone.comparisons[0] == with_c.comparisons[0]


def _index_resampled(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """Plain bootstrap: draw question indices with replacement, average (independent of the
    code under test)."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(values), size=(resamples, len(values)))
    return values[picks].mean(axis=1)


@pytest.mark.parametrize(
    "values",
    [
        np.array([1.0] * 13 + [0.0] * 27),  # a binary metric: binomial counts
        np.array([1.0] * 9 + [0.0] * 25 + [-1.0] * 6),  # a paired difference of binary metrics
        np.linspace(0.0, 1.0, 40) ** 2,  # a continuous metric: joint index resampling
    ],
    ids=["binary", "three-levels", "continuous"],
)
def test_the_bootstrap_distribution_is_that_of_index_resampling(values: np.ndarray) -> None:
    settings = Settings(resamples=20_000)
    (ours,) = resampled_means("set", values[:, None], [Statistic("s", (0,))], settings)
    theirs = _index_resampled(values, 20_000, seed=99)
    spread = float(np.std(theirs))
    assert float(np.mean(ours)) == pytest.approx(float(values.mean()), abs=0.02 * spread)
    assert float(np.std(ours)) == pytest.approx(spread, rel=0.03)
    for q in QUANTILES:
        # Within a step of the discrete distribution (1/40) or Monte Carlo noise.
        assert abs(np.quantile(ours, q) - np.quantile(theirs, q)) <= max(1 / 40, 0.05 * spread) + 1e-12


def test_counts_per_level_and_joint_resampling_agree() -> None:
    values = np.array([1.0] * 18 + [0.0] * 22)
    settings = Settings(resamples=20_000)
    statistic = [Statistic("s", (0,))]
    (levels,) = resampled_means("set", values[:, None], statistic, settings)
    (joint,) = resampled_means("set", values[:, None], statistic, settings, category_limit=0)
    for q in QUANTILES:
        assert abs(np.quantile(levels, q) - np.quantile(joint, q)) <= 1 / 40 + 1e-12


def test_the_interval_matches_scipys_percentile_bootstrap() -> None:
    rng = np.random.default_rng(3)
    values = rng.beta(2, 1, size=60)
    (ours,) = resampled_means("set", values[:, None], [Statistic("s", (0,))], Settings(resamples=20_000))
    low, high = percentile_interval(ours, 0.95)
    theirs = bootstrap((values,), np.mean, n_resamples=20_000, method="percentile", random_state=1)
    spread = float(np.std(ours))
    assert low == pytest.approx(theirs.confidence_interval.low, abs=0.1 * spread)
    assert high == pytest.approx(theirs.confidence_interval.high, abs=0.1 * spread)


def test_a_paired_difference_resamples_questions_jointly() -> None:
    """Strongly correlated pipelines: the paired interval is far narrower than the two
    pipelines' own intervals would suggest (an unpaired bootstrap would be as wide as them)."""
    rng = np.random.default_rng(11)
    base = rng.random(200)
    a, b = base, np.clip(base - 0.05 + rng.normal(0, 0.01, 200), 0, 1)
    rows = _rows([1.0] * 200, [1.0] * 200, list(a), list(b))
    decision = decide(rows, ["A", "B"], [FACTUAL_KNOWLEDGE, F1_SCORE])
    pair = decision.comparisons[1]
    own = decision.estimate("A", F1_SCORE)
    assert own is not None
    assert own.low is not None
    assert own.high is not None
    assert pair.low is not None
    assert pair.high is not None
    assert pair.high - pair.low < (own.high - own.low) / 5
    assert pair.better == "A"
    assert pair.low > 0


def test_above_the_size_rule_a_many_valued_mean_takes_the_normal_form() -> None:
    """Over more than NORMAL_FROM questions, F1-like values (many levels) get the normal form of
    their bootstrap distribution: its 95% bounds agree with 10,000 real resamples (forced with
    ``normal_from``) to within the resampling's own Monte Carlo noise (about 0.09 standard
    errors; allowed 0.25), for a mean and for a paired difference."""
    rng = np.random.default_rng(7)
    n = NORMAL_FROM + 500
    a = rng.integers(0, 40, size=n) / 40.0
    b = np.clip(a - rng.integers(-10, 14, size=n) / 40.0, 0.0, 1.0)
    columns = np.column_stack([a, b])
    statistics = [Statistic("mean|A|f1", (0,)), Statistic("diff|A|B|f1", (0, 1), (1, -1))]
    settings = Settings()
    normal = resampled_means("set", columns, statistics, settings)
    resampled = resampled_means("set", columns, statistics, settings, normal_from=n)
    assert all(approximated(columns, s) for s in statistics)
    assert not approximated(columns[:NORMAL_FROM], statistics[0])
    for statistic, fast, slow in zip(statistics, normal, resampled, strict=True):
        values = columns[:, list(statistic.index)] @ np.asarray(statistic.weights, dtype=np.float64)
        error = float(np.std(values)) / np.sqrt(n)
        for got, want in zip(percentile_interval(fast, 0.95), percentile_interval(slow, 0.95), strict=True):
            assert abs(got - want) < 0.25 * error, statistic.key
        assert np.mean(fast) == pytest.approx(np.mean(values), abs=1e-12)


def test_a_large_decision_names_its_normal_form_intervals() -> None:
    rng = np.random.default_rng(3)
    rows = [
        (f"q{i}", pipeline, [1.0, 1.0, float(rng.integers(0, 30)) / 30, 1.0, 1.0, 1.0, 1.0])
        for i in range(NORMAL_FROM + 1)
        for pipeline in ("A", "B")
    ]
    decision = decide(rows, ["A", "B"])
    assert "mean|A|f1_score" in decision.normal_approximation
    assert "diff|A|B|f1_score" in decision.normal_approximation
    assert not any("factual_knowledge" in key for key in decision.normal_approximation)
    assert decision.as_dict()["normal_approximation"]["above_questions"] == NORMAL_FROM


def test_resample_counts_are_each_resamples_draws_counted() -> None:
    """The chunks of counts are the questions each resample draws, counted per question: the
    generator's own draws counted with ``np.bincount`` row by row, chunk after chunk, the last
    one short; every resample draws ``n`` questions."""
    n, resamples, chunk = 37, 10, 4
    found = [
        (start, counts.copy())
        for start, counts in resample_counts(np.random.default_rng(5), resamples, n, chunk)
    ]
    assert [start for start, _counts in found] == [0, 4, 8]
    assert [len(counts) for _start, counts in found] == [4, 4, 2]
    rng = np.random.default_rng(5)
    for _start, counts in found:
        picks = rng.integers(0, n, size=(len(counts), n), dtype=np.uint16)
        expected = np.array([np.bincount(row, minlength=n) for row in picks], dtype=np.float64)
        np.testing.assert_array_equal(counts, expected)
        assert (counts.sum(axis=1) == n).all()


_FAULTS_PROBE = """
import resource, numpy as np
from goldenlens.core.stats.bootstrap import Settings, Statistic, _joint_sums
grid = np.rint(np.random.default_rng(1).random((2000, 4)) * 2**30)
statistics = [Statistic(f"s{k}", (k,)) for k in range(4)] + [Statistic("d", (0, 1), (1, -1))]
_joint_sums("warm", grid[:50], statistics, Settings(resamples=100))
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
_joint_sums("set", grid, statistics, Settings())
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def test_joint_resampling_reuses_its_memory_chunk_after_chunk() -> None:
    """10,000 resamples of 2,000 questions are drawn in 20 chunks of 8 MB counts. Each chunk
    is drawn into the memory of the one before: the process faults in a few chunks' worth of
    pages, not all twenty (arrays made anew for each chunk went back to the system and were
    faulted in again each time, which doubled the time of a decision's joint resampling).
    Counted in a fresh process, where no earlier test has shaped the heap."""
    desktop = str(Path(__file__).resolve().parents[2] / "desktop")
    done = subprocess.run(
        [sys.executable, "-c", _FAULTS_PROBE],
        env={**os.environ, "PYTHONPATH": desktop},
        capture_output=True,
        text=True,
        check=True,
    )
    faults = int(done.stdout)
    pages_per_chunk = (1 << 20) * 8 // os.sysconf("SC_PAGE_SIZE")
    assert faults < 6 * pages_per_chunk, f"{faults} page faults: {faults / pages_per_chunk:.1f} chunks' worth"

"""decide() on a large input, every number against a plain computation written here: means as
``sum`` in the order the rows came in, pass rates and McNemar counts from the values, the exact
McNemar p-value as a fraction, and each 0/1 interval drawn from its statistic's documented
stream (PCG64 seeded by the seed and the SHA-256 of the statistic's name) as plain binomial and
multinomial counts. Many-valued metrics over this many questions take the normal form: their
intervals are the normal quantiles of the plain mean and standard error (to 1e-9, the value grid
of the exact sums). A change to any number fails here."""

from __future__ import annotations

import hashlib
import math
import random
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.scored_rows import summarise_values
from goldenlens.core.stats.bootstrap import NORMAL_FROM, percentile_interval
from goldenlens.core.stats.decide import decide, decide_matrix
from goldenlens.core.stats.mcnemar import mcnemar_exact
from goldenlens.core.stats.pass_rates import DEFAULT_PASS_THRESHOLDS
from goldenlens.core.view.metric_names import BINARY_METRICS

SEED = 20261201
RESAMPLES = 10_000
PIPELINES = ["P1", "P2", "P3"]
QUESTIONS = NORMAL_FROM + 500

Rows = list[tuple[str, str, list[float | None]]]


def _rows() -> Rows:
    """Scores like a real report's: 0/1 metrics, F1/precision/recall as word-count ratios; the
    fact not scored on every 9th question, P2 without a response to every 13th, one row given
    twice (the first counts), and the rows shuffled (arrival order is not question order)."""
    rng = random.Random(8)
    rows: Rows = []
    for q in range(QUESTIONS):
        answer_words = rng.randint(5, 40)
        for p, pipeline in enumerate(PIPELINES):
            if pipeline == "P2" and q % 13 == 0:
                continue
            fk = float(rng.random() < 0.3 + 0.1 * p)
            fk_quasi = fk if rng.random() < 0.9 else 1.0 - fk
            words = rng.randint(3, 80)
            hit = rng.randint(0, min(answer_words, words))
            f1 = 2 * hit / (words + answer_words)
            exact = float(rng.random() < 0.1 + 0.05 * p)
            values: list[float | None] = [fk, fk_quasi, f1, hit / words, hit / answer_words, exact, exact]
            if q % 9 == 0:
                values[0] = values[1] = None
            rows.append((f"Q{q:05d}", pipeline, values))
    rows.insert(40, (rows[7][0], rows[7][1], [0.5] * 7))  # a repeat of row 7's key: ignored
    rng.shuffle(rows)
    return rows


def _stream(key: str) -> np.random.Generator:
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    words = [int.from_bytes(digest[n : n + 4], "little") for n in range(0, 16, 4)]
    return np.random.default_rng(np.random.SeedSequence([SEED & 0xFFFFFFFF, SEED >> 32, *words]))


def _quantiles(means: np.ndarray) -> tuple[float, float]:
    tail = (1 - 0.95) / 2  # the central 95%: 0.025000000000000022 in floats, not 0.025
    low, high = np.quantile(means, [tail, 1 - tail])
    return float(low), float(high)


def _binary_interval(key: str, passed: int, n: int) -> tuple[float, float]:
    """A 0/1 mean's resampled means: Binomial(n, share passed) / n."""
    return _quantiles(_stream(key).binomial(n, passed / n, size=RESAMPLES) / n)


def _difference_interval(key: str, first: list[float], second: list[float]) -> tuple[float, float]:
    """A difference of 0/1 metrics: the counts of -1, 0 and +1 resampled as a multinomial."""
    n = len(first)
    levels = [sum(1 for x, y in zip(first, second, strict=True) if x - y == d) for d in (-1, 0, 1)]
    drawn = _stream(key).multinomial(n, np.array(levels) / n, size=RESAMPLES)
    return _quantiles((drawn[:, 2] - drawn[:, 0]) / n)


def _normal_interval(values: list[float]) -> tuple[float, float]:
    """The normal form: mean + plug-in standard error x the normal quantiles at (i + 1/2) / R."""
    data = np.array(values)
    error = float(np.std(data)) / math.sqrt(len(data))
    z = np.array([NormalDist().inv_cdf((i + 0.5) / RESAMPLES) for i in range(RESAMPLES)])
    return _quantiles(float(np.mean(data)) + error * z)


def _mcnemar(a_only: int, b_only: int) -> float:
    n, low = a_only + b_only, min(a_only, b_only)
    if n == 0 or 2 * low == n:
        return 1.0
    return float(min(Fraction(1), Fraction(2 * sum(math.comb(n, k) for k in range(low + 1)), 2**n)))


@pytest.fixture(scope="module")
def rows() -> Rows:
    return _rows()


def _first_rows(rows: Rows) -> dict[tuple[str, str], list[float | None]]:
    kept: dict[tuple[str, str], list[float | None]] = {}
    for question, pipeline, values in rows:
        kept.setdefault((pipeline, question), values)
    return kept


def test_every_estimate_and_pass_rate_is_the_plain_computation(rows: Rows) -> None:
    decision = decide(rows, PIPELINES)
    kept = _first_rows(rows)
    summary = summarise_values(((p, v) for (p, _q), v in kept.items()), PIPELINES, LEXICAL_SCORE_NAMES)
    estimates = iter(decision.estimates)
    for pipeline in PIPELINES:
        in_order = [v for (p, _q), v in kept.items() if p == pipeline]
        for m, metric in enumerate(LEXICAL_SCORE_NAMES):
            values = [float(v) for row in in_order if (v := row[m]) is not None]
            estimate = next(estimates)
            assert (estimate.pipeline, estimate.metric, estimate.n) == (pipeline, metric, len(values))
            assert estimate.mean == sum(values) / len(values) == summary[pipeline][metric]
            key = f"mean|{pipeline}|{metric}"
            if metric in BINARY_METRICS:
                expected = _binary_interval(key, sum(1 for v in values if v == 1.0), len(values))
                assert (estimate.low, estimate.high) == expected, key
            else:
                assert (estimate.low, estimate.high) == pytest.approx(_normal_interval(values), abs=1e-9)
                assert key in decision.normal_approximation
    rates = iter(decision.pass_rates)
    for pipeline in PIPELINES:
        in_order = [v for (p, _q), v in kept.items() if p == pipeline]
        for metric, threshold in DEFAULT_PASS_THRESHOLDS.items():
            m = LEXICAL_SCORE_NAMES.index(metric)
            values = [v for row in in_order if (v := row[m]) is not None]
            passed = sum(1 for v in values if v >= threshold)
            rate = next(rates)
            assert (rate.pipeline, rate.metric, rate.passed, rate.n) == (
                pipeline,
                metric,
                passed,
                len(values),
            )
            assert rate.rate == passed / len(values)
            expected = _binary_interval(f"pass|{pipeline}|{metric}", passed, len(values))
            assert (rate.low, rate.high) == expected


def test_every_paired_comparison_is_the_plain_computation(rows: Rows) -> None:
    decision = decide(rows, PIPELINES)
    kept = _first_rows(rows)
    questions = list(dict.fromkeys(q for q, _p, _v in rows))  # paired in first-seen order
    pairs = iter(decision.comparisons)
    for i, a in enumerate(PIPELINES):
        for b in PIPELINES[i + 1 :]:
            for m, metric in enumerate(LEXICAL_SCORE_NAMES):
                both = [
                    (va[m], vb[m])
                    for q in questions
                    if (va := kept.get((a, q))) is not None
                    and (vb := kept.get((b, q))) is not None
                    and va[m] is not None
                    and vb[m] is not None
                ]
                x = [float(v) for v, _w in both]
                y = [float(w) for _v, w in both]
                pair = next(pairs)
                key = f"diff|{a}|{b}|{metric}"
                assert (pair.a, pair.b, pair.metric, pair.n) == (a, b, metric, len(both))
                assert pair.difference == sum(x) / len(x) - sum(y) / len(y)
                if metric in BINARY_METRICS:
                    a_only = sum(1 for v, w in zip(x, y, strict=True) if (v, w) == (1.0, 0.0))
                    b_only = sum(1 for v, w in zip(x, y, strict=True) if (v, w) == (0.0, 1.0))
                    assert (pair.a_only, pair.b_only) == (a_only, b_only)
                    assert pair.p_value == _mcnemar(a_only, b_only)
                    assert (pair.low, pair.high) == _difference_interval(key, x, y), key
                    assert key not in decision.normal_approximation
                else:
                    assert (pair.p_value, pair.a_only, pair.b_only) == (None, None, None)
                    differences = [v - w for v, w in zip(x, y, strict=True)]
                    assert (pair.low, pair.high) == pytest.approx(_normal_interval(differences), abs=1e-9)
                    assert key in decision.normal_approximation
    assert next(pairs, None) is None


def test_a_mean_of_negative_zeros_is_the_summarys_zero() -> None:
    rows: Rows = [(f"q{n}", "A", [-0.0] * 7) for n in range(3)]
    summary = summarise_values(((p, v) for _q, p, v in rows), ["A"], LEXICAL_SCORE_NAMES)
    for estimate in decide(rows, ["A"]).estimates:
        assert estimate.mean is not None
        assert math.copysign(1.0, estimate.mean) == math.copysign(1.0, summary["A"][estimate.metric] or 0.0)


def test_the_mcnemar_p_value_is_the_exact_fraction_correctly_rounded() -> None:
    """Small counts (every term summed) and large ones (the sum stops early) alike."""
    counts = [(a, b) for a in range(0, 70, 3) for b in range(0, 70, 4)]
    counts += [(1837, 1786), (1786, 1837), (2000, 2001), (2500, 2400), (0, 3000), (5, 2990), (1500, 2200)]
    for a_only, b_only in counts:
        assert mcnemar_exact(a_only, b_only) == _mcnemar(a_only, b_only), (a_only, b_only)


def test_the_percentile_interval_is_numpys_quantile_to_the_last_bit() -> None:
    rng = np.random.default_rng(4)
    for n in [*range(1, 40), 999, 1000, 1001, 10_000]:
        signed_zeros = rng.choice([-1.0, -0.0, 0.0, 1.0], size=n)
        tied = rng.binomial(30, 0.3, n) / 30
        for values in (rng.random(n), tied, np.sort(rng.normal(size=n)), signed_zeros, np.sort(signed_zeros)):
            for level in (0.95, 0.9, 0.5, 0.99, 0.6827):
                tail = (1.0 - level) / 2.0
                low, high = np.quantile(values, [tail, 1.0 - tail])
                got = percentile_interval(values, level)
                assert got == (float(low), float(high)), (n, level)
                assert [math.copysign(1.0, v) for v in got] == [
                    math.copysign(1.0, low),
                    math.copysign(1.0, high),
                ]


def test_the_same_rows_as_columns_decide_the_same() -> None:
    """decide_matrix (a run scored without a project hands its rows over as columns, NaN where
    a value is not scored) gives decide's decision to the last bit: the same rows, shuffled,
    with a missing response, a repeated key and values not scored."""
    rows = _rows()
    matrix = np.array([[math.nan if v is None else v for v in values] for _q, _p, values in rows])
    got = decide_matrix([q for q, _p, _v in rows], [p for _q, p, _v in rows], matrix, ["P3", "P1"])
    assert got.as_dict() == decide(rows, ["P3", "P1"]).as_dict()
    with pytest.raises(ValueError, match="values for"):
        decide_matrix(["Q1"], ["P1"], matrix[:2], PIPELINES)

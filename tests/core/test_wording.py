"""How numbers and texts are worded, the same in every sentence: the FMEval verdicts and the
reviewer's verdicts write a p-value near the 0.05 they are decided at the same way."""

from __future__ import annotations

import pytest

from goldenlens.core.calibration.estimator import Interval, PairEstimate
from goldenlens.core.calibration.human_calibrated import pair_verdict
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.stats.verdicts import verdict
from goldenlens.core.view.wording import (
    interval_text,
    number_text,
    one_line,
    p_text,
    plural,
    short_number,
    signed_text,
)


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.0004, "p < 0.001"),
        (0.0049, "p = 0.005"),
        (0.0312, "p = 0.031"),
        (0.0496, "p = 0.050"),
        (0.0504, "p = 0.050"),
        (0.0999, "p = 0.100"),
        (0.41, "p = 0.41"),
    ],
)
def test_p_values_have_three_decimals_where_verdicts_are_decided(p: float, text: str) -> None:
    assert p_text(p) == text


def test_both_verdicts_write_the_same_p_value() -> None:
    _winner, fmeval = verdict(
        FACTUAL_KNOWLEDGE, "A", "B", difference=0.2, low=0.05, high=0.35, n=40, p_value=0.0312, level=0.95
    )
    pair = PairEstimate("A", "B", Interval(0.2, 0.05, 0.35), p_value=0.0312, p_holm=0.0312, better="A")
    reviewers = pair_verdict(pair, 0.95)
    assert "95% CI [0.05, 0.35], p = 0.031" in fmeval
    assert "+0.20, 95% CI [0.05, 0.35], Holm-adjusted p = 0.031" in reviewers


def test_numbers() -> None:
    assert number_text(-0.001) == "0.00"
    assert signed_text(-0.001) == "+0.00"
    assert signed_text(-0.04) == "-0.04"
    assert signed_text(0.125) == "+0.12"  # exactly half way: Python's format rounds to even
    assert short_number(0.9166666) == "0.917"
    assert short_number(0.7) == "0.7"
    assert short_number(40.0) == "40"
    assert short_number(3) == "3"
    assert interval_text(-0.001, 0.5) == "[0.00, 0.50]"
    assert interval_text(0.5, 1.0, percent=True) == "[50%, 100%]"
    assert interval_text(None, 1.0) == interval_text(0.1, float("nan")) == ""


def test_texts() -> None:
    assert plural(1, "question") == "1 question"
    assert plural(2, "question") == "2 questions"
    assert plural(1, "diagnosis", "diagnoses") == "1 diagnosis"
    assert plural(0, "diagnosis", "diagnoses") == "0 diagnoses"
    assert one_line("a\n  b\tc", 10) == "a b c"
    assert one_line("word " * 10, 12) == "word word w…"
    assert one_line("word  word  word", 11) == "word word…"  # no space left before the "…"
    assert len(one_line("x" * 50, 12)) == 12

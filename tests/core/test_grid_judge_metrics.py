"""Judge metrics in the grid's pure code: threshold names, and which metrics the pass/fail
report may show (only those whose values are exactly 0 or 1)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.view.grid_state import GridState
from goldenlens.core.view.pass_fail import is_binary_valued, pass_fail_metrics
from goldenlens.core.view.threshold import parse_threshold

NAN = float("nan")


@dataclass
class _Values:
    """Only what pass_fail_metrics reads."""

    values: dict[str, np.ndarray] = field(default_factory=dict)


@pytest.mark.parametrize(
    ("cells", "binary"),
    [
        ([[0.0, 1.0], [1.0, NAN]], True),
        ([[0.0, 1.0], [0.7, 1.0]], False),  # one fraction: a ✓/✗ would hide it
        ([[NAN, NAN]], False),  # nothing scored: nothing to show as pass/fail
        ([[1.0, 1.0]], True),
    ],
)
def test_is_binary_valued(cells: list[list[float]], binary: bool) -> None:
    assert is_binary_valued(np.array(cells)) is binary


def test_pass_fail_metrics_lists_fk_then_the_binary_judge_metrics() -> None:
    data = _Values(
        {
            FACTUAL_KNOWLEDGE: np.array([[1.0]]),
            "aspect_harmfulness": np.array([[0.0]]),
            "faithfulness": np.array([[0.4]]),
            "relevancy": np.array([[1.0]]),
        }
    )
    judged = ("aspect_harmfulness", "faithfulness", "relevancy", "fact_check")  # fact_check: not loaded
    assert pass_fail_metrics(data, judged) == (FACTUAL_KNOWLEDGE, "aspect_harmfulness", "relevancy")  # type: ignore[arg-type]


def test_judge_metric_names_in_threshold_expressions() -> None:
    metrics = (FACTUAL_KNOWLEDGE, "faithfulness", "aspect_Politeness")
    parsed = parse_threshold(
        "Pipeline2.faithfulness >= 0.8 or aspect_politeness == 0", metrics, ["Pipeline2"]
    )
    (first,), (second,) = parsed.alternatives
    assert (first.metric, first.pipeline, first.op, first.value) == ("faithfulness", "Pipeline2", ">=", 0.8)
    assert second.metric == "aspect_Politeness"  # a custom aspect keeps its capitals
    with pytest.raises(ValueError, match=r"available: fk, faithfulness, aspect_Politeness"):
        parse_threshold("context_recall < 0.5", metrics, ["Pipeline2"])


def test_the_report_metric_is_the_only_column_in_report_mode() -> None:
    state = GridState(metrics=("f1_score",), fk_report_mode=True, report_metric="aspect_harmfulness")
    assert state.shown_metrics() == ("aspect_harmfulness",)
    assert "aspect_harmfulness" in (state.metrics_in_use() or ())

"""core.run_comparison on small hand-made score tables whose changes and means are worked out
by hand below each table."""

from __future__ import annotations

import json

import pytest

from goldenlens.core.runs.run_comparison import (
    IMPROVED,
    NOT_SCORED,
    REGRESSED,
    TOLERANCE,
    UNCHANGED,
    classify,
    compare_runs,
)

F1 = "f1_score"
FK = "factual_knowledge"

BASE = {
    ("q1", "A", F1): 0.5,
    ("q2", "A", F1): 1.0,
    ("q3", "A", F1): 0.25,
    ("q4", "A", F1): None,  # not scored in the base run
    ("q1", "A", FK): 0.0,
    ("q2", "A", FK): 1.0,
    ("q3", "A", FK): 1.0,
    ("q4", "A", FK): 1.0,
    ("q1", "B", F1): 0.2,
    ("q1", "B", FK): 1.0,
    ("q5", "A", F1): 0.9,  # q5 only in the base run
    ("q1", "Old", F1): 0.3,  # pipeline Old only in the base run
}
HEAD = {
    ("q1", "A", F1): 0.75,  # +0.25 improved
    ("q2", "A", F1): 0.5,  # -0.5 regressed
    ("q3", "A", F1): 0.25,  # unchanged
    ("q4", "A", F1): 0.4,  # not scored before
    ("q1", "A", FK): 1.0,  # improved
    ("q2", "A", FK): 1.0,
    ("q3", "A", FK): 0.0,  # regressed
    ("q4", "A", FK): 1.0,
    ("q1", "B", F1): 0.2 + 1e-12,  # float noise: unchanged
    ("q1", "B", FK): 1.0,
    ("q6", "A", F1): 0.1,  # q6 only in the head run
    ("q1", "New", F1): 0.8,  # pipeline New only in the head run
    ("q1", "A", "judge_x"): 0.5,  # a metric only in the head run
}


def test_each_cell_is_improved_regressed_unchanged_or_not_scored() -> None:
    comparison = compare_runs(1, BASE, 2, HEAD)
    changes = {(c.question_id, c.pipeline, c.metric): c.change for c in comparison.cells}
    assert changes == {
        ("q1", "A", F1): IMPROVED,
        ("q2", "A", F1): REGRESSED,
        ("q3", "A", F1): UNCHANGED,
        ("q4", "A", F1): NOT_SCORED,
        ("q1", "A", FK): IMPROVED,
        ("q2", "A", FK): UNCHANGED,
        ("q3", "A", FK): REGRESSED,
        ("q4", "A", FK): UNCHANGED,
        ("q1", "B", F1): UNCHANGED,
        ("q1", "B", FK): UNCHANGED,
    }
    cell = comparison.cell("q2", "A", F1)
    assert cell is not None
    assert (cell.before, cell.after, cell.delta) == (1.0, 0.5, -0.5)
    assert comparison.cell("q4", "A", F1).delta is None  # type: ignore[union-attr]
    assert comparison.cell("q5", "A", F1) is None


def test_counts_and_paired_means_per_pipeline_and_metric() -> None:
    comparison = compare_runs(1, BASE, 2, HEAD)
    a_f1 = comparison.metric_change("A", F1)
    assert a_f1 is not None
    assert (a_f1.improved, a_f1.regressed, a_f1.unchanged, a_f1.not_scored, a_f1.paired) == (1, 1, 1, 1, 3)
    # Paired over q1..q3: before (0.5 + 1.0 + 0.25) / 3, after (0.75 + 0.5 + 0.25) / 3.
    assert a_f1.mean_before == pytest.approx(1.75 / 3)
    assert a_f1.mean_after == pytest.approx(0.5)
    assert a_f1.mean_change == pytest.approx((0.25 - 0.5 + 0.0) / 3)
    assert a_f1.mean_change_interval is None
    a_fk = comparison.metric_change("A", FK)
    assert a_fk is not None
    assert (a_fk.improved, a_fk.regressed, a_fk.unchanged, a_fk.paired) == (1, 1, 2, 4)
    assert a_fk.mean_change == pytest.approx(0.0)
    assert comparison.counts(F1) == {IMPROVED: 1, REGRESSED: 1, UNCHANGED: 2, NOT_SCORED: 1}
    assert comparison.counts() == {IMPROVED: 2, REGRESSED: 2, UNCHANGED: 5, NOT_SCORED: 1}


def test_what_only_one_run_holds_is_listed_and_left_out() -> None:
    comparison = compare_runs(1, BASE, 2, HEAD)
    assert comparison.only_in_base.questions == ("q5",)
    assert comparison.only_in_base.pipelines == ("Old",)
    assert comparison.only_in_head.questions == ("q6",)
    assert comparison.only_in_head.pipelines == ("New",)
    assert comparison.only_in_head.metrics == ("judge_x",)
    assert comparison.metrics == (F1, FK)
    assert {c.question_id for c in comparison.cells} == {"q1", "q2", "q3", "q4"}


def test_orders_given_are_kept_and_cells_go_question_by_question() -> None:
    comparison = compare_runs(
        1,
        BASE,
        2,
        HEAD,
        question_order=["q4", "q3", "q2", "q1"],
        pipeline_order=["B", "A"],
        metric_order=[FK, F1],
    )
    assert comparison.questions == ("q4", "q3", "q2", "q1")
    assert comparison.pipelines == ("B", "A")
    assert comparison.metrics == (FK, F1)
    assert [c.question_id for c in comparison.cells][:2] == ["q4", "q4"]
    assert [(c.pipeline, c.metric) for c in comparison.cells if c.question_id == "q1"] == [
        ("B", FK), ("B", F1), ("A", FK), ("A", F1)
    ]  # fmt: skip


def test_paired_deltas_are_what_a_bootstrap_resamples() -> None:
    comparison = compare_runs(1, BASE, 2, HEAD)
    assert comparison.paired_deltas("A", F1) == pytest.approx([0.25, -0.5, 0.0])  # q4 not scored before
    assert comparison.paired_deltas("A", FK) == pytest.approx([1.0, 0.0, -1.0, 0.0])


def test_the_interval_hook_and_json() -> None:
    comparison = compare_runs(1, BASE, 2, HEAD).with_intervals({("A", F1): (-0.4, 0.2, 0.95)})
    data = json.loads(json.dumps(comparison.as_dict()))
    a_f1 = next(m for m in data["summary"] if m["pipeline"] == "A" and m["metric"] == F1)
    assert a_f1["mean_change_interval"] == {"low": -0.4, "high": 0.2, "level": 0.95}
    assert a_f1["paired_questions"] == 3
    b_f1 = next(m for m in data["summary"] if m["pipeline"] == "B" and m["metric"] == F1)
    assert b_f1["mean_change_interval"] is None
    assert data["only_in_head"] == {"questions": ["q6"], "pipelines": ["New"], "metrics": ["judge_x"]}
    assert len(data["cells"]) == 10


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (0.0, 1.0, IMPROVED),
        (1.0, 0.0, REGRESSED),
        (0.3, 0.3 + TOLERANCE / 2, UNCHANGED),
        (0.3, 0.3 + TOLERANCE * 2, IMPROVED),
        (None, 1.0, NOT_SCORED),
        (1.0, None, NOT_SCORED),
    ],
)
def test_classify(before: float | None, after: float | None, expected: str) -> None:
    assert classify(before, after) == expected


def test_means_are_exact_sums() -> None:
    """Ten 0.1s average to 0.1 exactly (fsum), so an unchanged pipeline shows +0.000, not -0.000."""
    keys = [(f"q{i}", "A", F1) for i in range(10)]
    comparison = compare_runs(1, dict.fromkeys(keys, 0.1), 2, dict.fromkeys(keys, 0.1))
    change = comparison.metric_change("A", F1)
    assert change is not None
    assert change.mean_before == 0.1
    assert change.mean_change == 0.0

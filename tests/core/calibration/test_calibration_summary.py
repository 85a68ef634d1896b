"""The reviewer summary's advice on the next step, on estimates built here: a further round is
advised only when it can be planned, and widths are compared as they are shown."""

from __future__ import annotations

from goldenlens.core.calibration.estimator import Interval, PairEstimate, PipelineEstimate
from goldenlens.core.calibration.human_calibrated import HumanCalibrated, pair_verdict


def _summary(low: float, high: float, *, round_waiting: bool = False) -> str:
    estimate = PipelineEstimate("A", Interval((low + high) / 2, low, high, 0.02), 40, 400)
    return HumanCalibrated(
        level=0.95,
        labelled=40,
        responses=400,
        estimates=(estimate,),
        pairs=(),
        rounds=1,
        labels_needed={0.05: 12, 0.03: 40},
        round_waiting=round_waiting,
    ).headline()


def test_a_width_that_shows_as_the_target_asks_for_no_further_round_to_reach_it() -> None:
    # ±0.0502 shows as ±0.05: "The widest interval is ±0.05; … would reach ±0.05" said nothing.
    said = _summary(0.7498, 0.8502)
    assert "would reach ±0.05" not in said
    assert said.endswith(
        "The widest interval is ±0.05; a further round of about 40 labels would reach ±0.03 on its own "
        "(Plan the next round in the app; `goldenlens plan-labels`)."
    )


def test_while_a_round_waits_for_labels_the_summary_says_to_label_it_first() -> None:
    # plan-labels refuses a new round while one has no label: it is not the advice then.
    said = _summary(0.60, 0.80, round_waiting=True)
    assert said.endswith(
        "The widest interval is ±0.10; label the round planned first (it waits for its labels); then a "
        "further round of about 12 labels would reach ±0.05 on its own."
    )
    assert "plan-labels" not in said


def test_a_lead_the_test_does_not_confirm_even_alone_says_its_own_p() -> None:
    # The sample fully labelled: Pipeline1 right on 4 questions where Pipeline2 is wrong, never
    # the reverse. The interval excludes 0, McNemar's exact p is 0.125 alone: "once the other
    # comparisons are accounted for" would blame the correction.
    pair = PairEstimate("Pipeline1", "Pipeline2", Interval(0.4, 0.08, 0.72, 0.163), 0.125, 0.375, None)
    assert pair_verdict(pair, 0.95) == (
        "Pipeline1 may be ahead of Pipeline2 as reviewers would judge it (not confirmed: p = 0.12, "
        "Holm-adjusted p = 0.38): +0.40, 95% CI [0.08, 0.72]"
    )
    held = PairEstimate("Pipeline1", "Pipeline2", Interval(0.4, 0.08, 0.72, 0.163), 0.02, 0.06, None)
    assert "not confirmed once the other comparisons are accounted for, Holm-adjusted p = 0.06" in (
        pair_verdict(held, 0.95)
    )

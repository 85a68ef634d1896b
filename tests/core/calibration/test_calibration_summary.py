"""The reviewer summary's advice on the next step, on estimates built here: a further round is
advised only when it can be planned, and widths are compared as they are shown."""

from __future__ import annotations

from goldenlens.core.calibration.estimator import Interval, PipelineEstimate
from goldenlens.core.calibration.human_calibrated import HumanCalibrated


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

"""What every report says about the reviewer's view: each pipeline's share of responses a
reviewer would judge correct with its interval, the verdicts between pipelines on it, how well
the metrics and the predictor agree with the labels, how often each diagnosis held, and — before
any label — how many labels an interval of a given width would need.

This is the JSON ``human_calibrated`` block (:meth:`HumanCalibrated.as_dict`) and what the
workbook, the HTML report, the printed summary and the Summary tab lead with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from goldenlens.core.calibration.diagnosis_check import DiagnosisCheck
from goldenlens.core.calibration.estimator import ALPHA, Interval, PairEstimate, PipelineEstimate
from goldenlens.core.calibration.features import PRIOR_HIGH, PRIOR_LOW
from goldenlens.core.calibration.labels_needed import labels_needed
from goldenlens.core.calibration.metric_agreement import MetricAgreement
from goldenlens.core.view.wording import interval_text, p_text, plural, signed_text

METHOD: Final = (
    "stratified difference estimator over rounds of labels GoldenLens sampled (prediction-powered "
    "inference), cross-fitted logistic predictor, rounds combined by design weights; Holm over pairs"
)
#: The interval half-widths a report says the labels needed for.
PLANNED_WIDTHS: Final = (0.05, 0.03)


def pair_verdict(pair: PairEstimate, level: float) -> str:
    """One sentence: "Pipeline1 beats Pipeline2 as reviewers would judge it: +0.06, 95% CI [0.02,
    0.10], Holm-adjusted p = 0.01" or "Cannot tell … apart as reviewers would judge it: …"."""
    interval = pair.interval
    if interval.estimate is None or interval.low is None or interval.high is None:
        return f"{pair.a} and {pair.b} have not been checked against a reviewer: nothing to compare"
    percent = f"{round(level * 100):d}% CI"
    if pair.better is not None:
        sign = 1.0 if pair.better == pair.a else -1.0
        loser = pair.b if pair.better == pair.a else pair.a
        low, high = sorted((sign * interval.low, sign * interval.high))
        held = f", Holm-adjusted {p_text(pair.p_holm)}" if pair.p_holm is not None else ""
        return (
            f"{pair.better} beats {loser} as reviewers would judge it: "
            f"{signed_text(sign * interval.estimate)}, {percent} {interval_text(low, high)}{held}"
        )
    low, high = interval.low, interval.high
    if (low > 0 or high < 0) and pair.p_holm is not None:
        # The interval alone excludes 0, but the test does not reject: once every comparison made
        # is accounted for, or already alone (McNemar's exact test on a few labelled questions).
        ahead, behind, sign = (pair.a, pair.b, 1.0) if low > 0 else (pair.b, pair.a, -1.0)
        low, high = sorted((sign * low, sign * high))
        why = (
            f"not confirmed: {p_text(pair.p_value)}, Holm-adjusted {p_text(pair.p_holm)}"
            if pair.p_value is not None and pair.p_value >= ALPHA
            else "not confirmed once the other comparisons are accounted for, "
            f"Holm-adjusted {p_text(pair.p_holm)}"
        )
        return (
            f"{ahead} may be ahead of {behind} as reviewers would judge it ({why}): "
            f"{signed_text(sign * interval.estimate)}, {percent} {interval_text(low, high)}"
        )
    return (
        f"Cannot tell {pair.a} and {pair.b} apart as reviewers would judge it: "
        f"{signed_text(interval.estimate)}, {percent} {interval_text(low, high)}"
    )


@dataclass(frozen=True)
class HumanCalibrated:
    """Everything the reports say about the reviewer's view of one project state."""

    level: float
    #: Responses with a verdict in force, and all responses.
    labelled: int
    responses: int
    estimates: tuple[PipelineEstimate, ...]
    pairs: tuple[PairEstimate, ...]
    rounds: int
    #: Rounds planned on responses that have changed since (left out).
    rounds_outdated: int = 0
    predictor_features: tuple[str, ...] = ()
    agreements: tuple[MetricAgreement, ...] = ()
    diagnoses: Mapping[str, DiagnosisCheck] = field(default_factory=dict)
    #: Half-width -> labels a simple random sample would need (the plan needs about as many).
    labels_needed: Mapping[float, int] = field(default_factory=dict)
    #: A round planned and not labelled yet (the next cannot be planned before it is).
    round_waiting: bool = False
    stale: int = 0
    #: Of the stale labels, those given on an answer that has changed since (never confirmed).
    stale_answers: int = 0
    unsure: int = 0
    notes: tuple[str, ...] = ()

    @property
    def checked(self) -> bool:
        """Whether any pipeline has an estimate from the labels."""
        return any(e.interval.estimate is not None for e in self.estimates)

    def estimate(self, pipeline: str) -> PipelineEstimate | None:
        return next((e for e in self.estimates if e.pipeline == pipeline), None)

    def headline(self) -> str:
        """One line on what the estimates rest on, or why there are none."""
        if not self.labelled:
            needed = ", ".join(
                f"about {n} for ±{w:.2f}" for w, n in sorted(self.labels_needed.items(), reverse=True)
            )
            return (
                "Not checked against a reviewer: "
                + ("no label holds now" if self.stale else "no labels yet")
                + (f" ({needed}; `goldenlens plan-labels` picks them)" if needed else "")
                + "."
                + self._waiting()
            )
        if not self.checked:
            return (
                f"{self.labelled} responses labelled, but "
                + (self.notes[0] if self.notes else "no estimate yet")
                + "."
                + self._waiting()
            )
        how = (
            f"{self.rounds} round{'s' if self.rounds != 1 else ''} of sampled labels"
            if self.rounds
            else "the labels alone, no sampled round"
        )
        if self.unsure:
            how += f"; {self.unsure} judged unsure, which widen the intervals by as much as they could move"
        estimated = f"Estimated from {self.labelled} labelled responses of {self.responses} ({how})."
        return estimated + self._next_round() + self._waiting()

    def _next_round(self) -> str:
        """`` The widest interval is ±0.07; a further round of about N labels …``: how to narrow
        the intervals when the widest is wider than the narrowest width a plan aims at (compared
        as shown, to two decimals)."""
        widths = [
            (e.interval.high - e.interval.low) / 2
            for e in self.estimates
            if e.interval.low is not None and e.interval.high is not None
        ]
        widest = round(max(widths, default=0.0), 2)
        wanted = max((w for w in self.labels_needed if w < widest), default=None)
        if (
            not widths
            or wanted is None
            or widest <= min(PLANNED_WIDTHS)
            or not self.labels_needed.get(wanted)
        ):
            return ""
        then = (
            "label the round planned first (it waits for its labels); then a further round"
            if self.round_waiting
            else "a further round"
        )
        how = "" if self.round_waiting else " (Plan the next round in the app; `goldenlens plan-labels`)"
        return (
            f" The widest interval is ±{widest:.2f}; {then} of about "
            f"{self.labels_needed[wanted]:,} labels would reach ±{wanted:.2f} on its own{how}."
        )

    def _waiting(self) -> str:
        """`` N labels … left out``: stale labels, by what to do with them — an answer that
        changed is labelled anew (its old verdict is about another text); a label made before
        its golden item changed may be confirmed as it was."""
        answers, golden = self.stale_answers, self.stale - self.stale_answers
        said = ""
        if answers:
            said += (
                f" {plural(answers, 'label')} {'was' if answers == 1 else 'were'} given on "
                f"{'an answer' if answers == 1 else 'answers'} that {'has' if answers == 1 else 'have'} "
                f"changed since and {'is' if answers == 1 else 'are'} left out: label the new "
                + (
                    "answer (the next plan lists it)."
                    if answers == 1
                    else "answers (the next plan lists them)."
                )
            )
        if golden:
            said += (
                f" {plural(golden, 'label')} {'was' if golden == 1 else 'were'} given before "
                f"{'its golden item' if golden == 1 else 'their golden items'} changed and "
                f"{'is' if golden == 1 else 'are'} left out: label the answer again (its card in the "
                "app), or confirm what still holds with `goldenlens label PROJECT --confirm-stale`."
            )
        return said

    def as_dict(self) -> dict[str, Any]:
        """The JSON ``human_calibrated`` block."""
        predictor = next((a for a in self.agreements if a.name == "calibrated predictor"), None)
        return {
            "method": METHOD,
            "level": self.level,
            "labelled": self.labelled,
            "responses": self.responses,
            "rounds": self.rounds,
            "rounds_outdated": self.rounds_outdated,
            "stale_labels": self.stale,
            "stale_labels_on_changed_answers": self.stale_answers,
            "unsure_labels": self.unsure,
            "summary": self.headline(),
            "notes": list(self.notes),
            "estimates": {
                e.pipeline: {
                    "estimate": e.interval.estimate,
                    "low": e.interval.low,
                    "high": e.interval.high,
                    "se": e.interval.se,
                    "labelled": e.labelled,
                    "responses": e.responses,
                }
                for e in self.estimates
            },
            "pairs": [
                {
                    "a": p.a,
                    "b": p.b,
                    "difference": p.interval.estimate,
                    "low": p.interval.low,
                    "high": p.interval.high,
                    "p_value": p.p_value,
                    "p_holm": p.p_holm,
                    "better": p.better,
                    "verdict": pair_verdict(p, self.level),
                }
                for p in self.pairs
            ],
            "predictor": {
                "features": list(self.predictor_features),
                "agreement": None if predictor is None else predictor.agreement.rate,
                "kappa": None if predictor is None else predictor.agreement.kappa,
                "labelled": None if predictor is None else predictor.agreement.n,
            },
            "metric_agreement": [a.as_dict() for a in self.agreements],
            "diagnoses": {code: check.as_dict() for code, check in self.diagnoses.items()},
            "labels_needed": {f"{w:.2f}": n for w, n in self.labels_needed.items()},
        }


def not_checked(
    names: Sequence[str], pipeline: npt.NDArray[np.intp], fk: npt.NDArray[np.float64]
) -> HumanCalibrated:
    """No label yet: per pipeline (``names``; ``pipeline`` indexes them per response) no
    estimate, and the labels an interval of each planned width needs, from the prior that
    Factual Knowledge (``fk``, NaN where not scored) gives each response as its own answer: a
    little more than the plan will ask where answers repeat."""
    prior = np.where(np.isnan(fk), 0.5, PRIOR_LOW + (PRIOR_HIGH - PRIOR_LOW) * fk)
    every = np.arange(len(fk), dtype=np.intp)
    needed = (
        {
            width: labels_needed(
                frame=every, answer=every, pipeline=pipeline, prediction=prior, half_width=width
            )
            for width in PLANNED_WIDTHS
        }
        if len(fk)
        else {}
    )
    counts = np.bincount(pipeline, minlength=len(names))
    estimates = tuple(
        PipelineEstimate(name, Interval(None, None, None, None), 0, int(counts[i]))
        for i, name in enumerate(names)
    )
    return HumanCalibrated(
        level=0.95,
        labelled=0,
        responses=len(fk),
        estimates=estimates,
        pairs=(),
        rounds=0,
        labels_needed=needed,
    )

"""The CI gate's decisions (issue #10): which pipeline means fall under a required minimum
(``--fail-under``), and which fell significantly since the previous run
(``--fail-on-regression``). Pure: the CLI parses and prints (:mod:`goldenlens.cli.gate`), the
jobs fetch the previous run (:mod:`goldenlens.jobs.reporting.run_regression`)."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.stats.decision import PairComparison
from goldenlens.core.typed_number import finite_number
from goldenlens.core.view.metric_names import METRIC_LABELS, METRIC_SHORT

if TYPE_CHECKING:  # numpy: imported when a regression is checked, not by every command line
    from goldenlens.core.calibration.human_calibrated import HumanCalibrated
    from goldenlens.core.stats.bootstrap import Settings
    from goldenlens.core.stats.score_table import ScoreRow


def _alias(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", text.lower()).strip("_")


def metric_aliases(metrics: Sequence[str] = LEXICAL_SCORE_NAMES) -> dict[str, str]:
    """Every accepted spelling of each metric → its JSON name: the name itself, the name
    without ``_score``/``_over_words``, and the human label and short label as words joined
    by ``_`` ("factual_knowledge_quasi", "recall", "f1", "fk", "em"), case-insensitive."""
    aliases: dict[str, str] = {}
    for metric in metrics:
        for text in (
            metric,
            metric.removesuffix("_score").removesuffix("_over_words"),
            METRIC_LABELS.get(metric, metric),
            METRIC_SHORT.get(metric, metric),
        ):
            aliases.setdefault(_alias(text), metric)
    return aliases


def resolve_metric(text: str, metrics: Sequence[str] = LEXICAL_SCORE_NAMES) -> str:
    """The JSON name of the metric ``text`` names (:func:`metric_aliases`); ``ValueError``
    naming the metrics known otherwise."""
    found = metric_aliases(metrics).get(_alias(text))
    if found is None:
        raise ValueError(f"unknown metric {text!r}; use one of: {', '.join(metrics)}")
    return found


#: ``--fail-under calibrated=0.7``: the lower end of each pipeline's interval of the share a
#: reviewer would judge correct (issue 21) must reach the minimum.
CALIBRATED = "calibrated"
GATE_METRICS: tuple[str, ...] = (*LEXICAL_SCORE_NAMES, CALIBRATED)


def with_calibrated(
    summary: dict[str, dict[str, float | None]], found: HumanCalibrated | None
) -> dict[str, dict[str, float | None]]:
    """The means with, per pipeline, the lower end of its interval of the share a reviewer
    would judge correct (:data:`CALIBRATED`: what ``--fail-under calibrated=…`` and
    ``assert_passes(min={"calibrated": …})`` check); ``summary`` is updated in place."""
    if found is None:
        return summary
    for estimate in found.estimates:
        summary.setdefault(estimate.pipeline, {})[CALIBRATED] = estimate.interval.low
    return summary


@dataclass(frozen=True)
class MinimumMean:
    """``--fail-under [PIPELINE.]METRIC=VALUE``: the mean of ``metric`` must be at least
    ``value`` for ``pipeline`` (``None``: for every pipeline)."""

    metric: str
    value: float
    pipeline: str | None = None

    @classmethod
    def parse(cls, text: str, metrics: Sequence[str] = GATE_METRICS) -> MinimumMean:
        """``METRIC=VALUE`` or ``PIPELINE.METRIC=VALUE`` (a pipeline name may hold dots: the
        metric is what follows the last one)."""
        target, equals, number = text.rpartition("=")
        if not equals or not target.strip():
            raise ValueError(f"expected METRIC=VALUE or PIPELINE.METRIC=VALUE, got {text!r}")
        value = finite_number(number, context=text)
        pipeline, dot, metric = target.rpartition(".")
        resolved = resolve_metric(metric, metrics)
        if not 0.0 <= value <= 1.0:
            # Every gated mean is a share: a minimum above 1 always fails, one below 0 never does.
            guess = f"; did you mean {target.strip()}={value / 100:g}?" if 1.0 < value <= 100.0 else ""
            raise ValueError(f"{text!r}: a mean of {resolved} is a share from 0 to 1{guess}")
        return cls(resolved, value, pipeline.strip() if dot else None)


@dataclass(frozen=True)
class GateFailure:
    """A pipeline whose mean of ``metric`` is under ``minimum`` (``mean`` ``None``: nothing scored)."""

    pipeline: str
    metric: str
    mean: float | None
    minimum: float

    def line(self) -> str:
        """``FAIL Pipeline2 factual_knowledge 0.40 < 0.60``: enough digits that the two
        numbers read differently."""
        if self.mean is None and self.metric == CALIBRATED:
            return (
                f"FAIL {self.pipeline} calibrated: not checked against a reviewer "
                f"(minimum {self.minimum:g}); label a sample first: goldenlens plan-labels PROJECT --budget N"
            )
        if self.mean is None:
            return f"FAIL {self.pipeline} {self.metric} no scored value (minimum {self.minimum:g})"
        digits = 2
        while digits < 12 and f"{self.mean:.{digits}f}" == f"{self.minimum:.{digits}f}":
            digits += 1
        what = "calibrated (lower end of the 95% interval)" if self.metric == CALIBRATED else self.metric
        return f"FAIL {self.pipeline} {what} {self.mean:.{digits}f} < {self.minimum:.{digits}f}"


class UnknownPipelineError(ValueError):
    """A minimum names a pipeline the report does not have (bad input, exit 2)."""


def check_pipelines(pipelines: Collection[str], minimums: Iterable[MinimumMean]) -> None:
    """Raise :class:`UnknownPipelineError` when a minimum names a pipeline not in ``pipelines``
    (the command line checks this before it writes a report)."""
    for check in minimums:
        if check.pipeline is not None and check.pipeline not in pipelines:
            known = ", ".join(pipelines) or "none"
            raise UnknownPipelineError(
                f"--fail-under names pipeline {check.pipeline!r}; the report has: {known}"
            )


def failing_minimums(
    summary: Mapping[str, Mapping[str, float | None]], minimums: Iterable[MinimumMean]
) -> list[GateFailure]:
    """Each (pipeline, metric) whose mean is under its minimum, in summary order (a pipeline
    with nothing scored on the metric fails: a gate does not pass on no evidence)."""
    checks = list(minimums)
    check_pipelines(list(summary), checks)
    failures: list[GateFailure] = []
    for pipeline, means in summary.items():
        for check in checks:
            if check.pipeline not in (None, pipeline):
                continue
            mean = means.get(check.metric)
            if mean is None or mean < check.value:
                failures.append(GateFailure(pipeline, check.metric, mean, check.value))
    return failures


HEAD, PREVIOUS = "head", "previous"


@dataclass(frozen=True)
class Regression:
    """A pipeline whose mean of a metric fell significantly: the paired interval of head -
    previous lies entirely below 0 (``comparison.a`` is the head run, ``b`` the previous)."""

    pipeline: str
    comparison: PairComparison

    def line(self, head: str, previous: str) -> str:
        c = self.comparison
        assert c.difference is not None
        assert c.low is not None
        assert c.high is not None
        # Written for a CI log: the sign of a drop kept however small it is ("-0.00", never the
        # "+0.00" of a sentence's rounding), and the p-value to three significant digits.
        p = "" if c.p_value is None else f", p = {c.p_value:.3g}"
        return (
            f"REGRESSION {self.pipeline} {c.metric} {head} - {previous} = {c.difference:+.2f}, "
            f"95% CI [{c.low:.2f}, {c.high:.2f}]{p} — {c.n} questions"
        )


def regressions(
    head: Iterable[ScoreRow],
    previous: Iterable[ScoreRow],
    pipelines: Sequence[str],
    metrics: Sequence[str] = LEXICAL_SCORE_NAMES,
    settings: Settings | None = None,
) -> list[Regression]:
    """Per pipeline of ``pipelines`` and metric, the paired comparison of the head run's
    scores with the previous run's over the questions both scored; those whose interval lies
    entirely below 0. Rows are ``(question_id, pipeline, values in metrics order)``."""
    from goldenlens.core.stats.decide import decide

    by_pipeline: dict[str, list[ScoreRow]] = {p: [] for p in pipelines}
    for label, rows in ((HEAD, head), (PREVIOUS, previous)):
        for question_id, pipeline, values in rows:
            if pipeline in by_pipeline:
                by_pipeline[pipeline].append((question_id, label, values))
    found: list[Regression] = []
    for pipeline, rows_of in by_pipeline.items():
        decision = decide(rows_of, (HEAD, PREVIOUS), metrics, thresholds={}, settings=settings)
        found.extend(
            Regression(pipeline, c)
            for c in decision.comparisons
            if c.a == HEAD and c.high is not None and c.high < 0
        )
    return found

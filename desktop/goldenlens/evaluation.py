"""The Python API (issue #10): score a golden set and responses from a script or a test and
check the result, the way a unit test asserts on a response::

    import goldenlens

    def test_pipeline_quality() -> None:
        result = goldenlens.evaluate("golden.xlsx", "responses.csv")
        result.assert_passes(min={"factual_knowledge": 0.6, "f1": 0.5})

The numbers are the CLI's: without ``project`` the files are scored as ``goldenlens score``
scores them (no project file); with ``project`` they are imported into that project and scored
as ``goldenlens score --project`` does (the run is kept, a later one can be compared with it).
A project's reviewer labels give :attr:`Evaluation.calibrated`, what reviewers would judge,
and ``assert_passes(min={"calibrated": 0.8})`` checks the lower ends of its intervals, as
``--fail-under calibrated=0.8`` does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.core.input_selection import InputSelection
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.scored_rows import Report
from goldenlens.core.stats.decide import decide
from goldenlens.core.stats.decision import Decision
from goldenlens.core.stats.gates import (
    CALIBRATED,
    MinimumMean,
    failing_minimums,
    resolve_metric,
    with_calibrated,
)
from goldenlens.core.stats.pass_rates import DEFAULT_PASS_THRESHOLDS

if TYPE_CHECKING:
    import pandas as pd

    from goldenlens.core.calibration.human_calibrated import HumanCalibrated


def lexical_metrics(metrics: Sequence[str] | None) -> tuple[str, ...]:
    """The lexical metrics ``metrics`` name (JSON names or labels such as ``"f1"``), in the
    order given; all seven for ``None``. Anything else (a judge metric, a typo) is a
    ``ValueError``: :func:`evaluate` scores lexical metrics only."""
    if metrics is None:
        return LEXICAL_SCORE_NAMES
    if isinstance(metrics, str):
        raise TypeError(f"metrics must be a list of lexical metric names, got the string {metrics!r}")
    chosen: list[str] = []
    for name in metrics:
        try:
            found = resolve_metric(name)
        except ValueError:
            raise ValueError(
                f"evaluate() scores the lexical metrics only; {name!r} is not one of: "
                f"{', '.join(LEXICAL_SCORE_NAMES)}"
            ) from None
        if found not in chosen:
            chosen.append(found)
    if not chosen:
        raise ValueError("metrics is empty: name at least one lexical metric, or pass None for all")
    return tuple(chosen)


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` returns: the report, with the selected metrics as tables."""

    report: Report
    metrics: tuple[str, ...] = LEXICAL_SCORE_NAMES
    #: ``metric -> threshold`` of the pass rates in :attr:`comparisons`.
    thresholds: Mapping[str, float] = field(default_factory=dict)

    @cached_property
    def rows(self) -> pd.DataFrame:
        """One row per question x pipeline (report order): ``question_id``, ``pipeline``, the
        selected metrics (effective scores; NaN where not scored), ``flags`` (a tuple of flag
        names), ``question``, ``response``."""
        import pandas as pd

        records = [
            {
                "question_id": r.item.id,
                "pipeline": r.response.pipeline,
                **{m: r.scores[m] for m in self.metrics},
                "flags": tuple(flag.value for flag in r.flags),
                "question": r.item.question,
                "response": r.response.response,
            }
            for r in self.report.rows
        ]
        columns = ["question_id", "pipeline", *self.metrics, "flags", "question", "response"]
        frame = pd.DataFrame.from_records(records, columns=columns)
        return frame.astype(dict.fromkeys(self.metrics, "float64"))

    @cached_property
    def means(self) -> dict[str, dict[str, float | None]]:
        """Mean of each selected metric per pipeline (``None``: nothing scored), as in the
        report's summary."""
        return self.report.summary(self.metrics)

    @property
    def summary(self) -> pd.DataFrame:
        """:attr:`means` as a table: one row per pipeline (the index), one column per metric."""
        import pandas as pd

        frame = pd.DataFrame.from_dict(
            self.means, orient="index", columns=list(self.metrics), dtype="float64"
        )
        frame.index.name = "pipeline"
        return frame

    @cached_property
    def comparisons(self) -> Decision:
        """Means and pass rates with 95% bootstrap intervals, and every pair of pipelines
        compared (paired interval, McNemar's test on binary metrics, a verdict), over the
        selected metrics."""
        rows = (
            (r.item.id, r.response.pipeline, [r.scores[m] for m in self.metrics]) for r in self.report.rows
        )
        return decide(rows, self.report.pipelines, self.metrics, thresholds=dict(self.thresholds))

    @property
    def calibrated(self) -> HumanCalibrated | None:
        """What reviewers would judge (each pipeline's share a reviewer would judge correct,
        with its interval, and the verdicts on it), from the project's labels; without a
        project, or before any label, it says it was not checked (``checked`` is false)."""
        return self.report.human_calibrated

    def assert_passes(self, min: Mapping[str, float], pipeline: str | None = None) -> None:
        """Raise ``AssertionError`` listing every pipeline (or only ``pipeline``) whose mean of
        a metric in ``min`` (``{"factual_knowledge": 0.6, "f1": 0.5}``) is under its minimum;
        ``"calibrated"``: the lower end of the 95% interval of the share a reviewer would judge
        correct (a pipeline not checked against a reviewer fails it)."""
        if not min:
            raise ValueError("assert_passes needs at least one minimum, e.g. min={'factual_knowledge': 0.6}")
        if pipeline is not None and pipeline not in self.means:
            raise ValueError(f"no pipeline {pipeline!r}; the report has: {', '.join(self.means) or 'none'}")
        checks = [
            MinimumMean(resolve_metric(name, (*self.metrics, CALIBRATED)), float(value), pipeline)
            for name, value in min.items()
        ]
        means = {p: dict(m) for p, m in self.means.items()}
        if any(check.metric == CALIBRATED for check in checks):
            means = with_calibrated(means, self.calibrated)
            for found in means.values():
                found.setdefault(CALIBRATED, None)
        failures = failing_minimums(means, checks)
        if failures:
            lines = "\n".join(failure.line() for failure in failures)
            raise AssertionError(f"{len(failures)} minimum(s) not met:\n{lines}")


def evaluate(
    golden: str | Path,
    responses: str | Path,
    metrics: Sequence[str] | None = None,
    project: str | Path | None = None,
    *,
    multiset: bool = False,
    mapping: Mapping[str, str] | None = None,
    golden_sheet: str | None = None,
    responses_sheet: str | None = None,
    header_row: int | None = None,
    responses_header_row: int | None = None,
    pass_thresholds: Mapping[str, float] | None = None,
) -> Evaluation:
    """Score ``responses`` against ``golden`` (spreadsheet paths, as ``goldenlens score``
    reads them) with the lexical ``metrics`` (default: all seven) and return an
    :class:`Evaluation`. With ``project`` the inputs are imported into that project file
    (created or updated) and the run is kept. The options are the CLI's: ``multiset``
    counting, a column ``mapping`` (``{"response": "Answer text"}``), the sheets and header
    rows; ``pass_thresholds`` (default ``factual_knowledge`` = 1, ``f1_score`` and
    ``recall_over_words`` ≥ 0.5) pick the pass rates. Bad input raises
    :class:`goldenlens.core.problems.InputError` naming the file, sheet, row and column."""
    from goldenlens.jobs.scoring.score_rows import ScoreOptions

    chosen = lexical_metrics(metrics)
    cuts = dict(DEFAULT_PASS_THRESHOLDS if pass_thresholds is None else pass_thresholds)
    if pass_thresholds is None:
        cuts = {m: t for m, t in cuts.items() if m in chosen}
    else:
        cuts = {resolve_metric(m, chosen): float(t) for m, t in cuts.items()}
    options = ScoreOptions(multiset=multiset)
    # How both files are read, the same with a project or without.
    selection = InputSelection(
        golden_sheet=golden_sheet,
        responses_sheet=responses_sheet,
        mapping=mapping or {},
        header_row=header_row,
        responses_header_row=responses_header_row,
    )
    if project is None:
        from goldenlens.jobs.scoring.score_files import score_files

        report = score_files(Path(golden), Path(responses), selection=selection, options=options).report()
    else:
        from goldenlens.jobs import open_project
        from goldenlens.jobs.importing.import_and_score import import_and_score
        from goldenlens.jobs.labelling.calibration import calibrated_report
        from goldenlens.jobs.reporting.stored_run import build_report

        done = import_and_score(
            Path(project), Path(golden), Path(responses), selection=selection, options=options
        )
        with open_project(project) as scored:
            report = calibrated_report(scored, build_report(scored, done.run_id), current=True)
    return Evaluation(report, chosen, cuts)

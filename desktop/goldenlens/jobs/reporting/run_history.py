"""A project's scoring runs: the list, naming a run, comparing two, and the trend across runs.

Every run already records what it was given (``runs.params``: the options), the SHA-256 of
exactly the inputs it scored (``RunInfo.inputs_sha256``, :mod:`goldenlens.core.runs.fingerprint`:
for a lexical run the golden items' id, answer and fact and the responses' question id,
pipeline and response, sorted by key; a judge run adds the questions and contexts), and the
golden-set history entry it started from (:mod:`goldenlens.jobs.curation.golden_versions` turns that
into a version). Runs made before a field was recorded show it as unknown: a value not
recorded is never guessed (in particular not the version current at the run's start time).

A run is named by its id, ``latest`` (the newest finished lexical run) or ``previous`` (the
finished lexical run before it). Compared runs must be of the same kind. The scores compared
are the run's own numbers: reviewers' overrides apply to a question whatever the run, so they
are left out (they would hide what the pipelines did).

The CLI (``goldenlens runs``, ``goldenlens compare``) and the desktop app's Run History
dialog both come here; the ``*_at`` functions open their own connection, for a worker thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import fsum
from typing import Any, Final

from goldenlens.core.errors import GoldenLensError
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.project_records import RunInfo
from goldenlens.core.record_dicts import record_dict
from goldenlens.core.runs.run_comparison import RunComparison, Scores, compare_runs
from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.core.stats.bootstrap import Settings, Statistic, percentile_interval, resampled_means
from goldenlens.jobs.curation.golden_versions import ProjectVersions, RunVersion
from goldenlens.jobs.project_access import takes_project
from goldenlens.store.project import ProjectStore

LATEST: Final = "latest"
PREVIOUS: Final = "previous"
#: What a run's missing fingerprint or golden version reads as.
UNKNOWN: Final = "unknown"
#: Hex digits of a fingerprint in tables.
SHORT_FINGERPRINT: Final = 12


class RunReferenceError(GoldenLensError, ValueError):
    """A run reference that names no usable run: an unknown id, ``previous`` with one run,
    runs of different kinds. The message says which, in one line."""


@dataclass(frozen=True)
class RunListing:
    """One run as the run list shows it.

    ``golden_version`` is the version the run's numbers describe (``v3``, ``v3 "curated"``,
    ``v3 (re-scored in place from v2)``), :data:`UNKNOWN` for a run made before runs recorded
    it; ``fingerprint`` the inputs' SHA-256, ``None`` when not recorded.
    """

    id: int
    kind: str
    status: str
    started_at: str
    finished_at: str | None
    rows: int
    options: Mapping[str, Any]
    golden_version: str
    golden_version_number: int | None
    fingerprint: str | None

    @property
    def fingerprint_short(self) -> str:
        return UNKNOWN if self.fingerprint is None else self.fingerprint[:SHORT_FINGERPRINT]

    @property
    def options_summary(self) -> str:
        return options_summary(self.options)

    def as_dict(self) -> dict[str, Any]:
        return record_dict(
            self,
            options=dict(self.options),
            options_summary=self.options_summary,
            fingerprint_short=self.fingerprint_short,
        )


def options_summary(options: Mapping[str, Any]) -> str:
    """``multiset=False, thresholds=8 set`` — the options of a run in a table cell: scalars
    as they are, lists joined, nested settings counted (the full options are in the JSON)."""
    parts: list[str] = []
    for key, value in options.items():
        if isinstance(value, Mapping):
            parts.append(f"{key}: {len(value)} set")
        elif isinstance(value, list | tuple):
            parts.append(f"{key}={'+'.join(str(v) for v in value)}")
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts) or "-"


def _version_label(versions: ProjectVersions, run: RunVersion) -> tuple[str, int | None]:
    if not run.recorded:
        return UNKNOWN, None
    number = run.scored_version
    text = versions.label(number)
    if run.rescored_version is not None and run.rescored_version != run.version:
        text += f" (re-scored in place from v{run.version})"
    return text, number


@takes_project
def list_runs(store: ProjectStore, *, kind: str | None = None) -> list[RunListing]:
    """Every run of the project (of ``kind``), oldest first."""
    versions = ProjectVersions(store)
    by_id = {run.run_id: run for run in versions.runs}
    out: list[RunListing] = []
    for run in store.runs.all():
        if kind is not None and run.kind != kind:
            continue
        label, number = _version_label(versions, by_id[run.id])
        out.append(
            RunListing(
                run.id,
                run.kind,
                run.status,
                run.started_at,
                run.finished_at,
                run.total,
                dict(run.params),
                label,
                number,
                run.inputs_sha256 or None,
            )
        )
    return out


def _finished(store: ProjectStore, kind: str) -> list[RunInfo]:
    return [run for run in store.runs.all() if run.kind == kind and run.is_finished]


def resolve_run(store: ProjectStore, ref: str, *, kind: str = LEXICAL_RUN) -> RunInfo:
    """The run ``ref`` names: an id, ``latest`` or ``previous`` (finished runs of ``kind``).
    Raises :class:`RunReferenceError`."""
    text = ref.strip().lower()
    if text in (LATEST, PREVIOUS):
        finished = _finished(store, kind)
        wanted = 1 if text == LATEST else 2
        if len(finished) < wanted:
            have = "no finished" if not finished else "only one finished"
            raise RunReferenceError(
                f"{store.path.name}: there is no {text} run: the project has {have} {kind} run"
                + ("" if text == LATEST else " (score it again to have two to compare)")
            )
        return finished[-wanted]
    try:
        run_id = int(text)
    except ValueError:
        raise RunReferenceError(
            f"{store.path.name}: {ref!r} is not a run: give a run id, {LATEST!r} or {PREVIOUS!r}"
        ) from None
    run = store.runs.get(run_id)
    if run is None:
        ids = [r.id for r in store.runs.all()]
        known = f"runs are {_id_list(ids)}" if ids else "the project has no runs"
        raise RunReferenceError(f"{store.path.name}: there is no run {run_id} ({known})")
    return run


def _id_list(ids: Sequence[int]) -> str:
    return ", ".join(str(i) for i in ids) if len(ids) <= 12 else f"{ids[0]} to {ids[-1]}"


def run_scores(store: ProjectStore, run_id: int) -> Scores:
    """``{(question_id, pipeline, metric): value}`` of every score of a run (``None``: not
    scored). One range scan per metric."""
    metrics = store.results.metrics(run_id)
    keys, columns = store.results.score_columns(run_id, metrics)
    out: dict[tuple[str, str, str], float | None] = {}
    for metric in metrics:
        for (question, pipeline), value in zip(keys, columns[metric], strict=True):
            out[(question, pipeline, metric)] = value
    return out


@dataclass(frozen=True)
class RunPairComparison:
    """Two runs of a project compared: the runs as listed, the comparison, and notes on what
    makes their numbers less comparable (a different golden version, options or inputs)."""

    base: RunListing
    head: RunListing
    comparison: RunComparison
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "base": self.base.as_dict(),
            "head": self.head.as_dict(),
            "notes": list(self.notes),
            **self.comparison.as_dict(),
        }


def _notes(base: RunListing, head: RunListing) -> tuple[str, ...]:
    notes: list[str] = []
    if UNKNOWN in (base.golden_version, head.golden_version):
        notes.append("the golden-set version of a run is unknown (made before runs recorded it)")
    elif base.golden_version_number != head.golden_version_number:
        notes.append(
            f"the runs scored different golden-set versions ({base.golden_version} and "
            f"{head.golden_version}): some changes may come from the golden set, not the pipelines"
        )
    if dict(base.options) != dict(head.options):
        notes.append(f"the runs' options differ: {base.options_summary} / {head.options_summary}")
    if base.fingerprint is not None and base.fingerprint == head.fingerprint:
        notes.append("both runs scored identical inputs (same fingerprint)")
    return tuple(notes)


@takes_project
def compare_project_runs(
    store: ProjectStore, base_ref: str = PREVIOUS, head_ref: str = LATEST
) -> RunPairComparison:
    """Compare run ``head_ref`` with run ``base_ref`` (references as :func:`resolve_run`
    reads them). Raises :class:`RunReferenceError` for an unknown run or runs of two kinds."""
    base_run = resolve_run(store, base_ref)
    kind = base_run.kind
    head_run = resolve_run(store, head_ref, kind=kind)
    if head_run.kind != kind:
        raise RunReferenceError(
            f"{store.path.name}: run {base_run.id} is a {kind} run and run {head_run.id} a "
            f"{head_run.kind} run: compare runs of the same kind"
        )
    listed = {run.id: run for run in list_runs(store)}
    comparison = compare_runs(
        base_run.id,
        run_scores(store, base_run.id),
        head_run.id,
        run_scores(store, head_run.id),
        question_order=[item.id for item in store.golden.items()],
        pipeline_order=store.responses.pipelines(),
        metric_order=LEXICAL_SCORE_NAMES,
    )
    base, head = listed[base_run.id], listed[head_run.id]
    return RunPairComparison(base, head, change_intervals(comparison), _notes(base, head))


def change_intervals(comparison: RunComparison, settings: Settings | None = None) -> RunComparison:
    """``comparison`` with each pipeline's and metric's ``mean_change_interval``: the seeded
    percentile bootstrap (:mod:`goldenlens.core.stats.bootstrap`) of the mean of ``after - before``
    over the questions both runs scored — a paired interval, as the regression gate uses."""
    import numpy as np  # only for comparisons, not for listing runs

    chosen = settings or Settings()
    intervals: dict[tuple[str, str], tuple[float, float, float]] = {}
    for change in comparison.summary:
        deltas = comparison.paired_deltas(change.pipeline, change.metric)
        if not deltas:
            continue
        key = f"change|{change.pipeline}|{change.metric}"
        (means,) = resampled_means(
            key, np.asarray(deltas, dtype=np.float64)[:, None], [Statistic(key, (0,))], chosen
        )
        low, high = percentile_interval(means, chosen.level)
        intervals[(change.pipeline, change.metric)] = (low, high, chosen.level)
    return comparison.with_intervals(intervals)


@dataclass(frozen=True)
class RunTrend:
    """Per pipeline and metric, the mean score of each finished run of a kind, oldest first:
    ``means[(pipeline, metric)][i]`` is run ``runs[i]``'s (``None``: the run has no score
    there). A mean is over the questions that run scored."""

    runs: tuple[RunListing, ...] = ()
    pipelines: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    means: Mapping[tuple[str, str], tuple[float | None, ...]] = field(default_factory=dict)


def run_trend(store: ProjectStore, *, kind: str = LEXICAL_RUN) -> RunTrend:
    """The mean of every pipeline and metric in each finished run of ``kind``."""
    runs = [run for run in list_runs(store, kind=kind) if run.status == "finished"]
    per_run: list[dict[tuple[str, str], float]] = []
    pipelines: set[str] = set()
    metrics: set[str] = set()
    for run in runs:
        sums: dict[tuple[str, str], list[float]] = {}
        for (_question, pipeline, metric), value in run_scores(store, run.id).items():
            pipelines.add(pipeline)
            metrics.add(metric)
            if value is not None:
                sums.setdefault((pipeline, metric), []).append(value)
        per_run.append({key: fsum(values) / len(values) for key, values in sums.items()})
    order = store.responses.pipelines()
    ordered_pipelines = (*(p for p in order if p in pipelines), *sorted(pipelines - set(order)))
    ordered_metrics = (
        *(m for m in LEXICAL_SCORE_NAMES if m in metrics),
        *sorted(metrics - set(LEXICAL_SCORE_NAMES)),
    )
    means = {
        (pipeline, metric): tuple(means.get((pipeline, metric)) for means in per_run)
        for pipeline in ordered_pipelines
        for metric in ordered_metrics
    }
    return RunTrend(tuple(runs), ordered_pipelines, ordered_metrics, means)


# -- for a worker thread (the desktop app): open, read, close --------------------------------


@dataclass(frozen=True)
class RunHistory:
    """What the Run History dialog shows first: every run, and the lexical trend."""

    runs: tuple[RunListing, ...]
    trend: RunTrend


@takes_project
def run_history(store: ProjectStore) -> RunHistory:
    """The project's runs and their lexical trend."""
    return RunHistory(tuple(list_runs(store)), run_trend(store))

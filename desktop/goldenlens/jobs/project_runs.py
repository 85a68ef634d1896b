"""Long jobs on the project at a path, for a worker thread: each opens its own connection
there, runs one job and closes it again.

These are what the desktop app's workers call; the store a job writes through never leaves
this module, so ``goldenlens.ui`` needs only a path (SQLite's WAL lets this connection work
beside the one the GUI thread reads through).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.jobs.judging.judge_options import JudgeOptions
from goldenlens.jobs.progress import CancelToken, ProgressFn, no_progress
from goldenlens.jobs.reporting.report_job import export_golden, export_report
from goldenlens.jobs.scoring.pending import options_to_finish
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.store.project import ProjectStore

if TYPE_CHECKING:  # the golden review loads the judge's modules: only when a review starts
    from goldenlens.core.calibration.human_calibrated import HumanCalibrated
    from goldenlens.core.calibration.label_plan import LabelPlan
    from goldenlens.core.calibration.sampling_plan import Mode
    from goldenlens.jobs.judging.golden_review_job import GoldenReviewOptions
    from goldenlens.judge.engines.protocol import JudgeEngine


def score_project_at(
    path: Path, *, progress: ProgressFn = no_progress, cancel: CancelToken | None = None
) -> int:
    """Score the project's responses (resuming an unfinished run, or the scoring its newest
    import asked for and never began, with their options); returns the run id."""
    with ProjectStore.open(path) as store:
        return score_project(store, options_to_finish(store), progress=progress, cancel=cancel)


def judge_project_at(
    path: Path,
    options: JudgeOptions,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> int:
    """Run the judge metrics of ``options`` on the project; returns the run id."""
    # The judge job imports the engines' modules: only when a judge run starts.
    from goldenlens.jobs.judging.judge_job import judge_project

    with ProjectStore.open(path) as store:
        return judge_project(store, options, progress=progress, cancel=cancel)


def review_golden_set_at(
    path: Path,
    options: GoldenReviewOptions,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    engine: JudgeEngine | None = None,
) -> int:
    """The judge reviews the project's golden set (resuming an interrupted review with equal
    options); returns the run id. ``engine``: a judge already loaded (tests, screenshots)."""
    from goldenlens.jobs.judging.golden_review_job import review_golden_set

    with ProjectStore.open(path) as store:
        return review_golden_set(store, options, progress=progress, cancel=cancel, engine=engine)


def export_golden_at(path: Path, out: Path, *, question_ids: Collection[str] | None = None) -> int:
    """Write the curated golden set (optionally only ``question_ids``); returns the item count."""
    with ProjectStore.open(path) as store:
        return export_golden(store, out, question_ids=question_ids)


def export_report_at(
    path: Path, out: Path, *, question_ids: Collection[str] | None = None, progress: ProgressFn = no_progress
) -> int:
    """Write the report workbook of the latest run (optionally only ``question_ids``); returns
    the number of scored responses it lists."""
    with ProjectStore.open(path) as store:
        return len(export_report(store, out, question_ids=question_ids, progress=progress).rows)


def calibrate_at(path: Path) -> HumanCalibrated:
    """What reviewers would judge, from the project's labels (the labelling view and the Summary
    tab ask for it after each label; the advisor's diagnosis checks are left to the reports)."""
    from goldenlens.jobs.labelling.calibration import calibrate

    with ProjectStore.open(path) as store:
        return calibrate(store, with_diagnoses=False)


def plan_labels_at(path: Path, *, budget: int, seed: int, mode: Mode = "response") -> LabelPlan:
    """Draw and keep the next round of labels (:func:`goldenlens.jobs.labelling.plan.plan_labels`)."""
    from goldenlens.jobs.labelling.plan import plan_labels

    with ProjectStore.open(path) as store:
        return plan_labels(store, budget=budget, seed=seed, mode=mode)

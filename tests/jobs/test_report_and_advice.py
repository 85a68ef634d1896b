"""A report of an older run says what reviewers would judge of the project as it stands.

The reviewer's view (shares, verdicts and how often each diagnosis held on the labels) is the
project's: the latest run's responses and that run's advice. A workbook of an older run has
that run's own advice on its Advice sheet, but the label checks on its Decision sheet must be
the ones every other report of the project gives, or a CSV and a workbook of the same project
would disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from goldenlens.core.advice.values import AdviceCode
from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.jobs.curation import advice_job
from goldenlens.jobs.importing.sample_project import ensure_sample_project
from goldenlens.jobs.labelling import calibration
from goldenlens.jobs.labelling.calibration import calibrate
from goldenlens.jobs.labelling.label_edits import label_response
from goldenlens.jobs.project_access import open_project
from goldenlens.jobs.reporting import report_job, stored_run
from goldenlens.jobs.reporting.report_job import report_and_advice
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.jobs.scoring.score_rows import ScoreOptions
from goldenlens.store.project import ProjectStore

REPHRASED = AdviceCode.CORRECT_BUT_REPHRASED.value


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ProjectStore]:
    with open_project(ensure_sample_project(tmp_path / "sample.goldenlens")) as opened:
        yield opened


def test_an_older_runs_report_carries_the_projects_label_checks(store: ProjectStore) -> None:
    first = store.runs.latest("lexical", finished_only=True)
    assert first is not None
    label_response(store, "q06", "Pipeline2", "incorrect", reviewer="Ana")
    label_response(store, "q01", "Pipeline1", "correct", reviewer="Ana")
    label_response(store, "q04", "Pipeline3", "incorrect", reviewer="Ana")
    # Scored again with a rephrased band from recall 0.05: q06/Pipeline2 (no fact, few of the
    # golden words) now reads as correct but rephrased, which the reviewer's label refutes.
    thresholds = FlagThresholds(rephrased_recall=0.05, hallucination_recall=0.99)
    score_project(store, ScoreOptions(thresholds=thresholds), resume=False)

    project_now = calibrate(store).diagnoses
    assert (project_now[REPHRASED].held, project_now[REPHRASED].labelled) == (0, 1)

    older, advice = report_and_advice(store, first.id, with_advice=True)
    assert advice is not None  # the older run's own advice, for its Advice sheet
    assert not [
        d
        for d in advice.diagnoses
        if (d.code.value, d.question_id, d.pipeline) == (REPHRASED, "q06", "Pipeline2")
    ]
    assert older.human_calibrated is not None
    assert older.human_calibrated.diagnoses == project_now
    latest, no_advice = report_and_advice(store)
    assert no_advice is None
    assert latest.human_calibrated is not None
    assert latest.human_calibrated.diagnoses == project_now


class _Counted:
    """Wraps a function and counts its calls."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.function(*args, **kwargs)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, _Counted]:
    """Calls of the advice and of the stored report, wherever the reporting path makes them."""
    found = {"advice": _Counted(advice_job.build_advice), "report": _Counted(stored_run.build_report)}
    for module in (report_job, calibration):
        monkeypatch.setattr(module, "build_advice", found["advice"])
    for module in (report_job, advice_job):
        monkeypatch.setattr(module, "build_report", found["report"])
    return found


@pytest.mark.parametrize("with_advice", [True, False])
def test_a_labelled_report_works_out_its_advice_and_report_once(
    store: ProjectStore, counted: dict[str, _Counted], with_advice: bool
) -> None:
    label_response(store, "q02", "Pipeline2", "incorrect", reviewer="Ana")
    report, advice = report_and_advice(store, with_advice=with_advice)
    assert (counted["advice"].calls, counted["report"].calls) == (1, 1)
    assert (advice is not None) == with_advice
    assert report.human_calibrated is not None
    assert report.human_calibrated.diagnoses  # the label checks came from that one advice


def test_only_unsure_labels_need_no_advice(store: ProjectStore, counted: dict[str, _Counted]) -> None:
    label_response(store, "q02", "Pipeline2", "unsure", reviewer="Ana")
    report, _advice = report_and_advice(store)
    assert (counted["advice"].calls, counted["report"].calls) == (0, 1)
    assert report.human_calibrated is not None
    assert report.human_calibrated.diagnoses == {}

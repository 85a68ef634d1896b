"""A report of an older run says what reviewers would judge of the project as it stands.

The reviewer's view (shares, verdicts and how often each diagnosis held on the labels) is the
project's: the latest run's responses and that run's advice. A workbook of an older run has
that run's own advice on its Advice sheet, but the label checks on its Decision sheet must be
the ones every other report of the project gives, or a CSV and a workbook of the same project
would disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from goldenlens.core.advice.values import AdviceCode
from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.jobs.importing.sample_project import ensure_sample_project
from goldenlens.jobs.labelling.calibration import calibrate
from goldenlens.jobs.labelling.label_edits import label_response
from goldenlens.jobs.project_access import open_project
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

"""The labelling screenshots (run by screenshots.py): labels.png, labels-1366x768.png and
labels-1920x1080.png (the Labels tab on the sample after a round of labels, a question half
labelled, the estimates beside it) and summary-labels.png (the Summary tab leading with what a
reviewer would judge)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

#: The reviewer's verdicts on the sample (the README of the sample: q02/Pipeline2's $170.0 billion
#: and q07's other amounts are wrong, Pipeline3's q02 is a refusal, q06's answers miss the point).
WRONG = {
    ("q02", "Pipeline2"),
    ("q02", "Pipeline3"),
    ("q07", "Pipeline2"),
    ("q07", "Pipeline3"),
    ("q08", "Pipeline2"),
    ("q06", "Pipeline2"),
    ("q06", "Pipeline3"),
}


def labels_shots(
    window: object, sample: Path, scratch: Path, out: Path, spin: Callable[[float], None]
) -> None:
    from goldenlens.core.calibration.labels import Verdict
    from goldenlens.jobs.labelling.label_edits import label_response
    from goldenlens.jobs.labelling.plan import plan_labels
    from goldenlens.store.project import ProjectStore
    from goldenlens.ui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    project = scratch / "labelled.goldenlens"
    shutil.copyfile(sample, project)
    with ProjectStore.open(project) as store:
        plan = plan_labels(store, budget=16, seed=3)
        # The reviewer stopped part-way: the shot shows a question with answers left to label.
        open_question = next(
            r.question_id for r in reversed(plan.rows) if r.question_id != plan.rows[-1].question_id
        )
        left = [r for r in plan.rows if r.question_id == open_question][1:]
        for row in plan.rows:
            if row not in left:
                verdict = Verdict.INCORRECT if (row.question_id, row.pipeline) in WRONG else Verdict.CORRECT
                label_response(store, row.question_id, row.pipeline, verdict, reviewer="ana", note="")
    window.projects.open_project(project)
    for _ in range(100):
        spin(0.1)
        if window.grid.model().rowCount() == 10:
            break
    window.labelling.show()
    window.labelling.show_question(open_question)
    for name, size in (
        ("labels", (1680, 980)),
        ("labels-1366x768", (1366, 768)),
        ("labels-1920x1080", (1920, 1080)),
    ):
        window.resize(*size)
        for _ in range(100):
            spin(0.1)
            if "labelled responses" in window.labelling_pane.estimates_label.text():
                break
        spin(0.4)
        window.grab().save(str(out / f"{name}.png"))
    window.resize(1680, 980)
    window.tabs.setCurrentWidget(window.summary)
    spin(0.8)
    window.grab().save(str(out / "summary-labels.png"))
    window.tabs.setCurrentIndex(0)

"""Save the Run History dialog's comparison view, offscreen, on the bundled sample scored twice.

    .venv/bin/python packaging/run_comparison_screenshot.py [--out resources/screenshots]

The sample is imported and scored (run 1); then three responses are rewritten — Pipeline2's
q01 names Amazon's CEO in full, Pipeline1's q02 gives up, Pipeline3's q04 drops its number —
re-imported and scored again (run 2). The dialog compares run 2 with run 1 on F1 at 1366x768
and is saved as run-comparison.png. Settings go to a temporary folder.
"""

from __future__ import annotations

import argparse
import csv
import os
import tempfile
import time
from pathlib import Path

#: ``(question_id, pipeline) -> new response`` for the second run.
CHANGED_RESPONSES = {
    ("q01", "Pipeline2"): "Andrew R. Jassy is the President and Chief Executive Officer of Amazon.com, Inc.",
    ("q02", "Pipeline1"): "I do not know.",
    ("q04", "Pipeline3"): "Amazon reported its operating income for the quarter.",
}


def write_changed_responses(source: Path, out: Path, changes: dict[tuple[str, str], str]) -> None:
    """``source`` (a long-layout responses CSV) with the responses of ``changes`` replaced."""
    with source.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    for row in rows:
        row["response"] = changes.get((row["question_id"], row["pipeline"]), row["response"])
    with out.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _spin(seconds: float) -> None:
    from PySide6.QtWidgets import QApplication

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "resources" / "screenshots"
    )
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    scratch = Path(tempfile.mkdtemp(prefix="goldenlens-runs-shot-"))
    os.environ["GOLDENLENS_CONFIG_DIR"] = str(scratch / "config")
    os.environ["GOLDENLENS_DATA_DIR"] = str(scratch / "data")

    from PySide6.QtWidgets import QApplication

    from goldenlens.io.importing.sample import sample_dir
    from goldenlens.jobs.importing.import_job import import_inputs
    from goldenlens.jobs.scoring.score_job import score_project
    from goldenlens.store.project import ProjectStore
    from goldenlens.ui.history.runs_dialog import RunsDialog
    from goldenlens.ui.session import ProjectSession

    project = scratch / "sample.goldenlens"
    changed = scratch / "responses-2.csv"
    write_changed_responses(sample_dir() / "responses.csv", changed, CHANGED_RESPONSES)
    with ProjectStore.open(project, create=True) as store:
        import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        score_project(store)
        import_inputs(store, sample_dir() / "golden.csv", changed)
        score_project(store)

    app = QApplication.instance() or QApplication([])
    session = ProjectSession(project)
    dialog = RunsDialog(session)
    dialog.resize(1366, 768)
    dialog.show()
    end = time.monotonic() + 30
    while dialog.compared is None and time.monotonic() < end:
        _spin(0.05)
    dialog.metric_combo.setCurrentIndex(dialog.metric_combo.findData("f1_score"))
    _spin(0.5)
    args.out.mkdir(parents=True, exist_ok=True)
    target = args.out / "run-comparison.png"
    dialog.grab().save(str(target))
    dialog.close()
    session.close()
    del app
    print(f"screenshot written to {target}")


if __name__ == "__main__":
    main()

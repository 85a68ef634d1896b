"""What the command line says after a cancel (Ctrl+C or SIGTERM), read from the project the
command left: a first-time user was told "finished rows are saved (run 'goldenlens resume
PROJECT')" after every cancel, where resume then found nothing to do or no project at all."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.cli_process import run_goldenlens

from goldenlens.cli.main import _after_cancel, build_parser
from goldenlens.store.project import ProjectStore

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


def _said(*argv: str, started_at: str = "") -> str:
    """What a cancel of the command ``argv`` started at ``started_at`` (ISO, UTC) would say."""
    args = build_parser().parse_args(list(argv))
    args.started_at = started_at
    return _after_cancel(args)


def test_a_cancel_before_the_project_exists_wrote_nothing(tmp_path: Path) -> None:
    golden, responses = str(SAMPLE / "golden.csv"), str(SAMPLE / "responses.csv")
    assert _said("score", golden, responses, "--project", str(tmp_path / "new.goldenlens")) == (
        "nothing was written."
    )


def test_an_interrupted_run_is_finished_by_resume(sample_project: Path) -> None:
    with ProjectStore.open(sample_project) as store:
        store.runs.start("lexical", {"multiset": False}, total=90)  # started, never finished
    said = _said(
        "score", str(SAMPLE / "golden.csv"), str(SAMPLE / "responses.csv"), "--project", str(sample_project)
    )
    assert said == f"the finished rows are saved: `goldenlens resume {sample_project}` finishes the run."
    resumed = run_goldenlens("resume", str(sample_project))
    assert resumed.returncode == 0, resumed.stderr
    assert "no interrupted run" not in resumed.stderr


def test_scores_saved_without_their_report_name_the_report_command(
    sample_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.json"
    golden, responses = str(SAMPLE / "golden.csv"), str(SAMPLE / "responses.csv")
    said = _said("score", golden, responses, "--project", str(sample_project), "-o", str(out))
    assert said == (
        f"the scores are saved in sample.goldenlens, the report was not written: "
        f"`goldenlens report {sample_project} -o {out}` writes it."
    )
    # Cancelled while importing into a project scored before: its scores are not this command's.
    later = datetime.now(UTC).isoformat(timespec="milliseconds")
    assert _said(
        "score", golden, responses, "--project", str(sample_project), "-o", str(out), started_at=later
    ) == ("sample.goldenlens has nothing half-done (every change is saved whole or not at all).")
    written = run_goldenlens("report", str(sample_project), "-o", str(out))
    assert written.returncode == 0, written.stderr
    assert out.exists()


def test_a_cancelled_label_or_report_left_nothing_half_done(sample_project: Path, tmp_path: Path) -> None:
    expected = "sample.goldenlens has nothing half-done (every change is saved whole or not at all)."
    assert _said("label", str(sample_project), "--from", str(tmp_path / "labels.csv")) == expected
    assert _said("report", str(sample_project), "-o", str(tmp_path / "r.xlsx")) == expected
    # ... and indeed resume has nothing to do there.
    assert "no interrupted run to resume" in run_goldenlens("resume", str(sample_project)).stderr

"""A reviewer's override of a score a flag reads changes the flags everywhere they are shown:
the grid, the question's detail, and every report (JSON straight from the project, and the
report the workbook, CSV and HTML are written from). Before, only the detail pane derived
them again: a response the reviewer counted as correct kept its "Likely hallucination" in
the grid and the exports, and a question a pipeline answered kept "Ambiguous question".

The expected flags come from the flag definitions (tests/core/test_flags.py), worked out by
hand for these rows: q1/P1 has 8 of the answer's 9 words (recall 0.89) without the fact, so
it is a likely hallucination; q1/P2 is a refusal; no response of q1 holds its fact, so q1 is
ambiguous. Once the reviewer counts q1/P1's fact as found, q1/P1 has no flag (precision 8/11
is not verbose) and q1 is no longer ambiguous; the refusal stays a refusal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from badinputs import write_csv
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, RECALL
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.reporting.report_job import write_stored_json
from goldenlens.jobs.reporting.stored_run import build_report
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.queries.detail_data import load_question_detail
from goldenlens.queries.grid_data import flags_in
from goldenlens.queries.grid_loading import load_grid, update_rows
from goldenlens.store.project import ProjectStore

GOLDEN = [
    ["id", "question", "answer", "fact"],
    [
        "q1",
        "What were net sales?",
        "Net sales were 134.4 billion dollars in the second quarter",
        "134.4 billion",
    ],
    ["q2", "What was operating income?", "Operating income was 7.7 billion", "7.7 billion"],
]
RESPONSES = [
    ["question_id", "pipeline", "response"],
    ["q1", "P1", "Net sales were 134 point 4 billion dollars in the second quarter"],
    ["q1", "P2", "I do not know."],
    ["q2", "P1", "Operating income was 7.7 billion"],
    ["q2", "P2", "It was 7.7 billion"],
]
HALLUCINATION, REFUSAL, AMBIGUOUS = "likely_hallucination", "refusal", "ambiguous_question"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "flags.goldenlens"
    golden, responses = (
        write_csv(tmp_path / "golden.csv", GOLDEN),
        write_csv(tmp_path / "responses.csv", RESPONSES),
    )
    with ProjectStore.open(path, create=True) as store:
        import_inputs(store, golden, responses)
        score_project(store)
    return path


def _shown(store: ProjectStore, tmp_path: Path, name: str) -> dict[str, object]:
    """Every place's flags of q1/P1, q1/P2 and q1's golden row."""
    run = store.runs.latest()
    assert run is not None
    out = tmp_path / f"{name}.json"
    write_stored_json(store, out, run.id)
    document = json.loads(out.read_text(encoding="utf-8"))
    rows = {(r["question_id"], r["pipeline"]): r["flags"] for r in document["rows"]}
    report = build_report(store, run.id)
    report_rows = {(r.response.question_id, r.response.pipeline): r for r in report.rows}
    grid = load_grid(store, run.id)
    row = grid.index_of("q1")
    assert row is not None
    col = {name: n for n, name in enumerate(grid.pipelines)}
    detail = load_question_detail(store, run.id, "q1")
    assert detail is not None

    def detail_flags(pipeline: str) -> list[str]:
        found = detail.pipeline(pipeline)
        assert found is not None
        return sorted(note.flag.value for note in found.flags)

    return {
        "json P1": rows[("q1", "P1")],
        "json P2": rows[("q1", "P2")],
        "json golden": document["golden_flags"].get("q1", []),  # questions with flags only
        "report P1": sorted(flag.value for flag in report_rows[("q1", "P1")].flags),
        "report golden": sorted(flag.value for flag in report.golden_flags["q1"]),
        "grid P1": sorted(flag.value for flag in flags_in(int(grid.flags[row, col["P1"]]))),
        "grid P2": sorted(flag.value for flag in flags_in(int(grid.flags[row, col["P2"]]))),
        "grid golden": sorted(flag.value for flag in flags_in(int(grid.golden_flags[row]))),
        "detail P1": detail_flags("P1"),
        "detail golden": sorted(note.flag.value for note in detail.golden_flags),
    }


def test_an_override_changes_the_flags_in_the_grid_the_detail_and_every_report(
    project: Path, tmp_path: Path
) -> None:
    with ProjectStore.open(project) as store:
        before = _shown(store, tmp_path, "before")
        assert before == {
            "json P1": [HALLUCINATION],
            "json P2": [REFUSAL],
            "json golden": [AMBIGUOUS],
            "report P1": [HALLUCINATION],
            "report golden": [AMBIGUOUS],
            "grid P1": [HALLUCINATION],
            "grid P2": [REFUSAL],
            "grid golden": [AMBIGUOUS],
            "detail P1": [HALLUCINATION],
            "detail golden": [AMBIGUOUS],
        }
        # The reviewer reads q1/P1 ("134 point 4 billion") and counts the fact as found; and
        # counts the refusal's fact as found too, which does not make it an answer.
        store.reviews.set_override(
            "q1", "P1", FACTUAL_KNOWLEDGE, value=None, passed=True, note="", reviewer="Ann"
        )
        after = _shown(store, tmp_path, "after")
        assert after == {
            "json P1": [],
            "json P2": [REFUSAL],
            "json golden": [],
            "report P1": [],
            "report golden": [],
            "grid P1": [],
            "grid P2": [REFUSAL],
            "grid golden": [],
            "detail P1": [],
            "detail golden": [],
        }
        store.reviews.set_override(
            "q1", "P2", FACTUAL_KNOWLEDGE, value=None, passed=True, note="", reviewer="Ann"
        )
        assert _shown(store, tmp_path, "refusal")["json P2"] == [REFUSAL]


def test_an_override_of_a_score_no_flag_reads_changes_no_flag(project: Path, tmp_path: Path) -> None:
    """Recall is read by the flags; F1 is not: overriding F1 leaves the stored flags, and
    overriding recall down derives them again (q1/P1 is no longer a likely hallucination)."""
    with ProjectStore.open(project) as store:
        store.reviews.set_override("q1", "P1", "f1_score", value=0.0, passed=None, note="", reviewer="Ann")
        assert _shown(store, tmp_path, "f1")["json P1"] == [HALLUCINATION]
        store.reviews.set_override("q1", "P1", RECALL, value=0.2, passed=None, note="", reviewer="Ann")
        shown = _shown(store, tmp_path, "recall")
        assert shown["json P1"] == shown["grid P1"] == shown["detail P1"] == []
        assert shown["json golden"] == [AMBIGUOUS]  # the fact is still missing everywhere


def test_a_grid_patched_after_an_override_shows_the_flags_in_force(project: Path) -> None:
    with ProjectStore.open(project) as store:
        run = store.runs.latest()
        assert run is not None
        grid = load_grid(store, run.id)
        store.reviews.set_override(
            "q1", "P1", FACTUAL_KNOWLEDGE, value=None, passed=True, note="", reviewer="Ann"
        )
        patched = update_rows(grid, store, run.id, ["q1"])
        row = patched.index_of("q1")
        assert row is not None
        assert flags_in(int(patched.flags[row, patched.pipelines.index("P1")])) == []
        assert flags_in(int(patched.golden_flags[row])) == []

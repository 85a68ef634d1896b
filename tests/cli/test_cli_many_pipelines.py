"""A sweep of many pipelines through the command line (issue #22): beyond ten, the report
compares each pipeline with the leader and with ``--baseline``, on intervals that hold for every
pair at once, and ranks them; an unknown baseline is refused before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.sweep_inputs import SWEEP_PIPELINES, write_sweep

from goldenlens.cli.main import main

PIPELINES = SWEEP_PIPELINES


def _sweep(tmp_path: Path) -> tuple[Path, Path]:
    return write_sweep(tmp_path)


def _score_json(tmp_path: Path, baseline: str) -> tuple[int, Path]:
    """``goldenlens score`` of the sweep to JSON with ``--baseline``: its exit code and file."""
    golden, responses = _sweep(tmp_path)
    out = tmp_path / "report.json"
    return main(["score", str(golden), str(responses), "-o", str(out), "-q", "--baseline", baseline]), out


def test_the_leader_and_the_baseline_are_compared_with_every_pipeline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _score_json(tmp_path, "Tuned05")
    assert code == 0
    decision = json.loads(out.read_text(encoding="utf-8"))["comparisons"]
    assert decision["mode"] == "leader and baseline"
    assert decision["baseline"] == "Tuned05"
    fk = [p for p in decision["pairs"] if p["metric"] == "factual_knowledge"]
    against_leader = [p for p in fk if p["a"] == "Echo"]
    against_baseline = [p for p in fk if p["b"] == "Tuned05" and p["a"] != "Echo"]
    assert len(against_leader) == PIPELINES - 1
    assert len(against_baseline) == PIPELINES - 2
    # Echo is right on all 10 questions, each Tuned pipeline on at most 2: +0.8 or more each.
    assert all(p["better"] == "Echo" for p in against_leader)
    assert all("95% simultaneous CI" in p["verdict"] for p in fk)
    margin = decision["margins"]["factual_knowledge"]
    first = against_leader[0]
    assert first["low"] == pytest.approx(first["difference"] - margin)
    ranks = {r["pipeline"]: r for r in decision["ranks"] if r["metric"] == "factual_knowledge"}
    assert (ranks["Echo"]["rank"], ranks["Echo"]["low"], ranks["Echo"]["high"]) == (1, 1, 1)
    capsys.readouterr()
    golden, responses = _sweep(tmp_path)
    assert main(["score", str(golden), str(responses), "-q", "--baseline", "Tuned05"]) == 0
    printed = capsys.readouterr().out
    assert "Ranks on factual knowledge (best first, with the ranks each could hold at 95%):" in printed
    assert "  1. Echo (could rank 1 to 1)" in printed
    assert (
        f"Comparisons with each metric's leader and with Tuned05 ({PIPELINES} pipelines: 95% intervals "
        f"that hold for all {PIPELINES * (PIPELINES - 1) // 2} pairs at once" in printed
    )


def test_an_unknown_baseline_is_refused_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _score_json(tmp_path, "Tuned99")
    assert code == 2
    assert "the baseline 'Tuned99' is not one of the pipelines: Echo, Tuned01" in capsys.readouterr().err
    assert not out.exists()


def test_a_project_report_takes_the_baseline_too(tmp_path: Path) -> None:
    golden, responses = _sweep(tmp_path)
    project = tmp_path / "sweep.goldenlens"
    assert main(["score", str(golden), str(responses), "--project", str(project), "-q"]) == 0
    out = tmp_path / "report.json"
    assert main(["report", str(project), "-o", str(out), "--baseline", "Tuned03"]) == 0
    decision = json.loads(out.read_text(encoding="utf-8"))["comparisons"]
    assert (decision["mode"], decision["baseline"]) == ("leader and baseline", "Tuned03")
    assert main(["report", str(project), "-o", str(tmp_path / "r.json"), "--baseline", "Nope"]) == 2


def test_the_workbook_and_the_html_list_by_rank_and_chart_the_ten_leaders(tmp_path: Path) -> None:
    import openpyxl

    golden, responses = _sweep(tmp_path)
    book, page = tmp_path / "report.xlsx", tmp_path / "report.html"
    assert main(["score", str(golden), str(responses), "-o", str(book), "-q"]) == 0
    assert main(["score", str(golden), str(responses), "-o", str(page), "-q"]) == 0
    sheet = openpyxl.load_workbook(book)["Decision"]
    names = [sheet.cell(row, 1).value for row in range(1, sheet.max_row + 1)]
    first = names.index("Pipeline") + 1
    table = names[first : first + 2 * PIPELINES : 2]
    # Echo (right on all ten) first; Tuned05 and Tuned10 (right on one question) last.
    assert table[0] == "Echo"
    assert set(table[-2:]) == {"Tuned05", "Tuned10"}
    assert sorted(table) == sorted(["Echo", *(f"Tuned{p:02d}" for p in range(1, PIPELINES))])
    (chart,) = sheet._charts
    assert len(chart.series) == 10
    assert any(str(n).startswith("The chart draws the 10 leading pipelines") for n in names)
    text = page.read_text(encoding="utf-8")
    assert 'id="chart-note">The chart draws the 10 leading pipelines by factual knowledge' in text
    means_table = text[
        text.index('<table class="means">') : text.index("</table>", text.index('<table class="means">'))
    ]
    assert (
        means_table.index(">Echo</th>")
        < means_table.index(">Tuned01</th>")
        < means_table.index(">Tuned05</th>")
    )

"""``goldenlens runs`` and ``goldenlens compare`` end to end: real subprocesses on a project the
real jobs scored twice; the comparison files read back (JSON, CSV, and XLSX with openpyxl);
the error cases exit 2 with one line."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import openpyxl
import pytest
from scipy.stats import bootstrap
from tests.run_projects import CHANGED_RESPONSES, reference_scores, score_with, two_run_project

from cli_process import run_goldenlens
from goldenlens.io.importing.sample import sample_dir

FIXTURES = Path(__file__).parents[1] / "store" / "fixtures"
RUN_KEYS = {
    "id",
    "kind",
    "status",
    "started_at",
    "finished_at",
    "rows",
    "options",
    "options_summary",
    "golden_version",
    "golden_version_number",
    "fingerprint",
    "fingerprint_short",
}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_goldenlens(*args)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_run_project(tmp_path_factory.mktemp("runs"))


def test_runs_prints_a_table(project: Path) -> None:
    done = _cli("runs", str(project))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Runs: 2"
    assert lines[1].split() == [
        "run",
        "kind",
        "started",
        "finished",
        "status",
        "rows",
        "options",
        "golden",
        "fingerprint",
    ]
    row1 = next(line for line in lines if line.startswith("1 "))
    assert "lexical" in row1
    assert "finished" in row1
    assert " 30 " in row1
    assert " v1 " in row1


def test_runs_json_schema(project: Path) -> None:
    done = _cli("runs", str(project), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["project"] == str(project)
    assert [run["id"] for run in data["runs"]] == [1, 2]
    for run in data["runs"]:
        assert set(run) == RUN_KEYS
        assert len(run["fingerprint"]) == 64
        assert run["fingerprint"].startswith(run["fingerprint_short"])
        assert run["golden_version"] == "v1"
        assert run["golden_version_number"] == 1
        assert run["options"]["multiset"] is False
    assert data["runs"][0]["fingerprint"] != data["runs"][1]["fingerprint"]


def test_compare_prints_counts_and_means(project: Path) -> None:
    done = _cli("compare", str(project))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Run 2 (")
    assert "compared with run 1" in out
    # Pipeline1's FK: q02 lost its fact; 0 improved, 1 regressed, 9 unchanged; 0.800 → 0.700.
    before, after = reference_scores(), reference_scores(CHANGED_RESPONSES)
    fk = [before[(f"q{i:02d}", "Pipeline1", "factual_knowledge")] for i in range(1, 11)]
    fk_after = [after[(f"q{i:02d}", "Pipeline1", "factual_knowledge")] for i in range(1, 11)]
    line = next(line for line in out.splitlines() if line.split()[:2] == ["Pipeline1", "FK"])
    assert line.split()[2:5] == ["0", "1", "9"]
    assert f"{sum(fk) / 10:.3f} → {sum(fk_after) / 10:.3f} (-0.100)" in line


def test_compare_json_file(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "cmp.json"
    done = _cli("compare", str(project), "--base", "1", "--head", "latest", "-o", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["base"]["id"], data["head"]["id"]) == (1, 2)
    assert {"counts", "summary", "cells", "only_in_base", "only_in_head", "notes", "metrics"} <= set(data)
    assert len(data["cells"]) == 210
    cell = next(
        c
        for c in data["cells"]
        if (c["question_id"], c["pipeline"], c["metric"]) == ("q01", "Pipeline2", "f1_score")
    )
    assert cell["change"] == "improved"
    assert cell["after"] == pytest.approx(1.0)
    summary = next(
        s for s in data["summary"] if (s["pipeline"], s["metric"]) == ("Pipeline3", "factual_knowledge")
    )
    assert (summary["regressed"], summary["paired_questions"]) == (1, 10)
    # One of ten questions lost its fact: a mean change of -0.1, whose paired bootstrap interval
    # agrees with scipy's percentile bootstrap of the same ten changes (Monte Carlo tolerance).
    interval = summary["mean_change_interval"]
    low, high, level = interval["low"], interval["high"], interval["level"]
    reference = bootstrap(
        ([-1.0] + [0.0] * 9,), np.mean, n_resamples=10_000, method="percentile", random_state=1
    ).confidence_interval
    assert level == 0.95
    assert low <= -0.1 <= high
    assert (low, high) == (pytest.approx(reference.low, abs=0.11), pytest.approx(reference.high, abs=0.11))


def test_compare_xlsx_file_read_back(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "cmp.xlsx"
    done = _cli("compare", str(project), "-o", str(out))
    assert done.returncode == 0, done.stderr
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["Summary", "Changes", "Only in one run"]
    summary = book["Summary"]
    assert summary["A1"].value == "Run 2 compared with run 1"
    rows = [[c.value for c in row] for row in summary.iter_rows()]
    header = next(i for i, r in enumerate(rows) if r[0] == "Pipeline")
    fk = next(r for r in rows[header:] if r[0] == "Pipeline3" and r[1] == "Factual knowledge")
    assert fk[2:7] == [0, 1, 9, 0, 10]
    assert fk[9] == pytest.approx(-0.1)
    changes = book["Changes"]
    head = [c.value for c in changes[1]]
    assert head[:5] == [
        "Question",
        "Pipeline",
        "Factual knowledge before",
        "Factual knowledge after",
        "Factual knowledge change",
    ]
    by_key = {(r[0].value, r[1].value): r for r in changes.iter_rows(min_row=2)}
    assert len(by_key) == 30
    q02 = by_key[("q02", "Pipeline1")]
    assert (q02[2].value, q02[3].value, q02[4].value) == (1.0, 0.0, "regressed")
    assert q02[4].fill.fgColor.rgb == "FFFFC7CE"  # red
    q01 = by_key[("q01", "Pipeline2")]
    f1 = head.index("F1 change")
    assert q01[f1].value == "improved"
    assert q01[f1].fill.fgColor.rgb == "FFC6EFCE"
    assert by_key[("q03", "Pipeline3")][f1].value == "unchanged"


def test_compare_csv_file(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "cmp.csv"
    done = _cli("compare", str(project), "-o", str(out))
    assert done.returncode == 0, done.stderr
    with out.open(encoding="utf-8-sig", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 210
    row = next(
        r
        for r in rows
        if (r["question_id"], r["pipeline"], r["metric"]) == ("q04", "Pipeline3", "factual_knowledge")
    )
    assert (float(row["before"]), float(row["after"]), row["change"]) == (1.0, 0.0, "regressed")


def test_unknown_run_id_exits_2_with_one_line(project: Path) -> None:
    done = _cli("compare", str(project), "--base", "5")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"goldenlens: error: {project.name}: there is no run 5 (runs are 1, 2)"
    ]
    assert done.stdout == ""


def test_only_one_run_exits_2(tmp_path: Path) -> None:
    single = tmp_path / "single.goldenlens"
    score_with(single, sample_dir() / "responses.csv")
    done = _cli("compare", str(single))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "there is no previous run: the project has only one finished lexical run" in lines[0]


def test_run_of_another_kind_exits_2(tmp_path: Path) -> None:
    old = tmp_path / "old.goldenlens"
    shutil.copyfile(FIXTURES / "format1.goldenlens", old)
    done = _cli("compare", str(old), "--base", "1", "--head", "2")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "run 1 is a lexical run and run 2 a judge run" in lines[0]


def test_old_runs_list_unknown(tmp_path: Path) -> None:
    old = tmp_path / "old.goldenlens"
    shutil.copyfile(FIXTURES / "format1.goldenlens", old)
    done = _cli("runs", str(old), "--json")
    assert done.returncode == 0, done.stderr
    runs = json.loads(done.stdout)["runs"]
    assert [(r["fingerprint"], r["fingerprint_short"], r["golden_version"]) for r in runs] == [
        (None, "unknown", "unknown"),
        (None, "unknown", "unknown"),
    ]


def test_bad_output_suffix_exits_2_before_reading(project: Path, tmp_path: Path) -> None:
    done = _cli("compare", str(project), "-o", str(tmp_path / "cmp.txt"))
    assert done.returncode == 2
    assert "must be .json, .xlsx or .csv" in done.stderr
    assert not (tmp_path / "cmp.txt").exists()

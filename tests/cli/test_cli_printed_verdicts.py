"""The printed summary (``goldenlens score`` with no ``-o``) reads the means honestly: under the
table come the pairwise comparisons that tell two pipelines apart, then those whose interval
leans one way without McNemar's confirmation ("may be ahead"), each with its caveat, and a count
of the comparisons that cannot tell the pipelines apart — the same verdicts the JSON report
carries for the same files."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from goldenlens.cli.main import main
from goldenlens.io.importing.sample import sample_dir


def _printed_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, object]]:
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    assert main(["score", str(golden), str(responses), "-q"]) == 0
    printed = capsys.readouterr().out
    out = tmp_path / "report.json"
    assert main(["score", str(golden), str(responses), "-o", str(out), "-q"]) == 0
    return printed, json.loads(out.read_text(encoding="utf-8"))


def test_the_summary_lists_the_verdicts_that_tell_pipelines_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed, report = _printed_and_json(tmp_path, capsys)
    comparisons = report["comparisons"]
    assert isinstance(comparisons, dict)
    pairs = comparisons["pairs"]
    beats = [p for p in pairs if p["better"] is not None]
    leaning = [
        p for p in pairs if p["better"] is None and (p["low"] > 0 or p["high"] < 0)
    ]  # the interval excludes 0, McNemar does not confirm
    assert beats
    assert leaning  # the sample has both kinds (Pipeline1 vs Pipeline2 on factual knowledge)
    lines = printed.splitlines()
    start = lines.index("Comparisons (95% intervals over the questions, 10,000 seeded resamples):")
    listed = lines[start + 1 : start + 1 + len(beats) + len(leaning)]
    expected = [p["verdict"] + (f" ({p['caveat']})" if p["caveat"] else "") for p in beats + leaning]
    assert [line.strip() for line in listed] == expected
    assert all("beats" in line for line in listed[: len(beats)])
    assert all("may be ahead" in line for line in listed[len(beats) :])
    rest = len(pairs) - len(beats) - len(leaning)
    assert (
        lines[start + 1 + len(expected)].strip()
        == f"{rest} other comparison(s) cannot tell the pipelines apart"
    )


def test_one_pipeline_prints_no_comparisons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    responses = tmp_path / "one.csv"
    with (sample_dir() / "responses.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    with responses.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([rows[0], *(r for r in rows[1:] if r[1] == "Pipeline1")])
    assert main(["score", str(sample_dir() / "golden.csv"), str(responses), "-q"]) == 0
    printed = capsys.readouterr().out
    assert "Pipeline1" in printed
    assert "Comparisons" not in printed


def test_when_no_comparison_tells_pipelines_apart_the_line_says_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two pipelines that answered alike: every comparison is a tie, and the count read
    "7 all comparison(s) cannot tell the pipelines apart"."""
    responses = tmp_path / "twins.csv"
    with (sample_dir() / "responses.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    first = [r for r in rows[1:] if r[1] == "Pipeline1"]
    with responses.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([rows[0], *first, *([r[0], "Twin", *r[2:]] for r in first)])
    out = tmp_path / "twins.json"
    assert main(["score", str(sample_dir() / "golden.csv"), str(responses), "-o", str(out), "-q"]) == 0
    pairs = json.loads(out.read_text(encoding="utf-8"))["comparisons"]["pairs"]
    assert pairs
    assert all(p["better"] is None and p["low"] <= 0 <= p["high"] for p in pairs)
    capsys.readouterr()
    assert main(["score", str(sample_dir() / "golden.csv"), str(responses), "-q"]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert f"none of the {len(pairs)} comparison(s) can tell the pipelines apart" in lines

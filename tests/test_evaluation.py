"""The Python API end to end on the bundled sample: goldenlens.evaluate() as a pytest test
would call it, with the expected numbers from the sample's Factual Knowledge Report."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from scipy.stats import binomtest

import goldenlens
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from sample_expectations import FK_REPORT, PIPELINES

FK_MEANS = {p: sum(row[n] for row in FK_REPORT.values()) / len(FK_REPORT) for n, p in enumerate(PIPELINES)}


def test_import_goldenlens_stays_light() -> None:
    code = (
        "import sys, goldenlens; "
        "print(sorted(m for m in ('numpy', 'pandas', 'goldenlens.jobs') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_evaluate_the_sample(sample_dir: Path) -> None:
    result = goldenlens.evaluate(str(sample_dir / "golden.csv"), sample_dir / "responses.csv")
    assert isinstance(result, goldenlens.Evaluation)
    rows = result.rows
    assert isinstance(rows, pd.DataFrame)
    assert len(rows) == len(FK_REPORT) * len(PIPELINES)
    assert list(rows.columns) == [
        "question_id",
        "pipeline",
        *LEXICAL_SCORE_NAMES,
        "flags",
        "question",
        "response",
    ]
    fk = rows.set_index(["question_id", "pipeline"])[FACTUAL_KNOWLEDGE]
    for question_id, expected in FK_REPORT.items():
        assert [fk[(question_id, p)] for p in PIPELINES] == list(expected)
    summary = result.summary
    assert list(summary.index) == list(PIPELINES)
    for pipeline, mean in FK_MEANS.items():
        assert summary.loc[pipeline, FACTUAL_KNOWLEDGE] == pytest.approx(mean)
    pair = next(
        c
        for c in result.comparisons.comparisons
        if (c.a, c.b, c.metric) == ("Pipeline1", "Pipeline2", FACTUAL_KNOWLEDGE)
    )
    a_only = sum(1 for row in FK_REPORT.values() if row[0] == 1 and row[1] == 0)
    b_only = sum(1 for row in FK_REPORT.values() if row[0] == 0 and row[1] == 1)
    assert pair.p_value == pytest.approx(binomtest(a_only, a_only + b_only, 0.5).pvalue)
    assert pair.difference == pytest.approx(FK_MEANS["Pipeline1"] - FK_MEANS["Pipeline2"])


def test_assert_passes_and_fails_readably(sample_dir: Path) -> None:
    result = goldenlens.evaluate(
        sample_dir / "golden.csv", sample_dir / "responses.csv", metrics=["factual_knowledge", "f1"]
    )
    assert result.metrics == (FACTUAL_KNOWLEDGE, F1_SCORE)
    assert list(result.rows.columns[2:4]) == [FACTUAL_KNOWLEDGE, F1_SCORE]
    result.assert_passes(min={"factual_knowledge": 0.4})
    result.assert_passes(min={"factual_knowledge": 0.8}, pipeline="Pipeline1")
    with pytest.raises(AssertionError) as failed:
        result.assert_passes(min={"factual_knowledge": 0.6})
    assert str(failed.value).splitlines()[1:] == [
        "FAIL Pipeline2 factual_knowledge 0.40 < 0.60",
        "FAIL Pipeline3 factual_knowledge 0.50 < 0.60",
    ]
    with pytest.raises(AssertionError, match=re.escape("FAIL Pipeline3 factual_knowledge 0.50 < 0.60")):
        result.assert_passes(min={"fk": 0.6}, pipeline="Pipeline3")
    with pytest.raises(ValueError, match="no pipeline 'Nope'"):
        result.assert_passes(min={"fk": 0.1}, pipeline="Nope")
    with pytest.raises(ValueError, match="unknown metric 'recall'"):  # not among the selected metrics
        result.assert_passes(min={"recall": 0.1})


def test_evaluate_into_a_project_keeps_the_run(sample_dir: Path, tmp_path: Path) -> None:
    project = tmp_path / "sample.goldenlens"
    kept = goldenlens.evaluate(sample_dir / "golden.csv", sample_dir / "responses.csv", project=project)
    lean = goldenlens.evaluate(sample_dir / "golden.csv", sample_dir / "responses.csv")
    assert project.exists()
    pd.testing.assert_frame_equal(kept.rows, lean.rows)
    assert kept.comparisons.as_dict() == lean.comparisons.as_dict()


@pytest.mark.parametrize("metrics", [["answer_relevancy"], ["bleu"], [], "factual_knowledge"])
def test_only_lexical_metrics_are_accepted(sample_dir: Path, metrics: list[str] | str) -> None:
    with pytest.raises((ValueError, TypeError), match="lexical"):
        goldenlens.evaluate(sample_dir / "golden.csv", sample_dir / "responses.csv", metrics=metrics)


EVOUNA = Path(__file__).resolve().parent / "data" / "evouna_tq"


def test_a_labelled_project_gives_what_reviewers_would_judge(tmp_path: Path) -> None:
    """With every answer labelled (the person's verdicts on EVOUNA), the calibrated share is each
    system's accuracy over those verdicts, and assert_passes checks it as --fail-under does."""
    import csv

    from tests.cli_process import run_goldenlens

    golden, responses = EVOUNA / "golden.csv", EVOUNA / "responses.csv"
    unlabelled = goldenlens.evaluate(golden, responses)
    assert unlabelled.calibrated is not None
    assert not unlabelled.calibrated.checked
    with pytest.raises(AssertionError, match=r"FAIL GPT-4 calibrated: not checked against a reviewer"):
        unlabelled.assert_passes(min={"calibrated": 0.5})

    project = tmp_path / "tq.goldenlens"
    goldenlens.evaluate(golden, responses, project=project)
    labelled = run_goldenlens("label", str(project), "--from", str(EVOUNA / "human.csv"), timeout=300)
    assert labelled.returncode == 0, labelled.stderr
    result = goldenlens.evaluate(golden, responses, project=project)
    with (EVOUNA / "human.csv").open(encoding="utf-8", newline="") as handle:
        verdicts = [(row["pipeline"], int(row["acceptable"])) for row in csv.DictReader(handle)]
    accuracy = {
        p: sum(v for q, v in verdicts if q == p) / sum(1 for q, _v in verdicts if q == p)
        for p, _v in verdicts
    }
    found = result.calibrated
    assert found is not None
    assert found.checked
    assert {e.pipeline for e in found.estimates} == set(accuracy)
    for e in found.estimates:  # every answer labelled: exact, an interval of no width
        assert (e.interval.estimate, e.interval.low, e.interval.high) == pytest.approx(
            (accuracy[e.pipeline],) * 3
        )
    result.assert_passes(min={"calibrated": min(accuracy.values()) - 0.001})
    worst = min(accuracy, key=accuracy.__getitem__)
    with pytest.raises(
        AssertionError, match=rf"FAIL {re.escape(worst)} calibrated \(lower end of the 95% interval\)"
    ):
        result.assert_passes(min={"calibrated": min(accuracy.values()) + 0.001})

"""io.run_comparison_file: the workbook keeps texts as text (a pipeline named like a formula)
and scores to the last digit; a bad suffix is refused before anything is written."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from goldenlens.core.problems import InputError
from goldenlens.core.runs.run_comparison import compare_runs
from goldenlens.io.reports.run_comparison_file import write_comparison

RUN = {"id": 1, "started_at": "2026-12-01T10:00:00+00:00", "golden_version": "v1", "fingerprint": None}


def _data(
    base: dict[str, object], head: dict[str, object], comparison: dict[str, object]
) -> dict[str, object]:
    return {"base": base, "head": head, "notes": ["a note"], **comparison}


def test_formula_like_names_stay_text_and_floats_keep_every_digit(tmp_path: Path) -> None:
    before = {("=1+1", "=SUM(A1)", "f1_score"): 0.45454545454545453}
    after = {("=1+1", "=SUM(A1)", "f1_score"): 0.1}
    comparison = compare_runs(1, before, 2, after)
    base = {**RUN, "options_summary": "multiset=False"}
    head = {**RUN, "id": 2, "options_summary": "multiset=False"}
    out = tmp_path / "cmp.xlsx"
    write_comparison(out, _data(base, head, comparison.as_dict()), list(comparison.cells))
    sheet = openpyxl.load_workbook(out)["Changes"]
    question, pipeline, f1_before, f1_after, change = (c for c in sheet[2])
    assert (question.value, question.data_type) == ("=1+1", "s")
    assert (pipeline.value, pipeline.data_type) == ("=SUM(A1)", "s")
    assert f1_before.value == 0.45454545454545453  # not 0.4545454545454545
    assert (f1_after.value, change.value) == (0.1, "regressed")
    summary = openpyxl.load_workbook(out)["Summary"]
    assert summary["E4"].value == "unknown"  # the base run's fingerprint was not recorded


def test_a_bad_suffix_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"must be \.json, \.xlsx or \.csv"):
        write_comparison(tmp_path / "cmp.ods", {}, [])
    assert not (tmp_path / "cmp.ods").exists()

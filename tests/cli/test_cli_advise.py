"""``goldenlens advise`` on the scored sample project: text, JSON, .json and .xlsx outputs,
threshold changes and bad input.

Expected diagnoses come from the sample README: q03 and q06 ambiguous for all three
pipelines, q02/Pipeline2 a likely hallucination (recall 0.92, the fact missing).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import goldenlens
from goldenlens.cli.main import main
from goldenlens.jobs.importing.sample_project import ensure_sample_project
from sample_expectations import PIPELINES


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ensure_sample_project(tmp_path_factory.mktemp("advise") / "sample.goldenlens")


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["advise", *args, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def _codes(data: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(q["question_id"], d["code"], d["pipeline"]) for q in data["questions"] for d in q["diagnoses"]}


def test_text_lists_each_question_with_its_diagnoses(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["advise", str(project)]) == 0
    out = capsys.readouterr().out
    q02 = out.index("q02  What were Amazon's total net sales for the second quarter of 2023?")
    q03 = out.index("q03  Where is Amazon's principal office located?")
    assert q02 < out.index("[medium] Likely hallucination — Pipeline2") < q03
    assert q03 < out.index("[high] Ambiguous question") < out.index("q05  ")
    # the answers side by side under the ambiguous question
    assert "• Pipeline2 (FK 0, recall 0.154): Amazon is headquartered in Seattle, WA." in out
    assert "q01  " not in out  # nothing to say about q01
    data = _json(capsys, str(project))
    total = sum(len(q["diagnoses"]) for q in data["questions"])
    assert f"{total} diagnoses on " in out.splitlines()[-1]


def test_json_has_the_readme_diagnoses(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, str(project))
    codes = _codes(data)
    assert {("q03", "ambiguous_question", ""), ("q06", "ambiguous_question", "")} <= codes
    assert ("q02", "likely_hallucination", "Pipeline2") in codes
    q06 = next(q for q in data["questions"] if q["question_id"] == "q06")
    ambiguous = next(d for d in q06["diagnoses"] if d["code"] == "ambiguous_question")
    assert [a["pipeline"] for a in ambiguous["answers"]] == list(PIPELINES)
    assert ambiguous["severity"] == "high"
    assert ambiguous["fix"]["kind"] == "edit_question"
    assert data["similarity_source"] == ""


def test_json_file_equals_printed_json(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "advice.json"
    assert main(["advise", str(project), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"diagnoses to {out}" in captured.err
    assert json.loads(out.read_text(encoding="utf-8")) == _json(capsys, str(project))


def test_xlsx_output_is_the_advice_sheet(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "advice.xlsx"
    assert main(["advise", str(project), "-o", str(out)]) == 0
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["Advice"]
    rows = list(book["Advice"].iter_rows(values_only=True))
    assert rows[0][:4] == ("question", "pipeline", "severity", "diagnosis")
    hallucination = [r for r in rows if r[:4] == ("q02", "Pipeline2", "medium", "Likely hallucination")]
    assert len(hallucination) == 1
    assert "recall = 0.917" in str(hallucination[0][7])


def test_threshold_option_changes_the_advice(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # recall 7/13 = 0.538 < 0.6: q03/Pipeline1 is no longer read as rephrased
    assert ("q03", "correct_but_rephrased", "Pipeline1") in _codes(_json(capsys, str(project)))
    data = _json(capsys, str(project), "--threshold", "rephrased_recall=0.6")
    assert ("q03", "correct_but_rephrased", "Pipeline1") not in _codes(data)
    assert data["thresholds"]["rephrased_recall"] == 0.6


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--threshold", "nope=1"], "unknown threshold 'nope'"),
        (["--threshold", "similar"], "expected NAME=NUMBER"),
        (["-o", "advice.txt"], "the advice must be written to .json or .xlsx"),
    ],
)
def test_bad_options_are_one_line(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    args = [str(tmp_path / a) if a.endswith(".txt") else a for a in args]
    assert main(["advise", str(project), *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_advise_runs_as_a_console_command_on_an_unscored_project(tmp_path: Path) -> None:
    from goldenlens.core.inputs import GoldenItem
    from goldenlens.store.project import ProjectStore

    path = tmp_path / "empty.goldenlens"
    with ProjectStore.open(path, create=True) as store:
        store.golden.replace([GoldenItem("q1", "Q?", "A.", "A")])
    package_root = str(Path(goldenlens.__file__).resolve().parents[1])
    result = subprocess.run(
        [sys.executable, "-m", "goldenlens", "advise", str(path)],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": package_root, "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert result.returncode == 2
    assert "no finished scoring run" in result.stderr
    assert "Traceback" not in result.stderr


def test_each_diagnosis_says_how_often_it_held_on_the_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reviewer judges three of the four likely hallucinations incorrect and all five
    "correct but rephrased" responses incorrect: the first rule held on 3 of 4, the second on 0
    of 5 (demoted: even the upper end of its Wilson interval, 0.43, is below one half)."""
    labelled = ensure_sample_project(tmp_path / "labelled.goldenlens")
    verdicts = [
        ("q02", "Pipeline2", "incorrect"),
        ("q07", "Pipeline2", "incorrect"),
        ("q07", "Pipeline3", "incorrect"),
        ("q08", "Pipeline2", "correct"),
        *((q, p, "incorrect") for q, p in [("q03", "Pipeline1"), ("q03", "Pipeline3"), ("q05", "Pipeline2")]),
        *((q, p, "incorrect") for q, p in [("q06", "Pipeline1"), ("q08", "Pipeline3")]),
    ]
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "question_id,pipeline,verdict\n" + "".join(f"{q},{p},{v}\n" for q, p, v in verdicts), encoding="utf-8"
    )
    assert main(["label", str(labelled), "--from", str(labels)]) == 0
    capsys.readouterr()

    checks = _json(capsys, str(labelled))["checks"]
    assert checks["likely_hallucination"] == {"held": 3, "labelled": 4, "demoted": False}
    assert checks["correct_but_rephrased"] == {"held": 0, "labelled": 5, "demoted": True}
    assert "ambiguous_question" not in checks  # it claims no verdict

    assert main(["advise", str(labelled)]) == 0
    out = capsys.readouterr().out
    assert "[medium] Likely hallucination — Pipeline2  (right on 3 of 4 labelled)" in out
    tail = out[out.index("Checked against the reviewer's labels:") :]
    assert "Likely hallucination: right on 3 of 4 labelled" in tail
    assert "Correct but rephrased: right on 0 of 5 labelled — demoted" in " ".join(tail.split())

    book = tmp_path / "advice.xlsx"
    assert main(["advise", str(labelled), "-o", str(book)]) == 0
    sheet = openpyxl.load_workbook(book)["Advice"]
    cells = [str(c) for row in sheet.iter_rows(values_only=True) for c in row if c]
    assert "Likely hallucination\n(right on 3 of 4 labelled)" in cells
    note = next(c for c in cells if c.startswith("Checked against the reviewer's labels:\n"))
    assert "right on 0 of 5" in note


def _overridden_sample(folder: Path) -> Path:
    """The sample with q02/Pipeline2's Factual Knowledge overridden to 1 by Ana ("restated")."""
    project = ensure_sample_project(folder / "reviewed.goldenlens")
    override = [
        "override",
        str(project),
        "q02",
        "Pipeline2",
        "FK",
        "1",
        "--note",
        "restated",
        "--reviewer",
        "Ana",
    ]
    assert main(override) == 0
    return project


def test_a_refuted_diagnosis_says_so_in_the_text_and_the_workbook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """After the reviewer overrides q02/Pipeline2's Factual Knowledge to 1, its "likely
    hallucination" (a claim that the response is wrong) reads as refuted, under its heading in
    the text and first in its explanation cell in the workbook, and the summary counts it."""
    reviewed = _overridden_sample(tmp_path)
    capsys.readouterr()
    assert main(["advise", str(reviewed)]) == 0
    out = capsys.readouterr().out
    block = out[out.index("[medium] Likely hallucination — Pipeline2") :].split("\n")
    said = " ".join(line.strip() for line in block[1:3])
    assert said.startswith(
        "The reviewer counted this response correct (Factual Knowledge overridden to 1 by Ana: restated): "
        "this diagnosis does not hold here."
    )
    assert "The reviewer's verdict refutes 1 of them." in out

    book = tmp_path / "advice.xlsx"
    assert main(["advise", str(reviewed), "-o", str(book)]) == 0
    rows = list(openpyxl.load_workbook(book)["Advice"].iter_rows(values_only=True))
    (row,) = [r for r in rows if r[0] == "q02" and r[1] == "Pipeline2"]
    assert str(row[4]).startswith("The reviewer counted this response correct")


def test_the_report_workbooks_advice_sheet_knows_the_reviewers_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`goldenlens report -o x.xlsx` (and the app's export) used to work the Advice sheet out
    from the scores alone: no reviewer verdict on a diagnosis, no "right on N of M labelled".
    It is now the advice `goldenlens advise` gives, on the report's own rows."""
    reviewed = _overridden_sample(tmp_path)
    assert main(["label", str(reviewed), "q03", "Pipeline1", "incorrect", "--reviewer", "Bo"]) == 0
    capsys.readouterr()
    book = tmp_path / "report.xlsx"
    assert main(["report", str(reviewed), "-o", str(book)]) == 0
    rows = list(openpyxl.load_workbook(book)["Advice"].iter_rows(values_only=True))
    (hallucination,) = [r for r in rows if r[0] == "q02" and r[1] == "Pipeline2"]
    assert str(hallucination[4]).startswith(
        "The reviewer counted this response correct (Factual Knowledge overridden to 1 by Ana"
    )
    rephrased = next(r for r in rows if r[0] == "q03" and r[1] == "Pipeline1")
    assert rephrased[3] == "Correct but rephrased\n(right on 0 of 1 labelled)"
    assert "this diagnosis does not hold here" in str(rephrased[4])


def test_a_rephrased_reading_says_how_sure_it_is_by_the_persons_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """EVOUNA (a person's verdict on every answer): "correct but rephrased" from recall alone,
    against a golden answer as short as the fact, sat on "Mississippi" for "Utah (State)"
    because both hold the word "state" — wrong on 127 of 447 such readings. Those readings are
    now low, and name the shared words; the high ones hold on at least 90% by the verdicts."""
    import csv

    data = Path(__file__).resolve().parents[1] / "data" / "evouna_tq"
    project = tmp_path / "tq.goldenlens"
    code = main(
        ["score", str(data / "golden.csv"), str(data / "responses.csv"), "--project", str(project), "-q"]
    )
    assert code == 0
    capsys.readouterr()
    advice = _json(capsys, str(project))
    with (data / "human.csv").open(encoding="utf-8", newline="") as handle:
        human = {(r["id"], r["pipeline"]): r["acceptable"] == "1" for r in csv.DictReader(handle)}
    held: dict[str, list[bool]] = {}
    for question in advice["questions"]:
        for found in question["diagnoses"]:
            if found["code"] == "correct_but_rephrased":
                held.setdefault(found["severity"], []).append(
                    human[(question["question_id"], found["pipeline"])]
                )
    high = held["high"]
    assert sum(high) / len(high) >= 0.9, (sum(high), len(high))
    assert "medium" not in held  # recall alone on an alias answer is low, not medium
    low = held["low"]
    assert 0.6 < sum(low) / len(low) < 0.8, (sum(low), len(low))  # informative, far from sure
    utah = next(q for q in advice["questions"] if q["question_id"] == "tq0009")
    readings = [d for d in utah["diagnoses"] if d["code"] == "correct_but_rephrased"]
    assert readings
    assert all(d["severity"] == "low" and "('state')" in d["explanation"] for d in readings)
    assert not any(human[("tq0009", d["pipeline"])] for d in readings)

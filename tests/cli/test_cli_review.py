"""Reviewer decisions reach every export: ``goldenlens override`` / ``goldenlens review`` run
as real subprocesses on a project made by ``goldenlens score`` from the sample, then the
report is written as .xlsx, .json and .csv and read back (openpyxl, json, csv).

Expected numbers come from outside the code under test: the sample README's Factual
Knowledge table (``FK_REPORT``) and means the test computes itself from the report written
before any override, with the overrides applied by hand.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import goldenlens
from goldenlens.cli.main import main
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.io.importing.sample import sample_dir
from goldenlens.store.project import ProjectStore
from sample_expectations import FK_REPORT, PIPELINES

FK = FACTUAL_KNOWLEDGE
F1 = "f1_score"
RECALL = "recall_over_words"
OS_USER = "ci-bot"
PREFERRED = "Pref Person"
ANN = "Ann Analyst"
#: (question, pipeline, metric) → (effective value, reviewer, note) of the overrides in force.
EXPECTED = {
    ("q02", "Pipeline2", FK): (1.0, ANN, "134,383 million is the same figure"),
    ("q03", "Pipeline1", FK): (1.0, PREFERRED, "address abbreviated"),
    ("q10", "Pipeline3", FK): (0.0, ANN, "wrong quarter"),
    ("q10", "Pipeline1", F1): (0.75, OS_USER, "paraphrase of the answer"),
}
EXPECTED_COUNTS = {
    "Pipeline1": {FK: 1, F1: 1},
    "Pipeline2": {FK: 1},
    "Pipeline3": {FK: 1},
}
REVIEWS = {
    "q02": ("accepted", "figure checked against the 10-Q"),
    "q05": ("needs_curation", "fact misses the segment name"),
}
FAITHFULNESS = Signature("faithfulness", "1", {"judge_model": "m.gguf", "prompt_version": "2"})


def _env(config: Path) -> dict[str, str]:
    env = dict(os.environ)
    package_root = str(Path(goldenlens.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([package_root, env.get("PYTHONPATH", "")])
    env["GOLDENLENS_CONFIG_DIR"] = str(config)
    env["LOGNAME"] = OS_USER  # getpass.getuser() reads LOGNAME first
    env.pop("QT_QPA_PLATFORM", None)
    return env


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "goldenlens", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def _ok(*args: str, env: dict[str, str]) -> str:
    done = _cli(*args, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _means(rows: list[dict[str, Any]], judge: str | None = None) -> dict[str, dict[str, float]]:
    """Per-pipeline plain means, computed here (not by the code under test)."""
    found: dict[str, dict[str, list[float]]] = {}
    for row in rows:
        target = found.setdefault(row["pipeline"], {})
        for name in LEXICAL_SCORE_NAMES:
            target.setdefault(name, []).append(row[name])
        if judge is not None and row["judge"][judge] is not None:
            target.setdefault(judge, []).append(row["judge"][judge])
    return {p: {n: sum(v) / len(v) for n, v in by.items()} for p, by in found.items()}


def _assert_close(found: dict[str, dict[str, float]], expected: dict[str, dict[str, float]]) -> None:
    assert set(found) == set(expected)
    for pipeline, means in expected.items():
        assert found[pipeline] == pytest.approx(means), pipeline


class Exported:
    """The project after the scripted review, and what each export holds."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.project = root / "amazon.goldenlens"
        self.env = _env(root / "config")
        self.preferred_env = _env(root / "config-with-name")
        (root / "config-with-name").mkdir()
        (root / "config-with-name" / "preferences.json").write_text(
            json.dumps({"schema_version": 1, "reviewer": PREFERRED}), encoding="utf-8"
        )
        golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
        _ok("score", str(golden), str(responses), "--project", str(self.project), "-q", env=self.env)
        _ok("report", str(self.project), "-o", str(root / "before.json"), env=self.env)
        self.before = json.loads((root / "before.json").read_text(encoding="utf-8"))
        self.started = datetime.now(UTC)
        self.printed = self._review()
        self.finished = datetime.now(UTC)
        for suffix in ("xlsx", "json", "csv"):
            _ok("report", str(self.project), "-o", str(root / f"report.{suffix}"), env=self.env)
        self.json = json.loads((root / "report.json").read_text(encoding="utf-8"))
        self.summary_text = _ok("report", str(self.project), env=self.env)

    def _review(self) -> list[str]:
        p, env = str(self.project), self.env
        printed = [
            _ok("override", p, "q02", "Pipeline2", FK, "1", "--note", EXPECTED["q02", "Pipeline2", FK][2],
                "--reviewer", ANN, env=env),
            # A short metric name and a verdict word; the reviewer comes from the preferences.
            _ok("override", p, "q03", "Pipeline1", "FK", "pass", "--note", "address abbreviated",
                env=self.preferred_env),
            _ok("override", p, "q10", "Pipeline3", FK, "fail", "--note", "wrong quarter", "--reviewer", ANN,
                env=env),
            # Overridden twice: the latest wins. No preferences: the OS user name is the reviewer.
            _ok("override", p, "q10", "Pipeline1", F1, "0.5", "--note", "first try", env=env),
            _ok("override", p, "q10", "Pipeline1", F1, "0.75", "--note", "paraphrase of the answer", env=env),
            # Overridden, then withdrawn: the stored score counts again.
            _ok("override", p, "q01", "Pipeline3", RECALL, "0.1", "--note", "typo", env=env),
            _ok("override", p, "q01", "Pipeline3", RECALL, "--withdraw", "--note", "entered by mistake",
                env=env),
        ]  # fmt: skip
        for qid, (status, note) in REVIEWS.items():
            printed.append(_ok("review", p, qid, status, "--note", note, "--reviewer", ANN, env=env))
        return printed

    def before_value(self, question_id: str, pipeline: str, metric: str) -> float:
        row = next(
            r for r in self.before["rows"] if (r["question_id"], r["pipeline"]) == (question_id, pipeline)
        )
        return float(row[metric])

    def expected_rows(self) -> list[dict[str, Any]]:
        """The rows before the review with the expected overrides applied by the test."""
        rows = [dict(r) for r in self.before["rows"]]
        for row in rows:
            for (qid, pipeline, metric), (value, _, _) in EXPECTED.items():
                if (row["question_id"], row["pipeline"]) == (qid, pipeline):
                    row[metric] = value
        return rows


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Exported:
    return Exported(tmp_path_factory.mktemp("review"))


def _json_row(data: dict[str, Any], question_id: str, pipeline: str) -> dict[str, Any]:
    return next(r for r in data["rows"] if (r["question_id"], r["pipeline"]) == (question_id, pipeline))


def _in_window(text: str, exported: Exported) -> bool:
    return exported.started <= datetime.fromisoformat(text) <= exported.finished


# --- the commands ------------------------------------------------------------------------------


def test_override_prints_the_new_and_the_stored_value(exported: Exported) -> None:
    assert exported.printed[0].strip() == f"Overrode {FK} for q02 / Pipeline2: 1 (stored score 0) by {ANN}"
    assert exported.printed[1].strip().endswith(f"by {PREFERRED}")
    assert "Withdrew the override of recall_over_words for q01 / Pipeline3" in exported.printed[6]
    assert exported.printed[-1].strip() == f"q05: needs_curation by {ANN}"


def test_the_sample_fk_table_is_what_the_overrides_replace(exported: Exported) -> None:
    """The originals the test relies on are the README's table, not the code's say-so."""
    index = {p: i for i, p in enumerate(PIPELINES)}
    for qid, pipeline, metric in EXPECTED:
        if metric == FK:
            assert exported.before_value(qid, pipeline, FK) == FK_REPORT[qid][index[pipeline]]


# --- JSON --------------------------------------------------------------------------------------


def test_json_rows_carry_effective_value_original_reviewer_time_and_note(exported: Exported) -> None:
    data = exported.json
    for (qid, pipeline, metric), (value, reviewer, note) in EXPECTED.items():
        row = _json_row(data, qid, pipeline)
        assert row[metric] == value
        entry = row["overrides"][metric]
        assert entry["value"] == value
        assert entry["original"] == exported.before_value(qid, pipeline, metric)
        assert (entry["reviewer"], entry["note"]) == (reviewer, note)
        assert _in_window(entry["created_at"], exported)
        assert entry["passed"] == (None if metric == F1 else bool(value))
    overridden = {(r["question_id"], r["pipeline"], m) for r in data["rows"] for m in r["overrides"]}
    assert overridden == set(EXPECTED)


def test_json_withdrawn_override_leaves_the_stored_score(exported: Exported) -> None:
    row = _json_row(exported.json, "q01", "Pipeline3")
    assert row["overrides"] == {}
    assert row[RECALL] == exported.before_value("q01", "Pipeline3", RECALL)


def test_json_summary_is_the_mean_of_the_effective_values(exported: Exported) -> None:
    data = exported.json
    expected = _means(exported.expected_rows())
    _assert_close(data["summary"], expected)
    _assert_close(_means(data["rows"]), expected)
    # From the README table: Pipeline2 had FK 1 on 4 of 10 questions, q02 now counts as found.
    assert data["summary"]["Pipeline2"][FK] == pytest.approx(0.5)
    assert data["summary"]["Pipeline1"][FK] == pytest.approx(0.9)
    assert data["summary"]["Pipeline3"][FK] == pytest.approx(0.4)
    assert data["summary"] != exported.before["summary"]


def test_json_counts_overridden_values(exported: Exported) -> None:
    assert exported.json["overridden"] == EXPECTED_COUNTS
    assert exported.json["overridden_total"] == 4
    assert exported.before["overridden_total"] == 0


def test_json_review_status_and_note_per_question(exported: Exported) -> None:
    data = exported.json
    assert set(data["reviews"]) == set(FK_REPORT)
    for qid in FK_REPORT:
        status, note = REVIEWS.get(qid, ("unreviewed", ""))
        assert (data["reviews"][qid]["status"], data["reviews"][qid]["note"]) == (status, note)
        for pipeline in PIPELINES:
            row = _json_row(data, qid, pipeline)
            assert (row["review_status"], row["review_note"]) == (status, note)
    assert data["reviews"]["q02"]["reviewer"] == ANN
    assert _in_window(data["reviews"]["q02"]["updated_at"], exported)
    assert data["review_counts"] == {"accepted": 1, "needs_curation": 1, "unreviewed": 8}


# --- CSV ---------------------------------------------------------------------------------------


def _csv(exported: Exported) -> list[dict[str, str]]:
    with (exported.root / "report.csv").open(newline="", encoding="utf-8-sig") as handle:
        return list(csv.DictReader(handle))


def test_csv_carries_effective_values_and_override_columns(exported: Exported) -> None:
    rows = {(r["question_id"], r["pipeline"]): r for r in _csv(exported)}
    assert len(rows) == 30
    for (qid, pipeline, metric), (value, reviewer, note) in EXPECTED.items():
        row = rows[qid, pipeline]
        assert float(row[metric]) == value
        assert float(row[f"{metric}_original"]) == exported.before_value(qid, pipeline, metric)
        assert row[f"{metric}_override_by"] == reviewer
        assert row[f"{metric}_override_note"] == note
        assert _in_window(row[f"{metric}_override_at"], exported)
        assert metric in row["overridden"].split(";")
    untouched = rows["q01", "Pipeline1"]
    assert untouched["overridden"] == ""
    assert untouched[f"{FK}_original"] == untouched[f"{FK}_override_by"] == ""
    assert float(rows["q01", "Pipeline3"][RECALL]) == exported.before_value("q01", "Pipeline3", RECALL)
    for qid, (status, note) in REVIEWS.items():
        assert (rows[qid, "Pipeline1"]["review_status"], rows[qid, "Pipeline1"]["review_note"]) == (
            status,
            note,
        )
    assert rows["q01", "Pipeline1"]["review_status"] == "unreviewed"


# --- workbook ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def book(exported: Exported) -> openpyxl.Workbook:
    return openpyxl.load_workbook(exported.root / "report.xlsx")


def _table(ws: Any, header_row: int = 1) -> tuple[list[str], list[tuple[Any, ...]]]:
    rows = list(ws.iter_rows(min_row=header_row, values_only=True))
    return [str(h) for h in rows[0]], rows[1:]


def test_workbook_has_the_review_sheets(book: openpyxl.Workbook) -> None:
    assert book.sheetnames == [
        "Decision", "Summary", "Scores", "Factual Knowledge Report", "Highlights", "Flags", "Advice",
        "Overrides", "Review", "Comparisons", "About",
    ]  # fmt: skip


def test_scores_sheet_marks_overridden_cells(book: openpyxl.Workbook, exported: Exported) -> None:
    ws = book["Scores"]
    header, _ = _table(ws)
    col = {name: i + 1 for i, name in enumerate(header)}
    excel_row = {(ws.cell(r, 1).value, ws.cell(r, 3).value): r for r in range(2, ws.max_row + 1)}
    for (qid, pipeline, metric), (value, reviewer, note) in EXPECTED.items():
        cell = ws.cell(excel_row[qid, pipeline], col[metric])
        assert cell.value == value
        assert cell.number_format.endswith('"*"')
        assert cell.comment is not None
        original = exported.before_value(qid, pipeline, metric)
        assert reviewer in cell.comment.text
        assert note in cell.comment.text
        assert f"Original {original:.3f}" in cell.comment.text
        summary = ws.cell(excel_row[qid, pipeline], col["overrides"]).value
        assert note in summary
        assert reviewer in summary
    plain = ws.cell(excel_row["q01", "Pipeline1"], col[FK])
    assert plain.comment is None
    assert plain.number_format == "0.000"
    withdrawn = ws.cell(excel_row["q01", "Pipeline3"], col[RECALL])
    assert withdrawn.comment is None
    assert withdrawn.value == exported.before_value("q01", "Pipeline3", RECALL)
    for qid, (status, note) in REVIEWS.items():
        assert ws.cell(excel_row[qid, "Pipeline2"], col["review status"]).value == status
        assert ws.cell(excel_row[qid, "Pipeline2"], col["review note"]).value == note
    assert ws.cell(excel_row["q01", "Pipeline2"], col["review status"]).value == "unreviewed"


def test_summary_sheet_means_and_override_counts(book: openpyxl.Workbook, exported: Exported) -> None:
    ws = book["Summary"]
    rows = list(ws.iter_rows(values_only=True))
    header = list(rows[2])
    expected = _means(exported.expected_rows())
    for offset, pipeline in enumerate(PIPELINES):
        row = rows[3 + offset]
        assert row[0] == pipeline
        assert list(row[1:8]) == pytest.approx([expected[pipeline][n] for n in LEXICAL_SCORE_NAMES])
        assert row[header.index("overridden")] == sum(EXPECTED_COUNTS[pipeline].values())
    title = next(i for i, r in enumerate(rows) if str(r[0]).startswith("Values overridden by reviewers"))
    counts_header = [h for h in rows[title + 1] if h is not None]
    assert counts_header == ["pipeline", FK, F1, "total"]
    table = {r[0]: r[1:4] for r in rows[title + 2 : title + 5]}
    assert table == {"Pipeline1": (1, 1, 2), "Pipeline2": (1, 0, 1), "Pipeline3": (1, 0, 1)}
    about = {r[0]: r[1] for r in book["About"].iter_rows(values_only=True) if r[0]}
    assert about["Scores overridden"] == 4
    assert (about["Review: accepted"], about["Review: needs curation"], about["Review: unreviewed"]) == (
        1,
        1,
        8,
    )


def test_fact_report_sheet_uses_the_overridden_verdicts(book: openpyxl.Workbook) -> None:
    ws = book["Factual Knowledge Report"]
    header, rows = _table(ws)
    by_id = {r[0]: r for r in rows}
    col = {p: header.index(p) for p in PIPELINES}
    assert by_id["q02"][col["Pipeline2"]] == 1
    assert by_id["q03"][col["Pipeline1"]] == 1
    assert by_id["q10"][col["Pipeline3"]] == 0
    cell = ws.cell(1 + 1 + list(by_id).index("q02"), col["Pipeline2"] + 1)
    assert cell.comment is not None
    assert ANN in cell.comment.text
    assert by_id["Mean"][col["Pipeline2"]] == pytest.approx(0.5)
    assert by_id["Mean"][col["Pipeline3"]] == pytest.approx(0.4)


def test_overrides_sheet_lists_each_override_in_force(book: openpyxl.Workbook, exported: Exported) -> None:
    header, rows = _table(book["Overrides"])
    assert header[:7] == [
        "question_id",
        "question",
        "pipeline",
        "metric",
        "original",
        "overridden value",
        "verdict",
    ]
    found = {(r[0], r[2], r[3]): dict(zip(header, r, strict=True)) for r in rows}
    assert set(found) == set(EXPECTED)
    for key, (value, reviewer, note) in EXPECTED.items():
        entry = found[key]
        assert entry["original"] == exported.before_value(*key)
        assert entry["overridden value"] == value
        assert (entry["reviewer"], entry["note"]) == (reviewer, note)
        when = datetime.fromisoformat(str(entry["overridden at (UTC)"])).replace(tzinfo=UTC)
        assert exported.started.replace(microsecond=0) <= when <= exported.finished
    assert found["q10", "Pipeline3", FK]["verdict"] == "fail"
    assert found["q10", "Pipeline1", F1]["verdict"] is None


def test_review_sheet_lists_every_question(book: openpyxl.Workbook) -> None:
    header, rows = _table(book["Review"])
    assert header[:4] == ["question_id", "question", "review status", "review note"]
    found = {r[0]: (r[2], r[3] or "") for r in rows}
    assert found == {qid: REVIEWS.get(qid, ("unreviewed", "")) for qid in FK_REPORT}


# --- printed summary and golden export ----------------------------------------------------------


def test_printed_summary_uses_effective_means_and_counts_overrides(exported: Exported) -> None:
    lines = exported.summary_text.splitlines()
    pipeline2 = next(line for line in lines if line.startswith("Pipeline2"))
    assert pipeline2.split()[:3] == ["Pipeline2", "10", "0.500"]
    overridden = next(line for line in lines if line.startswith("Overridden by reviewers"))
    assert "4 value(s)" in overridden
    assert "Pipeline1: FK 1, F1 1" in overridden
    assert "Review: 1 accepted, 1 needs curation, 8 unreviewed" in lines


def test_golden_export_carries_review_status_and_note(exported: Exported) -> None:
    out = exported.root / "golden.xlsx"
    _ok("export-golden", str(exported.project), "-o", str(out), env=exported.env)
    ws = openpyxl.load_workbook(out).active
    assert ws is not None
    header, rows = _table(ws)
    found = {
        r[header.index("id")]: (r[header.index("review_status")], r[header.index("review_note")])
        for r in rows
    }
    for qid, expected in REVIEWS.items():
        assert found[qid] == expected


# --- judge metrics -----------------------------------------------------------------------------


def test_judge_metric_override_reaches_every_export(tmp_path: Path) -> None:
    env = _env(tmp_path / "config")
    project = tmp_path / "judged.goldenlens"
    golden, responses = sample_dir() / "golden.csv", sample_dir() / "responses.csv"
    _ok("score", str(golden), str(responses), "--project", str(project), "-q", env=env)
    with ProjectStore.open(project) as store:
        run_id = store.runs.start("judge", {"metrics": ["faithfulness"]}, 30)
        records = [
            ScoreRecord(r.question_id, r.pipeline, "faithfulness", None, FAITHFULNESS.to_json(),
                        ScoreStatus.NOT_SCORED, "no statements")
            if (r.question_id, r.pipeline) == ("q01", "Pipeline1")
            else ScoreRecord(r.question_id, r.pipeline, "faithfulness", 0.5, FAITHFULNESS.to_json())
            for r in store.responses.all()
        ]  # fmt: skip
        store.results.save(run_id, records)
        store.runs.finish(run_id)
    _ok("override", str(project), "q01", "Pipeline1", "faithfulness", "0.9", "--note", "read it myself",
        "--reviewer", ANN, env=env)  # fmt: skip
    _ok("override", str(project), "q02", "Pipeline1", "faithfulness", "0", "--note", "invented figure",
        "--reviewer", ANN, env=env)  # fmt: skip
    for suffix in ("json", "csv", "xlsx"):
        _ok("report", str(project), "-o", str(tmp_path / f"judged.{suffix}"), env=env)

    data = json.loads((tmp_path / "judged.json").read_text(encoding="utf-8"))
    row = _json_row(data, "q01", "Pipeline1")
    assert row["judge"]["faithfulness"] == 0.9
    assert row["overrides"]["faithfulness"]["original"] is None  # it was not scored
    assert _json_row(data, "q02", "Pipeline1")["overrides"]["faithfulness"]["original"] == 0.5
    assert data["overridden"]["Pipeline1"] == {"faithfulness": 2}
    # Pipeline1: 0.9 and 0.0 by the reviewer, 0.5 on the other eight questions.
    assert _means(data["rows"], "faithfulness")["Pipeline1"]["faithfulness"] == pytest.approx(4.9 / 10)

    with (tmp_path / "judged.csv").open(newline="", encoding="utf-8-sig") as handle:
        rows = {(r["question_id"], r["pipeline"]): r for r in csv.DictReader(handle)}
    assert float(rows["q01", "Pipeline1"]["faithfulness"]) == 0.9
    assert rows["q01", "Pipeline1"]["faithfulness_original"] == ""
    assert rows["q01", "Pipeline1"]["faithfulness_reason"] == ""
    assert rows["q01", "Pipeline1"]["faithfulness_override_by"] == ANN

    book = openpyxl.load_workbook(tmp_path / "judged.xlsx")
    ws = book["Judge"]
    header = [c.value for c in ws[1]]
    cells = {(ws.cell(r, 1).value, ws.cell(r, 3).value): ws.cell(r, header.index("faithfulness") + 1)
             for r in range(2, ws.max_row + 1)}  # fmt: skip
    assert cells["q01", "Pipeline1"].value == 0.9
    assert cells["q01", "Pipeline1"].comment is not None
    assert "Original not scored" in cells["q01", "Pipeline1"].comment.text
    assert cells["q03", "Pipeline1"].comment is None
    summary = list(book["Summary"].iter_rows(values_only=True))
    judge_title = next(i for i, r in enumerate(summary) if str(r[0]).startswith("Judge metrics"))
    judge_row = next(r for r in summary[judge_title:] if r[0] == "Pipeline1")
    assert judge_row[1] == pytest.approx(4.9 / 10)
    assert judge_row[2] == 0  # nothing left not scored on Pipeline1


# --- refused input ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_project(exported: Exported) -> Path:
    return exported.project


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["override", "{missing}", "q01", "Pipeline1", FK, "1", "--note", "x"], ["missing.goldenlens"]),
        (["override", "{project}", "q99", "Pipeline1", FK, "1", "--note", "x"], ["'q99'", "q01, q02, q03"]),
        (["override", "{project}", "q01", "Pipeline9", FK, "1", "--note", "x"],
         ["'Pipeline9'", "Pipeline1, Pipeline2, Pipeline3"]),
        (["override", "{project}", "q01", "Pipeline1", "bleu", "1", "--note", "x"],
         ["'bleu'", "factual_knowledge", "f1_score", "quasi_exact_match"]),
        (["override", "{project}", "q01", "Pipeline1", FK, "0.5", "--note", "x"],
         ["pass/fail", "0, 1, pass or fail"]),
        (["override", "{project}", "q01", "Pipeline1", F1, "1.5", "--note", "x"], ["from 0 to 1", "'1.5'"]),
        (["override", "{project}", "q01", "Pipeline1", F1, "nan", "--note", "x"], ["from 0 to 1"]),
        (["override", "{project}", "q01", "Pipeline1", F1, "-0.1", "--note", "x"], ["from 0 to 1"]),
        (["override", "{project}", "q01", "Pipeline1", F1, "0.5"], ["needs a note"]),
        (["override", "{project}", "q01", "Pipeline1", F1, "--withdraw", "--note", "x"], ["no F1 override"]),
        (["override", "{project}", "q01", "Pipeline1", F1, "0.5", "--withdraw", "--note", "x"],
         ["VALUE or --withdraw"]),
        (["review", "{project}", "q01", "done"], ["'done'", "accepted, needs_curation, unreviewed"]),
        (["review", "{project}", "q77", "accepted"], ["'q77'", "q01, q02"]),
    ],
)  # fmt: skip
def test_refused_input_is_one_line_and_writes_nothing(
    args: list[str],
    expected: list[str],
    small_project: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GOLDENLENS_CONFIG_DIR", str(tmp_path))
    with ProjectStore.open(small_project) as store:
        before = (store.reviews.overrides(all=True), store.reviews.all())
    argv = [a.format(project=small_project, missing=tmp_path / "missing.goldenlens") for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("goldenlens: error: ")
    for text in expected:
        assert text in err
    with ProjectStore.open(small_project) as store:
        assert (store.reviews.overrides(all=True), store.reviews.all()) == before
    assert not (tmp_path / "missing.goldenlens").exists()


def test_refused_input_in_a_subprocess_exits_2(exported: Exported) -> None:
    done = _cli("override", str(exported.project), "q01", "Nope", FK, "1", "--note", "x", env=exported.env)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "goldenlens: error: amazon.goldenlens: there is no pipeline 'Nope'; "
        "pipelines: Pipeline1, Pipeline2, Pipeline3"
    ]

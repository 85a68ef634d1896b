"""Labelling from the command line on the bundled sample (real processes): single labels and
their mistakes, files of labels and their bad rows, plans in every format, disagreeing verdicts on
one answer, and what the reviewer summary says of rounds and stale labels."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from openpyxl import load_workbook
from tests.cli.conftest import SAMPLE
from tests.cli.label_steps import ok as _ok
from tests.cli.label_steps import plan_rows as _plan_rows
from tests.cli_process import run_goldenlens
from tests.run_projects import read_rows, write_rows

from goldenlens.cli.commands.labels import _answers_of
from goldenlens.core.calibration.labels import LabelState
from goldenlens.store.project import ProjectStore


def _labelled(project: Path, folder: Path) -> int:
    """How many responses the project's JSON report counts as labelled."""
    report = folder / "labelled.json"
    assert run_goldenlens("report", str(project), "-o", str(report)).returncode == 0
    count: int = json.loads(report.read_text(encoding="utf-8"))["human_calibrated"]["labelled"]
    return count


def test_one_label_from_the_command_line_and_its_mistakes(sample_project: Path) -> None:
    done = run_goldenlens(
        "label",
        str(sample_project),
        "q02",
        "Pipeline2",
        "incorrect",
        "--note",
        "$170.0 billion",
        "--reviewer",
        "ana",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "q02 / Pipeline2: incorrect"
    wrong = run_goldenlens("label", str(sample_project), "q02", "Pipeline9", "correct")
    assert wrong.returncode == 2
    assert "question 'q02' has no response from 'Pipeline9'" in wrong.stderr
    assert "Traceback" not in wrong.stderr
    bad = run_goldenlens("label", str(sample_project), "q02", "Pipeline1", "maybe")
    assert bad.returncode == 2
    assert "'maybe' is not a verdict" in bad.stderr


def test_a_seed_out_of_range_is_a_usage_error_and_plans_nothing(sample_project: Path, tmp_path: Path) -> None:
    """``--seed -1`` ended in numpy's traceback; a seed of 2**32 or more could repeat another
    seed's round. Both are refused by argparse (exit 2) before the project is touched."""
    for seed, said in (("-1", "got -1"), ("4294967296", "got 4,294,967,296"), ("x", "got 'x'")):
        done = run_goldenlens(
            "plan-labels", str(sample_project), "--budget", "5", "--seed", seed, "-o", str(tmp_path / "p.csv")
        )
        assert done.returncode == 2, done.stderr
        assert "argument --seed:" in done.stderr
        assert said in done.stderr
        assert "Traceback" not in done.stderr
    with ProjectStore.open(sample_project) as store:
        assert store.labels.rounds() == []
    assert not (tmp_path / "p.csv").exists()
    largest = ("--budget", "5", "--seed", "4294967295")
    _ok("plan-labels", str(sample_project), *largest, "-o", str(tmp_path / "p.csv"))
    assert len(_plan_rows(tmp_path / "p.csv")) == 5


def test_a_verdict_is_never_given_to_an_answer_the_reviewer_did_not_read(
    sample_project: Path, tmp_path: Path
) -> None:
    """A plan listed Pipeline3's answer to q07 ("$54.3 billion"), the reviewer marked it
    incorrect, the pipeline answered again ("$50.1 billion", the fact) and the filled plan was
    read back: "incorrect" landed on the new, right answer without a word. Now the file is
    refused, naming the row and its response column; without the row, the rest is written.
    A response only written differently (a CSV's apostrophe before "=", line endings or spaces
    a spreadsheet program changed) is the same answer."""
    sample = Path(__file__).resolve().parents[2] / "resources" / "sample"
    with (sample / "responses.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    answers = {(r["question_id"], r["pipeline"]): r["response"] for r in rows}
    plan = tmp_path / "plan.csv"
    _ok("plan-labels", str(sample_project), "--budget", "30", "--seed", "1", "-o", str(plan))
    listed = _plan_rows(plan)
    assert {(r["question_id"], r["pipeline"]) for r in listed} >= {("q07", "Pipeline3"), ("q01", "Pipeline1")}
    for row in listed:
        row["verdict"] = (
            "incorrect" if (row["question_id"], row["pipeline"]) == ("q07", "Pipeline3") else "correct"
        )
        if (row["question_id"], row["pipeline"]) == ("q01", "Pipeline1"):
            row["response"] = row["response"].replace(" ", "  ").replace(".", ".\r\n", 1)
    filled = tmp_path / "filled.csv"
    with filled.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(listed[0]))
        writer.writeheader()
        writer.writerows(listed)

    new_answer = "Amazon had $50.1 billion of cash, cash equivalents and restricted cash."
    assert answers[("q07", "Pipeline3")] != new_answer
    answered_again = tmp_path / "responses.csv"
    with answered_again.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "pipeline", "response"])
        for (question, pipeline), text in answers.items():
            writer.writerow(
                [question, pipeline, new_answer if (question, pipeline) == ("q07", "Pipeline3") else text]
            )
    _ok("score", str(sample / "golden.csv"), str(answered_again), "--project", str(sample_project), "-q")

    refused = run_goldenlens("label", str(sample_project), "--from", str(filled))
    assert refused.returncode == 2
    line = next(
        n
        for n, row in enumerate(listed, start=2)
        if row["question_id"] == "q07" and row["pipeline"] == "Pipeline3"
    )
    assert (
        f"filled.csv, row {line}, column 'response': this is not Pipeline3's response to q07 now "
        "('Amazon had $50.1 billion of cash, cash equivalents and rest…'): it was answered again"
    ) in refused.stderr
    assert refused.stderr.count("this is not") == 1  # q01's spacing is the same answer
    with ProjectStore.open(sample_project) as store:
        assert not [label for label in store.labels.in_force().labels if label.state is not LabelState.NONE]

    kept = [row for row in listed if (row["question_id"], row["pipeline"]) != ("q07", "Pipeline3")]
    with filled.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(listed[0]))
        writer.writeheader()
        writer.writerows(kept)
    _ok("label", str(sample_project), "--from", str(filled))
    with ProjectStore.open(sample_project) as store:
        in_force = store.labels.in_force()
        state = {key: in_force.labels[n].state for n, key in enumerate(in_force.keys)}
    assert state[("q01", "Pipeline1")] is LabelState.CORRECT  # its response spaced otherwise: the same
    assert state[("q07", "Pipeline3")] is LabelState.NONE


def test_question_ids_are_matched_ignoring_case_as_the_import_matches_them(
    sample_project: Path, tmp_path: Path
) -> None:
    """``score`` joins "Q07" to q07, but ``label`` said "no question 'Q07'" (golden ids are
    unique ignoring case, so the match is never ambiguous). A pipeline is matched as written."""
    labels = tmp_path / "labels.csv"
    labels.write_text("question_id,pipeline,verdict\nQ07,Pipeline3,incorrect\n q01 ,Pipeline1,correct\n")
    assert _ok("label", str(sample_project), "--from", str(labels)).startswith(
        "sample.goldenlens: 2 labels from labels.csv"
    )
    assert _ok("label", str(sample_project), "Q02", "Pipeline2", "incorrect").strip() == (
        "q02 / Pipeline2: incorrect"
    )
    with ProjectStore.open(sample_project) as store:
        in_force = store.labels.in_force()
        state = {key: in_force.labels[n].state for n, key in enumerate(in_force.keys)}
    assert state[("q07", "Pipeline3")] is LabelState.INCORRECT
    assert state[("q01", "Pipeline1")] is LabelState.CORRECT
    assert state[("q02", "Pipeline2")] is LabelState.INCORRECT
    wrong = run_goldenlens("label", str(sample_project), "q02", "pipeline2", "correct")
    assert wrong.returncode == 2
    assert "question 'q02' has no response from 'pipeline2'" in wrong.stderr


def test_a_labels_file_says_how_many_verdicts_it_changed(sample_project: Path, tmp_path: Path) -> None:
    """A first-time user flipped 50 verdicts in a file and was told only "50 labels"; then only
    how many were replaced, not which."""
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    rows = [("q01", "Pipeline1"), ("q02", "Pipeline2"), ("q03", "Pipeline3"), ("q04", "Pipeline1")]
    first.write_text("question_id,pipeline,verdict\n" + "".join(f"{q},{p},correct\n" for q, p in rows))
    flipped = [(q, p, "incorrect" if n < 2 else "correct") for n, (q, p) in enumerate(rows)]
    second.write_text(
        "question_id,pipeline,verdict\n"
        + "".join(f"{q},{p},{v}\n" for q, p, v in flipped)
        + "q05,Pipeline2,unsure\n"
    )
    assert _ok("label", str(sample_project), "--from", str(first)).startswith(
        "sample.goldenlens: 4 labels from first.csv\n"
    )
    said = _ok("label", str(sample_project), "--from", str(second))
    assert said.startswith(
        "sample.goldenlens: 3 labels from second.csv (2 already in force; 2 replace an earlier verdict: "
        "q01/Pipeline1 correct → incorrect, q02/Pipeline2 correct → incorrect)\n"
    )
    # Which ones were replaced: named, the first three, in the file's order.
    back = tmp_path / "back.csv"
    back.write_text(
        "question_id,pipeline,verdict\n"
        + "".join(f"{q},{p},{'correct' if v == 'incorrect' else 'incorrect'}\n" for q, p, v in flipped)
        + "q05,Pipeline2,correct\n"
    )
    assert _ok("label", str(sample_project), "--from", str(back)).startswith(
        "sample.goldenlens: 5 labels from back.csv (5 replace an earlier verdict: q01/Pipeline1 incorrect "
        "→ correct, q02/Pipeline2 incorrect → correct, q03/Pipeline3 correct → incorrect and 2 more)\n"
    )
    # A row given twice with the same verdict is one label ("2 labels" were said, one stored).
    third = tmp_path / "third.csv"
    third.write_text("question_id,pipeline,verdict\nq06,Pipeline1,correct\nq06,Pipeline1,correct\n")
    assert _ok("label", str(sample_project), "--from", str(third)).startswith(
        "sample.goldenlens: 1 label from third.csv (1 repeat an earlier row)\n"
    )


def test_a_bad_labels_file_names_its_row_and_column_and_writes_nothing(
    sample_project: Path, tmp_path: Path
) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "question_id,pipeline,verdict\nq01,Pipeline1,yes\nq02,Pipeline2,perhaps\n", encoding="utf-8"
    )
    done = run_goldenlens("label", str(sample_project), "--from", str(labels))
    assert done.returncode == 2
    assert "labels.csv, row 3, column 'verdict'" in done.stderr
    assert _labelled(sample_project, tmp_path) == 0


def test_every_bad_row_of_a_labels_file_is_named_in_one_run_in_file_order(
    sample_project: Path, tmp_path: Path
) -> None:
    """A word that is no verdict used to stop the command alone: the rows naming no response
    came to light only once it was fixed, and were printed as ``fatal:`` beside the first
    ``error:``. Now one run names every row, in the file's order, each the same way, and
    writes nothing."""
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "question_id,pipeline,verdict\n"
        "q01,Pipeline1,yes\n"  # fine, but the file is refused whole
        "q99,Pipeline1,no\n"  # no such question
        "q02,Pipeline2,perhaps\n"  # no verdict
        "q03,PipelineX,correct\n"  # no such pipeline
        ",Pipeline2,correct\n",  # no question id
        encoding="utf-8",
    )
    done = run_goldenlens("label", str(sample_project), "--from", str(labels))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == [
        "goldenlens: error: labels.csv, row 3, column 'question_id': no question 'q99' in the project",
        "goldenlens: error: labels.csv, row 4, column 'verdict': 'perhaps' is not a verdict: say "
        "correct (yes, y, 1, true, pass, passed, right), incorrect (no, n, 0, false, fail, failed, wrong), "
        "unsure (?, unknown, not sure, skip)",
        "goldenlens: error: labels.csv, row 5, column 'pipeline': "
        "question 'q03' has no response from 'PipelineX' (its responses are from Pipeline1, Pipeline2, "
        "Pipeline3)",
        "goldenlens: error: labels.csv, row 6, column 'question_id': no question id",
    ]
    assert _labelled(sample_project, tmp_path) == 0


def test_a_file_of_another_project_is_refused_in_one_line(sample_project: Path, tmp_path: Path) -> None:
    """A plan or report of another project named none of this project's questions: the command
    printed one "no question" line a row (20, then a count). It says what happened once; a row
    it cannot read is still named."""
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "question_id,pipeline,verdict\n"
        "t101,GPT-4,correct\n"
        "t102,GPT-4,maybe\n"  # no verdict: named on its own
        "t103,BingChat,incorrect\n"
        "t104,BingChat,correct\n",
        encoding="utf-8",
    )
    done = run_goldenlens("label", str(sample_project), "--from", str(labels))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "goldenlens: error: labels.csv, row 2, column 'question_id': none of its 3 rows names a question "
        "of this project (this row names 't101'): is it a file of another project? Label a plan of this "
        "one (goldenlens plan-labels).",
        "goldenlens: error: labels.csv, row 3, column 'verdict': 'maybe' is not a verdict: say "
        "correct (yes, y, 1, true, pass, passed, right), incorrect (no, n, 0, false, fail, failed, wrong), "
        "unsure (?, unknown, not sure, skip)",
    ]
    assert _labelled(sample_project, tmp_path) == 0


def test_a_plan_file_of_no_plan_format_is_refused_before_the_round_is_kept(
    sample_project: Path, tmp_path: Path
) -> None:
    """``-o plan.xls`` failed only when writing, after the round was drawn and kept: the next
    plan with other settings was refused ("round 1 has no label yet"). Now the name is checked
    first and the project is as it was."""
    xls = tmp_path / "plan.xls"
    bad = run_goldenlens("plan-labels", str(sample_project), "--budget", "5", "-o", str(xls))
    assert bad.returncode == 2
    assert "a plan is written as .csv or .xlsx" in bad.stderr
    assert not xls.exists()
    good = run_goldenlens(
        "plan-labels", str(sample_project), "--budget", "8", "--seed", "3", "-o", str(tmp_path / "plan.csv")
    )
    assert good.returncode == 0, good.stderr
    assert good.stderr.startswith("Round 1: 8 answers to label")
    again = tmp_path / "p.csv"
    quiet = run_goldenlens(  # the same round listed again, with no summary (as score -q)
        "plan-labels", str(sample_project), "--budget", "8", "--seed", "3", "-o", str(again), "-q"
    )
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stderr == ""
    assert again.read_bytes() == (tmp_path / "plan.csv").read_bytes()
    refused = run_goldenlens("plan-labels", str(sample_project), "--budget", "4", "-o", str(sample_project))
    assert refused.returncode == 2, refused.stderr


def _shared_answer_project(folder: Path) -> Path:
    """One question that pipelines A and B answer alike ("Insulin", "Insulin.") and C otherwise."""
    folder.mkdir(exist_ok=True)
    golden, responses = folder / "golden.csv", folder / "responses.csv"
    golden.write_text(
        "id,question,answer,fact\nq1,Which hormone lowers blood sugar?,Insulin.,insulin\n", encoding="utf-8"
    )
    responses.write_text(
        "question_id,pipeline,response\nq1,A,Insulin\nq1,B,Insulin.\nq1,C,Glucagon\n", encoding="utf-8"
    )
    project = folder / "shared.goldenlens"
    _ok("score", str(golden), str(responses), "--project", str(project), "-q")
    return project


def test_two_verdicts_on_one_answer_are_said_never_hidden(tmp_path: Path) -> None:
    """EVOUNA tq0291: "Insulin" (DPR+FiD) and "Insulin." (ChatGPT-3.5) are one answer. Labelling
    the second incorrect after the first correct printed "(and ChatGPT-3.5: the same answer)",
    though ChatGPT-3.5 keeps its own verdict, correct; a file giving the two verdicts said
    nothing. Each response's own verdict still wins; the disagreement is now said."""
    project = _shared_answer_project(tmp_path)
    first = run_goldenlens("label", str(project), "q1", "A", "correct")
    assert first.stdout.splitlines() == ["q1 / A: correct (and B: the same answer)"]
    second = run_goldenlens("label", str(project), "q1", "B", "incorrect")
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines() == [
        "q1 / B: incorrect",
        "A gave the same answer and keeps its own verdict, correct: label it again so the verdicts "
        "agree, or --detach it if the answers differ",
    ]
    report = tmp_path / "r.json"
    _ok("report", str(project), "-o", str(report))
    labels = {row["pipeline"]: row["label"] for row in json.loads(report.read_text(encoding="utf-8"))["rows"]}
    assert labels["A"]["verdict"] == "correct", labels
    assert labels["B"]["verdict"] == "incorrect", labels

    fresh = _shared_answer_project(tmp_path / "file")
    given = tmp_path / "labels.csv"
    given.write_text(
        "question_id,pipeline,verdict\nq1,B,incorrect\nq1,A,correct\nq1,C,no\n", encoding="utf-8"
    )
    done = run_goldenlens("label", str(fresh), "--from", str(given))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (
        "1 answer given by several pipelines now has two verdicts, each response keeping its own "
        "(e.g. q1: A correct, B incorrect): label one of them again so the verdicts agree, or "
        "--detach one if the answers differ"
    )
    # Pairs are not answers: A, B and C giving one answer to q1 make two pairs, one answer.
    pairs = [("q1", "A", "correct", "B", "incorrect"), ("q1", "A", "correct", "C", "incorrect")]
    assert _answers_of(pairs) == 1
    assert _answers_of([*pairs, ("q2", "B", "correct", "A", "incorrect")]) == 2


def test_the_summary_says_why_a_round_went_unused_and_which_labels_wait(
    sample_project: Path, tmp_path: Path
) -> None:
    """A labelled round, then one of its answers re-imported changed: the summary said "9
    responses labelled, but no planned sample labelled yet" (the round was planned) and never
    named the stale label. Unsure verdicts, which widen every interval, were not said either."""
    plan = tmp_path / "plan.csv"
    _ok("plan-labels", str(sample_project), "--budget", "10", "-o", str(plan))
    rows = _plan_rows(plan)
    labels = tmp_path / "labels.csv"
    with labels.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "pipeline", "verdict"])
        for n, row in enumerate(rows):
            writer.writerow([row["question_id"], row["pipeline"], "unsure" if n == 0 else "correct"])
    _ok("label", str(sample_project), "--from", str(labels))
    report = tmp_path / "r.json"
    _ok("report", str(sample_project), "-o", str(report))
    summary = json.loads(report.read_text(encoding="utf-8"))["human_calibrated"]["summary"]
    said, _, hint = summary.partition(" The widest interval is ±")
    assert said == (
        "Estimated from 9 labelled responses of 30 (1 round of sampled labels; 1 judged unsure, which "
        "widen the intervals by as much as they could move)."
    )
    # The next round's size, never said before: the widest interval as the JSON gives it.
    estimates = json.loads(report.read_text(encoding="utf-8"))["human_calibrated"]["estimates"]
    widest = max((e["high"] - e["low"]) / 2 for e in estimates.values())
    assert re.fullmatch(
        rf"{widest:.2f}; a further round of about \d+ labels would reach ±0\.05 on its own "
        r"\(Plan the next round in the app; `goldenlens plan-labels`\)\.",
        hint,
    ), hint

    changed = rows[1]
    source = SAMPLE / "responses.csv"
    with source.open(encoding="utf-8", newline="") as handle:
        table = list(csv.reader(handle))
    for line in table[1:]:
        if (line[0], line[1]) == (changed["question_id"], changed["pipeline"]):
            line[2] = "I do not know."
    again = tmp_path / "responses.csv"
    with again.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(table)
    _ok("score", str(SAMPLE / "golden.csv"), str(again), "--project", str(sample_project), "-q")
    _ok("report", str(sample_project), "-o", str(report))
    summary = json.loads(report.read_text(encoding="utf-8"))["human_calibrated"]["summary"]
    assert "no planned sample" not in summary
    assert summary == (
        "8 responses labelled, but 1 round(s) of labels were planned before the responses changed and are "
        "left out (their labels still count where they hold); plan a new round to estimate. 1 label was "
        "given on an answer that has changed since and is left out: label the new answer (the next "
        "plan lists it)."
    )
    # A new round planned: it waits for its labels; "plan a new round" would send the analyst to
    # plan-labels, which refuses while it waits.
    _ok("plan-labels", str(sample_project), "--budget", "10", "-o", str(tmp_path / "plan2.csv"))
    _ok("report", str(sample_project), "-o", str(report))
    summary = json.loads(report.read_text(encoding="utf-8"))["human_calibrated"]["summary"]
    assert "plan a new round" not in summary
    assert (
        "left out (their labels still count where they hold); label the answers of the round planned since."
        in summary
    )


def _fill_plan(plan: Path, verdict: str) -> list[dict[str, str]]:
    """Give every row of ``plan`` (a CSV plan) ``verdict``, in place; its rows."""
    rows = [{**row, "verdict": verdict} for row in read_rows(plan)]
    write_rows(plan, rows)
    return rows


def test_labels_from_a_plan_drawn_anew_are_said_to_be_outside_the_plans(
    sample_project: Path, tmp_path: Path
) -> None:
    """A plan filled after its round was drawn anew (--replace) gave its labels with no word;
    the report then counted them in its headline but not in the estimate. Its rows name round 1,
    whose sample no longer holds them: label --from says so."""
    old, new = tmp_path / "old.csv", tmp_path / "new.csv"
    _ok("plan-labels", str(sample_project), "--budget", "6", "--seed", "5", "-o", str(old))
    _ok("plan-labels", str(sample_project), "--budget", "6", "--seed", "6", "--replace", "-o", str(new))
    now = {(row["question_id"], row["pipeline"]) for row in _plan_rows(new)}
    rows = _fill_plan(old, "correct")
    outside = [n + 2 for n, row in enumerate(rows) if (row["question_id"], row["pipeline"]) not in now]
    assert outside  # the two seeds draw different samples
    done = run_goldenlens("label", str(sample_project), "--from", str(old))
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stdout.splitlines() if "round 1 but" in line]
    count = len(outside)
    assert count > 1
    assert said == [
        f"{count} rows (the first: row {outside[0]}) name round 1 but are not in its sample now (was "
        "the round drawn anew after the file was written?): their verdicts count as labels outside "
        "the plans until a round planned after them"
    ]
    # A round the project does not have is said to be none of its rounds.
    alone = tmp_path / "round5.csv"
    alone.write_text(
        f"question_id,pipeline,verdict,round\n{rows[0]['question_id']},{rows[0]['pipeline']},correct,5\n",
        encoding="utf-8",
    )
    five = run_goldenlens("label", str(sample_project), "--from", str(alone))
    assert five.returncode == 0, five.stderr
    assert (
        "1 row (row 2) names round 5 (the project has 1 round): its verdict counts as a label outside "
        in five.stdout
    )
    report = tmp_path / "r.json"  # the round is planned, not labelled: label it, not plan one
    _ok("report", str(sample_project), "-o", str(report))
    assert json.loads(report.read_text(encoding="utf-8"))["human_calibrated"]["summary"] == (
        "6 responses labelled, but no planned sample labelled yet: label the answers of the round "
        "planned (labels outside its sample do not count alone)."
    )
    _fill_plan(new, "incorrect")  # the new plan's rows are in its sample: nothing said
    again = run_goldenlens("label", str(sample_project), "--from", str(new))
    assert again.returncode == 0, again.stderr
    assert "labels from new.csv" in again.stdout
    assert "name round" not in again.stdout


def test_a_workbook_plan_has_a_verdict_drop_down_and_comes_back_filled(
    sample_project: Path, tmp_path: Path
) -> None:
    plan = tmp_path / "plan.xlsx"
    done = run_goldenlens("plan-labels", str(sample_project), "--budget", "6", "--seed", "2", "-o", str(plan))
    assert done.returncode == 0, done.stderr
    book = load_workbook(plan)
    sheet = book["Plan"]
    header = [c.value for c in sheet[1]]
    assert header[:4] == ["question_id", "pipeline", "verdict", "note"]
    (validation,) = sheet.data_validations.dataValidation
    assert validation.formula1 == '"correct,incorrect,unsure"'
    assert str(validation.sqref) == "C2:C7"
    for row in range(2, sheet.max_row + 1):
        sheet.cell(row, 3).value = "correct" if row % 2 else "incorrect"
    book.save(plan)
    filled = run_goldenlens("label", str(sample_project), "--from", str(plan))
    assert filled.returncode == 0, filled.stderr
    assert "6 labels from plan.xlsx" in filled.stdout


def test_a_team_labels_in_the_report_workbook_and_reads_it_back(sample_project: Path, tmp_path: Path) -> None:
    """The Scores sheet's label column (a drop-down, the verdicts in force filled in): label
    there, then ``label --from report.xlsx``; a verdict already in force is not written again."""
    project = str(sample_project)
    assert run_goldenlens("label", project, "q01", "Pipeline1", "correct").returncode == 0
    report = tmp_path / "report.xlsx"
    assert run_goldenlens("report", project, "-o", str(report)).returncode == 0
    book = load_workbook(report)
    sheet = book["Scores"]
    header = [c.value for c in sheet[1]]
    key, label, note = header.index("question_id"), header.index("label"), header.index("label note")
    pipe = header.index("pipeline")
    rows = {(r[key].value, r[pipe].value): r for r in sheet.iter_rows(min_row=2)}
    assert rows[("q01", "Pipeline1")][label].value == "correct"
    rows[("q02", "Pipeline2")][label].value = "incorrect"
    rows[("q02", "Pipeline2")][note].value = "$170.0 billion is not the fact"
    rows[("q05", "Pipeline3")][label].value = "correct"
    book.save(report)
    done = run_goldenlens("label", project, "--from", str(report))
    assert done.returncode == 0, done.stderr
    assert "2 labels from report.xlsx" in done.stdout
    assert "1 already in force" in done.stdout
    again = tmp_path / "again.json"
    assert run_goldenlens("report", project, "-o", str(again)).returncode == 0
    assert json.loads(again.read_text(encoding="utf-8"))["human_calibrated"]["labelled"] == 3


def test_a_labels_file_without_its_columns_names_them_as_a_sentence(
    sample_project: Path, tmp_path: Path
) -> None:
    """It read "no 'question id', 'verdict' column"."""
    labels = tmp_path / "labels.csv"
    labels.write_text("question,system,answer\nWho?,Pipeline1,Ada\n", encoding="utf-8")
    done = run_goldenlens("label", str(sample_project), "--from", str(labels))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "goldenlens: error: labels.csv, row 1: no 'question id' or 'verdict' column (the columns are "
        "'question', 'system', 'answer'); a labels file needs a question id, a pipeline and a verdict column"
    )


def test_a_budget_below_a_rounds_minimum_is_said_not_silently_raised(sample_project: Path) -> None:
    """``--budget 1`` planned two answers with no word (a round takes two from each part it
    samples, to measure their spread)."""
    done = run_goldenlens("plan-labels", str(sample_project), "--budget", "1")
    assert done.returncode == 0, done.stderr
    said = done.stderr.splitlines()  # the rows on stdout, what to do with them on stderr
    (head,) = [line for line in said if line.startswith("Round 1:")]
    assert re.match(r"Round 1: ([2-9]|\d\d+) answers to label", head), head
    assert (
        "More than the budget of 1: a round takes at least two answers from each part it samples, "
        "so that its labels measure their own spread."
    ) in said

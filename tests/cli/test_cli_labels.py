"""Labelling from the command line, as an analyst runs it (real processes): the issue's
acceptance flow on a real benchmark whose every answer a person judged (tests/data/evouna_tq),
rounds planned again, drawn anew or twice, labels outside the plans, and the gate on the
calibrated estimate. The sample's labels, files and summaries: test_cli_label_files.py."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook
from tests.cli.label_steps import ok as _ok
from tests.cli.label_steps import plan_rows as _plan_rows
from tests.cli_process import run_goldenlens

from goldenlens.store.project import ProjectStore
from goldenlens.store.repositories.labels import StoredRound

DATA = Path(__file__).resolve().parents[1] / "data" / "evouna_tq"


def _human() -> dict[tuple[str, str], str]:
    with (DATA / "human.csv").open(encoding="utf-8", newline="") as handle:
        return {(r["id"], r["pipeline"]): r["acceptable"] for r in csv.DictReader(handle)}


def _accuracy() -> dict[str, float]:
    by_pipeline: dict[str, list[int]] = {}
    for (_q, pipeline), verdict in _human().items():
        by_pipeline.setdefault(pipeline, []).append(int(verdict))
    return {p: sum(v) / len(v) for p, v in by_pipeline.items()}


@pytest.fixture(scope="module")
def evouna_scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """EVOUNA scored into a project nobody labelled yet (copied by the tests that change it)."""
    project = tmp_path_factory.mktemp("evouna-scored") / "tq.goldenlens"
    _ok("score", str(DATA / "golden.csv"), str(DATA / "responses.csv"), "--project", str(project), "-q")
    return project


def _copy_project(project: Path, folder: Path) -> Path:
    copied = folder / project.name
    copied.write_bytes(project.read_bytes())
    return copied


def _label_as_the_person(project: Path, rows: list[dict[str, str]], labels: Path) -> str:
    """Fill ``rows`` (a plan's) with the person's verdicts into ``labels`` and give them."""
    human = _human()
    with labels.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "pipeline", "verdict"])
        for row in rows:
            verdict = "correct" if human[(row["question_id"], row["pipeline"])] == "1" else "incorrect"
            writer.writerow([row["question_id"], row["pipeline"], verdict])
    return _ok("label", str(project), "--from", str(labels))


@pytest.fixture(scope="module")
def evouna_labelled(evouna_scored: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The issue's acceptance flow: score, then three rounds of plan-labels (200, a seed each)
    and label --from a file of the person's verdicts (question_id,pipeline,verdict), then the
    report as JSON."""
    work = tmp_path_factory.mktemp("evouna")
    project = _copy_project(evouna_scored, work)
    for seed in (11, 12, 13):
        plan = work / f"plan{seed}.csv"
        _ok("plan-labels", str(project), "--budget", "200", "--seed", str(seed), "-o", str(plan))
        rows = _plan_rows(plan)
        assert len(rows) == 200
        said = _label_as_the_person(project, rows, work / f"labels{seed}.csv")
        assert "200 labels from" in said
    report = work / "r.json"
    _ok("report", str(project), "-o", str(report))
    found = json.loads(report.read_text(encoding="utf-8"))
    # The label command says why the report counts more labelled responses than labels given.
    in_force = re.search(r"(\d+) responses now have a verdict: (\d+) of them hold it because another", said)
    assert in_force is not None, said
    assert int(in_force.group(1)) == found["human_calibrated"]["labelled"] > 600
    assert int(in_force.group(1)) - int(in_force.group(2)) == 600
    return {"project": project, "report": found, "work": work}


def test_600_labels_estimate_every_system_as_the_person_judged_it(evouna_labelled: dict[str, object]) -> None:
    block = evouna_labelled["report"]["human_calibrated"]  # type: ignore[index]
    accuracy = _accuracy()
    fk = {
        e["pipeline"]: e["mean"]
        for e in evouna_labelled["report"]["comparisons"]["estimates"]  # type: ignore[index]
        if e["metric"] == "factual_knowledge"
    }
    assert block["rounds"] == 3
    assert 600 <= block["labelled"] < 700  # 600 answers asked, a few shared by two systems
    errors = {p: abs(e["estimate"] - accuracy[p]) for p, e in block["estimates"].items()}
    assert max(abs(fk[p] - accuracy[p]) for p in accuracy) > 0.07  # the metric alone is far off
    assert max(errors.values()) <= 0.05, errors
    # 95% intervals: one in twenty may miss (tests/core/calibration proves the coverage over 100
    # seeds); this run's seeds leave ChatGPT-3.5's just short (0.845 against 0.844).
    held = [p for p, e in block["estimates"].items() if e["low"] <= accuracy[p] <= e["high"]]
    assert len(held) >= 4, held
    assert block["predictor"]["agreement"] > 0.9


def test_no_confirmed_verdict_is_reversed_by_all_the_labels(evouna_labelled: dict[str, object]) -> None:
    accuracy = _accuracy()
    pairs = evouna_labelled["report"]["human_calibrated"]["pairs"]  # type: ignore[index]
    assert len(pairs) == 10
    confirmed = [p for p in pairs if p["better"] is not None]
    assert confirmed
    for pair in confirmed:
        truth = accuracy[pair["a"]] - accuracy[pair["b"]]
        assert (pair["better"] == pair["a"]) == (truth > 0), pair
        assert pair["p_holm"] < 0.05
        assert "as reviewers would judge it" in pair["verdict"]


def test_a_plan_never_asks_for_a_labelled_answer_again(
    evouna_labelled: dict[str, object], tmp_path: Path
) -> None:
    project = evouna_labelled["project"]
    asked = set()
    work = evouna_labelled["work"]
    for seed in (11, 12, 13):
        with (work / f"plan{seed}.csv").open(encoding="utf-8", newline="") as handle:  # type: ignore[operator]
            asked |= {(r["question_id"], r["pipeline"]) for r in csv.DictReader(handle)}
    assert len(asked) == 600
    out = tmp_path / "next.json"
    done = run_goldenlens("plan-labels", str(project), "--budget", "50", "--seed", "1", "--json", timeout=300)
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["round"] == 4
    assert not {(r["question_id"], r["pipeline"]) for r in plan["rows"]} & asked
    assert not out.exists()


def test_the_gate_fails_on_the_calibrated_lower_bound(
    evouna_labelled: dict[str, object], tmp_path: Path
) -> None:
    project = str(evouna_labelled["project"])
    low = min(e["low"] for e in evouna_labelled["report"]["human_calibrated"]["estimates"].values())  # type: ignore[index]
    passing = run_goldenlens(
        "report", project, "-o", str(tmp_path / "r.json"), "--fail-under", f"calibrated={low - 0.01:.3f}"
    )
    assert passing.returncode == 0, passing.stderr
    failing = run_goldenlens(
        "report", project, "-o", str(tmp_path / "r.json"), "--fail-under", "calibrated=0.99"
    )
    assert failing.returncode == 1
    assert "FAIL GPT-3.5 calibrated (lower end of the 95% interval)" in failing.stderr
    assert (tmp_path / "r.json").exists()  # the report is written before the gate decides


def _calibrated(project: Path, folder: Path) -> dict[str, object]:
    report = folder / "calibrated.json"
    _ok("report", str(project), "-o", str(report))
    block: dict[str, object] = json.loads(report.read_text(encoding="utf-8"))["human_calibrated"]
    return block


def test_planning_again_before_any_label_draws_nothing_new(evouna_scored: Path, tmp_path: Path) -> None:
    """A first-time user planned twice (a CSV, then a workbook) and labelled once: the second
    plan was a second round from the same frame, the same sample, and the report counted the
    labels twice, every interval sqrt(2) too narrow (4 of 5 missed the person's accuracy)."""
    once, twice = tmp_path / "once", tmp_path / "twice"
    once.mkdir()
    twice.mkdir()
    single, again = _copy_project(evouna_scored, once), _copy_project(evouna_scored, twice)
    plan = ("--budget", "200", "--seed", "1")
    _ok("plan-labels", str(single), *plan, "-o", str(once / "plan.csv"))
    _ok("plan-labels", str(again), *plan, "-o", str(twice / "plan.csv"))
    relisted = run_goldenlens("plan-labels", str(again), *plan, "--json", timeout=300)
    assert relisted.returncode == 0, relisted.stderr
    assert (
        "Round 1 was planned earlier and has no label yet: listed again, nothing new drawn" in relisted.stderr
    )
    listed = json.loads(relisted.stdout)
    rows = _plan_rows(twice / "plan.csv")
    assert listed["round"] == 1
    assert [(r["question_id"], r["pipeline"]) for r in listed["rows"]] == [
        (r["question_id"], r["pipeline"]) for r in rows
    ]
    # Other settings while the round waits: refused, and nothing is drawn.
    other = run_goldenlens("plan-labels", str(again), "--budget", "200", "--seed", "2", timeout=300)
    assert other.returncode == 2
    assert "round 1 (200 labels, seed 1, --by response" in other.stderr
    assert "has no label yet: label it first" in other.stderr
    assert "--replace" in other.stderr

    _label_as_the_person(single, _plan_rows(once / "plan.csv"), once / "labels.csv")
    _label_as_the_person(again, rows, twice / "labels.csv")
    expected, found = _calibrated(single, once), _calibrated(again, twice)
    assert found["rounds"] == expected["rounds"] == 1
    assert found["estimates"] == expected["estimates"]
    assert found["pairs"] == expected["pairs"]


def test_a_round_drawn_anew_replaces_the_unlabelled_one(evouna_scored: Path, tmp_path: Path) -> None:
    project = _copy_project(evouna_scored, tmp_path)
    _ok("plan-labels", str(project), "--budget", "100", "--seed", "1", "-o", str(tmp_path / "first.csv"))
    said = _ok(
        "plan-labels",
        str(project),
        "--budget",
        "150",
        "--seed",
        "2",
        "--replace",
        "-o",
        str(tmp_path / "new.csv"),
    )
    assert "Round 1: 150 answers to label" in said
    first, new = _plan_rows(tmp_path / "first.csv"), _plan_rows(tmp_path / "new.csv")
    assert len(new) == 150
    assert {(r["question_id"], r["pipeline"]) for r in first} != {
        (r["question_id"], r["pipeline"]) for r in new
    }
    _label_as_the_person(project, new[:120], tmp_path / "labels.csv")
    # The round has labels now: it is not replaced, and the next plan is round 2.
    refused = run_goldenlens("plan-labels", str(project), "--budget", "50", "--replace", timeout=300)
    assert refused.returncode == 2
    assert "no unlabelled round to replace" in refused.stderr
    nxt = _ok("plan-labels", str(project), "--budget", "50", "--seed", "2", "-o", str(tmp_path / "next.csv"))
    assert "Round 2: 50 answers to label" in nxt
    asked = {(r["question_id"], r["pipeline"]) for r in new[:120]}
    assert not asked & {(r["question_id"], r["pipeline"]) for r in _plan_rows(tmp_path / "next.csv")}


def test_a_round_an_earlier_version_drew_twice_counts_once(evouna_scored: Path, tmp_path: Path) -> None:
    """Projects planned twice before this version hold two rounds with one sample: counted once."""
    once, twice = tmp_path / "once", tmp_path / "twice"
    once.mkdir()
    twice.mkdir()
    single, again = _copy_project(evouna_scored, once), _copy_project(evouna_scored, twice)
    for project, folder in ((single, once), (again, twice)):
        _ok("plan-labels", str(project), "--budget", "200", "--seed", "1", "-o", str(folder / "plan.csv"))
    with ProjectStore.open(again) as store:  # what planning again wrote before: the same draw
        info = store.labels.rounds()[0]
        frame = store.labels.round_frame(info.id)
        store.labels.add_round(
            StoredRound(info.run_id, info.mode, info.seed, info.budget, info.population, info.strata, frame)
        )
        assert len(store.labels.rounds()) == 2
    # Planning again still finds the round waiting: listed again, no third round.
    relisted = _ok(
        "plan-labels", str(again), "--budget", "200", "--seed", "1", "-o", str(twice / "again.csv")
    )
    assert "listed again, nothing new drawn" in relisted
    assert _plan_rows(twice / "again.csv") == _plan_rows(twice / "plan.csv")
    with ProjectStore.open(again) as store:
        assert len(store.labels.rounds()) == 2
    for project, folder in ((single, once), (again, twice)):
        _label_as_the_person(project, _plan_rows(folder / "plan.csv"), folder / "labels.csv")
    expected, found = _calibrated(single, once), _calibrated(again, twice)
    assert found["rounds"] == 1
    assert found["estimates"] == expected["estimates"]
    assert found["pairs"] == expected["pairs"]
    assert any("1 round(s) drew exactly the sample of an earlier round" in n for n in found["notes"])  # type: ignore[attr-defined]


def test_labels_outside_the_plans_are_counted_and_said_to_wait(evouna_scored: Path, tmp_path: Path) -> None:
    """Labels picked by hand are not a random sample: the estimate does not use them until the
    next round is planned (which counts them exactly), and says how many wait."""
    project = _copy_project(evouna_scored, tmp_path)
    _ok("plan-labels", str(project), "--budget", "200", "--seed", "1", "-o", str(tmp_path / "plan.csv"))
    planned = _plan_rows(tmp_path / "plan.csv")
    _label_as_the_person(project, planned, tmp_path / "labels.csv")
    before = _calibrated(project, tmp_path)
    assert not before["notes"]
    asked = {(r["question_id"], r["pipeline"]) for r in planned}
    others = [
        {"question_id": q, "pipeline": p}
        for (q, p) in sorted(_human())
        if (q, p) not in asked and p == "GPT-4"
    ][:60]
    _label_as_the_person(project, others, tmp_path / "picked.csv")
    after = _calibrated(project, tmp_path)
    notes = [n for n in after["notes"] if "were in no round's sample" in n]  # type: ignore[attr-defined]
    assert len(notes) == 1, after["notes"]
    waiting = int(notes[0].split(" ")[0].replace(",", ""))
    assert waiting == int(after["labelled"]) - int(before["labelled"]) >= 60  # type: ignore[call-overload]
    # The next round's frame leaves them out: then they count exactly, and nothing waits.
    _ok("plan-labels", str(project), "--budget", "100", "--seed", "2", "-o", str(tmp_path / "next.csv"))
    # One answer of the new round labelled: that round is not used yet (fewer than two), and its
    # own label is not one "in no round's sample".
    _label_as_the_person(project, _plan_rows(tmp_path / "next.csv")[:1], tmp_path / "first-label.csv")
    started = _calibrated(project, tmp_path)["notes"]
    assert [n for n in started if "no round's sample" in n] == notes  # type: ignore[attr-defined]
    _label_as_the_person(project, _plan_rows(tmp_path / "next.csv"), tmp_path / "next-labels.csv")
    assert not [n for n in _calibrated(project, tmp_path)["notes"] if "no round's sample" in n]  # type: ignore[attr-defined]


def test_the_workbook_lists_every_verdict_of_the_reviewers_view(
    evouna_labelled: dict[str, object], tmp_path: Path
) -> None:
    """The Decision sheet has room for six of the ten pairs' verdicts and says where the rest
    are; the Comparisons sheet lists all ten first, with the JSON report's numbers."""
    book_path = tmp_path / "r.xlsx"
    _ok("report", str(evouna_labelled["project"]), "-o", str(book_path), "-q")
    pairs = evouna_labelled["report"]["human_calibrated"]["pairs"]  # type: ignore[index]
    book = load_workbook(book_path, read_only=True)
    rows = list(book["Comparisons"].iter_rows(values_only=True))
    header, reviewer = rows[0], [r for r in rows[1:] if r[0] == "Judged correct (reviewer's view)"]
    assert [r[0] for r in rows[1 : 1 + len(pairs)]] == ["Judged correct (reviewer's view)"] * len(pairs)
    column = {name: n for n, name in enumerate(header)}
    found = {
        (r[column["Pipeline A"]], r[column["Pipeline B"]]): (
            r[column["Difference (A - B)"]],
            r[column["95% CI low"]],
            r[column["95% CI high"]],
            r[column["McNemar p"]],  # not McNemar's test: empty
            r[column["Verdict"]],
        )
        for r in reviewer
    }
    assert found == {
        (p["a"], p["b"]): (p["difference"], p["low"], p["high"], None, p["verdict"])
        for p in pairs  # type: ignore[union-attr]
    }
    decision = [str(r[0]) for r in book["Decision"].iter_rows(values_only=True) if r and r[0]]
    listed = [line for line in decision if "as reviewers would judge it" in line]
    assert len(listed) == 6
    # Confirmed verdicts first, then those whose interval alone excludes 0.
    kinds = [0 if " beats " in line else 1 if " may be ahead " in line else 2 for line in listed]
    assert kinds == sorted(kinds)
    assert "… and 4 more pair(s) on the Comparisons sheet" in "\n".join(decision)


def test_the_flags_say_how_often_they_held_on_the_labels(
    evouna_labelled: dict[str, object], tmp_path: Path
) -> None:
    """On EVOUNA most "likely hallucination" flags sit on answers the person judged correct: the
    Flags sheet and the HTML report say how often each flag held on the labelled responses, and
    the sheet gives each flagged response's verdict (counts from the JSON report's rows)."""
    rows = evouna_labelled["report"]["rows"]  # type: ignore[index]
    held: dict[str, list[int]] = {}
    claims = {"likely_hallucination": "incorrect", "accidental_fact_match": "incorrect"}
    counted = set()
    for row in rows:  # type: ignore[union-attr]
        label = row["label"]
        if label is None or label["verdict"] not in ("correct", "incorrect"):
            continue
        # A verdict given to an answer several systems gave is one judgement, whoever carries the flag.
        judged = (row["question_id"], label["same_answer_as"] or row["pipeline"])
        for flag in row["flags"]:
            if flag in claims and (flag, judged) not in counted:
                counted.add((flag, judged))
                counts = held.setdefault(flag, [0, 0])
                counts[0] += label["verdict"] == claims[flag]
                counts[1] += 1
    assert held["likely_hallucination"][1] >= 5
    assert held["likely_hallucination"][0] < held["likely_hallucination"][1] / 2  # mostly wrong

    book_path, page = tmp_path / "r.xlsx", tmp_path / "r.html"
    project = str(evouna_labelled["project"])
    _ok("report", project, "-o", str(book_path), "-q")
    _ok("report", project, "-o", str(page), "-q")
    sheet = list(load_workbook(book_path, read_only=True)["Flags"].iter_rows(values_only=True))
    column = {name: n for n, name in enumerate(sheet[0])}
    for flag, (right, labelled) in held.items():
        explained = {r[column["explanation"]] for r in sheet[1:] if r[column["flag_code"]] == flag}
        assert len(explained) == 1
        assert (
            f"This flag against the reviewer's labels: right on {right} of {labelled} labelled"
            in explained.pop()
        )
    verdicts = {
        (r["question_id"], r["pipeline"]): (r["label"] or {}).get("verdict", "")
        for r in rows  # type: ignore[union-attr]
    }
    for r in sheet[1:]:
        if r[column["level"]] == "response":
            expected = verdicts[(r[column["question_id"]], r[column["pipeline"]])]
            assert (r[column["reviewer_verdict"]] or "") == expected
    html = page.read_text(encoding="utf-8")
    right, labelled = held["likely_hallucination"]
    assert f"Likely hallucination flag: right on {right} of {labelled} labelled — demoted" in html

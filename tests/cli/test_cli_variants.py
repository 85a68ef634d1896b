"""``goldenlens variants``: the table, ``--json`` and ``-o FILE.json``, alone and on a project
built from a workbook written by the test (``tests/variant_project.py``); bad input is one
line on stderr with exit code 2. The command runs as a real subprocess, and through
``main()`` where only the output matters."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from tests.variant_project import build_project

from cli_process import run_goldenlens
from goldenlens.cli.main import main


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_goldenlens("variants", *args)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_project(tmp_path_factory.mktemp("variants"))


def test_the_table_lists_each_suggestion_with_its_kind() -> None:
    done = _cli("134.4 billion")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Variants of '134.4 billion': 9"
    row = next(line for line in lines if " 134,400 million " in line)
    assert row.split()[1] == "scale"
    assert "exact+quasi" in row
    assert not [line for line in lines if "134 billion" in line]


def test_json_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants", "10317750796", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fact"] == "10317750796"
    assert [(v["text"], v["kind"], v["changes"]) for v in data["variants"]] == [
        ("10,317,750,796", "grouping", ["factual_knowledge"])
    ]


def test_what_is_left_alone_is_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants", "03/04/2023"]) == 0
    out = capsys.readouterr().out
    assert "Variants of '03/04/2023': 0" in out
    assert "note: '03/04/2023' is day/month in the UK and month/day in the US; left alone" in out


def test_the_preview_table_shows_flips_and_matches_elsewhere(project: Path) -> None:
    done = _cli("--project", str(project), "--question", "q1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Variants for q1 (fact '134.4 billion'): 9")
    row = next(
        line for line in out.splitlines() if line.startswith("#") is False and " 134,400 million " in line
    )
    assert "1 up, 0 down" in row
    assert "  flip       q1 Pipeline1: exact 0 → 1, quasi 0 → 1  Net sales were $[[134,400 million]]." in out
    assert "  elsewhere  q5 Pipeline3: It reported net sales of $[[134,400 million]]." in out


def test_the_preview_as_a_json_file(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "variants.json"
    done = _cli("--project", str(project), "--question", "q2", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["question_id"], data["fact"]) == ("q2", "410 Terry Avenue North")
    preview = next(p for p in data["previews"] if p["variant"]["text"] == "410 Terry Ave. N.")
    assert preview["fact_after"] == "410 Terry Avenue North<OR>410 Terry Ave. N."
    assert (preview["flips_up"], preview["flips_down"], preview["elsewhere_count"]) == (2, 0, 0)
    rows = {r["pipeline"]: r["change"] for r in preview["rows"]}
    assert rows == {"Pipeline1": "exact 0 → 1, quasi 0 → 1", "Pipeline3": "quasi 0 → 1"}


def test_a_fact_given_with_a_question_is_added_to_the_question_fact(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["variants", "12.5 billion", "--project", str(project), "--question", "q4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fact"] == "Amazon<AND>12.5 billion"
    preview = next(p for p in data["previews"] if p["variant"]["text"] == "12,500 million")
    # Alone, the variant drops the "Amazon" part: Pipeline2 (no Amazon) flips too. The
    # preview shows it, which is why the generator proposes the <AND> group for the fact.
    assert {r["pipeline"] for r in preview["rows"] if r["kind"] == "flip"} == {"Pipeline1", "Pipeline2"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["x", "--project", "p.goldenlens"], "give --project and --question together"),
        (["x", "-o", "out.csv"], "out.csv: the variants file must be .json"),
        (["--question", "q1", "--project", "missing.goldenlens"], "missing.goldenlens does not exist"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    done = _cli(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""


def test_an_unknown_question_names_the_project_and_its_questions(project: Path) -> None:
    done = _cli("--project", str(project), "--question", "q9")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "goldenlens: error: variants.goldenlens: there is no golden question 'q9' "
        "(questions: q1, q2, q3, q4, q5)"
    )

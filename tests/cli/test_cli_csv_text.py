"""``python -m goldenlens score`` on CSV text Excel shows differently, and on symbolic links.

Real subprocesses: exit code 2 with one ``goldenlens: error:`` line for what stops an import,
exit 0 with located warning lines for what only needs the analyst's eye.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.badinputs import BadCase, make_bad_inputs, write_csv

from goldenlens.io.importing.sample import sample_dir

RESPONSES = [["question_id", "pipeline", "response"], ["q01", "P1", "Jassy, the CEO"], ["q02", "P1", "No"]]


def _score(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "goldenlens", "score", *args, "-q"],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BadCase]:
    return {case.name: case for case in make_bad_inputs(tmp_path_factory.mktemp("bad"))}


@pytest.mark.parametrize(
    ("name", "line"),
    [
        (
            "nul_byte_late",
            "goldenlens: error: golden.csv, row 3002: golden.csv is not CSV text: it contains binary data "
            "(a NUL byte in row 3002, column C).",
        ),
        (
            "symlink_loop",
            "goldenlens: error: golden.csv is a symbolic link loop (golden.csv → other.csv → golden.csv).",
        ),
        (
            "broken_link",
            "goldenlens: error: golden.csv is a broken link to golden-2023.csv (nothing is there).",
        ),
        (
            "sep_line_rows",
            "goldenlens: error: golden.csv, row 4, column 'id': id 'q01' is used twice (rows 2 and 4)",
        ),
    ],
)
def test_fatal_csv_problems_exit_2_with_one_located_line(
    cases: dict[str, BadCase], tmp_path: Path, name: str, line: str
) -> None:
    responses = write_csv(tmp_path / "responses.csv", RESPONSES)
    proc = _score(str(cases[name].golden_path), str(responses))
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0].startswith(line)


@pytest.mark.parametrize(
    ("name", "line"),
    [
        (
            "mojibake_in_cp1252",
            "goldenlens: golden.csv, row 3, column 'question': warning: 'Is it naÃ¯ve?' looks like UTF-8 "
            "text in a file read as Windows-1252 (the file mixes two encodings); it probably should read "
            "'Is it naïve?'. The text is kept as it is: correct the file and import it again.",
        ),
        (
            "mojibake_in_utf8",
            "goldenlens: golden.csv, row 2, column 'answer': warning: 'Itâ€™s Jassy' looks like mojibake",
        ),
    ],
)
def test_mojibake_is_a_located_warning_and_the_run_goes_on(
    cases: dict[str, BadCase], tmp_path: Path, name: str, line: str
) -> None:
    responses = write_csv(tmp_path / "responses.csv", RESPONSES)
    out = tmp_path / "scores.json"
    proc = _score(str(cases[name].golden_path), str(responses), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert any(shown.startswith(line) for shown in proc.stderr.splitlines()), proc.stderr
    scored = {row["question_id"] for row in json.loads(out.read_text(encoding="utf-8"))["rows"]}
    assert scored == ({"q01", "q02"} if name == "mojibake_in_cp1252" else {"q01"})


def test_a_sep_line_file_scores_like_the_plain_file(tmp_path: Path) -> None:
    with (sample_dir() / "golden.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    golden = tmp_path / "golden.csv"
    with golden.open("w", newline="", encoding="utf-8-sig") as handle:
        handle.write("sep=;\r\n")
        csv.writer(handle, delimiter=";").writerows(rows)
    responses = str(sample_dir() / "responses.csv")
    plain, with_sep = tmp_path / "plain.json", tmp_path / "sep.json"
    assert _score(str(sample_dir() / "golden.csv"), responses, "-o", str(plain)).returncode == 0
    proc = _score(str(golden), responses, "-o", str(with_sep))
    assert proc.returncode == 0, proc.stderr
    assert (
        json.loads(with_sep.read_text(encoding="utf-8"))["rows"]
        == json.loads(plain.read_text(encoding="utf-8"))["rows"]
    )


def test_an_output_path_that_is_a_link_loop_exits_2(tmp_path: Path) -> None:
    loop = tmp_path / "scores.json"
    loop.symlink_to("scores.json")
    proc = _score(str(sample_dir() / "golden.csv"), str(sample_dir() / "responses.csv"), "-o", str(loop))
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        f"goldenlens: error: Cannot write {loop}: it is a symbolic link loop (scores.json → scores.json)."
    ]

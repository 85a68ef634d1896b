"""Every bad input of tests/badinputs.py gives exactly its plain-language problem, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.badinputs import BadCase, make_bad_inputs

from goldenlens.core.problems import InputError, Problem
from goldenlens.io.importing.input_files import load_inputs, preview

CASE_NAMES = (
    "corrupt_xlsx",
    "truncated_xlsx",
    "empty_file",
    "header_only",
    "no_question_column",
    "no_answer_or_fact_column",
    "duplicate_ids",
    "ids_differing_in_case",
    "binary_junk_csv",
    "directory",
    "missing_path",
    "unknown_sheet",
    "wrong_extension",
    "undecodable_bytes",
    "xlsx_named_csv",
    "csv_named_xlsx",
    "ragged_csv",
    "empty_question",
    "unclosed_quote",
    "unknown_question_ids",
    "no_response_columns",
    "pipeline_without_response_column",
    "nothing_matched",
    "broken_json_contexts",
    "duplicate_question_pipeline",
    "responses_header_only",
    "sep_line_rows",
    "nul_byte_late",
    "nul_byte_early",
    "utf16_without_bom",
    "mojibake_in_cp1252",
    "mojibake_in_utf8",
    "invisible_header",
    "zero_width_in_cell",
    "zero_width_id",
    "symlink_loop",
    "broken_link",
)


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BadCase]:
    return {case.name: case for case in make_bad_inputs(tmp_path_factory.mktemp("bad"))}


def test_the_catalogue_is_complete(cases: dict[str, BadCase]) -> None:
    assert tuple(cases) == CASE_NAMES
    assert len(cases) >= 18


def test_both_import_styles_work() -> None:
    from badinputs import make_bad_inputs as plain

    assert plain.__name__ == make_bad_inputs.__name__


def _assert_located(problem: Problem, case: BadCase) -> None:
    text = problem.format()
    assert problem.file == case.file
    assert case.file in text
    for fragment in case.message_fragments:
        assert fragment in problem.message, (case.name, problem.message)
    assert (problem.row, problem.column) == (case.row, case.column), (case.name, text)
    assert problem.severity is case.severity


@pytest.mark.parametrize("name", CASE_NAMES)
def test_bad_input(cases: dict[str, BadCase], name: str) -> None:
    case = cases[name]
    if case.expect_fatal:
        # Any other exception type escapes pytest.raises and fails the test.
        with pytest.raises(InputError) as caught:
            load_inputs(case.golden_path, case.responses_path, selection=case.selection())
        _assert_located(caught.value.problem, case)
        assert str(caught.value) == caught.value.problem.format()
        return
    loaded = load_inputs(case.golden_path, case.responses_path, selection=case.selection())
    matching = [p for p in loaded.problems if all(f in p.message for f in case.message_fragments)]
    assert len(matching) == 1, (name, [p.format() for p in loaded.problems])
    _assert_located(matching[0], case)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_preview_never_raises_anything_but_input_error(cases: dict[str, BadCase], name: str) -> None:
    case = cases[name]
    for path, kind in ((case.golden_path, "golden"), (case.responses_path, "responses")):
        if path is None:
            continue
        sheet = case.golden_sheet if kind == "golden" else case.responses_sheet
        try:
            preview(path, kind=kind, sheet=sheet)
        except InputError as error:
            problem = error.problem
        else:
            continue
        assert problem.file == path.name


def test_a_fatal_problem_keeps_the_problems_found_before_it(cases: dict[str, BadCase]) -> None:
    case = cases["nothing_matched"]
    with pytest.raises(InputError) as caught:
        load_inputs(case.golden_path, case.responses_path)
    assert [p.row for p in caught.value.others] == [2, 3]  # the two unknown ids, as errors
    golden_warning = cases["empty_question"].golden_path  # its golden set has one row problem
    with pytest.raises(InputError) as missing:
        load_inputs(golden_warning, golden_warning.parent / "no such responses.csv")
    assert "was not found" in missing.value.problem.message
    assert [p.message for p in missing.value.others] == ["the question is empty; the row is skipped."]


def test_cases_are_rewritten_cleanly(tmp_path: Path) -> None:
    first = make_bad_inputs(tmp_path)
    again = make_bad_inputs(tmp_path)  # the jobs tests may call it twice on one folder
    assert [c.name for c in first] == [c.name for c in again]


def test_a_pipeline_with_no_response_in_any_row_is_a_warning(tmp_path: Path) -> None:
    """A wide column whose every cell is empty (no pipeline's, or its answers lost on export)
    was scored as a pipeline that answered nothing, every mean 0.000, "beaten" on every metric,
    with no word. Each such pipeline is now a warning naming its column; one empty answer among
    others is a pipeline's answer and says nothing."""
    golden = tmp_path / "golden.csv"
    golden.write_text(
        "id,question,answer,fact\nq1,Who?,Andy Jassy is CEO.,Jassy\nq2,Where?,Seattle.,Seattle\n"
    )
    wide = tmp_path / "wide.csv"
    wide.write_text("id,question,P1,P2,P3\nq1,Who?,Jassy,,\nq2,Where?,Seattle, ,Seattle\n")
    loaded = load_inputs(golden, wide)
    assert loaded.responses is not None
    assert loaded.responses.pipelines == ("P1", "P2", "P3")
    silent = [(p.column, p.message) for p in loaded.problems if "no response in any" in p.message]
    assert silent == [
        (
            "P2",
            "pipeline 'P2' has no response in any of its 2 row(s): every cell is empty. It is scored "
            "as a pipeline that answered nothing (every score 0) and compared with the others; if it "
            "is no pipeline's, leave it out of the file.",
        )
    ]
    long = tmp_path / "long.csv"
    long.write_text("question_id,pipeline,response\nq1,A,\nq2,A,\nq1,B,Jassy\nq2,B,\n")
    loaded = load_inputs(golden, long)
    assert [(p.column, p.message[:40]) for p in loaded.problems if "no response in any" in p.message] == [
        ("response", "pipeline 'A' has no response in any of i")
    ]


def test_pipeline_names_that_differ_only_in_case_or_spaces_are_a_warning(tmp_path: Path) -> None:
    """``GPT4`` and ``gpt4 `` became two pipelines of one answer each, and a verdict "GPT4 beats
    Claude" over one question; only two "no response for 1 of 2" lines hinted at it. The names
    stay as written (never merged on a guess), with a warning naming them; an invisible
    character is shown as such."""
    golden = tmp_path / "golden.csv"
    golden.write_text(
        "id,question,answer,fact\nq1,Who?,Andy Jassy is CEO.,Jassy\nq2,Where?,Seattle.,Seattle\n"
    )
    long = tmp_path / "long.csv"
    long.write_text(
        "question_id,pipeline,response\nq1,GPT4,Jassy\nq2,gpt4 ,Seattle\nq1,Claude,Jassy\n"
        "q2,Claude,Seattle\nq1,P\u200b1,x\nq2,P1,y\n",
        encoding="utf-8",
    )
    loaded = load_inputs(golden, long)
    assert loaded.responses is not None
    assert loaded.responses.pipelines == ("GPT4", "gpt4", "Claude", "P\u200b1", "P1")
    said = [(p.column, p.message) for p in loaded.problems if "differ only" in p.message]
    assert said == [
        (
            "pipeline",
            "pipelines 'GPT4', 'gpt4' differ only in case or spaces: they are scored as separate "
            "pipelines. If they are one, write its name the same way in every row.",
        ),
        (
            "pipeline",
            "pipelines 'P<U+200B>1', 'P1' differ only in case or spaces: they are scored as separate "
            "pipelines. If they are one, write its name the same way in every row.",
        ),
    ]
    assert any(
        p.message.startswith("pipeline 'P<U+200B>1' has no response for 1 of 2") for p in loaded.problems
    )

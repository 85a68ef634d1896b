"""read_golden / read_responses / load_inputs / preview on the sample and on files written here."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from tests.badinputs import write_csv, write_xlsx

from goldenlens.core.input_selection import InputSelection
from goldenlens.core.inputs import Loaded
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import (
    ColumnMap,
    ResponseColumns,
    detect_golden_columns,
    detect_response_layout,
)
from goldenlens.io.importing.input_files import load_inputs, preview, read_golden, read_responses
from goldenlens.io.importing.response_join import parse_contexts

PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")
IDS = [f"q{n:02d}" for n in range(1, 11)]


def _rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def _by(problems: tuple[Problem, ...] | list[Problem], severity: Severity) -> list[Problem]:
    return [p for p in problems if p.severity is severity]


def test_sample_long_layout(sample_dir: Path) -> None:
    loaded = load_inputs(sample_dir / "golden.csv", sample_dir / "responses.csv")
    assert [item.id for item in loaded.golden.items] == IDS
    assert loaded.golden.items[9].answer.startswith("There were 10,317,750,796 shares")
    assert loaded.golden.items[0].source_row == 2
    assert loaded.golden.source == "golden.csv"
    assert loaded.golden.sheet is None
    responses = loaded.responses
    assert responses is not None
    assert responses.layout == "long"
    assert responses.pipelines == PIPELINES
    assert len(responses.responses) == 30
    first = responses.responses[2]
    assert (first.question_id, first.pipeline, first.source_row) == ("q01", "Pipeline3", 4)
    assert len(first.contexts) == 2
    assert first.contexts[1].startswith("Amazon.com, Inc. 410 Terry Avenue North")
    assert loaded.problems == ()


def test_sample_wide_layout_gives_the_same_responses(sample_dir: Path) -> None:
    long = load_inputs(sample_dir / "golden.csv", sample_dir / "responses.csv").responses
    wide = load_inputs(sample_dir / "golden.csv", sample_dir / "responses_wide.csv").responses
    assert long is not None
    assert wide is not None
    assert wide.layout == "wide"
    assert wide.pipelines == PIPELINES
    as_text = {(r.question_id, r.pipeline): r.response for r in long.responses}
    assert {(r.question_id, r.pipeline): r.response for r in wide.responses} == as_text
    assert all(r.contexts == () for r in wide.responses)


def _sample_workbook(sample_dir: Path, path: Path, *, responses_first: bool = False) -> Path:
    sheets = {"Golden": _rows(sample_dir / "golden.csv"), "Responses": _rows(sample_dir / "responses.csv")}
    if responses_first:
        sheets = dict(reversed(sheets.items()))
    return write_xlsx(path, sheets)


@pytest.mark.parametrize("responses_first", [False, True])
def test_one_workbook_with_both_sheets(sample_dir: Path, tmp_path: Path, responses_first: bool) -> None:
    path = _sample_workbook(sample_dir, tmp_path / "project.xlsx", responses_first=responses_first)
    loaded = load_inputs(path, path)
    assert loaded.golden.sheet == "Golden"
    assert loaded.responses is not None
    assert loaded.responses.sheet == "Responses"
    assert len(loaded.golden.items) == 10
    assert len(loaded.responses.responses) == 30
    # Reading each kind alone picks the right sheet too.
    assert read_golden(path)[0].sheet == "Golden"
    assert read_responses(path, loaded.golden)[0].sheet == "Responses"


def test_sheets_named_explicitly(sample_dir: Path, tmp_path: Path) -> None:
    rows = _rows(sample_dir / "golden.csv")
    path = write_xlsx(
        tmp_path / "book.xlsx",
        {"Old": rows[:4], "Current": rows, "Answers": _rows(sample_dir / "responses_wide.csv")},
    )
    loaded = load_inputs(
        path, path, selection=InputSelection(golden_sheet="current", responses_sheet="Answers")
    )
    assert loaded.golden.sheet == "Current"
    assert len(loaded.golden.items) == 10
    assert loaded.responses is not None
    assert loaded.responses.layout == "wide"
    assert read_golden(path)[0].sheet == "Old"  # the first golden-looking sheet


def test_combined_sheet_with_golden_and_pipeline_columns(sample_dir: Path, tmp_path: Path) -> None:
    golden = _rows(sample_dir / "golden.csv")
    wide = _rows(sample_dir / "responses_wide.csv")
    combined = [g + w[2:] for g, w in zip(golden, wide, strict=True)]
    for path in (
        write_csv(tmp_path / "all.csv", combined),
        write_xlsx(tmp_path / "all.xlsx", {"All": combined}),
    ):
        loaded = load_inputs(path, path)
        assert loaded.responses is not None
        assert loaded.responses.pipelines == PIPELINES  # answer/fact are not pipelines
        assert len(loaded.responses.responses) == 30
        # The only problem is the note saying which columns became pipelines.
        assert [(p.severity, p.message) for p in loaded.problems] == [
            (
                Severity.INFO,
                "wide layout: 3 pipeline column(s): 'Pipeline1' (E), 'Pipeline2' (F), 'Pipeline3' (G). "
                "Not pipelines (golden-set, contexts or row-number columns): 'answer' (C), 'fact' (D).",
            )
        ]


def test_mapping_overrides_detection_and_fields_of_the_other_file_are_ignored(tmp_path: Path) -> None:
    golden = write_csv(
        tmp_path / "golden.csv",
        [
            ["Ref", "Prompt text", "answer", "Reviewed answer", "Key fact"],
            ["A1", "Who is the CEO?", "old", "Andy Jassy", "Jassy"],
        ],
    )
    responses = write_csv(
        tmp_path / "responses.csv",
        [
            ["Ref", "System", "Generated"],
            ["a1", "RAG", "The CEO is Andy Jassy."],
        ],
    )
    mapping = {
        "id": "Ref",
        "question": "Prompt text",
        "answer": "Reviewed answer",
        "response": "Generated",
    }
    loaded = load_inputs(golden, responses, selection=InputSelection(mapping=mapping))
    [item] = loaded.golden.items
    assert (item.id, item.question, item.answer, item.fact) == (
        "A1",
        "Who is the CEO?",
        "Andy Jassy",
        "Jassy",
    )
    assert loaded.responses is not None
    [response] = loaded.responses.responses
    assert (response.question_id, response.pipeline, response.response) == (
        "A1",
        "RAG",
        "The CEO is Andy Jassy.",
    )
    columns = detect_golden_columns(("Ref", "Prompt text", "answer", "Reviewed answer"), mapping)
    assert columns.mapped == frozenset({"id", "question", "answer"})


def test_a_mapped_column_no_input_has_is_fatal_and_names_the_columns(tmp_path: Path) -> None:
    """``--map fact=Fakt`` used to be ignored: the file's own ``fact`` column was scored instead."""
    golden = write_csv(
        tmp_path / "golden.csv", [["id", "question", "answer", "fact"], ["q1", "Q?", "A.", "A"]]
    )
    responses = write_csv(tmp_path / "responses.csv", [["qid", "pipeline", "response"], ["q1", "P", "A."]])

    def load(mapping: dict[str, str]) -> Loaded:
        return load_inputs(golden, responses, selection=InputSelection(mapping=mapping))

    with pytest.raises(InputError) as raised:
        load({"fact": "Fakt"})
    problem = raised.value.problem
    assert (problem.file, problem.severity) == ("golden.csv", Severity.FATAL)
    assert "'Fakt' (for fact)" in problem.message
    assert "its columns are: id, question, answer, fact." in problem.message
    with pytest.raises(InputError, match=r"'Antwort' \(for response\).*responses.csv has no such column"):
        load({"response": "Antwort"})
    with pytest.raises(InputError, match="fact"):
        read_golden(golden, mapping={"Fact": "Fakt"})  # fields are named in any case

    # The question id belongs to both files: a column in either one of them is enough ...
    assert len(load({"id": "qid"}).golden.items) == 1
    # ... a column in neither is not, and the message lists both files' columns.
    with pytest.raises(InputError) as raised:
        load({"question_id": "Nummer"})
    assert "neither input" in raised.value.problem.message
    assert "responses.csv has: qid, pipeline, response" in raised.value.problem.message

    shown = preview(golden, mapping={"fact": "Fakt"})  # the wizard's page: fatal, so Next waits
    assert shown.problems[-1].severity == Severity.FATAL
    assert "its columns are: id, question, answer, fact" in shown.problems[-1].message
    assert not [p for p in preview(golden, mapping={"fact": "fact"}).problems if p.severity == Severity.FATAL]


def test_unknown_mapping_field_is_fatal(sample_dir: Path) -> None:
    with pytest.raises(InputError, match="unknown field 'golden' in the column mapping") as raised:
        read_golden(sample_dir / "golden.csv", mapping={"golden": "answer"})
    # The list names question_id too: the responses' key, accepted as a field like id.
    assert "fields are: id (or question_id), question, answer, fact, notes, pipeline" in str(raised.value)
    golden, _problems = read_golden(sample_dir / "golden.csv")
    mapped, _problems = read_responses(
        sample_dir / "responses.csv", golden, mapping={"question_id": "question_id"}
    )
    assert len(mapped.responses) == 30


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (
            ("Question ID", "User_Input", "Ground Truth", "KEY FACT", "Curation notes"),
            ColumnMap("Question ID", "User_Input", "Ground Truth", "KEY FACT", "Curation notes"),
        ),
        (("qid", "query", "target_output", "facts"), ColumnMap("qid", "query", "target_output", "facts")),
        (("prompt", "golden_answer"), ColumnMap(None, "prompt", "golden_answer")),
        # Several candidates: the earlier synonym in the list wins, not the earlier column.
        (("input", "expected answer", "Ideal Answer"), ColumnMap(None, "input", "Ideal Answer")),
    ],
)
def test_golden_column_synonyms(header: tuple[str, ...], expected: ColumnMap) -> None:
    assert detect_golden_columns(header) == expected


@pytest.mark.parametrize(
    ("header", "layout", "pipelines", "ignored"),
    [
        (("question_id", "pipeline", "response", "contexts"), "long", (), ()),
        (("id", "System", "model_output", "retrieved_contexts"), "long", (), ()),
        (("id", "question", "GPT-4", "Local RAG"), "wide", ("GPT-4", "Local RAG"), ()),
        (("id", "question", "answer", "fact", "A", "B"), "wide", ("A", "B"), ("answer", "fact")),
        (("id", "answer"), "wide", ("answer",), ()),
        (("id", "notes"), None, (), ("notes",)),
        (("pipeline", "response"), None, (), ()),
    ],
)
def test_response_layouts(
    header: tuple[str, ...], layout: str | None, pipelines: tuple[str, ...], ignored: tuple[str, ...]
) -> None:
    columns = detect_response_layout(header)
    assert isinstance(columns, ResponseColumns)
    assert (columns.layout, columns.pipelines, columns.ignored) == (layout, pipelines, ignored)


def _golden_csv(folder: Path, questions: list[str], *, ids: bool = True) -> Path:
    header = ["id", "question", "answer"] if ids else ["question", "answer"]
    rows = [[f"q{n}", q, f"answer {n}"] if ids else [q, f"answer {n}"] for n, q in enumerate(questions, 1)]
    return write_csv(folder / "golden.csv", [header, *rows])


QUESTIONS = [
    "When did Amazon acquire One Medical?",
    "What were Amazon's total net sales for the second quarter of 2023?",
    "What were Amazon's total net sales for the first quarter of 2023?",
]


def test_join_by_question_text_exact_and_fuzzy(tmp_path: Path) -> None:
    golden = _golden_csv(tmp_path, QUESTIONS)
    responses = write_csv(
        tmp_path / "responses.csv",
        [
            ["question", "pipeline", "response"],
            ["when did AMAZON acquire one medical", "P1", "In February 2023."],  # normalised: exact
            ["When did Amazon aquire One Medical?", "P2", "Feb 2023."],  # typo: fuzzy
            ["When did Amazon aquire One Medical?", "P3", "2023."],  # same text: noted once
            ["What were Amazons total net sales for the secnd quarter of 2023?", "P1", "$134.4 billion"],
            [
                "What were Amazon's total net sales for the quarter of 2023?",
                "P1",
                "?",
            ],  # between two: refused
            ["How tall is Mount Everest?", "P1", "8,849 m"],
        ],
    )
    loaded = load_inputs(golden, responses)
    assert loaded.responses is not None
    joined = [(r.question_id, r.pipeline) for r in loaded.responses.responses]
    assert joined == [("q1", "P1"), ("q1", "P2"), ("q1", "P3"), ("q2", "P1")]
    infos = _by(loaded.problems, Severity.INFO)
    assert [p.row for p in infos] == [3, 5]
    assert infos[0].message.startswith("matched by fuzzy question text (score ")
    assert "to q1" in infos[0].message
    assert infos[0].column == "question"
    errors = _by(loaded.problems, Severity.ERROR)
    assert [p.row for p in errors] == [6, 7]
    assert "about equally close to golden questions q3 and q2" in errors[0].message
    assert "matches no golden question" in errors[1].message


def test_ids_ignore_case_and_spaces(tmp_path: Path) -> None:
    golden = write_csv(tmp_path / "golden.csv", [["id", "question", "answer"], [" q01 ", "Who?", "Me"]])
    responses = write_csv(tmp_path / "responses.csv", [["ID", "pipeline", "response"], ["Q01 ", "P", "You"]])
    loaded = load_inputs(golden, responses)
    assert loaded.golden.items[0].id == "q01"
    assert loaded.responses is not None
    assert loaded.responses.responses[0].question_id == "q01"


def test_numeric_ids_in_workbooks(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "book.xlsx",
        {
            "Golden": [["id", "question", "fact"], [1, "Who?", "me"], [2, "What?", 158.0]],
            "Responses": [["id", "A"], [1.0, "me"], [2, 158]],
        },
    )
    loaded = load_inputs(path, path)
    assert [(i.id, i.fact) for i in loaded.golden.items] == [("1", "me"), ("2", "158")]
    assert loaded.responses is not None
    assert [(r.question_id, r.response) for r in loaded.responses.responses] == [("1", "me"), ("2", "158")]


def test_golden_without_ids_gets_row_ids_and_joins_by_text(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "book.xlsx",
        {
            "Golden": [[], ["question", "answer"], ["Who?", " Me "], [], ["What?", "It"]],
            "Responses": [["question", "P1"], ["what?", "it"], ["who", "me"]],
        },
    )
    loaded = load_inputs(path, path)
    assert [(i.id, i.source_row, i.answer) for i in loaded.golden.items] == [
        ("row-3", 3, " Me "),
        ("row-5", 5, "It"),
    ]
    assert "there is no id column" in _by(loaded.problems, Severity.INFO)[0].message
    assert loaded.responses is not None
    assert [(r.question_id, r.response) for r in loaded.responses.responses] == [
        ("row-5", "it"),
        ("row-3", "me"),
    ]


def test_missing_and_empty_responses(tmp_path: Path) -> None:
    golden = _golden_csv(tmp_path, ["A?", "B?", "C?"])
    responses = write_csv(
        tmp_path / "responses.csv",
        [
            ["id", "question", "P1", "P2"],
            ["q1", "A?", "", "x"],
            ["q2", "Bee?", "y", "y"],
        ],
    )
    loaded = load_inputs(golden, responses)
    assert loaded.responses is not None
    assert ("q1", "P1", "") in [(r.question_id, r.pipeline, r.response) for r in loaded.responses.responses]
    warnings = _by(loaded.problems, Severity.WARNING)
    assert [p.message for p in warnings if p.column in {"P1", "P2"}] == [
        "pipeline 'P1' has no response for 1 of 3 golden questions: q3.",
        "pipeline 'P2' has no response for 1 of 3 golden questions: q3.",
    ]
    [changed] = [p for p in warnings if p.row == 3]
    assert "question id 'q2' is golden question 'B?' but this row asks 'Bee?'" in changed.message


def test_golden_row_problems(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "golden.csv",
        [
            ["id", "question", "answer", "fact", "notes"],
            ["q1", " Who?\n", "", "me", "checked"],
            ["q2", "What?", "It", " ", ""],
            ["", "Why?", "So", "so", ""],
        ],
    )
    golden, problems = read_golden(path)
    assert [(i.id, i.question, i.notes) for i in golden.items] == [
        ("q1", " Who?\n", "checked"),
        ("q2", "What?", ""),
    ]
    assert [(p.severity, p.row, p.column) for p in problems] == [
        (Severity.WARNING, 2, "answer"),
        (Severity.ERROR, 3, "fact"),  # an empty fact: Factual Knowledge is not scored
        (Severity.ERROR, 4, "id"),
    ]


def test_contexts_cells() -> None:
    assert parse_contexts("") == ((), None)
    assert parse_contexts('["a", "b"]') == (("a", "b"), None)
    assert parse_contexts("one passage [with brackets]") == (("one passage [with brackets]",), None)
    assert parse_contexts('[{"text": "a"}, 3]')[0] == ("a", "3")
    assert "not text" in (parse_contexts('[{"text": "a"}]')[1] or "")
    passages, warning = parse_contexts("[Section 2] not JSON")
    assert passages == ("[Section 2] not JSON",)
    assert warning is not None
    assert "not valid JSON" in warning


def test_preview_reports_instead_of_raising(tmp_path: Path, sample_dir: Path) -> None:
    path = write_xlsx(
        tmp_path / "book.xlsx",
        {
            "Notes": [["text"], ["x"]],
            "Data": [["Ref", "Prompt", "Gold"], *[[f"r{n}", f"Q{n}?", "A"] for n in range(30)]],
        },
    )
    shown = preview(path, sheet="Notes")
    assert shown.sheets == ("Notes", "Data")
    assert isinstance(shown.columns, ColumnMap)
    assert shown.columns.question is None
    [fatal] = _by(shown.problems, Severity.FATAL)
    assert "has no question column" in fatal.message
    mapped = preview(path, mapping={"id": "Ref", "answer": "Gold"}, nrows=5)
    assert mapped.sheet == "Data"
    assert mapped.columns == ColumnMap("Ref", "Prompt", "Gold", None, None, frozenset({"id", "answer"}))
    assert len(mapped.rows) == 5
    assert mapped.row_numbers == (2, 3, 4, 5, 6)
    assert mapped.total_rows == 30
    responses = preview(sample_dir / "responses.csv", kind="responses", nrows=2)
    assert isinstance(responses.columns, ResponseColumns)
    assert responses.columns.layout == "long"
    assert responses.problems == ()
    assert responses.sheets == ()
    assert (responses.encoding, responses.delimiter) == ("utf-8", ",")


def test_load_inputs_without_responses(sample_dir: Path) -> None:
    loaded = load_inputs(sample_dir / "golden.csv")
    assert isinstance(loaded, Loaded)
    assert loaded.responses is None


def test_workbook_where_no_sheet_fits_lists_the_sheets(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "book.xlsx", {"A": [["x", "y"], ["1", "2"]], "B": [["z"], ["3"]]})
    with pytest.raises(InputError) as caught:
        read_golden(path)
    assert caught.value.problem.message == (
        "no sheet of book.xlsx has a question column and an answer or fact column; "
        "sheets: 'A' (x, y); 'B' (z)."
    )


def test_a_pipeline_answering_with_counting_numbers_is_still_a_pipeline(tmp_path: Path) -> None:
    """``GPT4`` answered 1, 2 and 3 to three "How many?" questions, and the column was left out
    as a row numbering (only an info line said so): the report showed Claude alone. Only a
    column named as a row number ("No.", "#", "Line") is taken for one; another counting column
    is scored, with a warning naming it."""
    golden = tmp_path / "golden.csv"
    golden.write_text("id,question,answer,fact\nq1,How many A?,1,1\nq2,How many B?,2,2\nq3,How many C?,3,3\n")
    wide = tmp_path / "wide.csv"
    wide.write_text(
        "No.,id,question,GPT4,Claude\n"
        "1,q1,How many A?,1,one\n2,q2,How many B?,2,two\n3,q3,How many C?,3,three\n"
    )
    loaded = load_inputs(golden, wide)
    assert loaded.responses is not None
    assert loaded.responses.pipelines == ("GPT4", "Claude")
    given = {(r.question_id, r.pipeline): r.response for r in loaded.responses.responses}
    assert [given[(f"q{n}", "GPT4")] for n in (1, 2, 3)] == ["1", "2", "3"]
    (layout,) = [p.message for p in loaded.problems if p.message.startswith("wide layout")]
    assert layout.endswith("Not pipelines (golden-set, contexts or row-number columns): 'No.' (A).")
    warned = [(p.severity, p.column, p.message) for p in loaded.problems if "row order" in p.message]
    assert warned == [
        (
            Severity.WARNING,
            "GPT4",
            "pipeline 'GPT4' (D) answers 1, 2, 3, … in row order, as a row numbering would: it is scored "
            "as a pipeline. If it numbers the rows, name it 'No.' or leave it out of the file.",
        )
    ]

"""A long responses table joined column by column (when no row has anything to report) gives
the responses and problems of the row-by-row join, and any row with something to report makes
the row-by-row join run instead."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from goldenlens.core.inputs import GoldenItem, GoldenSet, ResponseSet
from goldenlens.core.problems import InputError, Problem
from goldenlens.io.importing import response_join
from goldenlens.io.importing.columns import detect_response_layout
from goldenlens.io.importing.response_join import join_responses
from goldenlens.io.sheets.raw_table import RawTable

GOLDEN = GoldenSet(
    tuple(GoldenItem(f"Q{n}", f"What is item {n} about?", f"Answer {n}.", f"fact {n}") for n in range(1, 6)),
    source="golden.csv",
)
_IDS = st.sampled_from(["Q1", "Q2", "Q3", "Q4", "Q5", " q2 ", "q3", "Q9", "", "  "])
_PIPELINES = st.sampled_from(["A", "B", " C ", "", "Pipe D"])
_QUESTIONS = st.sampled_from(["", "What is item 1 about?", "What is item 2 about?", "Something else?", " "])
_CONTEXTS = st.sampled_from(["", '["a", "b"]', "plain", "[bad", '[{"text": "x"}]', "[]"])


def _join(table: RawTable) -> tuple[ResponseSet, list[Problem]] | tuple[str, Problem, tuple[Problem, ...]]:
    try:
        return join_responses(table, detect_response_layout(table.header), GOLDEN)
    except InputError as error:
        return ("fatal", error.problem, error.others)


def _row_by_row(monkeypatch: pytest.MonkeyPatch, table: RawTable) -> object:
    with monkeypatch.context() as patched:
        patched.setattr(response_join, "_join_long_at_once", lambda *_args: False)
        return _join(table)


@st.composite
def _tables(draw: st.DrawFn) -> RawTable:
    question, contexts = draw(st.booleans()), draw(st.booleans())
    # Half the tables draw only cells that have nothing to report, so that (without a repeated
    # question and pipeline) the join at once runs; the others draw from every kind of cell.
    clean = draw(st.booleans())
    ids = st.sampled_from(["Q1", "Q2", "Q3", " q2 ", "q3"]) if clean else _IDS
    pipelines = st.sampled_from(["A", "B", " C "]) if clean else _PIPELINES
    contexts_cells = st.sampled_from(["", '["a", "b"]', "plain", "[]"]) if clean else _CONTEXTS
    header = ("question_id", *(("question",) if question else ()), "pipeline", "response")
    header += ("contexts",) if contexts else ()
    if clean:  # no (question, pipeline) twice
        keys = draw(
            st.lists(
                st.tuples(ids, pipelines),
                min_size=1,
                max_size=14,
                unique_by=lambda k: (k[0].strip().casefold(), k[1].strip()),
            )
        )
    else:
        keys = draw(st.lists(st.tuples(ids, pipelines), min_size=1, max_size=14))
    rows = []
    for n, (question_id, pipeline) in enumerate(keys):
        cells = [question_id]
        if question:
            golden_question = f"What is item {question_id.strip()[1:]} about?"
            cells.append(draw(st.sampled_from(["", " ", golden_question]) if clean else _QUESTIONS))
        cells += [pipeline, f"response {n}"]
        if contexts:
            cells.append(draw(contexts_cells))
        rows.append(tuple(cells))
    count = len(rows)
    return RawTable("responses.csv", None, header, tuple(rows), tuple(range(2, count + 2)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_tables())
def test_joining_at_once_equals_joining_row_by_row(monkeypatch: pytest.MonkeyPatch, table: RawTable) -> None:
    at_once = response_join._join_long_at_once(
        response_join._Joiner(table, detect_response_layout(table.header), GOLDEN),
        table.values("question_id"),
        table.values("question") if "question" in table.header else None,
    )
    event(f"joined at once: {at_once}")
    assert _join(table) == _row_by_row(monkeypatch, table)


def _clean_table() -> RawTable:
    header = ("question_id", "question", "pipeline", "response", "contexts")
    rows = tuple(
        (f" q{n} " if pipeline == "B" else f"Q{n}", "" if pipeline == "A" else f"What is item {n} about?",
         pipeline, f"{pipeline} says {n}", '["ctx"]' if n % 2 else "")
        for n in range(1, 6) for pipeline in ("A", "B")
    )  # fmt: skip
    return RawTable("responses.csv", None, header, rows, tuple(range(2, len(rows) + 2)))


def test_a_clean_table_is_joined_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _clean_table()
    calls: list[bool] = []
    original = response_join._join_long_at_once

    def spy(*args: object) -> bool:
        calls.append(original(*args))  # type: ignore[arg-type]
        return calls[-1]

    monkeypatch.setattr(response_join, "_join_long_at_once", spy)
    responses, problems = join_responses(table, detect_response_layout(table.header), GOLDEN)
    assert calls == [True]
    assert problems == []
    read = [(r.question_id, r.pipeline, r.response, r.contexts, r.source_row) for r in responses.responses]
    assert read[:3] == [
        ("Q1", "A", "A says 1", ("ctx",), 2),
        ("Q1", "B", "B says 1", ("ctx",), 3),
        ("Q2", "A", "A says 2", (), 4),
    ]
    assert responses.pipelines == ("A", "B")


@pytest.mark.parametrize(
    ("row", "value"),
    [
        (5, ("Q2", "", "A", "again", "")),
        (4, ("Q9", "", "B", "x", "")),
        (4, ("Q1", "", "A", "again", "")),
        (4, ("Q2", "", " ", "x", "")),
        (4, ("Q2", "", "B", "x", "[bad")),
        (3, ("Q1", "Other question?", "B", "x", "")),
    ],
)
def test_a_row_with_something_to_report_is_joined_row_by_row(
    monkeypatch: pytest.MonkeyPatch, row: int, value: tuple[str, ...]
) -> None:
    """Each of these rows (a repeat, an unknown id, an empty pipeline, a bad contexts cell,
    another question) is reported exactly as the row-by-row join reports it."""
    table = _clean_table()
    rows = list(table.rows)
    rows[row - 2] = value
    table = RawTable(table.file, None, table.header, tuple(rows), table.row_numbers)
    joiner = response_join._Joiner(table, detect_response_layout(table.header), GOLDEN)
    assert not response_join._join_long_at_once(joiner, table.values("question_id"), table.values("question"))
    assert (joiner.responses, joiner.problems, joiner.first_row, joiner.pipelines) == ([], [], {}, {})
    joined = _join(table)
    assert joined == _row_by_row(monkeypatch, table)
    assert any(problem.row == row for problem in joined[1])  # type: ignore[union-attr]

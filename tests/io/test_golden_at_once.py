"""A golden table made into items column by column (when no row has anything to report) gives
the golden set and problems of the row-by-row reading; any row with something to report makes
the row-by-row reading run instead."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from goldenlens.core.problems import InputError
from goldenlens.io.importing import golden_table
from goldenlens.io.importing.columns import detect_golden_columns
from goldenlens.io.importing.golden_table import golden_from_table
from goldenlens.io.sheets.raw_table import RawTable

_IDS = st.sampled_from(["q1", "Q1", " q2 ", "q3", "Q4", "q5", "", " "])
_QUESTIONS = st.sampled_from(["What?", "Why?", " ", ""])
_ANSWERS = st.sampled_from(["An answer.", "", "\t"])
_FACTS = st.sampled_from(["fact", "August 3, 2024<OR>that", "the", "x<AND>", "", "a<AND>net"])


@st.composite
def _tables(draw: st.DrawFn) -> RawTable:
    with_id, with_answer, with_notes = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    header = (*(("id",) if with_id else ()), "question", *(("answer",) if with_answer else ()), "fact")
    header += ("notes",) if with_notes else ()
    clean = draw(st.booleans())  # cells with nothing to report, and distinct ids
    count = draw(st.integers(1, 8))
    if clean:
        distinct = st.sampled_from(["q1", " Q2 ", "q3", "q4", "Q5", "q6", "q7", "q8"])
        ids = draw(st.lists(distinct, min_size=count, max_size=count, unique_by=str.casefold))
    else:
        ids = draw(st.lists(_IDS, min_size=count, max_size=count))
    rows = []
    for n in range(count):
        cells = [ids[n]] if with_id else []
        cells.append("What?" if clean else draw(_QUESTIONS))
        if with_answer:
            cells.append("An answer." if clean else draw(_ANSWERS))
        cells.append(draw(st.sampled_from(["fact", "1%<AND>at"]) if clean else _FACTS))
        if with_notes:
            cells.append(f"note {n}")
        rows.append(tuple(cells))
    return RawTable("golden.csv", None, header, tuple(rows), tuple(range(3, count + 3)))


def _read(table: RawTable) -> object:
    try:
        return golden_from_table(table, detect_golden_columns(table.header))
    except InputError as error:
        return ("fatal", error.problem, error.others)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_tables())
def test_reading_at_once_equals_reading_row_by_row(monkeypatch: pytest.MonkeyPatch, table: RawTable) -> None:
    at_once = golden_table._items_at_once(table, detect_golden_columns(table.header)) is not None
    event(f"read at once: {at_once}")
    fast = _read(table)
    with monkeypatch.context() as patched:
        patched.setattr(golden_table, "_items_at_once", lambda *_args: None)
        assert fast == _read(table)

"""The JSON line of a row nobody reviewed (filled into a template for speed) is exactly the
line the general encoder writes for the same row: same keys, order, spacing, escapes and
float text, for any ids, flags and values — scored, not scored, or the edge floats. A chunk's
lines are joined in C where the extension was built (``goldenlens.io.reports._json_rows``) and in
Python otherwise: both are held to the general encoder."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.reviewer_decisions import QuestionReview
from goldenlens.io.reports import json_report as report_formats
from goldenlens.io.reports.json_report import (
    ROW_SEPARATOR,
    fresh_row_json,
    fresh_rows_text,
    python_rows_text,
    row_fields,
    row_json,
)

#: Both ways of joining a chunk where the C extension was built; Python's alone otherwise.
PATHS = ["c", "python"] if report_formats._json_rows is not None else ["python"]


@contextmanager
def joined_in(path: str) -> Iterator[None]:
    """Join a chunk's rows in C (``"c"``, as installed) or in Python."""
    saved = report_formats._json_rows
    if path == "python":
        report_formats._json_rows = None
    try:
        yield
    finally:
        report_formats._json_rows = saved


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
_SCORED = st.one_of(
    st.floats(min_value=0.0, max_value=1.0),
    st.sampled_from([0.0, 1.0, 1 / 3, 2 / 3, 1e-17, 0.1 + 0.2, 5e-324]),
)
_VALUE = st.one_of(st.none(), _SCORED)


@given(
    _TEXT,
    _TEXT,
    st.one_of(  # half the rows fully scored (the template), half with a value not scored
        st.lists(_SCORED, min_size=len(LEXICAL_SCORE_NAMES), max_size=len(LEXICAL_SCORE_NAMES)),
        st.lists(_VALUE, min_size=len(LEXICAL_SCORE_NAMES), max_size=len(LEXICAL_SCORE_NAMES)),
    ),
    st.lists(st.sampled_from(["refusal", "verbose", "likely_hallucination", 'quote"d\\']), max_size=3),
    _TEXT,
)
def test_a_fresh_row_is_encoded_as_the_general_encoder_does(
    question_id: str, pipeline: str, values: list[float | None], flags: list[str], reason: str
) -> None:
    scores = dict(zip(LEXICAL_SCORE_NAMES, values, strict=True))
    reasons = {name: reason for name, value in scores.items() if value is None}
    expected = row_json(
        row_fields(
            question_id, pipeline, scores, reasons=reasons, flags=flags, review=QuestionReview(), overrides={}
        )
    )
    line = fresh_row_json(question_id, pipeline, values, flags=flags, reasons=reasons)
    assert line == expected
    assert json.loads(line)["question_id"] == question_id  # and it is JSON


_FLAGS = st.lists(st.sampled_from(["refusal", "verbose", "likely_hallucination", 'quote"d\\']), max_size=3)


@pytest.mark.parametrize("path", PATHS)
@given(
    st.lists(
        st.tuples(
            _TEXT,
            st.sampled_from(["P", "Pipeline \u00e9", 'q"uote', "tab\t"]),
            st.lists(
                st.one_of(_VALUE, st.sampled_from([-0.0, 0.0, 1.0, float("nan"), float("inf")])),
                min_size=len(LEXICAL_SCORE_NAMES),
                max_size=len(LEXICAL_SCORE_NAMES),
            ).map(lambda values: tuple(values) if len(values) % 2 else values),  # as scored, or a list
            _FLAGS,
        ),
        max_size=12,
    )
)
def test_a_chunk_of_fresh_rows_is_encoded_row_by_row_as_the_general_encoder_does(
    path: str, rows: list[tuple[str, str, list[float | None], list[str]]]
) -> None:
    """The text of a chunk (float texts looked up, not worked out again) is each row's own
    line, joined, whatever values rows share: a zero and a negative zero, a value not scored
    or not finite (written the general way) included."""
    with joined_in(path):
        text = fresh_rows_text([(q, p, values, flags, {}) for q, p, values, flags in rows])
        expected = [
            row_json(
                row_fields(
                    question_id,
                    pipeline,
                    dict(zip(LEXICAL_SCORE_NAMES, values, strict=True)),
                    reasons={},
                    flags=flags,
                    review=QuestionReview(),
                    overrides={},
                )
            )
            for question_id, pipeline, values, flags in rows
        ]
        assert text == ROW_SEPARATOR.join(expected)
        # A caller that knows no value is -0.0 has the text of 0.0 looked up too: the same text.
        if not any(
            v == 0.0 and math.copysign(1.0, v) < 0
            for *_ids, values, _f in rows
            for v in values
            if v is not None
        ):
            positive = fresh_rows_text([(q, p, v, f, {}) for q, p, v, f in rows], no_negative_zero=True)
            assert positive == text
        # And a -0.0 met after 0.0 (or before it) keeps its own text.
        zeros = [("q", "P", [0.0] * 7, [], {}), ("r", "P", [-0.0] * 7, [], {})]
        assert fresh_rows_text(zeros).count("-0.0") == 7


def test_many_distinct_values_are_joined_in_c_as_in_python() -> None:
    """More distinct values than the C table keeps (4,096), each met twice: those it keeps are
    looked up, the rest written each time, all as ``float.__repr__`` writes them."""
    if report_formats._json_rows is None:
        pytest.skip("the C extension was not built")
    draw = random.Random(8)
    values = [draw.random() * 10.0 ** draw.randint(-30, 0) for _ in range(3000 * 7)]
    rows = [(f"Q{n}", "P", tuple(values[n * 7 : n * 7 + 7]), ["verbose"], {}) for n in range(3000)]
    text = fresh_rows_text(rows + rows)
    assert text == python_rows_text(rows + rows)
    recall = LEXICAL_SCORE_NAMES[4]
    assert json.loads("[" + text + "]")[4000][recall] == rows[1000][2][4]

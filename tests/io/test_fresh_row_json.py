"""The JSON line of a row nobody reviewed (filled into a template for speed) is exactly the
line the general encoder writes for the same row: same keys, order, spacing, escapes and
float text, for any ids, flags and values — scored, not scored, or the edge floats."""

from __future__ import annotations

import json
import math

from hypothesis import given
from hypothesis import strategies as st

from goldenlens.core.lexical import LEXICAL_SCORE_NAMES
from goldenlens.core.review import QuestionReview
from goldenlens.io.report_formats import ROW_SEPARATOR, fresh_row_json, fresh_rows_text, row_fields, row_json

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


@given(
    st.lists(
        st.tuples(
            _TEXT,
            st.lists(
                st.one_of(_VALUE, st.sampled_from([-0.0, 0.0, 1.0, float("nan"), float("inf")])),
                min_size=len(LEXICAL_SCORE_NAMES),
                max_size=len(LEXICAL_SCORE_NAMES),
            ),
        ),
        max_size=12,
    )
)
def test_a_chunk_of_fresh_rows_is_encoded_row_by_row_as_the_general_encoder_does(
    rows: list[tuple[str, list[float | None]]],
) -> None:
    """The text of a chunk (float texts looked up, not worked out again) is each row's own
    line, joined, whatever values rows share: a zero and a negative zero, a value not scored
    or not finite (written the general way) included."""
    text = fresh_rows_text([(question_id, "P", values, [], {}) for question_id, values in rows])
    expected = [
        row_json(
            row_fields(
                question_id,
                "P",
                dict(zip(LEXICAL_SCORE_NAMES, values, strict=True)),
                reasons={},
                flags=[],
                review=QuestionReview(),
                overrides={},
            )
        )
        for question_id, values in rows
    ]
    assert text == ROW_SEPARATOR.join(expected)
    # A caller that knows no value is -0.0 has the text of 0.0 looked up too: the same text.
    if not any(
        v == 0.0 and math.copysign(1.0, v) < 0 for _q, values in rows for v in values if v is not None
    ):
        positive = fresh_rows_text([(q, "P", v, [], {}) for q, v in rows], no_negative_zero=True)
        assert positive == text
    # And a -0.0 met after 0.0 (or before it) keeps its own text in the general cache.
    assert fresh_rows_text([("q", "P", [0.0] * 7, [], {}), ("r", "P", [-0.0] * 7, [], {})]).count("-0.0") == 7

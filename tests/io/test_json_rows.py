"""The JSON line of a row nobody reviewed (filled into a template, its values written by orjson)
is exactly the line Python's ``json`` writes for the same row: same keys, order, spacing,
escapes and float text, for any ids, flags and values — scored, not scored, or any float at
all (orjson writes some floats below 1e-4 otherwise than ``json``, and no NaN or infinity:
those are written by ``json``)."""

from __future__ import annotations

import json
import math
import random
import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.reviewer_decisions import QuestionReview
from goldenlens.io.reports.json_rows import (
    ROW_SEPARATOR,
    SAME_TEXT_FROM,
    fresh_row_json,
    fresh_rows_text,
    json_value_texts,
    row_json,
)
from goldenlens.io.reports.row_fields import row_fields

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
#: Any float: NaN, the infinities, -0.0, subnormals, the largest, and those around 1e-4
#: (where orjson's text starts to differ from ``float.__repr__``) drawn often.
_ANY_FLOAT = st.one_of(
    st.floats(),
    st.floats(min_value=-1e-3, max_value=1e-3),
    st.sampled_from(
        [
            0.0,
            -0.0,
            1.0,
            1 / 3,
            1e-17,
            0.1 + 0.2,
            5e-324,
            -5e-324,
            1e-5,
            1e-7,
            1e16,
            1e22,
            1.7976931348623157e308,
            SAME_TEXT_FROM,
            math.nextafter(SAME_TEXT_FROM, 0.0),
            -math.nextafter(SAME_TEXT_FROM, 0.0),
            float("nan"),
            float("inf"),
            float("-inf"),
        ]
    ),
)
_SCORED = st.one_of(st.floats(min_value=0.0, max_value=1.0), _ANY_FLOAT)
_VALUE = st.one_of(st.none(), _SCORED)
_SEVEN = {"min_size": len(LEXICAL_SCORE_NAMES), "max_size": len(LEXICAL_SCORE_NAMES)}
_FLAGS = st.lists(st.sampled_from(["refusal", "verbose", "likely_hallucination", 'quote"d\\']), max_size=3)


def general_line(
    question_id: str,
    pipeline: str,
    values: list[float | None] | tuple[float | None, ...],
    flags: list[str],
    reasons: dict[str, str],
) -> str:
    """The line as Python's ``json`` writes the row's fields."""
    scores = dict(zip(LEXICAL_SCORE_NAMES, values, strict=True))
    fields = row_fields(
        (question_id, pipeline), scores, reasons=reasons, flags=flags, review=QuestionReview(), overrides={}
    )
    return json.dumps(fields, ensure_ascii=False)


@given(st.lists(st.one_of(_ANY_FLOAT, st.none(), st.integers(-(2**63), 2**64 - 1)), max_size=40))
def test_value_texts_are_what_json_writes_for_any_float(values: list[float | int | None]) -> None:
    assert json_value_texts(values) == [json.dumps(value) for value in values]


def test_value_texts_of_many_random_doubles_are_what_json_writes() -> None:
    """Doubles drawn from random bits (every exponent alike) and ratios of small counts (the
    scores' own values), a chunk at a time as the report writes them."""
    draw = random.Random(20)
    for _ in range(4):
        values = [struct.unpack("<d", draw.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(20_000)]
        values += [draw.random() * 10.0 ** draw.randint(-9, 20) for _ in range(20_000)]
        values += [draw.randint(0, 400) / draw.randint(1, 400) for _ in range(20_000)]
        assert json_value_texts(values) == [json.dumps(value) for value in values]


@given(
    _TEXT,
    _TEXT,
    st.one_of(  # half the rows fully scored (the template), half with a value not scored
        st.lists(_SCORED, **_SEVEN),
        st.lists(_VALUE, **_SEVEN),
    ),
    _FLAGS,
    _TEXT,
)
def test_a_fresh_row_is_encoded_as_json_encodes_its_fields(
    question_id: str, pipeline: str, values: list[float | None], flags: list[str], reason: str
) -> None:
    reasons = {name: reason for name, value in zip(LEXICAL_SCORE_NAMES, values, strict=True) if value is None}
    expected = general_line(question_id, pipeline, values, flags, reasons)
    line = fresh_row_json(question_id, pipeline, values, flags=flags, reasons=reasons)
    assert line == expected
    assert row_json(json.loads(line)) == expected  # and it is JSON (NaN as json reads it)


@given(
    st.lists(
        st.tuples(
            _TEXT,
            st.sampled_from(["P", "Pipeline \u00e9", 'q"uote', "tab\t", "50%s %d"]),
            st.lists(_VALUE, **_SEVEN).map(lambda values: tuple(values) if len(values) % 2 else values),
            _FLAGS,
        ),
        max_size=12,
    )
)
def test_a_chunk_of_fresh_rows_is_each_row_as_json_encodes_it(
    rows: list[tuple[str, str, list[float | None], list[str]]],
) -> None:
    """The text of a chunk (its values written by one orjson call) is each row's own line,
    joined, whatever values the rows hold: a zero and a negative zero, a value not scored or
    not finite, a float orjson writes otherwise than json, values as a tuple or a list."""
    text = fresh_rows_text([(q, p, values, flags, {}) for q, p, values, flags in rows])
    assert text == ROW_SEPARATOR.join(general_line(q, p, values, flags, {}) for q, p, values, flags in rows)


@pytest.mark.parametrize(
    "odd",
    [np.float64(0.5), 2**70, "0.5, 1", [0.25, 0.5], "text"],
    ids=["numpy float", "int of 71 bits", "text with a comma", "list", "text"],
)
def test_values_orjson_does_not_write_as_json_does_are_written_by_json(odd: object) -> None:
    """A float subclass (numpy's), an int of more than 64 bits, a value that is no number: the
    chunk is encoded by json, and still reads as it did."""
    rows = [
        ("q1", "P", [odd, 1.0, 0.0, 0.25, 1e-5, 0.5, 1.0], ["verbose"], {}),
        ("q2", "P", [0.5] * 7, [], {}),
    ]
    text = fresh_rows_text(rows)  # type: ignore[arg-type]
    assert text == ROW_SEPARATOR.join(general_line(q, p, v, f, r) for q, p, v, f, r in rows)  # type: ignore[arg-type]
    assert json.loads("[" + text + "]")[1]["f1_score"] == 0.5


def test_a_row_without_seven_values_is_refused() -> None:
    with pytest.raises(ValueError, match="zip"):
        fresh_rows_text([("q1", "P", [0.5] * 6, [], {})])

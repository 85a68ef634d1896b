"""The JSON report's row lines: one compact line of JSON per (question, pipeline).

:func:`row_json` encodes any row's fields (:mod:`goldenlens.io.reports.row_fields`) with Python's
``json``. A row nobody has reviewed or overridden (every row of a report scored without a
project, most rows of a project's) is filled into a template instead (:func:`fresh_rows_text`):
the literal JSON between its holes is taken from the line ``json`` writes, the ids and flag
lists are encoded by ``json``'s own string encoder, and the seven values of a whole chunk of rows
are written by one call of ``orjson``, which writes a float as ``json`` does
(``float.__repr__``: the shortest text that reads back as the same double) for every finite
value of magnitude 1e-4 or more, and 0.0 and -0.0. The others (orjson writes ``1e-05`` as
``0.00001`` and ``1e-07`` as ``1e-7``, and NaN and the infinities as ``null``) are found in the
text and written by ``json`` (:func:`json_value_texts`). The text is the same, byte for byte
(tests/io/test_json_rows.py holds it to ``json.dumps`` over arbitrary floats and rows).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from json.encoder import encode_basestring
from typing import Any

import orjson

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.reviewer_decisions import QuestionReview
from goldenlens.io.reports.row_fields import row_fields

#: A row as :func:`fresh_rows_text` takes it: question id, pipeline, the seven values in
#: :data:`LEXICAL_SCORE_NAMES` order (``None``: not scored), flag names, and why the values
#: that are ``None`` are not scored.
FreshRow = tuple[str, str, Sequence[float | None], Sequence[str], Mapping[str, str]]

#: Between two lines of a list of the JSON report (``rows``, ``problems``…); a writer may give
#: several rows as one line joined with it.
ROW_SEPARATOR = ",\n    "

#: From this magnitude up, orjson writes every finite float as ``float.__repr__`` does; below it
#: (zeros aside) it may not: ``0.00001`` for ``1e-05``, ``1e-7`` for ``1e-07``.
SAME_TEXT_FROM = 1e-4

_VALUES = len(LEXICAL_SCORE_NAMES)


def dumps(value: Any) -> str:
    """``value`` as compact JSON on one line, as the report writes it (``json``'s separators,
    non-ASCII text as it is)."""
    # No indent: the C encoder, several times faster than the indenting pure-Python one.
    return json.dumps(value, ensure_ascii=False)


def row_json(fields: Mapping[str, Any]) -> str:
    """A row of the JSON report as its one line (compact, C-encoded)."""
    return dumps(fields)


def json_value_texts(values: Sequence[float | None]) -> list[str]:
    """``json.dumps(value)`` of each value (floats, ints, ``None``), written by one call of
    ``orjson``; those where orjson's text can differ from ``json``'s are written by ``json``
    (:func:`_as_json_writes`). Raises ``TypeError`` for a value orjson does not write (a float
    subclass such as numpy's, an int of more than 64 bits) or that is no number."""
    if not values:
        return []
    texts, _has_none = _as_json_writes(orjson.dumps(values)[1:-1], [values], len(values))
    return texts


def _as_json_writes(
    numbers: bytes, value_rows: Sequence[Sequence[float | None]], count: int
) -> tuple[list[str], bool]:
    """The texts of ``numbers`` (orjson's text of the ``count`` values of ``value_rows``, joined
    by commas) made ``json``'s, and whether a value is ``None``. From :data:`SAME_TEXT_FROM` up
    orjson writes a finite float as ``json`` does; the rest are written by ``json``."""
    texts = numbers.decode().split(",")  # a number's or null's text holds no comma
    if len(texts) != count:  # a value that is no number (a text or a list with a comma)
        raise TypeError("the values of a report row are numbers")
    # Every text that may differ holds one of these: a magnitude below 1e-4 is "0.0000…" or has
    # a negative exponent, and a value that is not finite is null (as None is). Most chunks hold
    # none of them, and are not looked at value by value.
    if b"null" not in numbers and b"e-" not in numbers and b"0.0000" not in numbers:
        return texts, False
    has_none = False
    for n, value in enumerate(value for values in value_rows for value in values):
        if value is None:
            has_none = True
        elif type(value) is float and (
            not math.isfinite(value) or (value and -SAME_TEXT_FROM < value < SAME_TEXT_FROM)
        ):
            texts[n] = json.dumps(value)
    return texts, has_none


def fresh_row_json(
    question_id: str,
    pipeline: str,
    values: Sequence[float | None],
    *,
    flags: Sequence[str],
    reasons: Mapping[str, str],
) -> str:
    """:func:`row_json` of :func:`~goldenlens.io.reports.row_fields.row_fields` for a row nobody
    has reviewed or overridden (:func:`fresh_rows_text` of the one row). ``values`` are the seven
    scores in :data:`LEXICAL_SCORE_NAMES` order; ``reasons`` say why those that are ``None`` are
    not scored."""
    return fresh_rows_text([(question_id, pipeline, values, flags, reasons)])


def fresh_rows_text(rows: Iterable[FreshRow]) -> str:
    """:func:`row_json` of each ``(question_id, pipeline, values, flags, reasons)`` row nobody has
    reviewed or overridden, joined with :data:`ROW_SEPARATOR`: the text of a chunk of rows as the
    report writes it. The rows are filled into a template, the values of the whole chunk written
    by one call of ``orjson`` (:func:`_as_json_writes`): the same text as encoding each row's
    fields, several times faster. A row with a value not scored (its status and reasons differ)
    is encoded the general way, as is every row of a chunk holding a value orjson does not write."""
    rows = rows if isinstance(rows, list) else list(rows)
    found = _value_texts([row[2] for row in rows])
    if found is None:  # not seven values, or a value orjson does not write: each row in full
        return ROW_SEPARATOR.join(map(_general_row_json, rows))
    texts, has_none = found
    if not has_none:
        return _filled(rows, texts)
    return ROW_SEPARATOR.join(
        _general_row_json(row) if None in row[2] else _filled([row], texts[n * _VALUES : (n + 1) * _VALUES])
        for n, row in enumerate(rows)
    )


def _value_texts(value_rows: Sequence[Sequence[float | None]]) -> tuple[list[str], bool] | None:
    """The texts of every row's values as ``json`` writes them (:func:`_as_json_writes`) and
    whether one is ``None``; ``None`` when a row has not seven values or orjson does not write
    one of them as ``json`` would."""
    if not value_rows:
        return [], False
    if any(len(values) != _VALUES for values in value_rows):
        return None
    try:
        numbers = orjson.dumps(value_rows)[2:-2].replace(b"],[", b",")
        return _as_json_writes(numbers, value_rows, _VALUES * len(value_rows))
    except TypeError:  # orjson.JSONEncodeError: a float subclass, an int of more than 64 bits
        return None


def _filled(rows: Sequence[FreshRow], texts: Sequence[str]) -> str:
    """The rows' lines, their ``texts`` (seven a row) and ids and flags filled into the template,
    joined: the pieces of every line placed in one list by slices (no Python step per row), then
    joined once."""
    count = len(rows)
    pieces = _fresh_row_pieces()
    width = 2 * (_VALUES + 3) + 1  # 11 pieces, 10 holes
    out: list[str] = [""] * (width * count)
    for k, piece in enumerate(pieces):
        out[2 * k :: width] = [piece] * count
    out[1::width] = [encode_basestring(row[0]) for row in rows]
    out[3::width] = [encode_basestring(row[1]) for row in rows]
    for k in range(_VALUES):
        out[5 + 2 * k :: width] = texts[k::_VALUES]
    out[width - 2 :: width] = [_flags_json(tuple(row[3])) for row in rows]
    out[width - 1 :: width] = [pieces[-1] + ROW_SEPARATOR] * count
    return "".join(out)[: -len(ROW_SEPARATOR)] if count else ""


def _general_row_json(row: FreshRow) -> str:
    question_id, pipeline, values, flags, reasons = row
    scores = dict(zip(LEXICAL_SCORE_NAMES, values, strict=True))
    fields = row_fields(
        (question_id, pipeline), scores, reasons=reasons, flags=flags, review=QuestionReview(), overrides={}
    )
    return row_json(fields)


@cache
def _flags_json(flags: tuple[str, ...]) -> str:
    """A row's flag list as JSON (few distinct lists occur: each is encoded once)."""
    return "[" + ", ".join([encode_basestring(flag) for flag in flags]) + "]"


@cache
def _fresh_row_pieces() -> tuple[str, ...]:
    """The literal text between the holes of a fresh row's JSON line, taken from the line
    :func:`row_fields` gives a row of marker values, so the template cannot drift from it.
    Holes in order: question id, pipeline, the seven values, the flags."""
    markers = [0.015625 * (n + 1) for n in range(_VALUES)]  # exact binary fractions
    text = row_json(
        row_fields(
            ("\x00q", "\x00p"),
            dict(zip(LEXICAL_SCORE_NAMES, markers, strict=True)),
            reasons={},
            flags=["\x00f"],
            review=QuestionReview(),
            overrides={},
        )
    )
    holes = [dumps("\x00q"), dumps("\x00p"), *(float.__repr__(m) for m in markers), dumps(["\x00f"])]
    pieces: list[str] = []
    for hole in holes:
        before, found, text = text.partition(hole)
        if not found or hole in text:  # each hole once, in this order
            raise AssertionError(f"the report row layout changed: {hole!r} is not where it was")
        pieces.append(before)
    return (*pieces, text)

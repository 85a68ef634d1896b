"""The CSV reader splits lines exactly as ``io.StringIO(text, newline="")`` does (what the csv
module documents), without StringIO's copy of the whole text."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from goldenlens.io.sheets import csv_decoder as csv_sniff
from goldenlens.io.sheets.csv_decoder import _lines, parse_records

#: Every line break Python knows, quotes and separators: only \r\n, \r and \n may split.
_PIECES = st.sampled_from(
    [
        "a",
        "b",
        ",",
        ";",
        '"',
        "\r",
        "\n",
        "\r\n",
        "\u2028",
        "\u2029",
        "\x0b",
        "\x0c",
        "\x1c",
        "\x1d",
        "\x85",
        "\x1e",
        " ",
    ]
)


@given(st.lists(_PIECES, max_size=40).map("".join))
def test_lines_are_those_of_stringio_with_newline_empty(text: str) -> None:
    assert list(_lines(text)) == list(io.StringIO(text, newline=""))


def test_a_cell_holding_a_unicode_line_separator_stays_one_line() -> None:
    assert list(_lines('a,"x\u2028y"\r\nb,z\rc')) == ['a,"x\u2028y"\r\n', "b,z\r", "c"]


def test_other_breaks_stay_inside_their_lines_even_at_the_end() -> None:
    cases = {
        "a,b\nc\x85": ["a,b\n", "c\x85"],
        "a\u2029": ["a\u2029"],
        "x\r\ny\x0c": ["x\r\n", "y\x0c"],
        "\x1e": ["\x1e"],
        "a\x0bb\nc": ["a\x0bb\n", "c"],
    }
    for text, lines in cases.items():
        assert list(_lines(text)) == list(io.StringIO(text, newline="")) == lines


def test_the_records_say_whether_the_text_is_ascii() -> None:
    """An ASCII file skips the mojibake and invisible-character scan (neither is ASCII)."""
    assert parse_records(b"id,q\r\n1,x\r\n", "t.csv").ascii
    assert not parse_records("id,q\n1,caf\u00e9\n".encode(), "t.csv").ascii
    assert not parse_records(b"id,q\n1,caf\xe9\n", "t.csv").ascii  # Windows-1252
    assert not parse_records("id,q\n1,x\u200b\n".encode(), "t.csv").ascii


@given(st.lists(_PIECES, max_size=60).map("".join), st.integers(1, 8))
def test_a_long_text_split_in_pieces_gives_the_same_lines(text: str, chunk: int) -> None:
    """Large texts are split a piece at a time (here pieces of a few characters)."""
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(csv_sniff, "_CHUNK", chunk)
        assert list(_lines(text)) == list(io.StringIO(text, newline=""))

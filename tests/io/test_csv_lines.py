"""The CSV reader splits lines exactly as ``io.StringIO(text, newline="")`` does (what the csv
module documents), without StringIO's copy of the whole text."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from goldenlens.io.csv_sniff import _lines

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

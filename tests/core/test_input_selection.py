"""The input selection is one frozen value: its mapping is a copy no caller can change, and the
responses' header row follows the golden set's unless it is given."""

from __future__ import annotations

import dataclasses

import pytest

from goldenlens.core.input_selection import InputSelection


def test_the_mapping_is_a_frozen_copy() -> None:
    mapping = {"fact": "Key fact"}
    selection = InputSelection(mapping=mapping)
    mapping["answer"] = "Ideal"
    assert dict(selection.mapping) == {"fact": "Key fact"}
    with pytest.raises(TypeError):
        selection.mapping["answer"] = "Ideal"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        selection.header_row = 3  # type: ignore[misc]
    assert selection == InputSelection(mapping={"fact": "Key fact"})


@pytest.mark.parametrize(
    ("header_row", "responses_header_row", "expected"),
    [(None, None, None), (3, None, 3), (3, 1, 1), (None, 2, 2)],
)
def test_the_responses_header_row_defaults_to_the_golden_one(
    header_row: int | None, responses_header_row: int | None, expected: int | None
) -> None:
    selection = InputSelection(header_row=header_row, responses_header_row=responses_header_row)
    assert selection.responses_header == expected

"""Records made column by column (:func:`bulk_records`) equal those their constructor makes."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from goldenlens.core.bulk_records import bulk_records
from goldenlens.core.inputs import GoldenItem, PipelineResponse

_text = st.text(max_size=8)


@given(
    st.lists(
        st.tuples(_text, _text, _text, st.lists(_text, max_size=3).map(tuple), st.integers(0, 10**6)),
        max_size=30,
    )
)
def test_responses_equal_the_constructed_ones(rows: list[tuple[str, str, str, tuple[str, ...], int]]) -> None:
    columns = [list(column) for column in zip(*rows, strict=True)] if rows else [[]] * 5
    made = bulk_records(PipelineResponse, *columns)
    expected = [PipelineResponse(*row) for row in rows]
    assert made == expected
    assert [hash(record) for record in made] == [hash(record) for record in expected]
    assert all(type(record) is PipelineResponse for record in made)


@given(st.lists(st.tuples(_text, _text, _text, _text, _text, st.integers(0, 10**6)), min_size=1, max_size=30))
def test_golden_items_equal_the_constructed_ones(rows: list[tuple[str, str, str, str, str, int]]) -> None:
    # The analyst's other columns: none on most rows, a category on some.
    extras = [((("Category", row[0]),) if i % 2 else ()) for i, row in enumerate(rows)]
    rows_with_extra = [(*row, extra) for row, extra in zip(rows, extras, strict=True)]
    columns = [list(column) for column in zip(*rows_with_extra, strict=True)]
    assert bulk_records(GoldenItem, *columns) == [GoldenItem(*row) for row in rows_with_extra]


def test_records_stay_frozen() -> None:
    (record,) = bulk_records(PipelineResponse, ["q1"], ["A"], ["text"], [()], [2])
    with pytest.raises(AttributeError):
        record.response = "other"  # type: ignore[misc]


def test_a_column_per_field_of_one_length_is_required() -> None:
    with pytest.raises(TypeError, match="5 fields; 4 columns"):
        bulk_records(PipelineResponse, ["q1"], ["A"], ["text"], [()])
    with pytest.raises(ValueError, match="not all as long"):
        bulk_records(PipelineResponse, ["q1", "q2"], ["A"], ["text"], [()], [2])


@dataclass(frozen=True)
class _NoSlots:
    value: int


@dataclass(frozen=True, slots=True)
class _Checked:
    value: int

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError("negative")


@dataclass(frozen=True, slots=True)
class _Derived:
    value: int
    double: int = field(init=False, default=0)


@pytest.mark.parametrize("cls", [_NoSlots, _Checked, _Derived])
def test_classes_whose_init_does_more_are_refused(cls: type) -> None:
    with pytest.raises(TypeError):
        bulk_records(cls, [1])

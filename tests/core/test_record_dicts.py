"""record_dict: a record's fields as a plain dict, in declaration order, values not copied."""

from __future__ import annotations

from dataclasses import dataclass, field

from goldenlens.core.record_dicts import record_dict


@dataclass(frozen=True)
class _Inner:
    x: int


@dataclass(frozen=True)
class _Record:
    run_id: int
    kind: str
    inner: _Inner
    tags: list[str] = field(default_factory=list)


def test_fields_in_order_renamed_left_out_replaced_in_place_and_added_at_the_end() -> None:
    record = _Record(7, "lexical", _Inner(1), ["a"])
    data = record_dict(record, rename={"run_id": "run"}, leave_out=("tags",), kind="LEXICAL", extra=3)
    assert list(data.items()) == [("run", 7), ("kind", "LEXICAL"), ("inner", _Inner(1)), ("extra", 3)]
    # Taken as they are: the nested record stays a record, the list is the record's own.
    assert record_dict(record)["inner"] is record.inner
    assert record_dict(record)["tags"] is record.tags

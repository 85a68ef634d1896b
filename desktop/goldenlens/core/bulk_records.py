"""Many instances of a frozen, slotted dataclass at once, built column by column in C.

Reading 60,000 responses made 60,000 :class:`~goldenlens.core.inputs.PipelineResponse`
records through the dataclass ``__init__``, whose frozen fields are each set by a Python-level
``object.__setattr__`` call: 90 ms, more than a third of parsing the whole file. The same
instances come from ``object.__new__`` and each slot's own descriptor, mapped over a whole
column, in 40. Only for dataclasses whose ``__init__`` does nothing else (no
``__post_init__``, no ``InitVar``, every field an argument): anything else is refused, and a
test checks the records equal those the constructor makes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import fields, is_dataclass
from itertools import repeat
from typing import Any, TypeVar

T = TypeVar("T")


def bulk_records(cls: type[T], *columns: Sequence[Any]) -> list[T]:
    """``[cls(*row) for row in zip(*columns)]``: one instance per row, every field from its
    column (all columns as long as each other, one per field, in field order)."""
    names = _slot_fields(cls)
    if len(columns) != len(names):
        raise TypeError(f"{cls.__name__} has {len(names)} fields; {len(columns)} columns were given")
    count = len(columns[0]) if columns else 0
    if any(len(column) != count for column in columns):
        raise ValueError("the columns are not all as long")
    records: list[T] = list(map(object.__new__, repeat(cls, count)))
    for name, column in zip(names, columns, strict=True):
        deque(map(getattr(cls, name).__set__, records, column), maxlen=0)  # runs the map in C
    return records


def _slot_fields(cls: type[Any]) -> tuple[str, ...]:
    """The field names of ``cls``, which its ``__init__`` only assigns to its slots."""
    if not is_dataclass(cls) or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass without __post_init__")
    found = fields(cls)
    slots = set(cls.__dict__["__slots__"])
    if any(not field.init for field in found) or slots != {field.name for field in found}:
        raise TypeError(f"{cls.__name__} has fields its __init__ does not take, or other slots")
    return tuple(field.name for field in found)

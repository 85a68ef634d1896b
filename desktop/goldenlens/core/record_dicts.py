"""A record (a dataclass instance) as a plain dict, for JSON, a table row or a settings file.

Unlike :func:`dataclasses.asdict` the values are taken as they are: nothing is copied and no
nested record is turned into a dict, so a caller says how each value it needs changed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import fields
from typing import Any


def record_dict(
    record: Any,
    *,
    leave_out: Collection[str] = (),
    rename: Mapping[str, str] | None = None,
    **values: Any,
) -> dict[str, Any]:
    """``{field: value}`` of ``record`` in the order its fields are declared, without those in
    ``leave_out`` and under the keys ``rename`` gives; then ``values``: a key naming a field
    replaces that field's value in its place, any other key is added at the end."""
    names = rename or {}
    data = {
        names.get(f.name, f.name): getattr(record, f.name) for f in fields(record) if f.name not in leave_out
    }
    data.update(values)
    return data

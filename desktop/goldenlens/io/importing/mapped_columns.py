"""Mapped columns the inputs lack: a column the analyst's mapping (``--map FIELD=COLUMN`` or the
import wizard's choice) names must be in the input its field belongs to, or the import stops
with a message naming the file and the columns it has. Silently ignoring it would score with a
column detection chose instead of the one the analyst meant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import is_shared_field, unmatched_mapping
from goldenlens.io.sheets.raw_table import RawTable


def unmatched_mapping_problem(table: RawTable, unmatched: Sequence[tuple[str, str]]) -> Problem:
    """The fatal problem of mapped columns ``table`` does not have, naming the columns it has."""
    named = ", ".join(f"'{column}' (for {field})" for field, column in unmatched)
    return table.problem(
        f"the column mapping names {named}, but {table.where()} has no such column; "
        f"its columns are: {', '.join(table.header) or '(none)'}.",
        Severity.FATAL,
    )


def check_mapping(
    table: RawTable, mapping: Mapping[str, str] | None, kind: Literal["golden", "responses"], *, alone: bool
) -> None:
    """Raise when ``table`` lacks a column ``mapping`` names for a ``kind`` field; the question
    and its id only when ``alone`` (no other input may hold them)."""
    unmatched = [
        (field, column)
        for field, column in unmatched_mapping(table.header, mapping, kind)
        if alone or not is_shared_field(field)
    ]
    if unmatched:
        raise InputError(unmatched_mapping_problem(table, unmatched), table.problems)


def check_shared_mapping(golden: RawTable, responses: RawTable, mapping: Mapping[str, str] | None) -> None:
    """Raise when a column mapped to the question or its id is in neither input."""
    in_golden = set(unmatched_mapping(golden.header, mapping, "golden"))
    unmatched = [
        pair
        for pair in unmatched_mapping(responses.header, mapping, "responses")
        if pair in in_golden and is_shared_field(pair[0])
    ]
    if unmatched:
        named = ", ".join(f"'{column}' (for {field})" for field, column in unmatched)
        message = (
            f"the column mapping names {named}, but neither input has such a column; "
            f"{golden.where()} has: {', '.join(golden.header)}; "
            f"{responses.where()} has: {', '.join(responses.header)}."
        )
        raise InputError(golden.problem(message, Severity.FATAL))

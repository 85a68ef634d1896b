"""Which columns of a responses table are pipelines, and what is said about them: the layout
found (:func:`detect_responses`), a wide table's row numbering left out by its name ("No.",
"#", "Line" over 1, 2, 3, …), a pipeline answering 1, 2, 3, … in row order kept and warned of,
and the note naming the pipeline columns and those left out (:func:`wide_layout_notes`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Final

from goldenlens.core.problems import Problem, Severity
from goldenlens.io.importing.columns import (
    ROW_NUMBER_NAMES,
    MappingError,
    ResponseColumns,
    column_key,
    column_letter,
    detect_response_layout,
)
from goldenlens.io.sheets.raw_table import RawTable, fatal

#: Names of a column that numbers the rows of a wide responses file (keys, see ``column_key``).
NUMBERING_NAMES: Final = ROW_NUMBER_NAMES | {
    column_key(name) for name in ("line", "line no", "line number", "item", "item no", "seq", "sequence")
}


def detect_responses(table: RawTable, mapping: Mapping[str, str] | None) -> ResponseColumns:
    """The responses layout of ``table`` (a mapping that names no column of it is fatal)."""
    try:
        columns = detect_response_layout(table.header, mapping)
    except MappingError as error:
        raise fatal(table.file, str(error), sheet=table.sheet) from None
    if columns.layout != "wide":
        return columns
    # A column named as a row number holding consecutive whole numbers numbers the rows: it is
    # no pipeline. Under any other name such a column is a pipeline's, said in a warning
    # ("GPT4" answering 1, 2, 3 to "How many?" had been left out, on a guess).
    counting = [name for name in columns.pipelines if _is_row_numbering(table.values(name))]
    numbering = [name for name in counting if column_key(name) in NUMBERING_NAMES]
    if len(numbering) == len(columns.pipelines):
        return columns
    return replace(
        columns,
        pipelines=tuple(name for name in columns.pipelines if name not in numbering),
        ignored=(*columns.ignored, *numbering),
        counting=tuple(name for name in counting if name not in numbering),
    )


def _is_row_numbering(values: Sequence[str]) -> bool:
    cells = [value.strip() for value in values]
    if len(cells) < 2 or not all(cell.isdigit() for cell in cells):
        return False
    numbers = [int(cell) for cell in cells]
    return all(b - a == 1 for a, b in pairwise(numbers))


def wide_layout_notes(table: RawTable, columns: ResponseColumns) -> list[Problem]:
    """An INFO problem saying which columns became pipelines and which were left out, and why;
    a warning per pipeline answering 1, 2, 3, … in row order (it may number the rows)."""
    letters = {name: column_letter(i) for i, name in enumerate(table.header)}
    pipelines = ", ".join(f"'{name}' ({letters.get(name, '?')})" for name in columns.pipelines)
    message = f"wide layout: {len(columns.pipelines)} pipeline column(s): {pipelines}."
    if columns.ignored:
        ignored = ", ".join(f"'{name}' ({letters.get(name, '?')})" for name in columns.ignored)
        message += f" Not pipelines (golden-set, contexts or row-number columns): {ignored}."
    counting = [
        table.problem(
            f"pipeline '{name}' ({letters.get(name, '?')}) answers 1, 2, 3, … in row order, as a row "
            "numbering would: it is scored as a pipeline. If it numbers the rows, name it 'No.' or "
            "leave it out of the file.",
            Severity.WARNING,
            column=name,
        )
        for name in columns.counting
    ]
    return [table.problem(message, Severity.INFO), *counting]

"""Responses read from the golden set's own sheet (one workbook given for both, no responses
sheet named): what may be scored as a pipeline there, and what to say when other sheets were
passed over."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import detect_golden_columns
from goldenlens.io.sheets.raw_table import RawTable
from goldenlens.io.sheets.spreadsheet_reader import TableFile


def refuse_golden_columns_as_pipelines(
    table: RawTable, mapping: Mapping[str, str] | None, pipelines: Sequence[str]
) -> None:
    """Responses read from the golden set's own sheet may be its other columns, never its answer,
    fact or notes: ``score golden.csv golden.csv`` would score the golden answer against itself
    as a pipeline named 'answer' (1.000 everywhere)."""
    columns = detect_golden_columns(table.header, mapping)
    own = [name for name in (columns.answer, columns.fact, columns.notes) if name and name in pipelines]
    if own:
        named = ", ".join(f"'{name}'" for name in own)
        raise InputError(
            table.problem(
                f"the responses would be {named} of the golden set's own {table.where()}, which hold "
                "the golden set, not a pipeline's responses: give the responses file (or name its "
                "sheet with --responses-sheet).",
                Severity.FATAL,
            )
        )


def other_sheets_passed_over(source: TableFile, golden: RawTable, pipelines: Sequence[str]) -> list[Problem]:
    """A warning when the responses were taken from the golden sheet's other columns while the
    workbook has other sheets with content: one of those was likely meant and did not map."""
    others = [
        name
        for name in source.visible_sheets
        if name != golden.sheet and source.read(name, require_rows=False).header
    ]
    if not others:
        return []
    named = ", ".join(f"'{name}'" for name in others)
    columns = ", ".join(f"'{name}'" for name in pipelines)
    return [
        golden.problem(
            f"the responses were taken from this sheet's other column(s) {columns}, scored as pipelines: "
            f"sheet(s) {named} have no question id, pipeline and response columns to map. If the "
            "responses are there, name their columns (or the sheet with --responses-sheet).",
            Severity.WARNING,
        )
    ]

"""Read a golden set and pipeline responses from spreadsheets or CSV files.

The public entry points: :func:`read_golden`, :func:`read_responses`, :func:`load_inputs`
(both at once, possibly from two sheets of one workbook) and :func:`preview` (what the import
wizard shows before anything is imported).

Sheet choice when none is given: the golden set is the first sheet that looks like one
(question and answer/fact columns, no pipeline column), else the first with a question column;
responses are the first sheet that maps as responses and is not a golden set, else a golden
sheet that also carries pipeline columns (one combined sheet). Every problem is located by
file, sheet, Excel row and column name; fatal ones raise
:class:`~goldenlens.core.problems.InputError` and nothing is returned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from goldenlens.core.input_selection import InputSelection
from goldenlens.core.inputs import GoldenItem, GoldenSet, Loaded, ResponseSet
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import (
    RESPONSE_SYNONYMS,
    ColumnMap,
    MappingError,
    ResponseColumns,
    detect_golden_columns,
    row_number_id,
    unmatched_mapping,
)
from goldenlens.io.importing.golden_sheet_responses import (
    other_sheets_passed_over,
    refuse_golden_columns_as_pipelines,
)
from goldenlens.io.importing.golden_table import golden_column_problem, golden_from_table
from goldenlens.io.importing.mapped_columns import (
    check_mapping,
    check_shared_mapping,
    unmatched_mapping_problem,
)
from goldenlens.io.importing.response_join import join_responses
from goldenlens.io.importing.wide_columns import detect_responses, wide_layout_notes
from goldenlens.io.sheets.raw_table import RawTable, fatal
from goldenlens.io.sheets.spreadsheet_reader import TableFile

Kind = Literal["golden", "responses"]


@dataclass(frozen=True)
class Preview:
    """What the import wizard shows: the chosen table's first rows and the detected columns.

    ``problems`` holds the table's problems and, as FATAL entries, what would stop the import
    with the current mapping (no question column, no data rows, ...), so the wizard can ask
    for a mapping instead of failing. ``total_rows`` counts all data rows; ``encoding`` and
    ``delimiter`` say how a CSV file was read (``None`` for workbooks).
    """

    file: str
    kind: Kind
    sheets: tuple[str, ...]
    sheet: str | None
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    row_numbers: tuple[int, ...]
    columns: ColumnMap | ResponseColumns
    problems: tuple[Problem, ...]
    total_rows: int = 0
    encoding: str | None = None
    delimiter: str | None = None
    header_row: int = 1
    hidden_sheets: tuple[str, ...] = ()


def read_golden(
    path: Path,
    *,
    sheet: str | None = None,
    mapping: Mapping[str, str] | None = None,
    header_row: int | None = None,
) -> tuple[GoldenSet, list[Problem]]:
    """Read a golden set; returns it with every non-fatal problem (table problems included).

    Raises :class:`InputError` when the file cannot be read, has no question column, no
    answer or fact column, no data rows, repeats an id, or lacks a column ``mapping`` names.
    ``header_row`` (1-based) fixes the header row instead of detecting it.
    """
    with TableFile(path, mapping=mapping, header_row=header_row) as source:
        golden, problems, _ = _golden_from(source, sheet, mapping, alone=True)
        return golden, problems


def read_responses(
    path: Path,
    golden: GoldenSet,
    *,
    sheet: str | None = None,
    mapping: Mapping[str, str] | None = None,
    header_row: int | None = None,
) -> tuple[ResponseSet, list[Problem]]:
    """Read pipeline responses (long or wide layout) and join them to ``golden``.

    Rows that cannot be joined are dropped with an ERROR problem; raises :class:`InputError`
    when the file cannot be read, has no usable layout, lacks a column ``mapping`` names, or no
    row joins at all.
    """
    with TableFile(path, mapping=mapping, header_row=header_row) as source:
        responses, problems, _ = _responses_from(source, golden, sheet, mapping, exclude=None, alone=True)
        return responses, problems


def load_inputs(
    golden_path: Path,
    responses_path: Path | None = None,
    *,
    selection: InputSelection | None = None,
    golden_read: Callable[[Sequence[GoldenItem]], None] | None = None,
) -> Loaded:
    """Read the golden set and, if given, the responses as ``selection`` says (default: sheets,
    columns and header rows found); collect every problem. ``golden_read`` is called with the
    golden items once they are read, before the responses are.

    The same workbook may be given twice: then, unless sheets are named, the responses come
    from the first other sheet that maps as responses (or from the golden sheet itself when
    it also holds one column per pipeline).

    A column the mapping names must be in the input its field belongs to (the question and its
    id: in either); else :class:`InputError` names the file and the columns it has.
    """
    chosen = selection or InputSelection()
    mapping, header_row = chosen.mapping, chosen.header_row
    alone = responses_path is None
    with TableFile(golden_path, mapping=mapping, header_row=header_row) as source:
        golden, problems, golden_table = _golden_from(source, chosen.golden_sheet, mapping, alone=alone)
        if golden_read is not None:
            golden_read(golden.items)
        if (
            responses_path is not None
            and _same_file(golden_path, responses_path)
            and chosen.responses_header == header_row
        ):
            with _keeping(problems):
                responses, more, table = _responses_from(
                    source, golden, chosen.responses_sheet, mapping, exclude=golden.sheet, alone=False
                )
                check_shared_mapping(golden_table, table, mapping)
            if responses.sheet == golden.sheet:  # one sheet: its other columns are the pipelines
                refuse_golden_columns_as_pipelines(golden_table, mapping, responses.pipelines)
                golden = replace(golden, items=tuple(replace(item, extra=()) for item in golden.items))
                if chosen.responses_sheet is None:
                    more = [*more, *other_sheets_passed_over(source, golden_table, responses.pipelines)]
            return Loaded(golden, responses, _unique([*problems, *more]))
    if responses_path is None:
        return Loaded(golden, None, tuple(problems))
    with (
        _keeping(problems),
        TableFile(responses_path, mapping=mapping, header_row=chosen.responses_header) as other,
    ):
        responses, more, table = _responses_from(
            other, golden, chosen.responses_sheet, mapping, exclude=None, alone=False
        )
        check_shared_mapping(golden_table, table, mapping)
    return Loaded(golden, responses, (*problems, *more))


@contextmanager
def _keeping(earlier: list[Problem]) -> Iterator[None]:
    """Put the golden set's problems into a fatal responses error, so none is lost."""
    try:
        yield
    except InputError as error:
        raise InputError(error.problem, _unique([*earlier, *error.others])) from None


def preview(
    path: Path,
    *,
    sheet: str | None = None,
    kind: Kind = "golden",
    mapping: Mapping[str, str] | None = None,
    nrows: int = 20,
    header_row: int | None = None,
) -> Preview:
    """The first ``nrows`` rows of the sheet an import would use, with the detected columns.

    Raises :class:`InputError` only when the file itself cannot be read (or ``sheet`` does
    not exist); column and row problems are returned in :attr:`Preview.problems`.
    """
    with TableFile(path, mapping=mapping, header_row=header_row) as source:
        if sheet is not None or not source.is_workbook:
            table = source.read(sheet, require_rows=False)
        else:
            table = _best_sheet(source, mapping, kind, exclude=None) or _first_nonempty(source)
        sheets = source.sheets
        hidden = tuple(name for name in sheets if name in source.hidden_sheets)
    columns: ColumnMap | ResponseColumns
    if kind == "golden":
        columns = _detect_golden(table, mapping)
        problems = _golden_preview_problems(table, columns)
    else:
        columns = detect_responses(table, mapping)
        layout_problem = responses_layout_problem(table, columns)
        problems = [*table.problems, *([layout_problem] if layout_problem else [])]
    # The wizard asks each file for its own fields, the question and its id included.
    unmatched = unmatched_mapping(table.header, mapping, kind)
    if unmatched and table.header:
        problems.append(unmatched_mapping_problem(table, unmatched))
    if table.header and not table.rows:
        problems.append(_no_rows(table))
    elif not table.header:
        problems.append(
            table.problem(f"{table.where()} is empty: it has no cells with a value.", Severity.FATAL)
        )
    return Preview(
        file=table.file,
        kind=kind,
        sheets=sheets,
        sheet=table.sheet,
        header=table.header,
        rows=table.rows[:nrows],
        row_numbers=table.row_numbers[:nrows],
        columns=columns,
        problems=tuple(problems),
        total_rows=len(table.rows),
        encoding=table.encoding,
        delimiter=table.delimiter,
        header_row=table.header_row,
        hidden_sheets=hidden,
    )


def responses_layout_problem(table: RawTable, columns: ResponseColumns) -> Problem | None:
    """Why ``columns`` cannot be read as responses (a fatal problem), or ``None``."""
    if columns.layout is not None:
        return None
    found = ", ".join(table.header) or "(none)"
    if not columns.has_key:
        message = (
            f"{table.where()} has no question id column ({_names('question_id')}) and no question "
            f"column ({_names('question')}); columns found: {found}."
        )
    elif columns.pipeline is not None:
        message = (
            f"{table.where()} has a pipeline column ('{columns.pipeline}') but no response column "
            f"(looked for {_names('response')}); columns found: {found}."
        )
    else:
        message = (
            f"{table.where()} has no response columns: expected 'pipeline' and 'response' columns "
            "(long layout) or one column per pipeline beside the id/question columns (wide "
            f"layout); columns found: {found}."
        )
    return table.problem(message, Severity.FATAL)


def _table_of(
    source: TableFile,
    role: Kind,
    sheet: str | None,
    mapping: Mapping[str, str] | None,
    *,
    exclude: str | None,
    alone: bool,
) -> tuple[RawTable, list[Problem]]:
    """The table of ``role`` (the sheet named; in a workbook with none named, the one chosen) with
    its mapping checked, and a warning naming the hidden sheets a choice passed over."""
    chosen = sheet is None and source.is_workbook
    if chosen:
        sheet = _choose_sheet(source, mapping, role, exclude=exclude)
    table = source.read(sheet)
    check_mapping(table, mapping, role, alone=alone)
    return table, _hidden_skipped(source, f"--{role}-sheet") if chosen else []


def _golden_from(
    source: TableFile, sheet: str | None, mapping: Mapping[str, str] | None, *, alone: bool
) -> tuple[GoldenSet, list[Problem], RawTable]:
    table, skipped = _table_of(source, "golden", sheet, mapping, exclude=None, alone=alone)
    golden, problems = golden_from_table(table, _detect_golden(table, mapping))
    return golden, problems + skipped, table


def _responses_from(
    source: TableFile,
    golden: GoldenSet,
    sheet: str | None,
    mapping: Mapping[str, str] | None,
    exclude: str | None,
    *,
    alone: bool,
) -> tuple[ResponseSet, list[Problem], RawTable]:
    table, skipped = _table_of(source, "responses", sheet, mapping, exclude=exclude, alone=alone)
    columns = detect_responses(table, mapping)
    problem = responses_layout_problem(table, columns)
    if problem is not None:
        raise InputError(problem, table.problems)
    responses, problems = join_responses(table, columns, golden)
    if columns.layout == "wide":
        problems.extend(wide_layout_notes(table, columns))
    return responses, problems + skipped, table


def _hidden_skipped(source: TableFile, option: str) -> list[Problem]:
    """A warning naming the hidden sheets an automatic sheet choice passed over."""
    if not source.hidden_sheets:
        return []
    names = ", ".join(f"'{name}'" for name in source.sheets if name in source.hidden_sheets)
    return [
        Problem(
            source.file,
            f"hidden sheet(s) {names} were skipped; choose one by name ({option}, or in the import wizard) "
            "to read it.",
            Severity.WARNING,
        )
    ]


def _choose_sheet(
    source: TableFile, mapping: Mapping[str, str] | None, kind: Kind, exclude: str | None
) -> str:
    """The sheet to read when none is named.

    When no sheet fits but only one has any content, that one is returned so the reader
    explains precisely what it lacks; with several, the error lists every sheet's columns.
    """
    chosen = _best_sheet(source, mapping, kind, exclude)
    if chosen is not None and chosen.sheet is not None:
        return chosen.sheet
    candidates = [
        name
        for name in source.visible_sheets
        if name != exclude and source.read(name, require_rows=False).header
    ]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates and exclude is None:
        return (source.visible_sheets or source.sheets)[0]  # every sheet is empty: reading it says so
    raise _no_sheet_fits(source, kind)


def _best_sheet(
    source: TableFile, mapping: Mapping[str, str] | None, kind: Kind, exclude: str | None
) -> RawTable | None:
    """The best-ranked sheet for ``kind`` (lowest rank, then workbook order), or ``None``."""
    best: tuple[int, RawTable] | None = None
    for name in source.visible_sheets:
        table = source.read(name, require_rows=False)
        if not table.header:
            continue
        rank = _golden_rank(table, mapping) if kind == "golden" else _responses_rank(table, mapping, exclude)
        if rank is not None and (best is None or rank < best[0]):
            best = (rank, table)
    return best[1] if best is not None else None


def _golden_rank(table: RawTable, mapping: Mapping[str, str] | None) -> int | None:
    columns = _detect_golden(table, mapping)
    if columns.question is None:
        return None
    if not columns.is_golden:
        return 2
    return 1 if detect_responses(table, mapping).pipeline is not None else 0


def _responses_rank(table: RawTable, mapping: Mapping[str, str] | None, exclude: str | None) -> int | None:
    columns = detect_responses(table, mapping)
    if columns.layout is None:
        return None
    combined = columns.layout == "wide" and _detect_golden(table, mapping).is_golden
    # The sheet already taken as the golden set is a last resort: a combined golden+pipelines sheet.
    return (2 if table.sheet == exclude else 0) + int(combined)


def _detect_golden(table: RawTable, mapping: Mapping[str, str] | None) -> ColumnMap:
    try:
        columns = detect_golden_columns(table.header, mapping)
    except MappingError as error:
        raise fatal(table.file, str(error), sheet=table.sheet) from None
    if columns.id is not None:
        return columns
    # No column named as an id: the analyst's own numbering ("#", "No.") beats "row-<n>" ids.
    numbered = row_number_id(table.header, table.values)
    return columns if numbered is None else replace(columns, id=numbered, numbered_id=True)


def _golden_preview_problems(table: RawTable, columns: ColumnMap) -> list[Problem]:
    """Every problem a golden import would report, with a fatal one last instead of raised."""
    column_problem = golden_column_problem(table, columns)
    if column_problem is not None:
        return [*table.problems, column_problem]
    if not table.rows:
        return list(table.problems)
    try:
        return golden_from_table(table, columns)[1]
    except InputError as error:
        return [*error.others, error.problem]


def _no_sheet_fits(source: TableFile, kind: Kind) -> InputError:
    described: list[str] = []
    for name in source.sheets:
        table = source.read(name, require_rows=False)
        columns = ", ".join(table.header) if table.header else "empty"
        hidden = ", hidden" if name in source.hidden_sheets else ""
        described.append(f"'{name}' ({columns}{hidden})")
    wanted = (
        "a question column and an answer or fact column"
        if kind == "golden"
        else "responses (pipeline and response columns, or one column per pipeline)"
    )
    return fatal(source.file, f"no sheet of {source.file} has {wanted}; sheets: {'; '.join(described)}.")


def _first_nonempty(source: TableFile) -> RawTable:
    for name in source.visible_sheets:
        table = source.read(name, require_rows=False)
        if table.header:
            return table
    return source.read(None, require_rows=False)


def _no_rows(table: RawTable) -> Problem:
    return table.problem(
        f"{table.where()} has a header row (row {table.header_row}) but no data rows.", Severity.FATAL
    )


def _names(field: str) -> str:
    return ", ".join(f"'{name}'" for name in RESPONSE_SYNONYMS[field][:5])


def _same_file(first: Path, second: Path) -> bool:
    try:
        return Path(first).resolve() == Path(second).resolve()
    except OSError:
        return False


def _unique(problems: list[Problem]) -> tuple[Problem, ...]:
    """Drop repeats (a combined sheet reports its table problems for both reads)."""
    return tuple(dict.fromkeys(problems))

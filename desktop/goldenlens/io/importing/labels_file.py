"""A file of reviewer verdicts (``goldenlens label PROJECT --from FILE``): CSV, TSV or a workbook
with a question id, a pipeline and a verdict column (a plan written by ``plan-labels``, the
report workbook's Scores sheet with its Label column, or the analyst's own sheet).

Verdicts may be spelled as :func:`~goldenlens.core.calibration.labels.verdict_spellings` lists (any
case); an empty verdict cell is a response not labelled yet and is skipped. Any other text is an
error naming its row and column, and so is a row whose question id or pipeline is empty: the
caller writes all the rows or none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from goldenlens.core.calibration.labels import Verdict, parse_verdict, verdict_spellings
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import column_key
from goldenlens.io.sheets.raw_table import RawTable
from goldenlens.io.sheets.spreadsheet_reader import list_sheets, read_table

#: Header names (compared by :func:`~goldenlens.io.importing.columns.column_key`) per field.
LABEL_COLUMNS: Final[dict[str, tuple[str, ...]]] = {
    "question_id": ("question_id", "question id", "id", "qid"),
    "pipeline": ("pipeline", "system", "model"),
    "verdict": (
        "verdict",
        "label",
        "reviewer verdict",
        "human verdict",
        "correct",
        "acceptable",
        "judgement",
    ),
    "note": ("note", "label note", "comment"),
    "reviewer": ("reviewer", "labelled by", "annotator"),
    #: The answer the reviewer read (a plan's, the Scores sheet's): checked against the answer
    #: the project holds now, so a verdict never lands on an answer given since.
    "response": ("response",),
    #: The round of the plan the row comes from (a plan's): checked against the round's sample.
    "round": ("round",),
}
#: The sheet read from a workbook that has it (the report workbook's).
SCORES_SHEET: Final = "Scores"


@dataclass(frozen=True)
class LabelRow:
    """One verdict read from the file, located as the analyst sees it."""

    row: int
    question_id: str
    pipeline: str
    verdict: Verdict
    note: str = ""
    reviewer: str = ""
    #: The response the file shows beside the verdict (``None``: the file has no such column).
    response: str | None = None
    #: The plan's round the row comes from (``None``: no round column, or no whole number in it).
    round_number: int | None = None


@dataclass(frozen=True)
class LabelsFile:
    """The verdicts of a file, how many rows had none (skipped), and the fatal problem of each
    row that cannot be read (a word that is no verdict, no question id or pipeline): those rows
    are left out of ``rows``, and whoever writes the labels refuses the file with them and the
    problems it finds itself, all at once."""

    table: RawTable
    rows: tuple[LabelRow, ...]
    skipped: int
    columns: dict[str, str]
    problems: tuple[Problem, ...] = ()


def _find(header: Sequence[str], field: str) -> str | None:
    wanted = {column_key(name) for name in LABEL_COLUMNS[field]}
    return next((column for column in header if column_key(column) in wanted), None)


def _round_number(text: str) -> int | None:
    """A plan's round number as its cell shows it (``1``, or ``1.0`` from a workbook); ``None``
    for any other text (``str.isdigit`` also accepts "²", which ``int`` refuses)."""
    cleaned = text.strip().removesuffix(".0")
    return int(cleaned) if cleaned.isascii() and cleaned.isdigit() and len(cleaned) <= 9 else None


def read_labels_file(path: Path, *, sheet: str | None = None) -> LabelsFile:
    """Read the verdicts of ``path`` (``sheet``: default "Scores" where the workbook has one,
    else the first). Raises :class:`InputError` when a column is missing; a row that cannot be
    read is a problem of the result (:attr:`LabelsFile.problems`)."""
    if sheet is None and path.suffix.lower() in {".xlsx", ".xlsm", ".xls", ".xlsb", ".ods"}:
        sheets = list_sheets(path)
        sheet = SCORES_SHEET if SCORES_SHEET in sheets else None
    table = read_table(path, sheet=sheet)
    columns = {field: found for field in LABEL_COLUMNS if (found := _find(table.header, field)) is not None}
    missing = [field for field in ("question_id", "pipeline", "verdict") if field not in columns]
    if missing:
        names = [repr(f.replace("_", " ")) for f in missing]
        what = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        shown = ", ".join(repr(h) for h in table.header)
        raise InputError(
            table.problem(
                f"no {what} column (the columns are {shown}); a labels file needs a question id, a "
                "pipeline and a verdict column",
                Severity.FATAL,
                row=table.header_row,
            )
        )
    problems: list[Problem] = []
    rows: list[LabelRow] = []
    skipped = 0
    at = {field: table.index(name) for field, name in columns.items()}
    for number, cells in zip(table.row_numbers, table.rows, strict=True):
        verdict_text = cells[at["verdict"]].strip()
        if not verdict_text:
            skipped += 1
            continue
        verdict = parse_verdict(verdict_text)
        if verdict is None:
            problems.append(
                table.problem(
                    f"{verdict_text!r} is not a verdict: say {verdict_spellings()}",
                    Severity.FATAL,
                    row=number,
                    column=columns["verdict"],
                )
            )
            continue
        unnamed = [
            table.problem(f"no {field.replace('_', ' ')}", Severity.FATAL, row=number, column=columns[field])
            for field in ("question_id", "pipeline")
            if not cells[at[field]].strip()
        ]
        if unnamed:
            problems.extend(unnamed)
            continue
        rows.append(
            LabelRow(
                number,
                cells[at["question_id"]].strip(),
                cells[at["pipeline"]].strip(),
                verdict,
                cells[at["note"]].strip() if "note" in at else "",
                cells[at["reviewer"]].strip() if "reviewer" in at else "",
                cells[at["response"]] if "response" in at else None,
                _round_number(cells[at["round"]]) if "round" in at else None,
            )
        )
    return LabelsFile(table, tuple(rows), skipped, columns, tuple(problems))

"""A catalogue of bad input files, written for real into a folder, with what reading them must say.

Used by ``tests/io/test_bad_inputs.py`` (each case gives exactly the expected problem) and by
the jobs tests (a failed import must leave an existing project untouched). Import it as
``from tests.badinputs import make_bad_inputs`` or ``from badinputs import make_bad_inputs``.

Load a case with ``load_inputs(case.golden_path, case.responses_path, selection=case.selection())``:
the unknown-sheet case needs its ``golden_sheet``.
"""

from __future__ import annotations

import csv
import random
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from openpyxl import Workbook

from goldenlens.core.input_selection import InputSelection
from goldenlens.core.problems import Severity

GOLDEN_HEADER = ("id", "question", "answer", "fact")
GOLDEN_ROWS = (
    ("q01", "Who is Andrew R. Jassy?", "He is the CEO of Amazon.", "CEO of Amazon"),
    ("q02", "What were AWS sales in Q2 2023?", "AWS sales were $22.1 billion.", "22.1 billion"),
    ("q03", "How many Rivian shares did Amazon hold?", "Amazon held 158 million shares.", "158 million"),
)
RESPONSES_HEADER = ("question_id", "pipeline", "response", "contexts")


@dataclass(frozen=True)
class BadCase:
    """One bad input and the problem it must produce.

    ``file`` is the name of the file at fault; ``row``/``column`` locate the problem as Excel
    shows it (``None`` when not applicable). Non-fatal cases expect a problem of ``severity``
    among the loaded problems.
    """

    name: str
    golden_path: Path
    responses_path: Path | None
    expect_fatal: bool
    message_fragments: tuple[str, ...]
    row: int | None = None
    column: str | None = None
    file: str = ""
    severity: Severity = Severity.FATAL
    golden_sheet: str | None = None
    responses_sheet: str | None = None

    def selection(self) -> InputSelection:
        """The ``selection`` of ``load_inputs`` / ``import_inputs`` for this case."""
        return InputSelection(golden_sheet=self.golden_sheet, responses_sheet=self.responses_sheet)


def write_csv(
    path: Path, rows: Sequence[Sequence[str]], *, encoding: str = "utf-8", delimiter: str = ","
) -> Path:
    """Write ``rows`` as CSV (creating the folder)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding=encoding) as handle:
        csv.writer(handle, delimiter=delimiter).writerows(rows)
    return path


def write_xlsx(path: Path, sheets: dict[str, Sequence[Sequence[object]]]) -> Path:
    """Write a workbook with one sheet per entry (in order)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    book = Workbook()
    first = book.active
    if first is not None:
        book.remove(first)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(list(row))
    book.save(path)
    return path


def write_ods(path: Path, title: str, rows: Sequence[Sequence[str]]) -> Path:
    """A minimal OpenDocument spreadsheet of one table, written by hand (pandas would need odfpy,
    not a dependency): each row is its cells' XML (``<table:table-cell …>…</table:table-cell>``,
    ``<table:covered-table-cell/>``)."""
    body = "".join(f"<table:table-row>{''.join(row)}</table:table-row>" for row in rows)
    namespaces = (
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
    )
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {namespaces} office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="{title}">{body}</table:table>'
        "</office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            zipfile.ZipInfo("mimetype"),
            "application/vnd.oasis.opendocument.spreadsheet",
            compress_type=zipfile.ZIP_STORED,
        )
        archive.writestr("META-INF/manifest.xml", manifest)
        archive.writestr("content.xml", content)
    return path


def good_golden(folder: Path) -> Path:
    """A valid three-question golden set, for cases about the responses file."""
    return write_csv(folder / "golden.csv", [GOLDEN_HEADER, *GOLDEN_ROWS])


def _responses(folder: Path, rows: Sequence[Sequence[str]], header: Sequence[str] = RESPONSES_HEADER) -> Path:
    return write_csv(folder / "responses.csv", [header, *rows])


def _write_bytes(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _golden_cases(root: Path) -> list[BadCase]:
    cases: list[BadCase] = []

    def golden_only(
        name: str,
        path: Path,
        fragments: tuple[str, ...],
        *,
        row: int | None = None,
        column: str | None = None,
        severity: Severity = Severity.FATAL,
        golden_sheet: str | None = None,
    ) -> None:
        cases.append(
            BadCase(
                name,
                path,
                None,
                severity is Severity.FATAL,
                fragments,
                row=row,
                column=column,
                file=path.name,
                severity=severity,
                golden_sheet=golden_sheet,
            )
        )

    noise = random.Random(20230630).randbytes(4096)
    golden_only(
        "corrupt_xlsx",
        _write_bytes(root / "corrupt_xlsx" / "golden.xlsx", noise),
        ("golden.xlsx is not a readable spreadsheet", "damaged or not an Excel file"),
    )
    whole = write_xlsx(root / "truncated_xlsx" / "whole.xlsx", {"Golden": [GOLDEN_HEADER, *GOLDEN_ROWS]})
    data = whole.read_bytes()
    whole.unlink()
    golden_only(
        "truncated_xlsx",
        _write_bytes(root / "truncated_xlsx" / "golden.xlsx", data[: len(data) // 2]),
        ("golden.xlsx is not a readable spreadsheet", "zip archive inside is incomplete or damaged"),
    )
    golden_only(
        "empty_file",
        _write_bytes(root / "empty_file" / "golden.csv", b""),
        ("golden.csv is empty (0 bytes)",),
    )
    golden_only(
        "header_only",
        write_csv(root / "header_only" / "golden.csv", [GOLDEN_HEADER]),
        ("golden.csv has a header row (row 1) but no data rows",),
    )
    golden_only(
        "no_question_column",
        write_csv(
            root / "no_question_column" / "golden.csv", [("id", "text", "answer", "fact"), *GOLDEN_ROWS]
        ),
        (
            "golden.csv has no question column",
            "columns found: id, text, answer, fact. If one of them holds it, map it: --map question=COLUMN",
        ),
    )
    golden_only(
        "no_answer_or_fact_column",
        write_csv(
            root / "no_answer_or_fact_column" / "golden.csv",
            [("id", "question", "notes"), ("q01", "Who?", "")],
        ),
        ("no answer column", "no fact column", "columns found: id, question, notes"),
    )
    golden_only(
        "duplicate_ids",
        write_csv(root / "duplicate_ids" / "golden.csv", [GOLDEN_HEADER, *GOLDEN_ROWS, GOLDEN_ROWS[0]]),
        ("id 'q01' is used twice (rows 2 and 5)",),
        row=5,
        column="id",
    )
    golden_only(
        "ids_differing_in_case",
        write_csv(
            root / "ids_differing_in_case" / "golden.csv",
            [GOLDEN_HEADER, *GOLDEN_ROWS, ("Q02", "Again?", "Yes.", "yes")],
        ),
        ("id 'Q02' (row 5) repeats id 'q02' (row 3)", "ignore case"),
        row=5,
        column="id",
    )
    golden_only(
        "binary_junk_csv",
        _write_bytes(root / "binary_junk_csv" / "golden.csv", bytes(range(256)) * 8),
        ("golden.csv is not CSV text", "binary data"),
    )
    folder = root / "directory" / "golden.csv"
    folder.mkdir(parents=True, exist_ok=True)
    golden_only("directory", folder, ("golden.csv is a folder, not a file",))
    golden_only("missing_path", root / "missing_path" / "golden.xlsx", ("golden.xlsx was not found",))
    golden_only(
        "unknown_sheet",
        write_xlsx(
            root / "unknown_sheet" / "golden.xlsx",
            {"Golden": [GOLDEN_HEADER, *GOLDEN_ROWS], "Notes": [("text",), ("x",)]},
        ),
        ("golden.xlsx has no sheet named 'Answers'", "its sheets are: 'Golden', 'Notes'"),
        golden_sheet="Answers",
    )
    golden_only(
        "wrong_extension",
        _write_bytes(root / "wrong_extension" / "golden.pdf", b"%PDF-1.4\n%junk\n"),
        ("golden.pdf has an unsupported file type '.pdf'",),
    )
    golden_only(
        "undecodable_bytes",
        _write_bytes(
            root / "undecodable_bytes" / "golden.csv",
            b"id,question,answer,fact\nq01,Caf\xe9 \x81?,An answer,fact\n",
        ),
        ("golden.csv is not readable text", "byte 0x81 at line 2", "neither UTF-8 nor Windows-1252"),
    )
    golden_only(
        "xlsx_named_csv",
        _write_bytes(root / "xlsx_named_csv" / "golden.csv", data),
        ("golden.csv is not CSV text", "zip archive"),
    )
    golden_only(
        "csv_named_xlsx",
        _write_bytes(root / "csv_named_xlsx" / "golden.xlsx", b"id,question,answer\nq01,Who?,Me\n"),
        ("golden.xlsx is not a readable spreadsheet", "looks like plain text"),
    )
    golden_only(
        "ragged_csv",
        _write_bytes(
            root / "ragged_csv" / "golden.csv",
            b"id,question,answer,fact\nq01,Who?,Me,me\nq02,What, exactly?,It,it\n",
        ),
        ("this row has 5 cells but the header has 4 columns",),
        row=3,
        severity=Severity.ERROR,
    )
    golden_only(
        "empty_question",
        write_csv(
            root / "empty_question" / "golden.csv",
            [GOLDEN_HEADER, GOLDEN_ROWS[0], ("q02", "  ", "An answer", "fact")],
        ),
        ("the question is empty; the row is skipped",),
        row=3,
        column="question",
        severity=Severity.ERROR,
    )
    golden_only(
        "unclosed_quote",
        _write_bytes(
            root / "unclosed_quote" / "golden.csv",
            b'id,question,answer,fact\nq01,Who?,Me,me\nq02,"What?,It,it\nq03,Why?,So,so\n',
        ),
        ("this row is not well-formed CSV", "unclosed quote"),
        row=3,
        severity=Severity.WARNING,
    )
    return cases


def _responses_cases(root: Path) -> list[BadCase]:
    cases: list[BadCase] = []

    def responses(
        name: str,
        rows: Sequence[Sequence[str]],
        fragments: tuple[str, ...],
        *,
        header: Sequence[str] = RESPONSES_HEADER,
        severity: Severity = Severity.FATAL,
        row: int | None = None,
        column: str | None = None,
    ) -> None:
        folder = root / name
        path = _responses(folder, rows, header)
        cases.append(
            BadCase(
                name,
                good_golden(folder),
                path,
                severity is Severity.FATAL,
                fragments,
                row=row,
                column=column,
                file=path.name,
                severity=severity,
            )
        )

    responses(
        "unknown_question_ids",
        [("q01", "P1", "Jassy is CEO.", ""), ("q99", "P1", "Who knows.", "")],
        ("question id 'q99' is not in the golden set (golden.csv)",),
        severity=Severity.ERROR,
        row=3,
        column="question_id",
    )
    responses(
        "no_response_columns",
        [("q01", "fine")],
        ("responses.csv has no response columns", "columns found: question_id, notes"),
        header=("question_id", "notes"),
    )
    responses(
        "pipeline_without_response_column",
        [("q01", "P1", "text")],
        ("has a pipeline column ('pipeline') but no response column",),
        header=("question_id", "pipeline", "text"),
    )
    responses(
        "nothing_matched",
        [("x1", "P1", "a", ""), ("x2", "P1", "b", "")],
        ("no row of responses.csv matches a golden question of golden.csv", "'x1', 'x2'"),
    )
    responses(
        "broken_json_contexts",
        [("q01", "P1", "CEO.", '["Jassy is CEO", "unterminated]')],
        ("the contexts cell starts with '[' but is not valid JSON",),
        severity=Severity.WARNING,
        row=2,
        column="contexts",
    )
    responses(
        "duplicate_question_pipeline",
        [("q01", "P1", "First.", ""), ("q01", "P1", "Second.", "")],
        ("a second response for question q01 and pipeline 'P1' (the first is at row 2)",),
        severity=Severity.WARNING,
        row=3,
        column="pipeline",
    )
    responses("responses_header_only", [], ("responses.csv has a header row (row 1) but no data rows",))
    return cases


def _link(path: Path, target: str) -> Path:
    """A symbolic link ``path`` → ``target`` (replaced if it is there already)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.exists():
        path.unlink()
    path.symlink_to(target)
    return path


def _csv_text_cases(root: Path) -> list[BadCase]:
    """CSV text that is not what Excel shows: delimiter lines, NUL bytes, mojibake, invisibles."""
    cases: list[BadCase] = []

    def case(
        name: str,
        golden: Path,
        fragments: tuple[str, ...],
        *,
        responses: Path | None = None,
        severity: Severity = Severity.FATAL,
        row: int | None = None,
        column: str | None = None,
    ) -> None:
        at_fault = responses if responses is not None else golden
        cases.append(
            BadCase(
                name,
                golden,
                responses,
                severity is Severity.FATAL,
                fragments,
                row=row,
                column=column,
                file=at_fault.name,
                severity=severity,
            )
        )

    # Excel hides its "sep=;" line, so the header is row 1 and the repeated id is row 4 (line 5).
    case(
        "sep_line_rows",
        _write_bytes(
            root / "sep_line_rows" / "golden.csv",
            b"sep=;\r\nid;question;answer;fact\r\nq01;Who, then?;Jassy, the CEO;CEO\r\n"
            b"q02;What, then?;22,1 billion;22,1\r\nq01;Again?;Yes;yes\r\n",
        ),
        ("id 'q01' is used twice (rows 2 and 4)",),
        row=4,
        column="id",
    )
    filler = b"".join(b"q%04d,Question number %d?,Answer %d,fact %d\n" % (i, i, i, i) for i in range(1, 3001))
    case(
        "nul_byte_late",  # far beyond the first 64 KiB that used to be checked
        _write_bytes(
            root / "nul_byte_late" / "golden.csv",
            b"id,question,answer,fact\n" + filler + b"q9999,Who?,The C\x00EO,CEO\n",
        ),
        ("golden.csv is not CSV text", "binary data (a NUL byte in row 3002, column C)"),
        row=3002,
    )
    case(
        "nul_byte_early",
        _write_bytes(
            root / "nul_byte_early" / "golden.csv",
            b"id,question,answer,fact\nq01,Who?,Jassy,CEO\nq02,\x00What?,Sales,22.1\n",
        ),
        ("golden.csv is not CSV text", "binary data (a NUL byte in row 3, column B)"),
        row=3,
    )
    case(
        "utf16_without_bom",
        _write_bytes(
            root / "utf16_without_bom" / "golden.csv",
            "id\tquestion\tanswer\nq01\tWho?\tJassy\n".encode("utf-16-le"),
        ),
        ("golden.csv is not CSV text", "binary data (NUL bytes)", "UTF-16 text without a byte-order mark"),
    )
    # A Windows-1252 file ("Caf\xe9") into which UTF-8 text ("na\xc3\xafve") was pasted.
    case(
        "mojibake_in_cp1252",
        _write_bytes(
            root / "mojibake_in_cp1252" / "golden.csv",
            b"id,question,answer,fact\nq01,Caf\xe9 prices?,High,high\nq02,Is it na\xc3\xafve?,No,no\n",
        ),
        (
            "'Is it na\u00c3\u00afve?' looks like UTF-8 text in a file read as Windows-1252",
            "it probably should read 'Is it na\u00efve?'",
            "The text is kept as it is",
        ),
        severity=Severity.WARNING,
        row=3,
        column="question",
    )
    # A UTF-8 file whose text was once decoded as Windows-1252 and saved again.
    case(
        "mojibake_in_utf8",
        _write_bytes(
            root / "mojibake_in_utf8" / "golden.csv",
            "id,question,answer,fact\nq01,Who?,It\u00e2\u20ac\u2122s Jassy,Jassy\n".encode(),
        ),
        (
            "'It\u00e2\u20ac\u2122s Jassy' looks like mojibake",
            "it probably should read 'It\u2019s Jassy'",
        ),
        severity=Severity.WARNING,
        row=2,
        column="answer",
    )
    case(
        "invisible_header",
        _write_bytes(
            root / "invisible_header" / "golden.csv",
            "id,\u200bquestion,answer\u00a0,fact\nq01,Who?,Jassy,CEO\n".encode(),
        ),
        (
            "the header '<U+200B>question' (column B) holds invisible characters (<U+200B>)",
            "read as 'question'",
        ),
        severity=Severity.INFO,
        row=1,
        column="question",
    )
    folder = root / "zero_width_in_cell"
    case(
        "zero_width_in_cell",
        good_golden(folder),
        ("characters Excel does not show (<U+200B>)", "'He is the CEO<U+200B> of Amazon.'"),
        responses=_responses(folder, [("q01", "P1", "He is the CEO\u200b of Amazon.", "")]),
        severity=Severity.WARNING,
        row=2,
        column="response",
    )
    folder = root / "zero_width_id"
    case(
        "zero_width_id",
        good_golden(folder),
        ("question id 'q01<U+200B>' is not in the golden set",),
        responses=_responses(folder, [("q01\u200b", "P1", "CEO.", ""), ("q02", "P1", "22.1 billion", "")]),
        severity=Severity.ERROR,
        row=2,
        column="question_id",
    )
    loop = root / "symlink_loop"
    _link(loop / "other.csv", "golden.csv")
    case(
        "symlink_loop",
        _link(loop / "golden.csv", "other.csv"),
        ("golden.csv is a symbolic link loop (golden.csv → other.csv → golden.csv)",),
    )
    case(
        "broken_link",
        _link(root / "broken_link" / "golden.csv", "golden-2023.csv"),
        ("golden.csv is a broken link to golden-2023.csv",),
    )
    return cases


def make_bad_inputs(tmp_path: Path) -> list[BadCase]:
    """Write every bad input under ``tmp_path`` (created if needed) and describe each."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    builders: tuple[Callable[[Path], list[BadCase]], ...] = (_golden_cases, _responses_cases, _csv_text_cases)
    cases = [case for build in builders for case in build(tmp_path)]
    assert len({case.name for case in cases}) == len(cases), "case names must be unique"
    return cases

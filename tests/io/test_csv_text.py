"""CSV text that is not what Excel shows: Excel's ``sep=`` line, NUL bytes, mojibake, invisible
characters in headers and cells, and input paths that are symbolic-link loops or broken links.

Every file is written by the test as bytes; expected texts are the ones a person reads in the
file (the mojibake suggestions are what the bytes were before they were mis-decoded).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from tests.badinputs import write_csv, write_xlsx

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.input_files import preview, read_golden, read_responses
from goldenlens.io.sheets.header_names import clean_header_name
from goldenlens.io.sheets.spreadsheet_reader import read_table
from goldenlens.io.sheets.visible_text import visible

ROWS = [
    ["id", "question", "answer"],
    ["q01", "Sales, in total?", "12,5 billion; roughly"],
    ["q02", "Tabs\tand|pipes?", "a|b"],
]


def _csv_text(rows: list[list[str]], delimiter: str, line_end: str) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter, lineterminator=line_end).writerows(rows)
    return buffer.getvalue()


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _only(problems: tuple[Problem, ...] | list[Problem], severity: Severity) -> list[Problem]:
    return [p for p in problems if p.severity is severity]


# -- Excel's "sep=" line ------------------------------------------------------------------------


@pytest.mark.parametrize("delimiter", [";", ",", "\t", "|"])
@pytest.mark.parametrize("line_end", ["\r\n", "\n"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_sep_line_sets_the_delimiter_and_is_not_a_row(
    tmp_path: Path, delimiter: str, line_end: str, encoding: str
) -> None:
    text = f"sep={delimiter}{line_end}" + _csv_text(ROWS, delimiter, line_end)
    table = read_table(_write(tmp_path / "golden.csv", text.encode(encoding)))
    assert table.delimiter == delimiter  # "|" is never sniffed: only the sep= line can give it
    assert table.header == ("id", "question", "answer")
    assert table.rows == (tuple(ROWS[1]), tuple(ROWS[2]))
    # Excel hides the sep= line: the header is row 1 and the data rows are 2 and 3.
    assert (table.header_row, table.row_numbers) == (1, (2, 3))
    [note] = _only(table.problems, Severity.INFO)[-1:]
    shown = "<TAB>" if delimiter == "\t" else delimiter
    assert note.message == (
        f"the first line 'sep={shown}' names the delimiter, as Excel reads it; like Excel we do not "
        "count it as a row, so the line after it is row 1."
    )
    assert note.row is None
    shown_preview = preview(tmp_path / "golden.csv")
    assert (shown_preview.delimiter, shown_preview.row_numbers, shown_preview.header) == (
        delimiter,
        (2, 3),
        ("id", "question", "answer"),
    )


def test_sep_line_keeps_excel_row_numbers_in_messages(tmp_path: Path) -> None:
    data = (
        b"SEP=;\n"
        b"id;question;answer;fact\n"
        b'q01;"Two\nlines?";Yes;yes\n'  # one record, two lines: still one Excel row
        b"q02;   ;No;no\n"
    )
    golden, problems = read_golden(_write(tmp_path / "golden.csv", data))
    assert [item.id for item in golden.items] == ["q01"]
    [error] = _only(problems, Severity.ERROR)
    assert (error.message, error.row, error.column) == (
        "the question is empty; the row is skipped.",
        3,
        "question",
    )


@pytest.mark.parametrize("first_line", ["sep=", "sep=ab", "sep=\\t", " sep=|"])
def test_a_first_line_that_is_not_exactly_a_sep_line_is_the_header(tmp_path: Path, first_line: str) -> None:
    path = _write(tmp_path / "golden.csv", f"{first_line}\nq01\n".encode())
    table = read_table(path)
    assert table.header == (first_line.strip(),)
    assert table.row_numbers == (2,)


# -- NUL bytes ----------------------------------------------------------------------------------

_FILLER = "".join(f"q{i:04d},Question {i}?,Answer {i}\n" for i in range(1, 4001))  # ~100 KB


@pytest.mark.parametrize(
    ("text", "row", "column"),
    [
        ("id,quest\x00ion,answer\nq01,Who?,Me\n", 1, "B"),
        ("id,question,answer\nq01,Who?,Me\x00\n", 2, "C"),
        ('id,question,answer\nq01,"Two\nlines",x\nq02,"Three\nshort\nlines","a\x00"\n', 3, "C"),
        ("id,question,answer\n" + _FILLER + "q9999,\x00Who?,Me\n", 4002, "B"),  # past the first 64 KiB
        ("sep=;\nid;question;answer\nq01;Who?;Me\nq02;What?;\x00\n", 3, "C"),
    ],
)
def test_a_nul_anywhere_is_refused_with_its_row_and_column(
    tmp_path: Path, text: str, row: int, column: str
) -> None:
    path = _write(tmp_path / "golden.csv", text.encode())
    for read in (read_table, read_golden, preview):
        with pytest.raises(InputError) as caught:
            read(path)
        problem = caught.value.problem
        assert problem.severity is Severity.FATAL
        assert problem.row == row
        assert problem.message.startswith(
            f"golden.csv is not CSV text: it contains binary data (a NUL byte in row {row}, column {column})."
        )


def test_a_nul_in_responses_is_refused_too(tmp_path: Path) -> None:
    golden = write_csv(tmp_path / "golden.csv", [["id", "question", "answer"], ["q01", "Who?", "Me"]])
    responses = _write(tmp_path / "responses.csv", b"question_id,pipeline,response\nq01,P1,M\x00e\n")
    with pytest.raises(InputError) as caught:
        read_responses(responses, read_golden(golden)[0])
    assert (caught.value.problem.file, caught.value.problem.row) == ("responses.csv", 2)
    assert "a NUL byte in row 2, column C" in caught.value.problem.message


def test_utf16_without_a_byte_order_mark_is_called_binary(tmp_path: Path) -> None:
    path = _write(tmp_path / "golden.csv", "id\tquestion\nq01\tWho?\n".encode("utf-16-le"))
    with pytest.raises(InputError) as caught:
        read_table(path)
    assert caught.value.problem.message == (
        "golden.csv is not CSV text: it contains binary data (NUL bytes); if it is UTF-16 text without a "
        "byte-order mark, save it from Excel as 'CSV UTF-8'."
    )


# -- mojibake -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "encoding", "shown", "should"),
    [
        # A Windows-1252 file (é as 0xE9) into which UTF-8 text (ï as 0xC3 0xAF) was pasted.
        (b"id,question\nq01,Caf\xe9?\nq02,Is it na\xc3\xafve?\n", "cp1252", "Is it naÃ¯ve?", "Is it naïve?"),
        # UTF-8 text decoded once as Windows-1252 and saved again as UTF-8.
        ("id,question\nq01,Fine\nq02,Is it naÃ¯ve?\n".encode(), "utf-8", "Is it naÃ¯ve?", "Is it naïve?"),
        (
            "id,question\nq01,Fine\nq02,â€œQ2â€\x9d sales?\n".encode(),
            "utf-8",
            "â€œQ2â€<U+009D> sales?",
            "“Q2” sales?",
        ),
        ("\ufeffid,question\nq01,Fine\nq02,Ã‰cole\n".encode(), "utf-8-sig", "Ã‰cole", "École"),
    ],
)
def test_mojibake_is_a_warning_naming_row_column_and_the_likely_text(
    tmp_path: Path, data: bytes, encoding: str, shown: str, should: str
) -> None:
    path = _write(tmp_path / "golden.csv", data)
    table = read_table(path)
    assert table.encoding == encoding
    assert table.rows[1][1] == data.decode(encoding).splitlines()[2].split(",", 1)[1]  # never "fixed"
    [warning] = _only(table.problems, Severity.WARNING)
    assert (warning.row, warning.column, warning.file) == (3, "question", "golden.csv")
    mixed = "looks like UTF-8 text in a file read as Windows-1252 (the file mixes two encodings)"
    what = mixed if encoding == "cp1252" else "looks like mojibake (UTF-8 text once read as Windows-1252)"
    assert warning.message == (
        f"'{shown}' {what}; it probably should read '{should}'. The text is kept as it is: correct the "
        "file and import it again."
    )
    shown_preview = preview(path)
    assert warning in shown_preview.problems


def test_real_accents_and_symbols_are_not_mojibake(tmp_path: Path) -> None:
    texts = ["le « café» à São Paulo", "¿Qué? ¡Sí! Größe 5°C ±2%", "naïve façade — “quoted” €5", "Ñ¿ ô¶ Â"]
    for encoding in ("utf-8", "cp1252"):
        path = write_csv(
            tmp_path / f"{encoding}.csv",
            [["id", "question"], *[[f"q{i}", t] for i, t in enumerate(texts)]],
            encoding=encoding,
        )
        table = read_table(path)
        assert [row[1] for row in table.rows] == texts
        assert _only(table.problems, Severity.WARNING) == []


def test_mojibake_in_a_header_and_in_a_long_cell(tmp_path: Path) -> None:
    context = "word " * 40 + "the rÃ©sumÃ© of Q2 " + "more " * 40
    path = write_csv(
        tmp_path / "responses.csv", [["question_id", "RÃ©ponse", "contexts"], ["q01", "x", context]]
    )
    table = read_table(path)
    header, cell = _only(table.problems, Severity.WARNING)
    assert (header.row, header.column) == (1, "RÃ©ponse")
    assert "it probably should read 'Réponse'" in header.message
    assert (cell.row, cell.column) == (2, "contexts")
    # About 30 characters either side, cut at spaces.
    assert cell.message.startswith(
        "'…word word word word word the rÃ©sumÃ© of Q2 more more more more…' looks"
    )
    assert "should read '…word word word word word the résumé of Q2 more more more more…'." in cell.message


def test_many_mojibake_cells_list_twenty_and_count_the_rest(tmp_path: Path) -> None:
    rows = [["id", "question"], *[[f"q{i:02d}", f"Ã¼ber {i}"] for i in range(1, 26)]]
    table = read_table(write_csv(tmp_path / "golden.csv", rows))
    warnings = _only(table.problems, Severity.WARNING)
    assert [w.row for w in warnings] == [*range(2, 22), None]
    assert warnings[-1].message == "5 more cells hold mojibake (rows 22 to 26); only the first 20 are listed."


# -- invisible characters -----------------------------------------------------------------------

INVISIBLE = ["\u200b", "\ufeff", "\u00a0", "\u2060", "\u200c", "\u200d", "\u202f"]


def test_visible_writes_hidden_characters_as_code_points() -> None:
    assert visible("\u200bquestion") == "<U+200B>question"
    assert visible("answer\u00a0\u202f") == "answer<U+00A0><U+202F>"
    assert visible("plain\ttext\nwith “quotes” and 東京") == "plain\ttext\nwith “quotes” and 東京"
    assert visible("bell\x07") == "bell<U+0007>"


@pytest.mark.parametrize("char", INVISIBLE)
def test_invisible_characters_around_header_names_are_ignored(tmp_path: Path, char: str) -> None:
    assert clean_header_name(f"{char} question{char}") == "question"
    header = [f"{char}id", f"question{char}", f"{char}golden{char}answer", "fact"]
    path = write_csv(tmp_path / "golden.csv", [header, ["q01", "Who?", "Jassy", "CEO"]])
    golden, problems = read_golden(path)
    assert (golden.items[0].id, golden.items[0].answer, golden.items[0].fact) == ("q01", "Jassy", "CEO")
    notes = _only(problems, Severity.INFO)
    code = f"<U+{ord(char):04X}>"
    if char in "\u00a0\u202f":
        # No-break spaces around a name are spaces, stripped silently as ever; inside, a space.
        assert [(n.row, n.column) for n in notes] == [(1, "golden answer")]
    else:
        # A byte-order mark at the very start of the file is the encoding's, not the name's.
        expected = ["question", "goldenanswer"] if char == "\ufeff" else ["id", "question", "goldenanswer"]
        assert [(n.row, n.column) for n in notes] == [(1, name) for name in expected]
        shown = f"'question{code}' (column B)" if char == "\ufeff" else f"'{code}id' (column A)"
        read_as = "question" if char == "\ufeff" else "id"
        assert notes[0].message == (
            f"the header {shown} holds invisible characters ({code}); they are ignored and the column is "
            f"read as '{read_as}'."
        )


def test_invisible_characters_in_workbook_headers_and_response_headers(tmp_path: Path) -> None:
    book = write_xlsx(
        tmp_path / "golden.xlsx", {"Golden": [["\u200bquestion", "answer\u00a0"], ["Who?", "Jassy"]]}
    )
    golden, _ = read_golden(book)
    assert golden.items[0].answer == "Jassy"
    responses = write_csv(
        tmp_path / "responses.csv",
        [["question\u200b", "\ufeffpipeline", "response\u2060"], ["Who?", "P1", "Jassy"]],
    )
    loaded, problems = read_responses(responses, golden)
    assert [(r.pipeline, r.response) for r in loaded.responses] == [("P1", "Jassy")]
    assert [p.column for p in _only(problems, Severity.INFO)] == ["question", "pipeline", "response"]


def test_zero_width_characters_in_cells_are_a_warning(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "golden.csv",
        [
            ["id", "question", "answer"],
            ["q01", "Who?", "the CEO\u200b of Amazon"],
            ["q02", "What\u00a0now?", "x"],
        ],
    )
    table = read_table(path)
    assert table.rows[0][2] == "the CEO\u200b of Amazon"  # kept: the analyst decides
    [warning] = _only(table.problems, Severity.WARNING)  # a no-break space is only a space to the metrics
    assert (warning.row, warning.column) == (2, "answer")
    assert warning.message == (
        "the text holds characters Excel does not show (<U+200B>): 'the CEO<U+200B> of Amazon'. They are "
        "kept and count in the scores; remove them if they are not meant."
    )


# -- symbolic links -----------------------------------------------------------------------------


def test_symbolic_link_loops_and_broken_links_say_so(tmp_path: Path) -> None:
    good = write_csv(tmp_path / "real.csv", [["id", "question", "answer"], ["q01", "Who?", "Me"]])
    (tmp_path / "link.csv").symlink_to("real.csv")
    (tmp_path / "a.csv").symlink_to("b.csv")
    (tmp_path / "b.csv").symlink_to("a.csv")
    (tmp_path / "self.csv").symlink_to("self.csv")
    (tmp_path / "broken.csv").symlink_to("gone/golden.csv")
    (tmp_path / "loopdir").symlink_to("loopdir")
    assert read_table(tmp_path / "link.csv").rows == read_table(good).rows
    expected = {
        "a.csv": "a.csv is a symbolic link loop (a.csv → b.csv → a.csv).",
        "self.csv": "self.csv is a symbolic link loop (self.csv → self.csv).",
        "broken.csv": "broken.csv is a broken link to gone/golden.csv (nothing is there).",
        "loopdir/golden.csv": (
            f"golden.csv lies in a folder that is a symbolic link loop ({tmp_path / 'loopdir/golden.csv'})."
        ),
        "missing.csv": f"missing.csv was not found (looked for {tmp_path / 'missing.csv'}).",
    }
    for name, message in expected.items():
        for read in (read_table, read_golden, preview):
            with pytest.raises(InputError) as caught:
                read(tmp_path / name)
            assert caught.value.problem.message == message
            assert caught.value.problem.severity is Severity.FATAL

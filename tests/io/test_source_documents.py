"""Reading source documents: a real PDF (written by the test), text and Markdown files, and
CSV files of chunks — with clear errors naming the file, page, row and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.io.pdf_files import write_pdf

from goldenlens.core.golden.source_chunks import SourceChunk
from goldenlens.core.problems import InputError, Severity
from goldenlens.io.importing.sample import sample_dir
from goldenlens.io.importing.source_documents import read_source, read_sources

pytest.importorskip("pypdf")


def test_a_pdf_gives_chunks_with_their_pages(tmp_path: Path) -> None:
    path = write_pdf(
        tmp_path / "report.pdf",
        [
            ["Amazon.com, Inc. (Amazon) reported", "net sales of $134,383 million."],
            [],  # a page without a text layer, as a scanned page would be
            ["Operating income was $7,681 million.", "", "AWS segment sales grew 12%."],
        ],
    )
    document = read_source(path)
    assert [(c.chunk_id, c.page, c.text) for c in document.chunks] == [
        ("p1-1", 1, "Amazon.com, Inc. (Amazon) reported net sales of $134,383 million."),
        ("p3-1", 3, "Operating income was $7,681 million. AWS segment sales grew 12%."),
    ]
    assert {c.document for c in document.chunks} == {"report.pdf"}
    assert [(p.severity, p.message) for p in document.problems] == [
        (Severity.WARNING, "page 2 has no text layer (a scanned image?); it is left out")
    ]


def test_a_long_pdf_page_is_cut_within_the_limit_and_keeps_its_page(tmp_path: Path) -> None:
    sentences = [f"Sentence number {n} ends here." for n in range(1, 11)]  # 5 words each
    document = read_source(write_pdf(tmp_path / "long.pdf", [["Cover."], sentences]), max_words=12)
    assert [(c.chunk_id, c.page) for c in document.chunks] == [
        ("p1-1", 1), ("p2-1", 2), ("p2-2", 2), ("p2-3", 2), ("p2-4", 2), ("p2-5", 2)
    ]  # fmt: skip
    assert document.chunks[1].text == "Sentence number 1 ends here. Sentence number 2 ends here."
    assert " ".join(c.text for c in document.chunks[1:]) == " ".join(sentences)


def test_a_file_that_is_not_a_pdf_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"this is no PDF at all")
    with pytest.raises(InputError) as caught:
        read_source(path)
    assert caught.value.problem.file == "broken.pdf"
    assert "not a readable PDF" in caught.value.problem.message


def test_text_and_markdown(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("Net sales rose 11%.\nThat is all.\n\nAWS grew 12%.\n", encoding="utf-8")
    assert [(c.chunk_id, c.text, c.page) for c in read_source(text).chunks] == [
        ("c1", "Net sales rose 11%. That is all.\n\nAWS grew 12%.", None)
    ]
    markdown = tmp_path / "faq.md"
    markdown.write_bytes("# Café\n\nThe principal office is at 410 Terry Avenue North.\n".encode("utf-8-sig"))
    chunks = read_source(markdown).chunks
    assert chunks == (
        SourceChunk("faq.md", "c1", "# Café\n\nThe principal office is at 410 Terry Avenue North."),
    )


def test_a_text_file_in_no_known_encoding_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.txt"
    path.write_bytes(b"fine line\n\x81\x8d\x8f\x90\x9d broken\n")
    with pytest.raises(InputError) as caught:
        read_source(path)
    assert caught.value.problem.file == "odd.txt"


def test_the_sample_chunk_file() -> None:
    document = read_source(sample_dir() / "source_chunks.csv")
    assert len(document.chunks) == 10
    first = document.chunks[0]
    assert (first.chunk_id, first.row, first.page) == ("c_officers", 2, None)
    assert first.text.startswith("Andrew R. Jassy, President and Chief Executive Officer")
    assert document.problems == ()


def test_a_chunk_file_with_pages_and_a_row_without_text(tmp_path: Path) -> None:
    path = tmp_path / "chunks.csv"
    path.write_text("id,page,text\na1,3,First chunk.\na2,,\n\na3,,Third chunk.\n", encoding="utf-8")
    document = read_source(path)
    assert [(c.chunk_id, c.page, c.row, c.text) for c in document.chunks] == [
        ("a1", 3, 2, "First chunk."),
        ("a3", None, 5, "Third chunk."),
    ]
    assert [p.format() for p in document.problems] == [
        "chunks.csv, row 3, column 'C': error: chunk 'a2' has no text; it is left out"
    ]


@pytest.mark.parametrize(
    ("content", "row", "column", "message"),
    [
        (
            "name,body\nx,y\n",
            1,
            None,
            "the header has no id column (chunk_id or id) and no text column (text, chunk",
        ),
        ("chunk_id,text\nc1,one\nc1,two\n", 3, "A", "chunk id 'c1' is used again (first in row 2)"),
        ("chunk_id,text\n,orphan text\n", 2, "A", "this chunk has no id"),
        ("chunk_id,text,page\nc1,one,two\n", 2, "C", "the page must be a number from 1, not 'two'"),
    ],
)
def test_bad_chunk_files_name_the_row_and_column(
    tmp_path: Path, content: str, row: int, column: str | None, message: str
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_source(path)
    problem = caught.value.problem
    assert (problem.file, problem.row, problem.column) == ("bad.csv", row, column)
    assert message in problem.message


def test_unknown_suffix_missing_file_and_two_files_of_one_name(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"cannot read \.docx"):
        read_source(tmp_path / "a.docx")
    with pytest.raises(InputError, match="does not exist"):
        read_source(tmp_path / "missing.pdf")
    (tmp_path / "x").mkdir()
    for folder in (tmp_path, tmp_path / "x"):
        (folder / "same.txt").write_text("text", encoding="utf-8")
    with pytest.raises(InputError, match=r"two source files are named same\.txt"):
        read_sources([tmp_path / "same.txt", tmp_path / "x" / "same.txt"])

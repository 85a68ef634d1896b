"""The report workbook as a reader meets it on paper: every sheet converted to PDF by LibreOffice
(headless), and no two words printed over each other on any page.

A wrapped cell whose row is too short prints its lines over the rows below; a text cut off by
the next cell prints its clipped glyphs under that cell's text. Either way two word boxes
overlap. The project has everything a report shows: overrides, review decisions, labels (so
the Decision sheet leads with what reviewers would judge) and a judge run with a not-scored row.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import openpyxl
import pytest
from reviewed_project import reviewed_project

from goldenlens.io.reports.xlsx.row_heights import wrapped_lines
from goldenlens.jobs.reporting.report_job import export_report
from goldenlens.store.project import ProjectStore

#: Points two boxes may share across (glyph side bearings of neighbouring words).
ACROSS_TOLERANCE = 0.5
#: Share of a line's height two boxes may share down the page: a word box spans the font's
#: ascent and descent, a little more than the line spacing, so the lines of one wrapped cell
#: overlap by about a tenth of their height; a line printed over another overlaps by far more.
DOWN_TOLERANCE = 0.25
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


@dataclass(frozen=True)
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Word) -> bool:
        across = min(self.x1, other.x1) - max(self.x0, other.x0)
        down = min(self.y1, other.y1) - max(self.y0, other.y0)
        height = min(self.y1 - self.y0, other.y1 - other.y0)
        return across > ACROSS_TOLERANCE and down > DOWN_TOLERANCE * height


def pdf_pages(pdf: Path) -> list[list[Word]]:
    """The words of each page with their boxes, as ``pdftotext -bbox`` reads them."""
    out = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return [
        [Word(unescape(t), float(a), float(b), float(c), float(d)) for a, b, c, d, t in _WORD.findall(page)]
        for page in out.split("<page ")[1:]
    ]


def overlapping(words: list[Word]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap, top to bottom."""
    ordered = sorted(words, key=lambda w: w.y0)
    found = []
    for i, word in enumerate(ordered):
        for other in ordered[i + 1 :]:
            if other.y0 >= word.y1:
                break
            if word.overlaps(other):
                found.append((word.text, other.text))
    return found


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[Word]]]:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None or shutil.which("pdftotext") is None:
        pytest.skip("LibreOffice (soffice) or poppler's pdftotext is not installed")
    folder = tmp_path_factory.mktemp("paper")
    book = folder / "report.xlsx"
    with ProjectStore.open(reviewed_project(folder)) as store:
        export_report(store, book)
    profile = folder / "lo-profile"  # its own profile: parallel runs do not share a lock
    subprocess.run(
        [
            soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--convert-to", "pdf",
            "--outdir", str(folder), str(book),
        ],
        capture_output=True, timeout=180, check=True,
    )  # fmt: skip
    pdf = folder / "report.pdf"
    assert pdf.exists(), "LibreOffice wrote no PDF"
    return book, pdf_pages(pdf)


def test_every_sheet_is_printed(printed: tuple[Path, list[list[Word]]]) -> None:
    book, pages = printed
    sheets = openpyxl.load_workbook(book, read_only=True).sheetnames
    # Each page's footer, its lowest line, names its sheet (left) beside "Page n of N".
    footers = []
    for page in pages:
        bottom = max(w.y0 for w in page)
        footers.append(" ".join(w.text for w in sorted(page, key=lambda w: w.x0) if w.y0 > bottom - 2))
    printed_sheets = {footer.split(" Page ")[0] for footer in footers}
    assert printed_sheets == set(sheets)
    assert {"Judge", "Overrides", "Review", "Comparisons"} <= set(sheets)


def test_no_words_print_over_each_other(printed: tuple[Path, list[list[Word]]]) -> None:
    _book, pages = printed
    clashes = {number: overlapping(words) for number, words in enumerate(pages, start=1)}
    clashes = {number: pairs[:5] for number, pairs in clashes.items() if pairs}
    assert clashes == {}


def test_the_calibrated_block_and_the_verdicts_are_on_the_decision_page(
    printed: tuple[Path, list[list[Word]]],
) -> None:
    _book, pages = printed
    first = " ".join(w.text for w in pages[0])
    assert "As a reviewer would judge them" in first
    assert "more comparison(s) on the Comparisons sheet" in first  # the note under the verdicts, whole
    assert "cannot tell the pipelines apart)." in first


def test_lines_are_estimated_as_a_spreadsheet_wraps_them() -> None:
    sentence = "What were Amazon's total net sales for the second quarter of 2023?"
    assert wrapped_lines(sentence, 80) == 1
    assert wrapped_lines(sentence, 40) == 2  # words move to the next line whole
    assert wrapped_lines(f"{sentence}\n{sentence}", 80) == 2  # each paragraph starts a line
    assert wrapped_lines("9" * 45, 10) == 5  # a word longer than a line is broken across lines
    # A pass rate's count in a metric column: two lines at 9 points (as LibreOffice wraps it),
    # one in a column a third wider.
    assert wrapped_lines("1412/1938 [71%, 75%]", 15, size=9) == 2
    assert wrapped_lines("1412/1938 [71%, 75%]", 20, size=9) == 1
    assert wrapped_lines("Factual Knowledge", 15, bold=True) == 2  # as the calibrated block's header wraps
    assert wrapped_lines("Factual Knowledge", 20, bold=True) == 1
    assert wrapped_lines("", 5) == 1

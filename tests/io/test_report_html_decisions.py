"""The HTML report carries what the workbook carries of the reviewers and the judge: an
overridden score marked with the score it replaced, who, when and why; every override listed;
each question's review status and note; each response's label with its reviewer and note; the
judge's means with their model and caveat, and each response's judge score or why it has none.

The project is made by the real jobs (:mod:`reviewed_project`) and exported as ``goldenlens
report`` exports it; the page is parsed and each value looked for in its own row and column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from reviewed_project import (
    JUDGE_MODEL,
    LABELS,
    NOT_SCORED_KEY,
    NOT_SCORED_REASON,
    OVERRIDE,
    REVIEWS,
    judge_value,
    reviewed_project,
)

from goldenlens.io.reports.judge_summary import JUDGE_CAVEAT
from goldenlens.jobs.reporting.report_job import export_report
from goldenlens.store.project import ProjectStore


@dataclass
class Cell:
    text: str = ""
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class Row:
    attrs: dict[str, str]
    cells: list[Cell] = field(default_factory=list)

    def text(self, index: int) -> str:
        return " ".join(self.cells[index].text.split())


class Tables(HTMLParser):
    """Every table of the page by its id: its header texts and its body rows."""

    def __init__(self) -> None:
        super().__init__()
        self.headers: dict[str, list[str]] = {}
        self.rows: dict[str, list[Row]] = {}
        self.paragraphs: dict[str, str] = {}
        self._table = ""
        self._row: Row | None = None
        self._cell: Cell | None = None
        self._paragraph = ""
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "table":
            self._table = found.get("id", "")
            self.headers[self._table], self.rows[self._table] = [], []
        elif tag == "thead":
            self._in_head = True
        elif tag == "tbody":
            self._in_head = False
        elif tag == "tr" and not self._in_head:
            self._row = Row(found)
            self.rows[self._table].append(self._row)
        elif tag in ("td", "th"):
            self._cell = Cell(attrs=found)
            if self._in_head:
                self.headers[self._table].append("")
            elif self._row is not None:
                self._row.cells.append(self._cell)
        elif tag == "br" and self._cell is not None:
            self._cell.text += " | "
        elif tag == "p" and "id" in found:
            self._paragraph = found["id"]
            self.paragraphs[self._paragraph] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._cell = None
        elif tag == "p":
            self._paragraph = ""

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.text += data
            if self._in_head:
                self.headers[self._table][-1] += data
        if self._paragraph:
            self.paragraphs[self._paragraph] += data


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    folder = tmp_path_factory.mktemp("html")
    out = folder / "report.html"
    with ProjectStore.open(reviewed_project(folder)) as store:
        export_report(store, out)
    tables = Tables()
    tables.feed(out.read_text(encoding="utf-8"))
    return tables


def _row(page: Tables, question_id: str, pipeline: str) -> tuple[Row, list[str]]:
    headers = page.headers["rows"]
    found = [
        r for r in page.rows["rows"] if r.attrs.get("data-pipeline") == pipeline and r.text(0) == question_id
    ]
    assert len(found) == 1
    return found[0], headers


def test_an_overridden_score_is_marked_with_the_score_it_replaced(page: Tables) -> None:
    question_id, pipeline, _metric, value, reviewer, note = OVERRIDE
    row, headers = _row(page, question_id, pipeline)
    cell = row.cells[headers.index("FK")]
    assert cell.text.split(" | ") == [f"{value:.3f}*", "was 0.000"]
    assert "overridden" in cell.attrs["class"].split()
    title = cell.attrs["title"]
    assert title.startswith(f"Overridden by {reviewer} on 20")
    assert f"UTC: {note}." in title
    assert "Original 0.000, now 1.000 (pass)." in title
    # A score nobody overrode is the plain number.
    other = row.cells[headers.index("FK quasi")]
    assert other.text == "0.000"
    assert "title" not in other.attrs


def test_every_override_is_listed_with_original_reviewer_time_and_note(page: Tables) -> None:
    question_id, pipeline, _metric, _value, reviewer, note = OVERRIDE
    headers = page.headers["overrides"]
    (row,) = page.rows["overrides"]
    values = dict(zip(headers, (row.text(i) for i in range(len(headers))), strict=True))
    assert values["ID"] == question_id
    assert values["Pipeline"] == pipeline
    assert values["Metric"] == "Factual knowledge"
    assert (values["Original"], values["Overridden value"], values["Verdict"]) == ("0.000", "1.000", "pass")
    assert values["Reviewer"] == reviewer
    assert values["Note"] == note
    assert values["When (UTC)"].startswith("20")
    assert len(values["When (UTC)"]) == 19


def test_review_status_and_note_in_the_reviews_table_and_on_every_row(page: Tables) -> None:
    headers = page.headers["reviews"]
    listed = {row.text(0): row for row in page.rows["reviews"]}
    assert set(listed) == set(REVIEWS)
    for question_id, (status, note, reviewer) in REVIEWS.items():
        row = listed[question_id]
        assert row.text(headers.index("Status")) == status.replace("_", " ")
        assert row.text(headers.index("Note")) == note
        assert row.text(headers.index("Reviewer")) == reviewer
        for pipeline in ("Pipeline1", "Pipeline2", "Pipeline3"):
            response, columns = _row(page, question_id, pipeline)
            assert response.text(columns.index("Review")) == f"{status.replace('_', ' ')} | {note}"
    assert page.paragraphs["review-counts"] == "accepted 1 · needs curation 1 · unreviewed 8"
    unreviewed, columns = _row(page, "q01", "Pipeline1")
    assert unreviewed.text(columns.index("Review")) == ""


def test_each_label_shows_its_verdict_reviewer_and_note(page: Tables) -> None:
    for (question_id, pipeline), (verdict, reviewer, note) in LABELS.items():
        row, headers = _row(page, question_id, pipeline)
        expected = " · ".join(filter(None, (reviewer, note)))
        assert row.text(headers.index("Label")) == f"{verdict.value} | {expected}"


def test_judge_means_models_caveat_and_each_rows_score_or_reason(page: Tables) -> None:
    assert page.headers["judge-means"] == ["Pipeline", "Faithfulness", "Not scored"]
    means = {row.text(0): (row.text(1), row.text(2)) for row in page.rows["judge-means"]}
    # Pipeline2's mean leaves out its not-scored q01 row.
    p2 = [judge_value(qi, 1) for qi in range(10) if qi != 0]
    assert means["Pipeline2"] == (f"{sum(p2) / len(p2):.3f}", "1")
    p1 = [judge_value(qi, 0) for qi in range(10)]
    assert means["Pipeline1"] == (f"{sum(p1) / len(p1):.3f}", "0")
    assert page.paragraphs["judge-model"] == f"Judge model: {JUDGE_MODEL}"
    assert page.paragraphs["judge-caveat"] == JUDGE_CAVEAT
    row, headers = _row(page, *NOT_SCORED_KEY)
    assert row.text(headers.index("Faithfulness")) == f"n/s | {NOT_SCORED_REASON}"
    scored, _ = _row(page, "q04", "Pipeline3")
    assert scored.text(headers.index("Faithfulness")) == f"{judge_value(3, 2):.3f}"

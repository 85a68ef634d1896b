"""The HTML report: escaped, self-contained (no URL, a policy that forbids every request), the
same highlighted words as the workbook, and — in a headless Chromium — rows and filters working."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import fields, replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
from decisions import DecidedReport, comparison, hand_decision
from test_report_writer import _report

from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, WordKind
from goldenlens.core.scored_rows import Report
from goldenlens.io.reports.html.page import report_html, write_report_html

HOSTILE = "<script>alert('x')</script> \"quoted\" & 'single' <b>bold</b>"


@pytest.fixture(scope="module")
def report() -> Report:
    return _report()


def _decided(report: Report, *, with_decision: bool = True) -> DecidedReport:
    values = {f.name: getattr(report, f.name) for f in fields(Report)}
    verdict = comparison("Pipeline1", "Pipeline2", FACTUAL_KNOWLEDGE, 0.4, better="Pipeline1", p=0.03)
    return DecidedReport(**values, given=hand_decision(report, (verdict,)) if with_decision else None)


def _hostile(report: Report) -> Report:
    """The sample with markup and quotes in a response, a question and a pipeline name."""
    first = report.rows[0]
    response = replace(first.response, response=HOSTILE + " " + first.response.response)
    item = replace(first.item, question=HOSTILE)
    return replace(report, rows=(replace(first, response=response, item=item), *report.rows[1:]))


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts = 0
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.scripts += tag == "script"


def test_markup_in_the_inputs_is_text(report: Report) -> None:
    page = report_html(_hostile(report))
    parser = _Collect()
    parser.feed(page)
    assert parser.scripts == 1  # the page's own script only
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "&quot;quoted&quot; &amp; &#x27;single&#x27; &lt;b&gt;bold&lt;/b&gt;" in page


def test_the_page_asks_for_nothing_outside_itself(report: Report) -> None:
    page = report_html(_decided(report))
    assert not re.search(r"https?://", page)  # the sample's texts hold no URL either
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert not re.search(r"\b(src|href)=", page)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert policy is not None
    assert "default-src &#x27;none&#x27;" in policy.group(1)
    assert "<svg" in page  # the chart is inline


def test_rows_and_highlights_match_the_alignment(report: Report) -> None:
    page = report_html(report)
    assert page.count("<tr data-pipeline=") == len(report.rows)
    scored = report.row("q10", "Pipeline1")
    assert scored is not None
    assert scored.result.alignment is not None
    response = scored.response.response
    matched = [
        response[s.start : s.end] for s in scored.result.alignment.response if s.kind is WordKind.MATCHED
    ]
    row = next(
        line
        for line in page.splitlines()
        if line.startswith('<tr data-pipeline="Pipeline1"') and ">q10<" in line
    )
    cell = row.split('<td class="text">')[1]
    found = re.findall(r'<span class="w-matched[^"]*">([^<]*)</span>', cell)
    assert found == matched


def test_intervals_not_available_without_a_decision(report: Report) -> None:
    assert 'id="no-intervals"' in report_html(_decided(report, with_decision=False))
    decided = report_html(_decided(report))
    assert 'id="no-intervals"' not in decided
    assert "[0.68, 0.93]" in decided  # Pipeline1 FK 0.8 ± 0.125
    assert "Pipeline1 beats Pipeline2 on factual knowledge" in decided


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _dump_dom(browser: str, page: Path, fragment: str, profile: Path) -> str:
    result = subprocess.run(
        [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
            "--dump-dom", page.as_uri() + fragment,
        ],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return result.stdout


def _visible_rows(dom: str) -> list[str]:
    rows = re.findall(r"<tr data-pipeline=\"([^\"]*)\"[^>]*?( hidden=\"\")?>", dom)
    return [pipeline for pipeline, hidden in rows if not hidden]


@pytest.mark.skipif(_chromium() is None, reason="no chromium installed")
def test_the_page_works_in_a_headless_browser(report: Report, tmp_path: Path) -> None:
    browser = _chromium()
    assert browser is not None
    page = tmp_path / "report.html"
    write_report_html(_hostile(_decided(report)), page)
    dom = _dump_dom(browser, page, "", tmp_path / "profile")
    assert len(_visible_rows(dom)) == 30
    assert "30 of 30 rows shown" in dom  # the script ran
    assert "<script>alert" not in dom
    assert "<rect" in dom
    assert "Pipeline1 beats Pipeline2" in dom

    dom = _dump_dom(browser, page, "#pipeline=Pipeline2", tmp_path / "profile")
    assert _visible_rows(dom) == ["Pipeline2"] * 10
    assert "10 of 30 rows shown" in dom

    expected = sum(
        1
        for r in report.rows
        if "seattle" in (r.item.question + r.response.response + r.item.answer + r.item.fact).lower()
    )
    dom = _dump_dom(browser, page, "#q=Seattle", tmp_path / "profile")
    assert 0 < len(_visible_rows(dom)) == expected

    flagged = sum(1 for r in report.rows if r.flags)
    dom = _dump_dom(browser, page, "#flag=*", tmp_path / "profile")
    assert len(_visible_rows(dom)) == flagged


def _html_rates(page: str) -> dict[str, list[str]]:
    """The HTML's pass-rate cells by pipeline, as shown (``80% 8/10 [..]``)."""
    table = re.search(r'<table class="rates">(.*?)</table>', page, re.S)
    assert table is not None
    found: dict[str, list[str]] = {}
    for pipeline, cells in re.findall(r"<tr><th>([^<]+)</th>(.*?)</tr>", table.group(1)):
        shown = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", cells)]
        if shown:  # the header row has none
            found[pipeline] = shown
    return found


def test_pass_rates_count_the_rows_and_match_the_workbook(report: Report, tmp_path: Path) -> None:
    """The pass-rate table holds, per pipeline, the responses at Factual knowledge 1 counted from
    the rows, and the same cell texts as the workbook's Decision sheet."""
    import openpyxl

    from goldenlens.io.reports.xlsx.workbook import write_report_workbook

    page = report_html(report)
    assert "<th>Factual knowledge = 1</th>" in page
    rates = _html_rates(page)
    assert list(rates) == list(report.pipelines)
    for pipeline in report.pipelines:
        rows = [r for r in report.rows if r.response.pipeline == pipeline]
        passed = sum(1 for r in rows if (r.scores[FACTUAL_KNOWLEDGE] or 0.0) >= 1.0)
        assert rates[pipeline][0].startswith(f"{passed / len(rows):.0%} {passed}/{len(rows)} [")

    path = tmp_path / "r.xlsx"
    write_report_workbook(report, path)
    sheet = openpyxl.load_workbook(path)["Decision"]
    cells = [[c.value for c in row] for row in sheet.iter_rows()]
    header = next(i for i, row in enumerate(cells) if row[0] == "Pass rate")
    for offset, pipeline in enumerate(report.pipelines):
        values, detail = cells[header + 1 + 2 * offset], cells[header + 2 + 2 * offset]
        assert values[0] == pipeline
        shown = [f"{v:.0%} {d}" for v, d in zip(values[1:], detail[1:], strict=False) if v is not None]
        assert shown == rates[pipeline]

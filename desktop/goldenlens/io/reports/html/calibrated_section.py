"""The HTML report's first section when the report is a project's: what a reviewer would judge
(each pipeline's share of correct responses with its interval, Factual Knowledge beside it), the
verdicts on it, how far the metrics agree with the labels and how often each diagnosis held; or,
before any label, that the metric has not been checked against a reviewer."""

from __future__ import annotations

from collections.abc import Iterator
from html import escape

from goldenlens.core.calibration.human_calibrated import HumanCalibrated, pair_verdict
from goldenlens.core.scored_rows import Report
from goldenlens.io.reports.calibrated_text import (
    TITLE,
    agreement_sentence,
    diagnosis_sentences,
    ordered_pairs,
)
from goldenlens.io.reports.decision_tables import reviewer_rows


def calibrated_section(report: Report) -> Iterator[str]:
    """The section (nothing for a report scored without a project)."""
    found = report.human_calibrated
    if found is None:
        return
    yield f'<section id="reviewer"><h2>{escape(TITLE)}</h2>'
    kind = "note" if found.checked else "warn"
    yield f'<p class="{kind}" id="reviewer-headline">{escape(found.headline())}</p>'
    if found.checked:
        yield from _table(report, found)
        yield from _verdicts(found)
    yield "</section>\n"


def _table(report: Report, found: HumanCalibrated) -> Iterator[str]:
    yield '<table class="means" id="reviewer-shares"><thead><tr><th>Pipeline</th><th>Judged correct</th>'
    yield "<th>95% CI</th><th>Labelled</th><th>Factual Knowledge</th></tr></thead><tbody>"
    colour_of = {p: i for i, p in enumerate(report.pipelines)}
    for row in reviewer_rows(report, found):
        share = "-" if row.share is None else f"{row.share:.3f}"
        fk = "-" if row.factual_knowledge is None else f"{row.factual_knowledge:.3f}"
        colour = colour_of.get(row.pipeline, 0) % 7
        yield (
            f'<tr><th><span class="chip c{colour}"></span>{escape(row.pipeline)}</th>'
            f'<td class="num">{share}</td><td class="num">{row.interval}</td>'
            f'<td class="num">{row.labelled}</td><td class="num">{fk}</td></tr>'
        )
    yield "</tbody></table>\n"


def _verdicts(found: HumanCalibrated) -> Iterator[str]:
    if found.pairs:
        yield '<ul class="verdicts" id="reviewer-verdicts">'
        for pair in ordered_pairs(found.pairs):
            kind = "decided" if pair.better is not None else "undecided"
            yield f'<li class="{kind}">{escape(pair_verdict(pair, found.level))}</li>'
        yield "</ul>"
    notes = [agreement_sentence(found), *diagnosis_sentences(dict(found.diagnoses)), *found.notes]
    yield "".join(f'<p class="note">{escape(note)}</p>' for note in notes if note)

"""The report as ONE self-contained HTML file a decision-maker opens in any browser, offline.

Sections: what a reviewer would judge (with labels), the decision (means with 95% confidence
intervals, pass rates, verdicts, an inline SVG chart with error bars in the app's pipeline
colours), the local judge's means (with a judge run), the reviewers' decisions (overrides and
question reviews, :mod:`goldenlens.io.reports.html.reviewer_decisions`), then the per-question
table with the responses and golden answers highlighted, each row's review, label, overridden
scores and judge scores, filterable by pipeline, flag and text, then what produced the numbers
(files, thresholds, signatures).

Self-contained and offline by construction: the CSS and the few lines of script are inline,
the chart is SVG drawn here, and a Content-Security-Policy forbids every request (only the
page's own style and script, pinned by their SHA-256, may run): the file needs no network and
cannot reach one, even if a response held markup. Every text from the inputs goes through
:func:`html.escape`.

Highlights come from the same spans as the workbook's Highlights sheet and the app
(:func:`goldenlens.io.reports.xlsx.highlights_sheet.segments` over ``ScoredRow.explained``): the words
marked are exactly the words counted. The filter state may be given in the address's fragment
(``report.html#pipeline=Pipeline2&flag=verbose&q=revenue``), so a filtered view can be shared.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path

from goldenlens.core.lexical.flags import FLAG_LABELS, Flag
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES, WordKind
from goldenlens.core.scored_rows import Report, ScoredRow
from goldenlens.core.stats.decision import Decision
from goldenlens.core.stats.decision_source import decision_for
from goldenlens.core.view.grid_state import SHOWN_PIPELINES
from goldenlens.core.view.highlight_styles import FACT
from goldenlens.core.view.metric_names import metric_label, metric_short
from goldenlens.core.view.wording import interval_text, time_text
from goldenlens.io.atomic_files import write_atomically
from goldenlens.io.reports.calibrated_text import report_flag_checks
from goldenlens.io.reports.decision_tables import PassRateTable, means_rows, pass_rate_table
from goldenlens.io.reports.decision_text import NO_INTERVALS, ordered_verdicts
from goldenlens.io.reports.html.assets import CSS, SCRIPT
from goldenlens.io.reports.html.calibrated_section import calibrated_section
from goldenlens.io.reports.html.chart import means_svg
from goldenlens.io.reports.html.reviewer_decisions import (
    MARK_NOTE,
    decisions_section,
    judge_cells,
    judge_section,
    label_cell,
    review_cell,
    score_cell,
)
from goldenlens.io.reports.judge_summary import judge_signature_lines
from goldenlens.io.reports.row_fields import JudgeScores, judge_metric_names, scored_row_fields
from goldenlens.io.reports.xlsx.highlights_sheet import Segment, segments
from goldenlens.io.reports.xlsx.table_sheets import ordered_rows


def esc(text: object) -> str:
    """Text made safe for HTML content and quoted attributes."""
    return html.escape(str(text), quote=True)


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def content_security_policy() -> str:
    """No request of any kind; only this page's own style and script (by hash)."""
    return (
        f"default-src 'none'; style-src '{_sha256(CSS)}'; script-src '{_sha256(SCRIPT)}'; "
        "img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"
    )


def write_report_html(
    report: Report,
    path: Path,
    *,
    sources: Sequence[str] = (),
    generated_at: datetime | None = None,
    judge: JudgeScores | None = None,
) -> None:
    """Write the HTML report of ``report`` to ``path``, whole or not at all (ExportError);
    ``judge`` (the judge run's scores by row and metric) adds the judge's means and scores."""

    def write(temporary: Path) -> None:
        with temporary.open("w", encoding="utf-8", newline="\n") as handle:
            for piece in report_html_pieces(report, sources=sources, generated_at=generated_at, judge=judge):
                handle.write(piece)

    write_atomically(path, write)


def report_html(
    report: Report,
    *,
    sources: Sequence[str] = (),
    generated_at: datetime | None = None,
    judge: JudgeScores | None = None,
) -> str:
    """The whole page as one string (:func:`report_html_pieces` joined)."""
    return "".join(report_html_pieces(report, sources=sources, generated_at=generated_at, judge=judge))


def report_html_pieces(
    report: Report,
    *,
    sources: Sequence[str] = (),
    generated_at: datetime | None = None,
    judge: JudgeScores | None = None,
) -> Iterator[str]:
    """The page in pieces, row by row, so a large report is never held whole in memory."""
    judge = judge or {}
    generated = time_text(generated_at)
    decision = decision_for(report)
    rows = ordered_rows(report)
    title = f"GoldenLens report · {len(report.golden)} questions · {len(report.pipelines)} pipelines"
    yield (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(content_security_policy())}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n"
    )
    yield f'<header><h1>Which pipeline?</h1><p class="note">{esc(title)} · generated {esc(generated)}'
    if decision is not None:
        yield esc(
            f" · 95% confidence intervals: seeded bootstrap over questions ({decision.resamples:,} "
            f"resamples, seed {decision.seed})"
        )
    yield "</p></header>\n"
    yield from calibrated_section(report)
    yield from _decision_section(report, decision)
    yield from judge_section(report, rows, judge)
    yield from decisions_section(report, rows)
    yield from _rows_section(report, rows, judge)
    yield from _about_section(report, sources, generated, decision, judge)
    yield f"<script>{SCRIPT}</script></body></html>\n"


def _decision_section(report: Report, decision: Decision | None) -> Iterator[str]:
    # Beyond ten pipelines, by rank on factual knowledge: the chart draws the first ten.
    table = means_rows(report, decision)
    yield '<section id="decision"><h2>Means with 95% confidence intervals</h2>'
    if decision is None:
        yield f'<p class="warn" id="no-intervals">{esc(NO_INTERVALS)}</p>'
    yield '<table class="means"><thead><tr><th>Pipeline</th>'
    yield "".join(f"<th>{esc(metric_label(m))}</th>" for m in LEXICAL_SCORE_NAMES)
    yield "<th>Responses</th></tr></thead><tbody>"
    for row in table:
        index = report.pipelines.index(row.pipeline)
        yield f'<tr><th><span class="chip c{index % 7}"></span>{esc(row.pipeline)}</th>'
        for m in LEXICAL_SCORE_NAMES:
            mean, found = row.means[m], row.estimates[m]
            ci = interval_text(found.low, found.high) if found is not None else ""
            text = "-" if mean is None else f"{mean:.3f}"
            yield f'<td class="num">{text}' + (f'<br><small class="ci">{ci}</small>' if ci else "") + "</td>"
        yield f'<td class="num">{row.responses}</td></tr>'
    yield "</tbody></table>\n"
    yield means_svg(table[:SHOWN_PIPELINES], LEXICAL_SCORE_NAMES)
    if len(table) > SHOWN_PIPELINES:
        yield (
            f'<p class="note" id="chart-note">The chart draws the {SHOWN_PIPELINES} leading pipelines by '
            f"factual knowledge; the table lists all {len(table)} by rank.</p>"
        )
    if decision is not None and decision.pass_rates:
        yield from _pass_rates(pass_rate_table(decision, tuple(row.pipeline for row in table)))
    if decision is not None and decision.comparisons:
        yield '<h2>Verdicts</h2><ul class="verdicts">'
        for c in ordered_verdicts(decision):
            kind = "decided" if c.better is not None else "undecided"
            caveat = f' <span class="caveat">({esc(c.caveat)})</span>' if c.caveat else ""
            yield f'<li class="{kind}">{esc(c.verdict)}{caveat}</li>'
        yield "</ul>"
    yield "</section>\n"


def _pass_rates(table: PassRateTable) -> Iterator[str]:
    yield '<h2>Pass rates</h2><table class="rates"><thead><tr><th>Pipeline</th>'
    yield "".join(f"<th>{esc(label)}</th>" for label in table.labels)
    yield "</tr></thead><tbody>"
    for pipeline, rates in table.rows:
        yield f"<tr><th>{esc(pipeline)}</th>"
        for r in rates:
            if r is None or r.rate is None:
                yield '<td class="num">-</td>'
                continue
            ci = interval_text(r.low, r.high, percent=True)
            yield f'<td class="num">{r.rate:.0%} <small class="ci">{r.passed}/{r.n} {ci}</small></td>'
        yield "</tr>"
    yield "</tbody></table>"


_KIND_CLASS = {WordKind.MATCHED: "w-matched", WordKind.EXTRA: "w-extra", WordKind.MISSED: "w-missed"}


def highlighted(pieces: Sequence[Segment]) -> str:
    """Escaped HTML of ``pieces``: each counted word in a span of its kind, fact parts marked."""
    out: list[str] = []
    for piece in pieces:
        classes = [_KIND_CLASS[piece.kind]] if piece.kind is not None else []
        if piece.in_fact:
            classes.append(FACT)
        text = esc(piece.text)
        out.append(f'<span class="{" ".join(classes)}">{text}</span>' if classes else text)
    return "".join(out)


def _rows_section(report: Report, rows: Sequence[ScoredRow], judge: JudgeScores) -> Iterator[str]:
    flags_seen = [f for f in Flag if any(f in row.flags for row in rows)]
    yield '<section id="questions"><h2>Questions and responses</h2><div class="filters">'
    yield '<label>Pipeline <select id="f-pipeline"><option value="">All</option>'
    yield "".join(f'<option value="{esc(p)}">{esc(p)}</option>' for p in report.pipelines)
    yield '</select></label> <label>Flag <select id="f-flag"><option value="">All rows</option>'
    yield '<option value="*">Any flag</option><option value="-">No flag</option>'
    yield "".join(f'<option value="{esc(f.value)}">{esc(FLAG_LABELS[f])}</option>' for f in flags_seen)
    yield '</select></label> <label>Search <input id="f-text" type="search" placeholder="words in any cell">'
    yield f'</label> <span id="shown">{len(rows)} of {len(rows)} rows shown</span></div>'
    checks = report_flag_checks(report)
    checked = [checks[f.value].sentence(f"{FLAG_LABELS[f]} flag") for f in flags_seen if f.value in checks]
    if checked:
        yield '<p class="note" id="flag-checks">Flags against the reviewer\'s labels: '
        yield esc("; ".join(checked)) + ".</p>"
    yield _legend(any(row.overrides for row in rows))
    metrics = judge_metric_names(judge)
    yield '<table id="rows"><thead><tr><th>ID</th><th>Question</th><th>Pipeline</th><th>Flags</th>'
    yield "<th>Review</th><th>Label</th>"
    yield "".join(
        f'<th title="{esc(metric_label(m))}">{esc(metric_short(m))}</th>' for m in LEXICAL_SCORE_NAMES
    )
    yield "".join(f'<th class="judge" title="local judge">{esc(metric_short(m))}</th>' for m in metrics)
    yield "<th>Response</th><th>Golden answer</th><th>Fact</th></tr></thead><tbody>\n"
    colour_of = {p: i for i, p in enumerate(report.pipelines)}
    for row in rows:
        # The row as the JSON and CSV reports have it: effective scores, reasons, review, judge.
        fields = scored_row_fields(report, row, judge, metrics)
        label = fields["label"]
        explained = row.explained  # the spans the scores counted, derived now, never stored
        alignment = explained.alignment
        facts = [(m.start, m.end) for m in explained.fact.matches]
        response = highlighted(
            segments(row.response.response, alignment.response if alignment else (), facts)
        )
        answer = highlighted(segments(row.item.answer, alignment.answer if alignment else ()))
        flags = " ".join(f.value for f in row.flags)
        labels = "; ".join(FLAG_LABELS[f] for f in row.flags)
        scores = "".join(
            score_cell(fields[m], row.overrides.get(m), fields["reasons"].get(m, ""))
            for m in LEXICAL_SCORE_NAMES
        )
        if metrics:
            scores += judge_cells(row, fields, metrics)
        colour = colour_of.get(row.response.pipeline, 0) % 7
        yield (
            f'<tr data-pipeline="{esc(row.response.pipeline)}" data-flags="{esc(flags)}">'
            f'<td>{esc(row.item.id)}</td><td class="question">{esc(row.item.question)}</td>'
            f'<td><span class="chip c{colour}"></span>{esc(row.response.pipeline)}</td>'
            f'<td class="flags">{esc(labels)}</td>'
            f"{review_cell(fields)}{label_cell(label)}{scores}"
            f'<td class="text">{response}</td><td class="text">{answer}</td>'
            f'<td class="text">{esc(row.item.fact)}</td></tr>\n'
        )
    yield "</tbody></table></section>\n"


def _legend(overridden: bool) -> str:
    entries = (
        ("w-matched", "matched word (underlined)"),
        ("w-extra", "extra word, not in the golden answer (italics)"),
        ("w-missed", "missed word, not in the response (struck through)"),
        (FACT, "fact part found (bold)"),
    )
    items = " · ".join(f'<span class="{cls}">{esc(text)}</span>' for cls, text in entries)
    return (
        f'<p class="legend">{items}<br><small>Words are the FMEval-normalised words the scores '
        "counted; uncoloured text was not counted. n/s = not scored."
        + (f"<br>{esc(MARK_NOTE)}" if overridden else "")
        + "</small></p>"
    )


def _about_section(
    report: Report, sources: Sequence[str], generated: str, decision: Decision | None, judge: JudgeScores
) -> Iterator[str]:
    entries: list[tuple[str, str]] = [("Generated at", generated)]
    entries += [("Source file", s) for s in sources] or [("Source files", "(not recorded)")]
    if report.golden_version:
        entries.append(("Golden-set version", report.golden_version))
    if decision is not None:
        entries += [
            (
                "Intervals",
                f"{decision.level:.0%} percentile bootstrap over questions (paired for comparisons)",
            ),
            ("Resamples, seed", f"{decision.resamples:,}, {decision.seed}"),
        ]
        entries += [(f"Pass threshold: {metric_label(m)}", f"{t:g}") for m, t in decision.thresholds.items()]
    entries += [(f"Flag threshold: {k}", str(v)) for k, v in report.thresholds.as_dict().items()]
    entries += [(f"Signature: {n}", s.short()) for n, s in report.signatures.items()]
    entries += [(f"Judge signature: {n}", text) for n, text in judge_signature_lines(judge).items()]
    yield '<section id="about"><details><summary>About this report</summary><table class="about">'
    yield "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in entries)
    yield "</table></details></section>\n"

"""What reviewers decided and what the local judge said, in the HTML report, as the workbook
carries them: each overridden score marked ``*`` in the question table with the score it
replaced (who, when and why on hover), every override listed with its original value, verdict,
reviewer, time and note; each question's review status and note; each response's label
(verdict, reviewer, note); the judge's means per pipeline with the models behind them and their
caveat, and each response's judge scores with the reasons of the ones not scored.

Every value comes from the report's row fields (:mod:`goldenlens.io.reports.row_fields`), the
ones the JSON and CSV reports write, and the judge summary the workbook's Summary sheet shows
(:mod:`goldenlens.io.reports.judge_summary`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from html import escape
from typing import Any

from goldenlens.core.reviewer_decisions import REVIEW_UNREVIEWED, AppliedOverride, review_counts
from goldenlens.core.scored_rows import Report, ScoredRow
from goldenlens.core.scores import ScoreStatus
from goldenlens.core.view.metric_names import metric_label
from goldenlens.io.reports.judge_summary import JUDGE_CAVEAT, judge_means, judge_models
from goldenlens.io.reports.row_fields import (
    JudgeScores,
    judge_metric_names,
    ordered_overrides,
    override_fields,
    override_verdict,
    review_fields,
    utc_time,
)

#: What a score cell reads when the judge run holds no record of the row.
NOT_JUDGED = "not judged"
#: What the ``*`` of an overridden score means, under the question table.
MARK_NOTE = "* = overridden by a reviewer (the score it replaced beneath; hover for who, when and why)"


def _number(value: float | None) -> str:
    return "n/s" if value is None else f"{value:.3f}"


def score_cell(value: float | None, override: AppliedOverride | None, reason: str = "") -> str:
    """A score's ``<td>``: the value (``n/s`` with the reason on hover when not scored), or an
    overridden value marked ``*`` with the score it replaced beneath it and, on hover, who
    overrode it, when and why (the words of the workbook's cell comment)."""
    if override is None:
        title = f' title="{escape(reason)}"' if value is None and reason else ""
        return f'<td class="num"{title}>{_number(value)}</td>'
    return (
        f'<td class="num overridden" title="{escape(override.describe())}">{_number(value)}*'
        f'<br><small class="was">was {_number(override.original)}</small></td>'
    )


def judge_cells(row: ScoredRow, fields: Mapping[str, Any], metrics: Sequence[str]) -> str:
    """The judge metrics' ``<td>`` cells of ``row`` (its :func:`row_fields` with a
    judge): the value, or "n/s" with its reason, or "not judged" when the run holds no record."""
    cells = []
    for name in metrics:
        status = fields["judge_status"][name]
        override = row.overrides.get(name)
        if status is None and override is None:
            cells.append(f'<td class="num judge">{NOT_JUDGED}</td>')
        elif status == ScoreStatus.NOT_SCORED.value and override is None:
            reason = fields["judge_reasons"].get(name, "") or "no reason recorded"
            cells.append(f'<td class="num judge">n/s<br><small class="reason">{escape(reason)}</small></td>')
        else:
            cells.append(score_cell(fields["judge"][name], override))
    return "".join(cells)


def review_cell(fields: Mapping[str, Any]) -> str:
    """The question's review status and note for a row (blank while unreviewed)."""
    status = fields["review_status"]
    if status == REVIEW_UNREVIEWED:
        return '<td class="review"></td>'
    note = f'<br><small class="note">{escape(fields["review_note"])}</small>' if fields["review_note"] else ""
    return f'<td class="review {escape(status)}">{escape(status.replace("_", " "))}{note}</td>'


def label_cell(label: Mapping[str, str] | None) -> str:
    """A response's label (:func:`~goldenlens.io.reports.row_fields.label_fields`): the verdict,
    then who gave it, their note and the pipeline whose same answer it was given to (blank when
    unlabelled)."""
    if label is None:
        return '<td class="label"></td>'
    origin = f"same answer as {label['same_answer_as']}" if label["same_answer_as"] else ""
    by = " · ".join(filter(None, (label["reviewer"], label["note"], origin)))
    detail = f'<br><small class="by">{escape(by)}</small>' if by else ""
    return f'<td class="label">{escape(label["verdict"])}{detail}</td>'


def judge_section(report: Report, rows: Sequence[ScoredRow], judge: JudgeScores) -> Iterator[str]:
    """The judge's means per pipeline (over the scored rows), the cells not scored, the models
    and the caveat (nothing without a judge run)."""
    if not judge:
        return
    metrics = judge_metric_names(judge)
    means = judge_means(rows, report.pipelines, judge)
    yield '<section id="judge"><h2>Local judge: mean of the scored rows</h2>'
    yield f'<p class="warn" id="judge-caveat">{escape(JUDGE_CAVEAT)}</p>'
    yield '<table class="means" id="judge-means"><thead><tr><th>Pipeline</th>'
    yield "".join(f"<th>{escape(metric_label(m))}</th>" for m in metrics)
    yield "<th>Not scored</th></tr></thead><tbody>"
    for index, pipeline in enumerate(report.pipelines):
        by_metric, missing = means.get(pipeline, ({}, 0))
        yield f'<tr><th><span class="chip c{index % 7}"></span>{escape(pipeline)}</th>'
        values = (by_metric.get(m) for m in metrics)  # None: no row of the pipeline scored
        yield "".join(f'<td class="num">{"-" if v is None else f"{v:.3f}"}</td>' for v in values)
        yield f'<td class="num">{missing}</td></tr>'
    yield "</tbody></table>"
    models = judge_models(judge)
    for label, key in (("Judge model", "judge_model"), ("Embedding model", "embedding_model")):
        names = ", ".join(models.get(key, [])) or "(none)"
        yield f'<p class="note" id="{key.replace("_", "-")}">{label}: {escape(names)}</p>'
    yield "</section>\n"


def decisions_section(report: Report, rows: Sequence[ScoredRow]) -> Iterator[str]:
    """Every override in force and every question's review (nothing when nobody decided)."""
    overrides = ordered_overrides(rows)
    reviewed = [item for item in report.golden if report.review(item.id).status != REVIEW_UNREVIEWED]
    if not overrides and not reviewed:
        return
    yield '<section id="decisions"><h2>Reviewer decisions</h2>'
    if overrides:
        yield f'<h3>Scores overridden ({len(overrides)})</h3><table id="overrides"><thead><tr>'
        yield "<th>ID</th><th>Pipeline</th><th>Metric</th><th>Original</th><th>Overridden value</th>"
        yield "<th>Verdict</th><th>Reviewer</th><th>When (UTC)</th><th>Note</th></tr></thead><tbody>"
        for row, override in overrides:
            o = override_fields(override)
            yield (
                f'<tr data-question="{escape(row.item.id)}" data-pipeline="{escape(row.response.pipeline)}">'
                f"<td>{escape(row.item.id)}</td><td>{escape(row.response.pipeline)}</td>"
                f"<td>{escape(metric_label(override.metric))}</td>"
                f'<td class="num">{_number(o["original"])}</td><td class="num">{_number(o["value"])}</td>'
                f"<td>{override_verdict(o['passed'])}</td><td>{escape(o['reviewer'])}</td>"
                f"<td>{escape(utc_time(o['created_at']))}</td><td>{escape(o['note'])}</td></tr>"
            )
        yield "</tbody></table>"
    counts = review_counts(report.review(item.id) for item in report.golden)
    summary = " · ".join(f"{status.replace('_', ' ')} {n}" for status, n in counts.items())
    yield f'<h3>Question reviews</h3><p class="note" id="review-counts">{escape(summary)}</p>'
    if reviewed:
        yield '<table id="reviews"><thead><tr><th>ID</th><th>Question</th><th>Status</th><th>Note</th>'
        yield "<th>Reviewer</th><th>When (UTC)</th></tr></thead><tbody>"
        for item in reviewed:
            r = review_fields(report.review(item.id))
            yield (
                f'<tr data-question="{escape(item.id)}">'
                f"<td>{escape(item.id)}</td><td>{escape(item.question)}</td>"
                f"<td>{escape(r['status'].replace('_', ' '))}</td><td>{escape(r['note'])}</td>"
                f"<td>{escape(r['reviewer'])}</td><td>{escape(utc_time(r['updated_at']))}</td></tr>"
            )
        yield "</tbody></table>"
    yield "</section>\n"

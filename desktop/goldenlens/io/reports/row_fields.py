"""The fields of a report row, shared by the JSON, CSV and HTML reports: ids, the seven
effective scores with their status and reasons, flags, the question's review, the overrides in
force and, with a judge run, the judge's values, statuses and reasons; and how the reports that
list reviewer decisions (the workbook, the HTML report) order and word them: overrides in row
order, their pass/fail verdict and time, a response's label."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.reviewer_decisions import AppliedOverride, QuestionReview
from goldenlens.core.scored_rows import Report, ScoredRow
from goldenlens.core.scores import ScoreRecord, ScoreStatus

if TYPE_CHECKING:  # a name only: the label module brings numpy, which scoring files imports later
    from goldenlens.core.calibration.labels import LabelRecord

#: Judge scores of a run: ``{(question_id, pipeline): {metric: record}}``.
JudgeScores = Mapping[tuple[str, str], Mapping[str, ScoreRecord]]


def judge_metric_names(judge: JudgeScores) -> list[str]:
    """The judge metrics present, in first-seen order."""
    names: list[str] = []
    for by_metric in judge.values():
        names.extend(name for name in by_metric if name not in names)
    return names


def _judge_fields(
    key: tuple[str, str], judge: JudgeScores, metrics: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """``judge`` {metric: value|None}, ``judge_status`` {metric: status|None} and
    ``judge_reasons`` {metric: reason} (not-scored metrics only) of one row."""
    by_metric = judge.get(key, {})
    values: dict[str, float | None] = {}
    status: dict[str, str | None] = {}
    reasons: dict[str, str] = {}
    for name in metrics:
        record = by_metric.get(name)
        values[name] = None if record is None else record.value
        status[name] = None if record is None else ScoreStatus(record.status).value
        if record is not None and record.status is ScoreStatus.NOT_SCORED:
            reasons[name] = record.reason
    return {"judge": values, "judge_status": status, "judge_reasons": reasons}


#: An override's entries in the JSON report and the CSV, in their order.
_OVERRIDE_KEYS = ("value", "original", "passed", "reviewer", "created_at", "note")
#: A question's review entries in the JSON report.
_REVIEW_KEYS = ("status", "note", "reviewer", "updated_at")
#: A label's entries besides its verdict.
_LABEL_KEYS = ("reviewer", "note", "created_at")


def override_fields(override: AppliedOverride) -> dict[str, Any]:
    """An override as JSON: the effective value, the stored score it replaced (``None``: not
    scored), the pass/fail verdict (``None`` when none was given), who, when and why."""
    return {key: getattr(override, key) for key in _OVERRIDE_KEYS}


def review_fields(review: QuestionReview) -> dict[str, str]:
    """A question's review as JSON: its status, note, reviewer and when it was last changed."""
    return {key: getattr(review, key) for key in _REVIEW_KEYS}


def label_fields(verdict: str, record: LabelRecord | None, pipeline: str) -> dict[str, str]:
    """A response's (of ``pipeline``) label in force: the ``verdict``, and from its ``record``
    (``None``: not known) the reviewer, their note and when it was given, and ``same_answer_as``:
    the pipeline whose identical answer the reviewer labelled, when not this one (``""``)."""
    fields = {"verdict": verdict} | {key: getattr(record, key) if record else "" for key in _LABEL_KEYS}
    fields["same_answer_as"] = record.pipeline if record is not None and record.pipeline != pipeline else ""
    return fields


def report_label(report: Report, key: tuple[str, str]) -> dict[str, str] | None:
    """The :func:`label_fields` of a response's verdict in force in ``report`` (``None``: none)."""
    verdict = report.labels.get(key)
    return None if verdict is None else label_fields(verdict, report.label_records.get(key), key[1])


def utc_time(stamp: str) -> str:
    """``2026-12-01T09:05:03.123+00:00`` → ``2026-12-01 09:05:03`` (the stores keep UTC)."""
    return stamp[:19].replace("T", " ")


def override_verdict(passed: bool | None) -> str:
    """An override's pass/fail verdict as a word (``""`` when none was given)."""
    return "" if passed is None else ("pass" if passed else "fail")


def ordered_overrides(rows: Sequence[ScoredRow]) -> list[tuple[ScoredRow, AppliedOverride]]:
    """The overrides in force, in row order, lexical metrics in score order, then judge metrics."""
    found = []
    for row in rows:
        lexical = [row.overrides[m] for m in LEXICAL_SCORE_NAMES if m in row.overrides]
        others = [o for m, o in row.overrides.items() if m not in LEXICAL_SCORE_NAMES]
        found += [(row, o) for o in (*lexical, *others)]
    return found


def iter_report_rows(report: Report, judge: JudgeScores | None = None) -> Iterator[dict[str, Any]]:
    """One dict per (question, pipeline) (:func:`row_fields`)."""
    metrics = judge_metric_names(judge) if judge else []
    for row in report.rows:
        yield scored_row_fields(report, row, judge, metrics)


def scored_row_fields(
    report: Report, row: ScoredRow, judge: JudgeScores | None, judge_metrics: Sequence[str]
) -> dict[str, Any]:
    """:func:`row_fields` of one of ``report``'s rows (``judge_metrics``: the
    :func:`judge_metric_names` of ``judge``, worked out once per report)."""
    return row_fields(
        row.key,
        row.scores,
        reasons=row.result.reasons,
        flags=[flag.value for flag in row.flags],
        review=report.review(row.item.id),
        overrides=row.overrides,
        label=report_label(report, row.key),
        judge=judge,
        judge_metrics=judge_metrics,
    )


_SCORED, _NOT_SCORED = ScoreStatus.SCORED.value, ScoreStatus.NOT_SCORED.value
_ALL_SCORED = dict.fromkeys(LEXICAL_SCORE_NAMES, _SCORED)


def row_fields(
    key: tuple[str, str],
    scores: Mapping[str, float | None],
    *,
    reasons: Mapping[str, str],
    flags: Sequence[str],
    review: QuestionReview,
    overrides: Mapping[str, AppliedOverride],
    label: Mapping[str, str] | None = None,
    judge: JudgeScores | None = None,
    judge_metrics: Sequence[str] = (),
) -> dict[str, Any]:
    """A report row: ids (``key``: question id, pipeline), the seven effective scores
    (overrides applied; ``None``: not scored), the ``status`` of each and the ``reasons`` of
    the not-scored ones, the flag names, the question's ``review_status``/``review_note``,
    ``overrides`` {metric: :func:`override_fields`} (lexical and judge metrics) and the
    response's ``label`` in force (:func:`label_fields`; ``None``: no verdict). With ``judge``,
    also ``judge``/``judge_status``/``judge_reasons`` of ``judge_metrics``
    (:func:`judge_metric_names` of ``judge``, worked out once per report)."""
    values = [scores[name] for name in LEXICAL_SCORE_NAMES]
    if None in values:
        pairs = list(zip(LEXICAL_SCORE_NAMES, values, strict=True))
        status = {name: _SCORED if v is not None else _NOT_SCORED for name, v in pairs}
        why = {name: reasons.get(name, "") for name, v in pairs if v is None}
    else:  # the common case, without a comparison per metric
        status, why = dict(_ALL_SCORED), {}
    fields = {
        "question_id": key[0],
        "pipeline": key[1],
        **dict(zip(LEXICAL_SCORE_NAMES, values, strict=True)),
        "status": status,
        "reasons": why,
        "flags": list(flags),
        "review_status": review.status,
        "review_note": review.note,
        "overrides": {metric: override_fields(o) for metric, o in overrides.items()},
        "label": None if label is None else dict(label),
    }
    if judge:
        fields |= _judge_fields(key, judge, judge_metrics)
    return fields


def judge_signatures(judge: JudgeScores) -> dict[str, str]:
    """Each judge metric's signature JSON (the first stored record's), in first-seen order.
    A record made only to carry a reviewer's override has no signature and is skipped."""
    found: dict[str, str] = {}
    for by_metric in judge.values():
        for name, record in by_metric.items():
            if record.signature:
                found.setdefault(name, record.signature)
    return found

"""Judge means per pipeline, the models behind them and their caveat: what every report that
shows judge means carries (the JSON summary, the workbook's Summary sheet, the printed summary).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from goldenlens.core.lexical.signature import Signature
from goldenlens.core.scored_rows import Report, ScoredRow
from goldenlens.core.stats.judge_agreement import PASS_AT, judge_reviewer_agreement
from goldenlens.io.reports.row_fields import JudgeScores, judge_metric_names, judge_signatures

__all__ = [
    "JUDGE_CAVEAT",
    "judge_agreement",
    "judge_means",
    "judge_models",
    "judge_signature_lines",
    "judge_summary_entries",
]

#: Shown wherever judge means are: a judge's number is a model's verdict, as good as the model.
JUDGE_CAVEAT = (
    "Judge scores are verdicts of the language model named here, not measurements: they are as "
    "good as that model (the bundled SmolLM2-135M proves the pipeline, not the judgement). "
    "Check them against reviewers (judge vs reviewer agreement) before acting on them."
)


def judge_means(
    rows: Sequence[ScoredRow], pipelines: Sequence[str], judge: JudgeScores
) -> dict[str, tuple[dict[str, float | None], int]]:
    """Per pipeline: each judge metric's mean over its scored rows (``None`` when none was
    scored) and how many of its cells were not scored."""
    metrics = judge_metric_names(judge)
    values: dict[str, dict[str, list[float]]] = {p: {m: [] for m in metrics} for p in pipelines}
    missing = dict.fromkeys(pipelines, 0)
    for row in rows:
        pipeline = row.response.pipeline
        by_metric = judge.get(row.key, {})
        target = values.setdefault(pipeline, {m: [] for m in metrics})
        for name in metrics:
            record = by_metric.get(name)
            if record is None or record.value is None:
                missing[pipeline] = missing.get(pipeline, 0) + 1
            else:
                target[name].append(record.value)
    return {
        pipeline: ({m: (sum(v) / len(v) if v else None) for m, v in by_metric.items()}, missing[pipeline])
        for pipeline, by_metric in values.items()
    }


def judge_models(judge: JudgeScores) -> dict[str, list[str]]:
    """The judge and embedding models named in the judge metrics' signatures, each once, in
    first-seen order: ``{"judge_model": [...], "embedding_model": [...]}``."""
    signatures = judge_signatures(judge)
    return {key: _model_names(signatures, key) for key in ("judge_model", "embedding_model")}


def judge_signature_lines(judge: JudgeScores) -> dict[str, str]:
    """Each judge metric's signature in its short form (``name|v1|key=value…``), in first-seen
    order: the workbook's About sheet and the HTML report's About list them."""
    lines = {}
    for name, text in judge_signatures(judge).items():
        try:
            lines[name] = Signature.from_json(text).short()
        except (ValueError, KeyError, TypeError):
            lines[name] = text
    return lines


def _model_names(signatures: dict[str, str], key: str) -> list[str]:
    names: list[str] = []
    for text in signatures.values():
        try:
            value = json.loads(text).get("params", {}).get(key)
        except (ValueError, AttributeError):
            continue
        if isinstance(value, str) and value and value not in names:
            names.append(value)
    return names


def judge_agreement(report: Report, judge: JudgeScores) -> dict[str, dict[str, Any]]:
    """Judge vs reviewer per judge metric: ``{n, agreed, rate, kappa}`` over the scores a
    reviewer overrode or accepted (:mod:`goldenlens.core.stats.judge_agreement`), pass at 0.5."""

    def stored(key: tuple[str, str], metric: str) -> float | None:
        record = judge.get(key, {}).get(metric)
        return None if record is None else record.value

    found = judge_reviewer_agreement(
        report.rows, judge_metric_names(judge), stored, lambda qid: report.review(qid).status
    )
    return {metric: {**result.as_dict(), "pass_at": PASS_AT} for metric, result in found.items()}


def judge_summary_entries(report: Report, judge: JudgeScores) -> dict[str, Any]:
    """The JSON report's judge entries: means per pipeline and metric, cells not scored per
    pipeline, the models, the caveat and judge vs reviewer agreement (nothing without a
    judge run)."""
    if not judge:
        return {}
    means = judge_means(report.rows, report.pipelines, judge)
    return {
        "judge_summary": {pipeline: by_metric for pipeline, (by_metric, _missing) in means.items()},
        "judge_not_scored": {pipeline: missing for pipeline, (_means, missing) in means.items()},
        "judge_metrics": list(judge_metric_names(judge)),
        "judge_models": judge_models(judge),
        "judge_caveat": JUDGE_CAVEAT,
        "judge_reviewer_agreement": judge_agreement(report, judge),
    }

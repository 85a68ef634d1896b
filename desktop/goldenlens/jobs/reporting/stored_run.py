"""A lexical run as its reports read it from the project: the stored values, the reviewer's
overrides and reviews in force, the flags under the scores in force and the judge's scores
(:func:`load_stored_run`), and the full :class:`Report` built from them (:func:`build_report`).
Every report format and the desktop app's advice read a run through here."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.flags import (
    FLAG_INPUTS,
    Flag,
    FlagThresholds,
    golden_flags_in_force,
    response_flags_in_force,
)
from goldenlens.core.lexical.scorer import (
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    LEXICAL_SCORE_NAMES,
)
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.reviewer_decisions import AppliedOverride, QuestionReview
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.scored_rows import Report, ScoredRow, row_from_scores
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.io.reports.row_fields import JudgeScores
from goldenlens.jobs.curation.golden_versions import run_version_label
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.scoring.pending import scored_run
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import Override

#: The run kind of judge scores (``goldenlens.jobs.judging.judge_job.JUDGE_RUN``; not imported from
#: there, which would load the judge packages for every report).
JUDGE_RUN_KIND = JUDGE_RUN


def _judge_run(store: ProjectStore, judge_run_id: int | None) -> int | None:
    """``judge_run_id``, else the newest judge run (finished or not), else ``None``."""
    if judge_run_id is not None:
        return judge_run_id
    latest = store.runs.latest(JUDGE_RUN_KIND)
    return None if latest is None else latest.id


def _judge_overrides(store: ProjectStore) -> list[Override]:
    return [o for o in store.reviews.overrides() if o.metric not in LEXICAL_SCORE_NAMES]


@takes_project
def judge_scores(store: ProjectStore, judge_run_id: int | None = None) -> JudgeScores:
    """The judge scores of ``judge_run_id`` (default: the newest judge run) by row and metric,
    with the reviewer's overrides of judge metrics applied (an overridden record holds the
    effective value and counts as scored; :func:`build_report` keeps the original). Empty
    when the project has no judge run. Every report format (xlsx, JSON, CSV) reads them from
    here."""
    run_id = _judge_run(store, judge_run_id)
    if run_id is None:
        return {}
    found: dict[tuple[str, str], dict[str, ScoreRecord]] = {}
    for record in store.results.scores(run_id):
        found.setdefault((record.question_id, record.pipeline), {})[record.metric] = record
    for override in _judge_overrides(store):
        key = (override.question_id, override.pipeline)
        by_metric = found.setdefault(key, {})
        stored = by_metric.get(override.metric)
        # A row the judge never reached gets a record too, so the reviewer's value counts;
        # its empty signature is left out of the report's signature list.
        base = stored or ScoreRecord(override.question_id, override.pipeline, override.metric, None, "")
        by_metric[override.metric] = replace(
            base, value=override.effective_value, status=ScoreStatus.SCORED, reason=""
        )
    return found


def _applied_overrides(
    store: ProjectStore,
    lexical: Callable[[tuple[str, str], str], float | None],
    judge_run_id: int | None,
) -> dict[tuple[str, str], dict[str, AppliedOverride]]:
    """The overrides in effect by row and metric, each with the stored score it replaces
    (lexical: ``lexical(key, metric)``; judge: from the judge run, read per overridden question)."""
    judge_run = _judge_run(store, judge_run_id)
    judge_originals: dict[str, dict[tuple[str, str], float | None]] = {}
    applied: dict[tuple[str, str], dict[str, AppliedOverride]] = defaultdict(dict)
    for override in store.reviews.overrides():
        value = override.effective_value
        if value is None:  # pragma: no cover - store.reviews.overrides() leaves withdrawals out
            continue
        key = (override.question_id, override.pipeline)
        if override.metric in LEXICAL_SCORE_NAMES:
            original = lexical(key, override.metric)
        else:
            if override.question_id not in judge_originals:
                records = (
                    []
                    if judge_run is None
                    else store.results.scores_of_question(judge_run, override.question_id)
                )
                judge_originals[override.question_id] = {(r.pipeline, r.metric): r.value for r in records}
            original = judge_originals[override.question_id].get((override.pipeline, override.metric))
        applied[key][override.metric] = AppliedOverride(
            metric=override.metric,
            value=value,
            original=original,
            passed=override.passed,
            reviewer=override.reviewer,
            note=override.note,
            created_at=override.created_at,
        )
    return applied


def report_reviews(store: ProjectStore) -> dict[str, QuestionReview]:
    """The review state of every reviewed question (the others read as unreviewed)."""
    return {
        qid: QuestionReview(status=r.status, note=r.note, reviewer=r.reviewer, updated_at=r.updated_at)
        for qid, r in store.reviews.all().items()
    }


@dataclass(frozen=True)
class StoredRun:
    """A lexical run as its reports read it from the project: every row's stored values, the
    reasons of those not scored, its flags and the reviewer's overrides in force, by ``(question
    id, pipeline)``; plus the golden items, signatures and run settings. No response text: only
    some reports need it (:func:`build_report` reads it; the JSON report does not)."""

    run_id: int
    items: tuple[GoldenItem, ...]
    pipelines: tuple[str, ...]
    row_of: dict[tuple[str, str], int]
    columns: dict[str, list[float | None]]
    reasons: dict[tuple[str, str, str], str]
    params: dict[str, object]
    signatures: dict[str, Signature]
    response_flags: dict[tuple[str, str], list[Flag]]
    golden_flags: dict[str, tuple[Flag, ...]]
    overrides: dict[tuple[str, str], dict[str, AppliedOverride]]
    thresholds: FlagThresholds
    reviews: dict[str, QuestionReview]
    golden_version: str

    def has(self, question_id: str, pipeline: str) -> bool:
        """Whether the run scored this row of a golden question."""
        return (question_id, pipeline) in self.row_of and question_id in self._golden_ids

    @cached_property
    def _golden_ids(self) -> frozenset[str]:
        return frozenset(item.id for item in self.items)

    def row(self, key: tuple[str, str]) -> tuple[dict[str, float | None], dict[str, str], tuple[Flag, ...]]:
        """The row's seven stored values (``None``: not scored), why those are not scored, and
        its flags."""
        n = self.row_of[key]
        scores = {name: self.columns[name][n] for name in LEXICAL_SCORE_NAMES}
        why = {
            name: self.reasons.get((*key, name), "") for name in LEXICAL_SCORE_NAMES if scores[name] is None
        }
        return scores, why, tuple(self.response_flags.get(key, ()))


def load_stored_run(
    store: ProjectStore, run_id: int | None = None, *, judge_run_id: int | None = None
) -> StoredRun:
    """:class:`StoredRun` of ``run_id`` (default: the project's scores now,
    :func:`~goldenlens.jobs.scoring.pending.scored_run`, which raises ``NoScoresError`` when no
    finished run is), with the overrides of lexical and judge metrics (judge originals from
    ``judge_run_id``, default the newest judge run)."""
    if run_id is None:
        run_id = scored_run(store).id
    run_info = store.runs.get(run_id)
    items = tuple(store.golden.items())
    # Plain numbers, one query per metric: no record objects, signatures once per metric.
    keys, columns = store.results.score_columns(run_id, LEXICAL_SCORE_NAMES)
    row_of = {key: n for n, key in enumerate(keys)}
    stored_signatures = store.results.signatures(run_id)
    signatures = {  # in score order, as a report scored without a project lists them
        metric: Signature.from_json(stored_signatures[metric])
        for metric in LEXICAL_SCORE_NAMES
        if metric in stored_signatures
    }
    f1 = signatures.get(F1_SCORE)
    response_flags: dict[tuple[str, str], list[Flag]] = defaultdict(list)
    row_flags: dict[str, list[Flag]] = defaultdict(list)
    for question_id, pipeline, flag in store.results.flags(run_id):
        if pipeline:
            response_flags[(question_id, pipeline)].append(Flag(flag))
        else:
            row_flags[question_id].append(Flag(flag))

    def stored(key: tuple[str, str], metric: str) -> float | None:
        n = row_of.get(key)
        column = columns.get(metric)
        return None if n is None or column is None else column[n]

    thresholds = FlagThresholds.from_params(run_info.params if run_info is not None else {})
    overrides = dict(_applied_overrides(store, stored, judge_run_id))
    golden_flags = {item.id: tuple(row_flags.get(item.id, ())) for item in items}
    _flags_in_force(
        response_flags, golden_flags, overrides, stored=stored, row_of=row_of, thresholds=thresholds
    )
    return StoredRun(
        run_id=run_id,
        items=items,
        pipelines=tuple(store.responses.pipelines()),
        row_of=row_of,
        columns=columns,
        reasons=store.results.score_reasons(run_id, LEXICAL_SCORE_NAMES),
        params=dict(f1.params) if f1 is not None else {},
        signatures=signatures,
        response_flags=dict(response_flags),
        golden_flags=golden_flags,
        overrides=overrides,
        thresholds=thresholds,
        reviews=report_reviews(store),
        golden_version=run_version_label(store, run_id),
    )


def _flags_in_force(
    response_flags: dict[tuple[str, str], list[Flag]],
    golden_flags: dict[str, tuple[Flag, ...]],
    overrides: Mapping[tuple[str, str], Mapping[str, AppliedOverride]],
    *,
    stored: Callable[[tuple[str, str], str], float | None],
    row_of: Mapping[tuple[str, str], int],
    thresholds: FlagThresholds,
) -> None:
    """The run's flags under the scores in force, in place: a response whose reviewer overrode
    a score a flag reads gets its flags derived again
    (:func:`~goldenlens.core.lexical.flags.response_flags_in_force`), and a question with an overridden
    exact Factual Knowledge its ambiguous-question flag
    (:func:`~goldenlens.core.lexical.flags.golden_flags_in_force`), as the question's detail shows them."""
    questions: set[str] = set()
    for key, by_metric in overrides.items():
        if not any(metric in FLAG_INPUTS for metric in by_metric):
            continue
        scores = {metric: stored(key, metric) for metric in FLAG_INPUTS}
        scores.update({m: o.value for m, o in by_metric.items() if m in FLAG_INPUTS})
        stored_names = [flag.value for flag in response_flags.get(key, ())]
        response_flags[key] = [
            Flag(name) for name in response_flags_in_force(stored_names, scores, thresholds)
        ]
        if FACTUAL_KNOWLEDGE in by_metric:
            questions.add(key[0])
    if not questions:
        return
    found: dict[str, list[float]] = {question_id: [] for question_id in questions}
    for key in row_of:  # the run's rows, in its order
        if key[0] in found:
            override = overrides.get(key, {}).get(FACTUAL_KNOWLEDGE)
            value = override.value if override is not None else stored(key, FACTUAL_KNOWLEDGE)
            if value is not None:
                found[key[0]].append(value)
    for question_id, values in found.items():
        if question_id in golden_flags:
            names = [flag.value for flag in golden_flags[question_id]]
            golden_flags[question_id] = tuple(Flag(name) for name in golden_flags_in_force(names, values))


@takes_project
def build_report(
    store: ProjectStore, run_id: int | None = None, *, judge_run_id: int | None = None
) -> Report:
    """The report of ``run_id`` (default: the latest finished lexical run) from stored values,
    with the reviewer's overrides applied (lexical and judge metrics; judge originals from
    ``judge_run_id``, default the newest judge run) and each question's review state."""
    run = load_stored_run(store, run_id, judge_run_id=judge_run_id)
    by_id = {item.id: item for item in run.items}
    rows: list[ScoredRow] = []
    for response in store.responses.all():
        key = (response.question_id, response.pipeline)
        if not run.has(*key):
            continue
        scores, why, flags = run.row(key)
        rows.append(
            row_from_scores(
                by_id[response.question_id],
                response,
                scores,
                reasons=why,
                params=run.params,
                flags=flags,
                overrides=run.overrides.get(key, {}),
            )
        )
    return Report(
        golden=run.items,
        pipelines=run.pipelines,
        rows=tuple(rows),
        golden_flags=run.golden_flags,
        problems=tuple(store.responses.problems()),
        signatures=run.signatures,
        thresholds=run.thresholds,
        reviews=run.reviews,
        golden_version=run.golden_version,
    )

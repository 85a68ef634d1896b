"""Curation edits: golden-row edits with an immediate re-score, overrides and review state.

Each function is one small synchronous step meant for the GUI thread (an edit of one
question takes milliseconds): it validates its input first — a plain ``ValueError`` for
anything wrong, nothing written — and then writes in ONE transaction, so a failure never
leaves an edited golden row with stale scores.

Editing the answer or the fact re-scores that question's responses in the latest finished
lexical run with the run's own parameters (counting mode, flag thresholds): the run's
numbers then describe the golden set as it is now, exactly as a fresh run would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.factual_knowledge import fact_with_variant
from goldenlens.core.lexical.flags import FlagThresholds, golden_flags
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, LexicalScorer
from goldenlens.core.project_records import GOLDEN_ROW, Override, Review
from goldenlens.core.reviewer_decisions import REVIEW_STATUSES
from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.core.scores import ScoreRecord
from goldenlens.core.view.metric_names import BINARY_METRICS, metric_in_sentence
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.scoring.score_job import score_rows
from goldenlens.jobs.scoring.score_rows import ScoreOptions
from goldenlens.store.project import ProjectStore

#: Metrics named in the status message after an edit.
SUMMARY_METRICS = (FACTUAL_KNOWLEDGE, F1_SCORE)
#: Golden-item fields an analyst edits, in form order.
EDITABLE_FIELDS = ("question", "answer", "fact", "notes")


def _number(value: float | None) -> str:
    if value is None:
        return "not scored"
    return f"{value:.0f}" if value in (0.0, 1.0) else f"{value:.3g}"


@dataclass(frozen=True)
class ScoreChange:
    """One stored score that an edit changed (``None``: absent or not scored)."""

    question_id: str
    pipeline: str
    metric: str
    old: float | None
    new: float | None


@dataclass(frozen=True)
class RescoreResult:
    """What an edit of a golden item did to the run's scores.

    ``run_id`` is the re-scored run (``None`` when the project has no finished lexical run or
    the edit touched neither answer nor fact); ``changes`` lists every lexical score whose
    value changed, in pipeline order.
    """

    item: GoldenItem
    run_id: int | None
    changes: tuple[ScoreChange, ...] = ()

    @property
    def changed_keys(self) -> tuple[tuple[str, str], ...]:
        """``(question_id, pipeline)`` keys with at least one changed score, in order."""
        return tuple(dict.fromkeys((c.question_id, c.pipeline) for c in self.changes))

    def message(self) -> str:
        """Status-bar text: ``q03: Pipeline3 factual knowledge 0 → 1, F1 0.364 → 0.5``."""
        parts: list[str] = []
        for question_id, pipeline in self.changed_keys:
            shown = [
                f"{metric_in_sentence(c.metric)} {_number(c.old)} → {_number(c.new)}"
                for metric in SUMMARY_METRICS
                for c in self.changes
                if (c.question_id, c.pipeline, c.metric) == (question_id, pipeline, metric)
            ]
            if shown:
                parts.append(f"{pipeline} {', '.join(shown)}")
        if parts:
            return f"{self.item.id}: {'; '.join(parts)}"
        if self.run_id is None:
            return f"{self.item.id} saved"
        return f"{self.item.id} saved; no factual knowledge or F1 score changed"


# -- validation ------------------------------------------------------------------------


def _require_item(store: ProjectStore, question_id: str) -> GoldenItem:
    item = store.golden.item(question_id)
    if item is None:
        raise ValueError(f"there is no golden question {question_id!r}")
    return item


@takes_project
def check_golden_edit(store: ProjectStore, new_item: GoldenItem) -> GoldenItem:
    """Validate an edited item and return the stored item it replaces.

    The id must exist and the question must not be blank.
    """
    old = _require_item(store, new_item.id)
    if not new_item.question.strip():
        raise ValueError(f"the question of {new_item.id} cannot be empty")
    return old


#: A score's key: ``(question_id, pipeline, metric)``.
ScoreKey = tuple[str, str, str]


class OverrideFields(TypedDict):
    """What a reviewer gives for an override of one score: the new ``value`` and/or its
    pass/fail verdict ``passed`` (both ``None``: remove the override in effect) and the
    ``note`` saying why."""

    value: float | None
    passed: bool | None
    note: str


@takes_project
def check_override(store: ProjectStore, key: ScoreKey, fields: OverrideFields, *, reviewer: str) -> None:
    """Validate an override: a known question and pipeline, a value in 0..1 (0 or 1 for a
    Pass/Fail metric) and/or a verdict, a note saying why and the reviewer's name."""
    question_id, pipeline, metric = key
    value, passed = fields["value"], fields["passed"]
    _require_item(store, question_id)
    if pipeline not in store.responses.pipelines():
        raise ValueError(f"there is no pipeline {pipeline!r}")
    if not metric.strip():
        raise ValueError("an override needs a metric name")
    if value is None and passed is None:
        raise ValueError("an override needs a value or a pass/fail verdict (to remove one, clear it)")
    if value is not None:
        if not 0.0 <= value <= 1.0:  # NaN fails too
            raise ValueError(f"an override value must be a number from 0 to 1, not {value!r}")
        if metric in BINARY_METRICS and value not in (0.0, 1.0):
            raise ValueError(f"{metric_in_sentence(metric)} is pass/fail: its override must be 0 or 1")
        if passed is not None and metric in BINARY_METRICS and bool(value) != passed:
            raise ValueError(f"value {value:g} contradicts the verdict {'pass' if passed else 'fail'}")
    if not fields["note"].strip():
        raise ValueError("an override needs a note saying why")
    if not reviewer.strip():
        raise ValueError("an override needs the reviewer's name")


@takes_project
def check_review(store: ProjectStore, question_id: str, status: str) -> None:
    """Validate a review: a known question and a known status."""
    _require_item(store, question_id)
    if status not in REVIEW_STATUSES:
        raise ValueError(f"unknown review status {status!r}; use one of {', '.join(sorted(REVIEW_STATUSES))}")


# -- golden edits ----------------------------------------------------------------------


def run_options(params: Mapping[str, Any]) -> ScoreOptions:
    """The :class:`ScoreOptions` a run was made with, from its stored parameters."""
    return ScoreOptions(
        multiset=bool(params.get("multiset", False)), thresholds=FlagThresholds.from_params(params)
    )


def _rescore(
    item: GoldenItem, store: ProjectStore, options: ScoreOptions
) -> tuple[list[ScoreRecord], list[tuple[str, str, str]]]:
    """New scores, response flags and golden-row flags of one question (pure apart from reads)."""
    responses = store.responses.of_question(item.id)
    scorer = LexicalScorer(multiset=options.multiset)
    records, flags = score_rows([item], responses, scorer, options.thresholds)
    found = [r.value for r in records if r.metric == FACTUAL_KNOWLEDGE and r.value is not None]
    flags.extend(
        (item.id, GOLDEN_ROW, flag.value)
        for flag in golden_flags(item.answer, item.fact, found, options.thresholds)
    )
    return records, flags


def _changes(
    question_id: str, old: Sequence[ScoreRecord], new: Sequence[ScoreRecord]
) -> tuple[ScoreChange, ...]:
    before = {(r.pipeline, r.metric): r.value for r in old}
    after = {(r.pipeline, r.metric): r.value for r in new}
    keys = dict.fromkeys([*after, *before])  # new order first; keys that vanished last
    return tuple(
        ScoreChange(
            question_id, pipeline, metric, before.get((pipeline, metric)), after.get((pipeline, metric))
        )
        for pipeline, metric in keys
        if before.get((pipeline, metric)) != after.get((pipeline, metric))
    )


@takes_project
def edit_golden_item(store: ProjectStore, new_item: GoldenItem, *, reviewer: str) -> RescoreResult:
    """Save an edited golden item (an ``edit`` history row) and re-score its question.

    When the answer or the fact changed and the project has a finished lexical run, that
    question's scores and flags in the run are replaced by fresh ones computed with the run's
    own parameters, in the same transaction as the edit. Returns what changed.
    """
    old = check_golden_edit(store, new_item)
    new_item = replace(new_item, source_row=old.source_row)  # an edit does not move the row
    if new_item == old:
        return RescoreResult(old, None)
    run = store.runs.latest(LEXICAL_RUN, finished_only=True)
    if run is None or (old.answer, old.fact) == (new_item.answer, new_item.fact):
        # Question and notes do not enter any lexical score: nothing to re-score.
        store.golden.update(new_item, reviewer=reviewer)
        return RescoreResult(new_item, None)
    before = store.results.scores_of_question(run.id, new_item.id)
    records, flags = _rescore(new_item, store, run_options(run.params))
    with store.atomic(f"save the edit of {new_item.id!r} and its scores"):
        store.golden.update(new_item, reviewer=reviewer)
        store.results.delete_question(run.id, new_item.id)
        store.results.save(run.id, records, flags)
        # The run's numbers now describe the golden set as of this edit: say so, so the run's
        # golden-set version stays true (goldenlens.core.golden.versions).
        store.runs.record_rescore(run.id, store.golden.head())
    return RescoreResult(new_item, run.id, _changes(new_item.id, before, records))


@takes_project
def add_fact_variant(
    store: ProjectStore, question_id: str, variant: str, *, reviewer: str, and_group: bool = False
) -> GoldenItem | None:
    """Append ``<OR>variant`` to a question's fact and re-score it; returns the saved item, or
    ``None`` (nothing written) when the fact already has that alternative. ``and_group``: the
    variant may be a whole ``<AND>`` group
    (:func:`~goldenlens.core.lexical.factual_knowledge.fact_with_variant`)."""
    item = _require_item(store, question_id)
    fact = fact_with_variant(item.fact, variant, and_group=and_group)
    if fact is None:
        return None
    return edit_golden_item(store, replace(item, fact=fact), reviewer=reviewer).item


# -- overrides and review ----------------------------------------------------------------


@takes_project
def set_override(
    store: ProjectStore,
    question_id: str,
    pipeline: str,
    metric: str,
    *,
    value: float | None,
    passed: bool | None,
    note: str,
    reviewer: str,
) -> Override:
    """Record a reviewer's override of one score (the stored score is never touched); the
    latest override of a key wins. Returns the override now in effect."""
    fields = OverrideFields(value=value, passed=passed, note=note)
    check_override(store, (question_id, pipeline, metric), fields, reviewer=reviewer)
    number = None if value is None else float(value)
    store.reviews.set_override(
        question_id,
        pipeline,
        metric,
        value=number,
        passed=passed,
        note=note.strip(),
        reviewer=reviewer.strip(),
    )
    current = store.reviews.override_in_effect(question_id, pipeline, metric)
    if current is None:  # pragma: no cover - the row was just written
        raise RuntimeError(f"the override of {metric!r} for {question_id!r} was not saved")
    return current


@takes_project
def clear_override(
    store: ProjectStore, question_id: str, pipeline: str, metric: str, *, reviewer: str, note: str = ""
) -> None:
    """Withdraw the override in effect for one key (the audit trail keeps every entry)."""
    _require_item(store, question_id)
    if store.reviews.override_in_effect(question_id, pipeline, metric) is None:
        raise ValueError(f"{question_id} / {pipeline} has no {metric_in_sentence(metric)} override to remove")
    store.reviews.set_override(
        question_id, pipeline, metric, value=None, passed=None, note=note.strip(), reviewer=reviewer.strip()
    )


@takes_project
def restore_override(
    store: ProjectStore,
    question_id: str,
    pipeline: str,
    metric: str,
    before: Override | None,
    *,
    reviewer: str,
) -> None:
    """Put back the override that was in effect before (``None``: there was none) — undo."""
    current = store.reviews.override_in_effect(question_id, pipeline, metric)
    if before is None:
        if current is not None:
            clear_override(store, question_id, pipeline, metric, reviewer=reviewer)
        return
    set_override(
        store,
        question_id,
        pipeline,
        metric,
        value=before.value,
        passed=before.passed,
        note=before.note,
        reviewer=before.reviewer or reviewer,
    )


@takes_project
def set_review(
    store: ProjectStore, question_id: str, status: str, note: str = "", *, reviewer: str
) -> Review:
    """Set a question's review state (``unreviewed``, ``accepted``, ``needs_curation``) and
    note; returns the saved state."""
    check_review(store, question_id, status)
    store.reviews.set(question_id, status, note.strip(), reviewer.strip())
    review = store.reviews.of_question(question_id)
    if review is None:  # pragma: no cover - the row was just written
        raise RuntimeError(f"the review of {question_id!r} was not saved")
    return review


@takes_project
def restore_review(store: ProjectStore, question_id: str, before: Review | None, *, reviewer: str) -> None:
    """Put back the review state there was before (``None``: never reviewed) — undo."""
    _require_item(store, question_id)
    if before is None:
        store.reviews.clear(question_id)
    else:
        set_review(store, question_id, before.status, before.note, reviewer=before.reviewer or reviewer)

"""Scripted review: an override or a review state given as text (the command line), checked
against the project and saved through :mod:`goldenlens.jobs.curation.edits` — the functions the
desktop's undo commands call, so a score overridden from a script and one overridden in the
app are the same audit-trail entry.

Every check raises :class:`ReviewInputError` (a ``ValueError``) with one line that names the
valid choices; nothing is written then.
"""

from __future__ import annotations

import getpass
import math
from collections.abc import Sequence
from dataclasses import dataclass

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.project_records import Override, Review
from goldenlens.core.reviewer_decisions import REVIEW_ORDER
from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.core.view.metric_names import BINARY_METRICS, METRIC_LABELS, METRIC_SHORT
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.reporting.stored_run import JUDGE_RUN_KIND
from goldenlens.settings.preferences import load_preferences
from goldenlens.store.project import ProjectStore

#: Words a Pass/Fail metric's override may be given as, besides 0 and 1.
_VERDICT_WORDS = {"pass": True, "fail": False, "true": True, "false": False}
#: At most this many question ids are listed in a message (a golden set may hold 100k).
_LISTED_IDS = 10


class ReviewInputError(ValueError):
    """A scripted override or review that cannot be saved; the message is one line."""


@dataclass(frozen=True)
class SavedOverride:
    """An override just saved, with the stored score it replaces (``None``: not scored or not
    in the latest run)."""

    override: Override
    original: float | None


def default_reviewer() -> str:
    """The reviewer's name when none is given: the one saved in the desktop app's
    preferences, else the operating-system user name, else ``""``."""
    name = load_preferences().reviewer.strip()
    if name:
        return name
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no user name in the environment or the password database
        return ""


def _listing(names: Sequence[str], limit: int | None = None) -> str:
    shown = list(names if limit is None else names[:limit])
    more = "" if limit is None or len(names) <= limit else f", … ({len(names)} in all)"
    return ", ".join(shown) + more


def require_question(store: ProjectStore, question_id: str) -> None:
    """Refuse an id the golden set does not hold, listing the first ids."""
    if store.golden.item(question_id) is None:
        ids = [item.id for item in store.golden.items()]
        raise ReviewInputError(
            f"there is no golden question {question_id!r}; "
            f"questions: {_listing(ids, _LISTED_IDS) or '(none)'}"
        )


def require_response(store: ProjectStore, question_id: str, pipeline: str) -> None:
    """Refuse a pipeline the project does not have, or one that did not answer the question."""
    pipelines = store.responses.pipelines()
    if pipeline not in pipelines:
        raise ReviewInputError(
            f"there is no pipeline {pipeline!r}; pipelines: {_listing(pipelines) or '(none)'}"
        )
    answered = [r.pipeline for r in store.responses.of_question(question_id)]
    if pipeline not in answered:
        raise ReviewInputError(
            f"{pipeline} has no response to {question_id}; "
            f"pipelines that answered it: {_listing(answered) or '(none)'}"
        )


def metric_choices(store: ProjectStore) -> list[str]:
    """Metrics that can be overridden: the seven lexical ones, then those of the newest judge
    run (the one reports show)."""
    judge = store.runs.latest(JUDGE_RUN_KIND)
    extra = [] if judge is None else store.results.metrics(judge.id)
    return [*LEXICAL_SCORE_NAMES, *(m for m in extra if m not in LEXICAL_SCORE_NAMES)]


def resolve_metric(store: ProjectStore, name: str) -> str:
    """The metric ``name`` means: its own name, or (ignoring case) a lexical metric's short
    name or label as the app shows them (``FK``, ``F1``, ``Exact match``)."""
    choices = metric_choices(store)
    if name in choices:
        return name
    wanted = name.strip().lower()
    for metric in LEXICAL_SCORE_NAMES:
        if wanted in {metric, METRIC_SHORT[metric].lower(), METRIC_LABELS[metric].lower()}:
            return metric
    raise ReviewInputError(f"there is no metric {name!r}; metrics: {_listing(choices)}")


def parse_value(metric: str, text: str) -> tuple[float, bool | None]:
    """``(value, verdict)`` of an override given as text. A Pass/Fail metric takes 0 or 1
    (or pass/fail), stored as the desktop app stores a verdict; any other metric a number
    from 0 to 1 and no verdict."""
    word = text.strip().lower()
    if metric in BINARY_METRICS:
        if word in _VERDICT_WORDS:
            passed = _VERDICT_WORDS[word]
            return (1.0 if passed else 0.0, passed)
        try:
            number = float(word)
        except ValueError:
            number = math.nan
        if number not in {0.0, 1.0}:
            raise ReviewInputError(f"{metric} is pass/fail: give 0, 1, pass or fail, not {text!r}")
        return (number, number == 1.0)
    try:
        number = float(word)
    except ValueError:
        raise ReviewInputError(
            f"an override of {metric} must be a number from 0 to 1, not {text!r}"
        ) from None
    if not 0.0 <= number <= 1.0:  # NaN and the infinities fail too
        raise ReviewInputError(f"an override of {metric} must be a number from 0 to 1, not {text!r}")
    return (number, None)


def _stored_score(store: ProjectStore, question_id: str, pipeline: str, metric: str) -> float | None:
    kind = LEXICAL_RUN if metric in LEXICAL_SCORE_NAMES else JUDGE_RUN_KIND
    run = store.runs.latest(kind, finished_only=kind == LEXICAL_RUN)
    if run is None:
        return None
    for record in store.results.scores_of_question(run.id, question_id):
        if (record.pipeline, record.metric) == (pipeline, metric):
            return record.value
    return None


def _require_reviewer(reviewer: str) -> str:
    name = reviewer.strip()
    if not name:
        raise ReviewInputError("no reviewer name: give --reviewer NAME (none is saved in the preferences)")
    return name


@takes_project
def override_score(
    store: ProjectStore,
    question_id: str,
    pipeline: str,
    metric: str,
    value: str,
    *,
    note: str,
    reviewer: str,
) -> SavedOverride:
    """Check and save a reviewer's override of one score (``metric`` may be a short name)."""
    require_question(store, question_id)
    require_response(store, question_id, pipeline)
    name = resolve_metric(store, metric)
    number, passed = parse_value(name, value)
    if not note.strip():
        raise ReviewInputError("an override needs a note saying why (--note TEXT)")
    try:
        saved = curation.set_override(
            store,
            question_id,
            pipeline,
            name,
            value=number,
            passed=passed,
            note=note,
            reviewer=_require_reviewer(reviewer),
        )
    except ValueError as error:
        raise ReviewInputError(str(error)) from None
    return SavedOverride(saved, _stored_score(store, question_id, pipeline, name))


@takes_project
def withdraw_override(
    store: ProjectStore, question_id: str, pipeline: str, metric: str, *, note: str, reviewer: str
) -> str:
    """Withdraw the override in force for one score; returns the metric's full name."""
    require_question(store, question_id)
    require_response(store, question_id, pipeline)
    name = resolve_metric(store, metric)
    try:
        curation.clear_override(
            store, question_id, pipeline, name, reviewer=_require_reviewer(reviewer), note=note
        )
    except ValueError as error:
        raise ReviewInputError(str(error)) from None
    return name


@takes_project
def review_question(
    store: ProjectStore, question_id: str, status: str, *, note: str, reviewer: str
) -> Review:
    """Check and save a question's review state (``accepted``, ``needs_curation`` or
    ``unreviewed``) with its note."""
    require_question(store, question_id)
    if status not in REVIEW_ORDER:
        raise ReviewInputError(f"unknown review status {status!r}; statuses: {_listing(REVIEW_ORDER)}")
    try:
        return curation.set_review(store, question_id, status, note, reviewer=reviewer)
    except ValueError as error:
        raise ReviewInputError(str(error)) from None

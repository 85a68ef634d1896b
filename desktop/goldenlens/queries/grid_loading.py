"""Reading the score grid's data from a project.

:func:`load_grid` reads a project with a handful of bulk queries (one per metric, one each
for golden items, item keys, responses, flags, reviews and overrides) and places the values
with vectorised numpy assignment (:class:`~goldenlens.queries.grid_builder.GridBuilder`).
100,000 questions x 3 pipelines with three metrics load in about 0.9 s of CPU (each further
metric ~0.15 s). :func:`update_rows` reloads a few questions after an edit without touching
the rest. :func:`load_grid_head` reads only the first questions (milliseconds on any size): a
view shows them at once while :func:`load_grid` runs in the background, as Anki's browser does.

Judge metrics come from the newest judge run (finished or not: the run every report shows,
``goldenlens.jobs.reporting.report_job.judge_scores``), read through the same score columns,
with the reviewer's overrides of judge metrics applied the same way (an override counts even
where the judge never reached the row).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np

from goldenlens.core.gc_pause import collector_paused
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.queries.grid_builder import GridBuilder
from goldenlens.queries.grid_data import GridData, empty_grid, frozen
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import REVIEW_UNREVIEWED, Override

#: Up to this many responses, :func:`load_grid` loads their texts for the search by default.
RESPONSES_AUTO_LIMIT = 60_000
#: Questions :func:`load_grid_head` reads by default: a few screens, well under 10 ms.
HEAD_LIMIT = 500


def load_grid(
    store: ProjectStore,
    run_id: int | None,
    metrics: Sequence[str] | None = None,
    *,
    responses: bool | None = None,
) -> GridData:
    """Everything the grid shows for ``run_id`` (``None``: questions without scores).

    ``metrics=None`` loads every metric the run has; otherwise only those listed (each costs
    one index range scan, about 0.15 s per 100,000 x 3 scores). ``responses`` puts the
    response texts into the text search; by default only while there are at most
    :data:`RESPONSES_AUTO_LIMIT` of them (beyond, they would add ~0.4 s and ~100 MB per
    300,000 and the search covers id, question, answer and fact).
    """
    return load_grid_head(store, run_id, metrics, limit=None, responses=responses)


def load_grid_head(
    store: ProjectStore,
    run_id: int | None,
    metrics: Sequence[str] | None = None,
    *,
    limit: int | None = HEAD_LIMIT,
    responses: bool | None = None,
) -> GridData:
    """The first ``limit`` questions in golden-set order, as :func:`load_grid` shows them.

    Every query is limited to their ids (index seeks): milliseconds on 100,000 questions.
    When the project holds more, the grid has ``complete=False`` and ``total`` counts them
    all; ``responses`` defaults as for the full grid. ``limit=None`` is :func:`load_grid`.
    """
    with collector_paused(), store.grid.snapshot():
        return _load(store, run_id, metrics, limit, responses)


def _load(
    store: ProjectStore,
    run_id: int | None,
    metrics: Sequence[str] | None,
    limit: int | None,
    responses: bool | None,
) -> GridData:
    golden = store.grid.golden(limit=None if limit is None else limit + 1)  # one more: any left?
    ids, total = None, -1
    if limit is not None and len(golden) > limit:
        golden, total = golden[:limit], store.grid.question_count()
        ids = [row[0] for row in golden]
    pipelines = tuple(store.responses.pipelines())
    lexical = tuple(store.results.metrics(run_id)) if run_id is not None else ()
    overrides = store.grid.overrides(ids)
    judge_run_id, judge_metrics = _judge_columns(store, overrides)
    available = (*lexical, *(m for m in judge_metrics if m not in lexical))
    wanted = available if metrics is None else tuple(dict.fromkeys(metrics))
    if responses is None:
        responses = max(total, len(golden)) * len(pipelines) <= RESPONSES_AUTO_LIMIT
    text = np.full((len(golden), len(pipelines)), "", dtype=object) if responses else None
    base = replace(
        empty_grid(run_id, golden, pipelines, text), judge_run_id=judge_run_id, judge_metrics=judge_metrics
    )
    builder = GridBuilder(base if ids is None else replace(base, complete=False, total=total), ids)
    builder.scores(store, wanted)
    builder.marks(store)
    builder.overrides(overrides, wanted)
    builder.flags_in_force(store, overrides)
    builder.texts(store)
    return builder.build(available=available)


def _judge_columns(store: ProjectStore, overrides: Sequence[Override]) -> tuple[int | None, tuple[str, ...]]:
    """The newest judge run (finished or not, as the reports take it) and its metrics, sorted,
    with the judge metrics a reviewer overrode (their value counts as the reports count it);
    ``(None, ())`` without a judge run (the reports then show no judge score either)."""
    judge = store.runs.latest(JUDGE_RUN)
    if judge is None:
        return None, ()
    scored = set(store.results.metrics(judge.id))
    overridden = {o.metric for o in overrides if o.metric not in LEXICAL_SCORE_NAMES}
    return judge.id, tuple(sorted(scored | overridden))


def newest_judge_run(store: ProjectStore) -> int | None:
    """The id of the judge run the grid reads (the newest), ``None`` when there is none."""
    judge = store.runs.latest(JUDGE_RUN)
    return None if judge is None else judge.id


def add_metrics(data: GridData, store: ProjectStore, metrics: Sequence[str]) -> GridData:
    """``data`` with more metric columns loaded (those already there are kept as they are)."""
    missing = [m for m in dict.fromkeys(metrics) if m not in data.values]
    if not missing:
        return data
    ids = None if data.complete else [str(q) for q in data.question_ids]
    with collector_paused(), store.grid.snapshot():
        builder = GridBuilder(data, ids)
        builder.scores(store, missing)
        builder.overrides(store.grid.overrides(ids), missing)
        return builder.build()


def update_rows(
    data: GridData, store: ProjectStore, run_id: int | None, question_ids: Iterable[str]
) -> GridData:
    """``data`` with some questions reloaded (text, scores, flags, overrides, review).

    Cheap for a few ids. A new or deleted question, changed pipelines or another run cannot
    be patched in place: the whole grid is reloaded then (same metrics; a partial grid
    reloads as many first rows).
    """
    ids = list(dict.fromkeys(question_ids))
    golden = store.grid.golden(ids)
    if (
        run_id != data.run_id
        or newest_judge_run(store) != data.judge_run_id
        or tuple(store.responses.pipelines()) != data.pipelines
        or len(golden) != len(ids)
        or any(data.index_of(q) is None for q in ids)
    ):
        limit, searched = None if data.complete else len(data), data.responses is not None
        return load_grid_head(store, run_id, tuple(data.values), limit=limit, responses=searched)
    builder = GridBuilder(data, ids)
    rows = builder.rows(ids)
    for metric in builder.values:
        builder.values[metric][rows] = np.nan
        builder.overridden[metric][rows] = False
    builder.flags[rows] = 0
    builder.golden_flags[rows] = 0
    builder.review[rows] = REVIEW_UNREVIEWED
    if builder.responses is not None:
        builder.responses[rows] = ""
    reloaded = set(ids)
    builder.notes = {key: note for key, note in builder.notes.items() if key[0] not in reloaded}
    builder.reasons = {key: why for key, why in builder.reasons.items() if key[0] not in reloaded}
    builder.scores(store, tuple(data.values))
    builder.marks(store)
    overrides = store.grid.overrides(ids)
    builder.overrides(overrides, tuple(data.values))
    builder.flags_in_force(store, overrides)
    builder.texts(store)
    texts = [c.copy() for c in (data.questions, data.answers, data.facts)]
    for item in golden:
        row = data.index_of(item[0])
        for column, value in zip(texts, item[1:], strict=True):
            column[row] = value
    new = builder.build(texts=[frozen(c) for c in texts])
    if "search" in data._cache:  # patch the search texts instead of rebuilding 100k of them
        search = list(data._cache["search"])
        for row in rows:
            search[int(row)] = new._search_text(int(row))
        new._cache["search"] = search
    return new

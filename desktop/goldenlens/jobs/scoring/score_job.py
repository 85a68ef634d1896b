"""Score every response of a project with the lexical metrics, committing as it goes.

A run killed at any point keeps every batch it committed; calling :func:`score_project`
again with the same options *on the same inputs* resumes the unfinished run and scores only
what is missing, so the final numbers equal those of an uninterrupted run. Every run records
the fingerprint of the golden items and responses it scores, and the golden-set version
(:mod:`goldenlens.core.golden.versions`); when the inputs changed since (a re-import, an
edit), a new run starts instead, so a run never mixes old and new inputs. The
project's writer lock (:mod:`goldenlens.store.lock`) is held for the whole run: a second
process refuses to score the same project meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.flags import FlagThresholds, golden_flags, response_flags
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES, LexicalScorer
from goldenlens.core.lexical.signature import lexical_signature
from goldenlens.core.lexical.stored_results import result_to_records
from goldenlens.core.runs.fingerprint import inputs_fingerprint
from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.core.scores import ScoreRecord
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.scoring.resume import resumable_run
from goldenlens.jobs.scoring.score_rows import RowText, ScoreOptions, score_chunks, workers_for
from goldenlens.store.lock import project_lock
from goldenlens.store.project import ProjectStore


def score_rows(
    items: Sequence[GoldenItem],
    responses: Sequence[PipelineResponse],
    scorer: LexicalScorer,
    thresholds: FlagThresholds,
) -> tuple[list[ScoreRecord], list[tuple[str, str, str]]]:
    """Score records and response flags for ``responses`` (pure; no store)."""
    by_id = {item.id: item for item in items}
    signatures = lexical_signatures(scorer.multiset)
    records: list[ScoreRecord] = []
    flags: list[tuple[str, str, str]] = []
    for resp in responses:
        item = by_id[resp.question_id]
        result = scorer.score(resp.response, item.answer, item.fact, with_alignment=False)
        records.extend(result_to_records(resp.question_id, resp.pipeline, result, signatures))
        flags.extend(
            (resp.question_id, resp.pipeline, flag.value)
            for flag in response_flags(resp.response, result.scores, thresholds)
        )
    return records, flags


def lexical_signatures(multiset: bool) -> dict[str, str]:
    """``{metric: signature JSON}`` of the seven lexical metrics, in score order."""
    params = LexicalScorer(multiset=multiset).params()
    return {name: lexical_signature(name, params).to_json() for name in LEXICAL_SCORE_NAMES}


def lexical_fingerprint(items: Sequence[GoldenItem], responses: Sequence[PipelineResponse]) -> str:
    """The fingerprint of what a lexical run reads: answers, facts and responses."""
    return inputs_fingerprint(items, responses)


@takes_project
def score_project(
    store: ProjectStore,
    options: ScoreOptions | None = None,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    batch_size: int = 500,
    resume: bool = True,
) -> int:
    """Score all responses of ``store`` and return the run id.

    Each batch of ``batch_size`` responses is one commit. On cancel the finished batches
    stay, the run is marked ``cancelled`` and :class:`Cancelled` is raised; the next call
    with the same options on the same inputs resumes it. Raises
    :class:`~goldenlens.store.lock.ProjectBusyError` when another process is scoring the
    project.
    """
    wait = None if cancel is None else cancel.raise_if_cancelled
    with project_lock(store.path, while_waiting=wait):
        return _score_project(
            store,
            options or ScoreOptions(),
            progress=progress,
            cancel=cancel,
            batch_size=batch_size,
            resume=resume,
        )


def _score_project(
    store: ProjectStore,
    options: ScoreOptions,
    *,
    progress: ProgressFn,
    cancel: CancelToken | None,
    batch_size: int,
    resume: bool,
) -> int:
    params = options.params()
    # Read before the items: the run then names a version no newer than what it scores (an
    # edit that slips in between is a later version, and a later run scores it).
    golden_head = store.golden.head()
    items = store.golden.items()
    responses = store.responses.all()
    fingerprint = lexical_fingerprint(items, responses)
    run_id = (
        resumable_run(store, LEXICAL_RUN, fingerprint, lambda stored: stored == params) if resume else None
    )
    if run_id is None:
        run_id = store.runs.start(
            LEXICAL_RUN,
            params,
            total=len(responses),
            inputs_sha256=fingerprint,
            golden_history_id=golden_head,
        )
    else:
        store.runs.resume(run_id)
    done = store.results.scored_keys(run_id)
    todo = [r for r in responses if (r.question_id, r.pipeline) not in done]
    by_id = {item.id: item for item in items}
    signatures = lexical_signatures(options.multiset)
    # One report per committed batch: the front ends throttle what they show.
    finished = len(responses) - len(todo)
    progress(Progress("score", finished, len(responses), "Scoring responses"))

    def chunks() -> Iterator[list[RowText]]:
        for start in range(0, len(todo), batch_size):
            rows: list[RowText] = []
            for r in todo[start : start + batch_size]:
                item = by_id[r.question_id]
                rows.append((r.question_id, r.pipeline, r.response, item.answer, item.fact))
            yield rows

    scored = score_chunks(chunks(), options.multiset, options.thresholds, workers=workers_for(len(todo)))
    try:
        for chunk in scored:
            if cancel is not None and cancel.cancelled:
                store.runs.finish(run_id, "cancelled")
                raise Cancelled
            store.results.save_rows(
                run_id, signatures, chunk.keys, chunk.values, reasons=chunk.reasons, flags=chunk.flags
            )
            finished += len(chunk.keys)
            progress(Progress("score", finished, len(responses), "Scoring responses"))
    finally:
        scored.close()  # a cancel or an error stops the pool without scoring what is queued
    store.results.save(run_id, [], _golden_row_flags(store, run_id, items, options.thresholds))
    store.runs.finish(run_id, "finished")
    progress(Progress("score", len(responses), len(responses), "Scored"))
    return run_id


def _golden_row_flags(
    store: ProjectStore, run_id: int, items: Sequence[GoldenItem], thresholds: FlagThresholds
) -> list[tuple[str, str, str]]:
    found: dict[str, list[float]] = {item.id: [] for item in items}
    for (question_id, _pipeline), value in store.results.score_matrix(run_id, FACTUAL_KNOWLEDGE).items():
        if question_id in found and value is not None:
            found[question_id].append(value)
    return [
        (item.id, "", flag.value)
        for item in items
        for flag in golden_flags(item.answer, item.fact, found[item.id], thresholds)
    ]

"""A project's responses as the calibration sees them: the latest finished lexical run's
responses with their texts, signals, golden versions and the reviewer labels in force.

The signals are computed scores only (never a reviewer's override): the seven lexical scores,
what the texts say (:func:`~goldenlens.core.calibration.population.run_responses`), and the judge
metrics of the newest judge run that measured
at least :data:`JUDGE_COVERAGE` of the responses (a metric measured on a hand-picked few could be
picked by the labels themselves, which would bias the estimates).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from goldenlens.core.calibration.labels import (
    LabelledResponses,
    LabelState,
    ResponseKey,
)
from goldenlens.core.calibration.population import RunResponses, run_responses
from goldenlens.core.calibration.sampling_plan import IntArray, Mode, RoundDesign
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.jobs.scoring.pending import scored_run
from goldenlens.store.project import ProjectStore
from goldenlens.store.repositories.labels import RoundInfo

FloatArray = npt.NDArray[np.float64]

#: A judge metric becomes a signal when it was measured on at least this share of the responses.
JUDGE_COVERAGE: Final = 0.9


@dataclass(frozen=True)
class ProjectResponses(LabelledResponses):
    """The population of a project's calibration (the latest finished lexical run's responses)
    with the signals its predictor reads."""

    run_id: int
    items: dict[str, GoldenItem]
    run: RunResponses
    #: SHA-256 of every (question, pipeline, answer key): a round planned on another is unusable.
    fingerprint: str
    #: The lexical scores by metric (NaN: not scored), in response order.
    lexical: dict[str, FloatArray]


def _column(values: list[float | None]) -> FloatArray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def load_responses(store: ProjectStore) -> ProjectResponses:
    """The project's calibration population (raises :class:`NoScoresError` with no finished
    lexical run)."""
    run = scored_run(store)
    run_keys, columns = store.results.score_columns(run.id, LEXICAL_SCORE_NAMES)
    everyone = store.labels.in_force()
    at = everyone.index()
    kept = [n for n, key in enumerate(run_keys) if key in at]
    rows = [at[run_keys[n]] for n in kept]
    keys = tuple(run_keys[n] for n in kept)
    lexical = {name: _column(columns[name])[kept] for name in LEXICAL_SCORE_NAMES}
    signals: dict[str, FloatArray] = dict(lexical)
    signals.update(_judge_signals(store, keys))
    items = {item.id: item for item in store.golden.items()}
    texts = tuple(everyone.texts[r] for r in rows)
    responses = run_responses(
        question_ids=[q for q, _p in keys],
        pipelines=[p for _q, p in keys],
        texts=texts,
        facts=[items[q].fact for q, _p in keys],
        signals=signals,
        pipeline_order=store.responses.pipelines(),
    )
    response_keys = tuple(everyone.response_keys[r] for r in rows)
    labels = tuple(everyone.labels[r] for r in rows)
    detached = tuple(everyone.detached[r] for r in rows)
    return ProjectResponses(
        keys,
        texts,
        response_keys,
        labels,
        detached,
        run.id,
        items,
        responses,
        fingerprint(response_keys),
        lexical,
    )


def _judge_signals(store: ProjectStore, keys: tuple[tuple[str, str], ...]) -> dict[str, FloatArray]:
    judge = store.runs.latest(JUDGE_RUN)
    if judge is None or not keys:
        return {}
    metrics = store.results.metrics(judge.id)
    judge_keys, columns = store.results.score_columns(judge.id, metrics)
    at = {key: n for n, key in enumerate(judge_keys)}
    found: dict[str, FloatArray] = {}
    for metric in metrics:
        values = np.array(
            [
                np.nan if (n := at.get(key)) is None or columns[metric][n] is None else columns[metric][n]
                for key in keys
            ],
            dtype=np.float64,
        )
        if np.count_nonzero(~np.isnan(values)) >= JUDGE_COVERAGE * len(keys):
            found[f"judge {metric}"] = values
    return found


def fingerprint(response_keys: tuple[ResponseKey, ...]) -> str:
    """What a round was planned on: every response's question, pipeline and answer key."""
    digest = hashlib.sha256()
    for key in sorted((r.question_id, r.pipeline, r.answer_key) for r in response_keys):
        digest.update("\x1f".join(key).encode("utf-8") + b"\x1e")
    return digest.hexdigest()


@dataclass(frozen=True)
class Rounds:
    """The stored rounds an estimate can use, and what became of the others."""

    designs: tuple[RoundDesign, ...]
    outdated: int
    #: The stored round of each design.
    infos: tuple[RoundInfo, ...] = ()
    #: Rounds that drew exactly the sample of an earlier round (planned again before any label,
    #: with the same seed, by a version that drew every round from the seed alone): left out,
    #: since one sample counted twice would halve its variance.
    repeated: int = 0
    #: The stored rounds left out as repeated.
    repeated_ids: tuple[int, ...] = ()


def usable_rounds(store: ProjectStore, responses: ProjectResponses) -> Rounds:
    """The labelling rounds planned on exactly the responses there are now, as designs over the
    population's indices (a round planned before the responses changed measures another
    population: it is left out, its labels still count where they hold)."""
    index = responses.index()
    designs: list[RoundDesign] = []
    infos: list[RoundInfo] = []
    outdated = 0
    repeated: list[int] = []
    for info in store.labels.rounds():
        if info.population != responses.fingerprint:
            outdated += 1
            continue
        frame_rows = store.labels.round_frame(info.id)
        frame = np.array([index[(q, p)] for q, p, *_rest in frame_rows], dtype=np.intp)
        unit = np.array([u for _q, _p, u, _s, _pos in frame_rows], dtype=np.intp)
        units = int(unit.max()) + 1 if len(unit) else 0
        stratum = np.zeros(units, dtype=np.intp)
        position = np.full(units, -1, dtype=np.int64)
        for _q, _p, u, s, pos in frame_rows:
            stratum[u] = s
            if pos is not None:
                position[u] = pos
        sampled = np.flatnonzero(position >= 0)
        sampled = sampled[np.argsort(position[sampled], kind="stable")].astype(np.intp)
        mode: Mode = "question" if info.mode == "question" else "response"
        design = RoundDesign(frame, unit, stratum, sampled, info.seed, mode)
        if any(_same_draw(design, earlier) for earlier in designs):
            repeated.append(info.id)
            continue
        designs.append(design)
        infos.append(info)
    return Rounds(tuple(designs), outdated, tuple(infos), len(repeated), tuple(repeated))


def _same_draw(one: RoundDesign, other: RoundDesign) -> bool:
    """Whether two rounds sampled the same responses from the same frame."""
    if len(one.frame) != len(other.frame) or len(one.sampled) != len(other.sampled):
        return False
    return bool(
        np.array_equal(np.sort(one.frame), np.sort(other.frame))
        and np.array_equal(np.sort(_sampled_responses(one)), np.sort(_sampled_responses(other)))
    )


def _sampled_responses(design: RoundDesign) -> IntArray:
    """The population indices of the responses whose unit ``design`` sampled."""
    picked: IntArray = design.frame[np.isin(design.unit, design.sampled)]
    return picked


def known_count(responses: ProjectResponses) -> int:
    """Responses with a verdict in force (correct or incorrect)."""
    return sum(1 for label in responses.labels if label.state in (LabelState.CORRECT, LabelState.INCORRECT))

"""Score a golden set and responses straight from their files into a report, with no project:
what ``goldenlens score GOLDEN RESPONSES [-o FILE]`` does when nothing is to be kept.

The same steps as an import followed by a lexical run — the same readers and problems, the
same row order (golden order, then pipeline order), the same scoring of chunks in a process
pool (:mod:`goldenlens.jobs.scoring.score_rows`), the same golden-row flags and signatures — without
writing every response and score into SQLite and reading them back, which is most of the time
a project-backed run takes. The workers also render each row's line of the JSON report and the
flags of the questions their chunk holds (chunks never split a question), so a JSON report is
written from what they return; the other formats build the full :class:`Report`. A test
compares every format with the project path's, byte for byte.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import add, attrgetter, itemgetter, le
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.core.gc_pause import collector_paused
from goldenlens.core.input_selection import InputSelection
from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.flags import Flag, FlagThresholds
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES, LexicalScorer
from goldenlens.core.lexical.signature import Signature, lexical_signature
from goldenlens.core.problems import Problem
from goldenlens.core.reviewer_decisions import QuestionReview
from goldenlens.core.scored_rows import (
    Report,
    ScoredRow,
    golden_flags_for,
    row_from_scores,
)
from goldenlens.core.stats.decision import check_baseline
from goldenlens.io.reports.json_report import report_tail, write_json_document
from goldenlens.io.reports.json_rows import fresh_rows_text
from goldenlens.jobs.importing.read_inputs import read_inputs
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn, no_progress
from goldenlens.jobs.scoring.report_statistics import (
    StatisticsInputs,
    StatisticsProcess,
    golden_row_flags,
    report_statistics,
)
from goldenlens.jobs.scoring.score_rows import (
    ChunkWorker,
    RowText,
    ScoredChunk,
    ScoreOptions,
    pack_values,
    row_scores,
    score_chunk,
    score_slices,
    workers_for,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from goldenlens.core.calibration.human_calibrated import HumanCalibrated

#: Rows a chunk holds at least (the batch size of a project-backed run); a chunk ends with the
#: last response of a question, so that its worker sees every response of the question.
CHUNK_ROWS = 500

#: The reasons of a row whose values are all scored: none.
_SCORED: Mapping[str, str] = {}
_UNREVIEWED = QuestionReview()


def render_chunk(rows: Sequence[RowText], multiset: bool, thresholds: FlagThresholds) -> ScoredChunk:
    """The rows scored (:func:`~goldenlens.jobs.scoring.score_rows.row_scores`) as their lines of the
    JSON report, joined as the report writes them, and the values packed for the means, the
    comparisons and the golden rows' flags (a worker function: module level, picklable).

    Flags are listed by name, as a project lists them, so both paths write the same report.
    """
    scorer, scored, flagged = row_scores(rows, multiset, thresholds)
    packed = pack_values(scored)
    text = fresh_rows_text(
        [
            (
                row[0],
                row[1],
                values,
                sorted(row_flags) if len(row_flags) > 1 else row_flags,
                scorer.reasons(row[4]) if None in values else _SCORED,  # why not scored
            )
            for row, values, row_flags in zip(rows, scored, flagged, strict=True)
        ]
    )
    return ScoredChunk(text=text, packed=packed, rendered_rows=len(rows))


@dataclass(frozen=True)
class ResponseRows:
    """The rows to score, built from the read responses (in report order) and the golden items:
    a :class:`~goldenlens.jobs.scoring.score_rows.RowSource`, so forked workers build their own chunks."""

    responses: Sequence[PipelineResponse]
    golden: Mapping[str, GoldenItem]

    def rows(self, start: int, end: int) -> list[RowText]:
        golden = self.golden
        return [
            (r.question_id, r.pipeline, r.response, (item := golden[r.question_id]).answer, item.fact)
            for r in self.responses[start:end]
        ]


def question_bounds(question_ids: Sequence[str], min_rows: int) -> list[tuple[int, int]]:
    """``(start, end)`` of consecutive chunks of at least ``min_rows`` rows (the last may hold
    fewer), each ending with the last row of a question, so a question's rows share a chunk."""
    bounds: list[tuple[int, int]] = []
    start, total = 0, len(question_ids)
    while start < total:
        end = min(start + min_rows, total)
        while end < total and question_ids[end] == question_ids[end - 1]:
            end += 1
        bounds.append((start, end))
        start = end
    return bounds


def _fk_column(values: Iterable[float | None]) -> npt.NDArray[np.float64]:
    import numpy as np

    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def _not_checked(
    pipelines: Sequence[str], row_pipelines: Sequence[str], fk: npt.NDArray[np.float64]
) -> HumanCalibrated:
    """What reviewers would judge with no label: nothing yet, and how many labels it needs
    (the project path's block without a project to label in)."""
    import numpy as np

    from goldenlens.core.calibration.human_calibrated import not_checked

    index = {name: n for n, name in enumerate(pipelines)}
    of_row = np.fromiter((index[name] for name in row_pipelines), dtype=np.intp, count=len(row_pipelines))
    return not_checked(pipelines, of_row, fk)


@dataclass
class ScoredFiles:
    """The read inputs of :func:`score_files`, scored when the report is asked for: as JSON
    (:meth:`write_json`, rows written as the workers return them) or as a :class:`Report`.
    Its About block names ``sources``."""

    golden: tuple[GoldenItem, ...]
    pipelines: tuple[str, ...]
    responses: list[PipelineResponse]
    problems: tuple[Problem, ...]
    #: Each response's place in report order (:func:`_in_report_order`), as 64-bit integers.
    places: bytes
    options: ScoreOptions
    sources: tuple[str, ...]
    progress: ProgressFn = no_progress
    cancel: CancelToken | None = None
    #: ``--baseline``: beyond ten pipelines each is compared with it too.
    baseline: str | None = None
    #: Started with the read of a large run (:meth:`StatisticsProcess.start_for`), used by
    #: :meth:`write_json`.
    statistics_process: StatisticsProcess | None = field(default=None, repr=False)
    _report: Report | None = field(default=None, repr=False)

    @property
    def row_count(self) -> int:
        return len(self.responses)

    @property
    def params(self) -> dict[str, object]:
        return LexicalScorer(multiset=self.options.multiset).params()

    @property
    def signatures(self) -> dict[str, Signature]:
        return {name: lexical_signature(name, self.params) for name in LEXICAL_SCORE_NAMES}

    def write_json(self, path: Path) -> dict[str, dict[str, float | None]]:
        """Score and write the JSON report: each row's line as its chunk comes back (the lines
        are not kept), then the means, flags and problems. Nothing is written on a failure or
        a cancel (:func:`~goldenlens.io.atomic_files.write_atomically`). Returns the means
        (the report's ``summary``, for the CI gate).

        The statistics are worked out by the :class:`StatisticsProcess` started with the read,
        if there is one, while the rows go to the disk; here otherwise."""
        packed: list[bytes] = []
        process, self.statistics_process = self.statistics_process, None
        inputs: list[StatisticsInputs] = []

        def lines() -> Iterator[str]:
            for chunk in self._scored(render_chunk):
                if chunk.text:
                    yield chunk.text
                packed.append(chunk.packed)
            inputs.append(self._statistics_inputs(packed))
            packed.clear()
            if process is not None:
                process.send(inputs[0])

        means: dict[str, dict[str, float | None]] = {}

        def tail() -> dict[str, object]:
            found = process.answer() if process is not None else None
            statistics = found or report_statistics(
                inputs[0], golden_row_flags(self.golden, self.options.thresholds)
            )
            means.update(statistics.summary)
            return report_tail(
                self.golden,
                summary=means,
                comparisons=statistics.comparisons,
                overridden={pipeline: {} for pipeline in self.pipelines},
                review=lambda _question_id: _UNREVIEWED,
                golden_flags=self._golden_flags(statistics.golden_flags),
                signatures=self.signatures,
                problems=self.problems,
                human_calibrated=statistics.human_calibrated,
            )

        # The rows' values and lines are freed as they are written, and none is in a cycle: the
        # collector would only walk the read inputs again and again (a tenth of the tail's time).
        try:
            with collector_paused():
                write_json_document(path, {}, lines(), tail, rows_to_disk_first=process is not None)
        finally:
            if process is not None:
                process.close()
        return means

    def _statistics_inputs(self, packed: Sequence[bytes]) -> StatisticsInputs:
        """The packed values with each row's place."""
        return StatisticsInputs(
            b"".join(packed),
            questions=tuple(item.id for item in self.golden),
            pipelines=self.pipelines,
            places=self.places,
            baseline=self.baseline,
        )

    def close(self) -> None:
        """End the statistics process if it was not used (the run stopped before its report)."""
        if self.statistics_process is not None:
            self.statistics_process.close()
            self.statistics_process = None

    def report(self) -> Report:
        """Score and build the full report (for the workbook, the CSV and the printed summary)."""
        self.close()  # its statistics are worked out from the rows, here
        if self._report is None:
            with collector_paused():  # as in write_json
                rows = list(self._rows(self._scored(score_chunk)))
            self._report = Report(
                golden=self.golden,
                pipelines=self.pipelines,
                rows=tuple(rows),
                golden_flags={  # by name, as a project lists them
                    question_id: tuple(sorted(flags, key=lambda flag: flag.value))
                    for question_id, flags in golden_flags_for(
                        self.golden, rows, self.options.thresholds
                    ).items()
                },
                problems=self.problems,
                signatures=self.signatures,
                thresholds=self.options.thresholds,
                human_calibrated=_not_checked(
                    self.pipelines,
                    [row.response.pipeline for row in rows],
                    _fk_column(row.scores.get(FACTUAL_KNOWLEDGE) for row in rows),
                ),
                baseline=self.baseline,
            )
        return self._report

    def _golden_flags(self, named: Sequence[tuple[str, ...]]) -> dict[str, tuple[Flag, ...]]:
        """Each question's flags, from their names in golden order."""
        as_flags: dict[tuple[str, ...], tuple[Flag, ...]] = {}  # few distinct lists: each made once
        flags: dict[str, tuple[Flag, ...]] = {}
        for item, names in zip(self.golden, named, strict=True):
            made = as_flags.get(names)
            if made is None:
                made = as_flags[names] = tuple(Flag(name) for name in names)
            flags[item.id] = made
        return flags

    def _scored(self, worker: ChunkWorker) -> Iterator[ScoredChunk]:
        total = len(self.responses)
        self.progress(Progress("score", 0, total, "Scoring responses"))
        source = ResponseRows(self.responses, {item.id: item for item in self.golden})
        bounds = question_bounds([r.question_id for r in self.responses], CHUNK_ROWS)
        finished = 0
        options = self.options
        scored = score_slices(
            source, bounds, options.multiset, options.thresholds, workers=workers_for(total), worker=worker
        )
        try:
            for chunk in scored:
                if self.cancel is not None:
                    self.cancel.raise_if_cancelled()
                finished += chunk.row_count
                self.progress(Progress("score", finished, total, "Scoring responses"))
                yield chunk
        finally:
            scored.close()  # a cancel or an error stops the pool without scoring what is queued

    def _rows(self, chunks: Iterator[ScoredChunk]) -> Iterator[ScoredRow]:
        by_id = {item.id: item for item in self.golden}
        responses = iter(self.responses)
        params = self.params
        for chunk in chunks:
            reasons: dict[tuple[str, str], dict[str, str]] = {}
            for question_id, pipeline, metric, reason in chunk.reasons:
                reasons.setdefault((question_id, pipeline), {})[metric] = reason
            flags: dict[tuple[str, str], list[Flag]] = {}
            for question_id, pipeline, flag in sorted(chunk.flags):
                flags.setdefault((question_id, pipeline), []).append(Flag(flag))
            for key, values in zip(chunk.keys, chunk.values, strict=True):
                response = next(responses)
                yield row_from_scores(
                    by_id[response.question_id],
                    response,
                    dict(zip(LEXICAL_SCORE_NAMES, values, strict=True)),
                    reasons=reasons.get(key, {}),
                    params=params,
                    flags=tuple(flags.get(key, ())),
                )


def score_files(
    golden: Path,
    responses: Path,
    *,
    selection: InputSelection | None = None,
    options: ScoreOptions | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    baseline: str | None = None,
    json_report: bool = False,
) -> ScoredFiles:
    """Read both files as ``selection`` says (a fatal problem raises
    :class:`~goldenlens.core.problems.InputError`); the
    result scores every response with the lexical metrics when its report is asked for: what
    an import and a lexical run into a new project would report, with no reviews and no
    overrides. ``baseline`` (``--baseline``) must be one of the pipelines
    (:class:`~goldenlens.core.stats.decision.UnknownBaselineError`, before anything is scored).
    ``json_report``: the caller will ask for :meth:`ScoredFiles.write_json` (a large run then
    starts its :class:`StatisticsProcess` with the reading, and the caller closes the result)."""
    options = options or ScoreOptions()
    process: StatisticsProcess | None = None

    def golden_read(items: Sequence[GoldenItem]) -> None:
        nonlocal process  # started while this one reads the responses (its module's docstring)
        if json_report:
            process = StatisticsProcess.start_for(responses, items, options.thresholds)

    try:
        loaded = read_inputs(
            golden, responses, selection=selection, progress=progress, cancel=cancel, golden_read=golden_read
        )
        items = loaded.golden.items
        pipelines = loaded.responses.pipelines if loaded.responses else ()
        check_baseline(baseline, pipelines)
    except BaseException:
        if process is not None:
            process.close()
        raise
    read = loaded.responses.responses if loaded.responses else ()
    ordered, places = _in_report_order(items, pipelines, read)
    return ScoredFiles(
        golden=tuple(items),
        pipelines=tuple(pipelines),
        responses=ordered,
        places=array("q", places).tobytes(),
        problems=tuple(loaded.problems),
        options=options,
        sources=tuple(path.name for path in (golden, responses)),
        progress=progress,
        cancel=cancel,
        baseline=baseline,
        statistics_process=process,
    )


def _in_report_order(
    items: tuple[GoldenItem, ...], pipelines: tuple[str, ...], responses: tuple[PipelineResponse, ...]
) -> tuple[list[PipelineResponse], list[int]]:
    """Golden position, then pipeline position: the order a project lists its responses in; and
    each response's place in it, its question's golden position times the number of pipelines
    plus its pipeline's position (what the statistics need to know of a row)."""
    # One number per response, computed by maps that run in C (a comprehension of
    # (position, column) pairs took 0.1 s for 60,000).
    width = len(pipelines)
    position = {item.id: n * width for n, item in enumerate(items)}
    column = {name: n for n, name in enumerate(pipelines)}
    keys = list(
        map(
            add,
            map(position.__getitem__, map(attrgetter("question_id"), responses)),
            map(column.__getitem__, map(attrgetter("pipeline"), responses)),
        )
    )
    if all(map(le, keys, keys[1:])):  # the usual file: already in this order
        return list(responses), keys
    ordered = sorted(zip(keys, responses, strict=True), key=itemgetter(0))
    return [response for _key, response in ordered], [key for key, _response in ordered]

"""The statistics at the end of a JSON report scored straight from files — each pipeline's means,
the decision between the pipelines, what reviewers would judge with no label yet, each golden
row's flags — worked out from the golden set and the values the scoring workers packed, here or
in a process of their own.

The process (:class:`StatisticsProcess`) starts once the golden set is read, while this one
reads the responses on one core and leaves the other idle: it imports numpy and the decision
there and works out the golden rows' flags that read the row alone (a third of a second that
otherwise competed with the scoring workers for both cores), then waits for the values. Once
the rows are written, this process sends them, and puts the rows on the disk while the
statistics are worked out. Anything wrong with the process (it could not
start, it died, it failed) only means the statistics are worked out here instead: the same
function on the same values, so the report is the same to the last byte either way.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.flags import (
    FlagThresholds,
    fact_missing_everywhere,
    golden_flags,
    golden_flags_in_force,
)
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.scored_rows import ScoreColumns, summarise_columns
from goldenlens.jobs.scoring.child_processes import fork_is_safe, settle_child

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    import numpy as np
    import numpy.typing as npt

#: A responses file from this size on has its statistics worked out in a process of their own
#: (about 15,000 responses of a few hundred characters: a run the scoring pool scores too).
#: A smaller run would spend more starting the process than it saves.
PROCESS_FROM_BYTES: Final = 4 << 20

_FK: Final = LEXICAL_SCORE_NAMES.index(FACTUAL_KNOWLEDGE)
#: What the statistics import and the reading does not: imported by the process as it starts,
#: numpy's lazily loaded parts included (its generators, for the bootstrap's draws, and its
#: masked arrays, which ``numpy.unique`` loads on its first call): a tenth of a second.
STATISTICS_MODULES: Final = (
    "numpy",
    "numpy.random",
    "numpy.ma",
    "goldenlens.core.stats.decide",
    "goldenlens.core.calibration.human_calibrated",
)


@dataclass(frozen=True)
class StatisticsInputs:
    """What the statistics are worked out from, in compact form (it crosses to a process): the
    workers' packed values (:func:`~goldenlens.jobs.scoring.score_rows.pack_values`, a row per
    response in report order) and each row's place, its question's position in ``questions``
    times the number of ``pipelines`` plus its pipeline's position (64-bit integers as bytes)."""

    packed: bytes
    questions: tuple[str, ...]
    pipelines: tuple[str, ...]
    places: bytes
    baseline: str | None = None


@dataclass(frozen=True)
class ReportStatistics:
    """The report's ``summary`` (means per pipeline and score), ``comparisons``
    (:meth:`~goldenlens.core.stats.decision.Decision.as_dict`) and ``human_calibrated``
    (:meth:`~goldenlens.core.calibration.human_calibrated.HumanCalibrated.as_dict`): plain
    values, so that taking them from the process imports nothing (not numpy)."""

    summary: dict[str, dict[str, float | None]]
    comparisons: dict[str, Any]
    human_calibrated: dict[str, Any]
    #: Each golden row's flag names, sorted, in golden order.
    golden_flags: list[tuple[str, ...]]


def golden_row_flags(golden: Sequence[GoldenItem], thresholds: FlagThresholds) -> list[tuple[str, ...]]:
    """Each golden row's flags that read the row alone (all but the ambiguous question's, which
    needs the scores of its responses), by name, sorted, in golden order."""
    return [
        tuple(sorted(flag.value for flag in golden_flags(item.answer, item.fact, [], thresholds)))
        for item in golden
    ]


def report_statistics(inputs: StatisticsInputs, row_flags: Sequence[tuple[str, ...]]) -> ReportStatistics:
    """Work the statistics out (numpy; the decision's bootstrap draws on threads); ``row_flags``:
    :func:`golden_row_flags` of the golden set the inputs' questions come from."""
    import numpy as np

    from goldenlens.core.calibration.human_calibrated import not_checked
    from goldenlens.core.stats.decide import decide_matrix

    rows = len(inputs.packed) // (8 * len(LEXICAL_SCORE_NAMES))
    matrix = np.frombuffer(inputs.packed, dtype=np.float64).reshape(rows, len(LEXICAL_SCORE_NAMES))
    places = np.frombuffer(inputs.places, dtype=np.int64).astype(np.intp)
    question_at, pipeline_of = np.divmod(places, max(len(inputs.pipelines), 1))
    questions, pipelines = inputs.questions, inputs.pipelines
    question_of = [questions[n] for n in question_at.tolist()]
    row_pipelines = [pipelines[n] for n in pipeline_of.tolist()]
    decision = decide_matrix(question_of, row_pipelines, matrix, inputs.pipelines, baseline=inputs.baseline)
    return ReportStatistics(
        summary=summarise_columns(_columns_from(matrix, pipeline_of, inputs.pipelines)),
        comparisons=decision.as_dict(),
        human_calibrated=not_checked(inputs.pipelines, pipeline_of, matrix[:, _FK]).as_dict(),
        golden_flags=_in_force(row_flags, question_at, matrix[:, _FK]),
    )


def _in_force(
    row_flags: Sequence[tuple[str, ...]], question_of: npt.NDArray[np.intp], fk: npt.NDArray[np.float64]
) -> list[tuple[str, ...]]:
    """:func:`~goldenlens.core.lexical.flags.golden_flags_in_force` of each question: its row's
    flags, and the ambiguous question's from its responses' exact Factual Knowledge. The rule
    reads only whether a question has a scored response and the largest value, found for every
    question at once."""
    import numpy as np

    scored = ~np.isnan(fk)
    counts = np.bincount(question_of[scored], minlength=len(row_flags)).tolist()
    largest = np.zeros(len(row_flags))
    np.maximum.at(largest, question_of[scored], fk[scored])  # Factual Knowledge is 0 or 1
    # The row's flags stand as they are (sorted, none of them the ambiguous question's) unless
    # the question is ambiguous.
    return [
        tuple(golden_flags_in_force(names, [best])) if count and fact_missing_everywhere([best]) else names
        for names, count, best in zip(row_flags, counts, largest.tolist(), strict=True)
    ]


def _columns_from(
    matrix: npt.NDArray[np.float64], pipeline_of: npt.NDArray[np.intp], pipelines: Sequence[str]
) -> ScoreColumns:
    """:func:`~goldenlens.core.scored_rows.score_columns` of the rows: each pipeline's values of
    each score in report order, the not-scored ones (NaN) left out: the same floats, in the same
    order, so the means add up to the same last bit."""
    import numpy as np

    columns: ScoreColumns = {}
    for n, pipeline in enumerate(pipelines):
        mine = matrix[pipeline_of == n]
        columns[pipeline] = (len(mine), [column[~np.isnan(column)].tolist() for column in mine.T])
    return columns


class StatisticsProcess:
    """A process that works out one report's statistics (:func:`report_statistics`): started
    with :meth:`start_for`, sent the inputs with :meth:`send`, asked for the answer with
    :meth:`answer`. It ends after answering, when :meth:`close` is called, or when this process
    ends."""

    def __init__(self, process: BaseProcess, connection: Connection) -> None:
        self._process = process
        self._connection: Connection | None = connection

    @classmethod
    def start_for(
        cls, responses: Path, golden: Sequence[GoldenItem], thresholds: FlagThresholds
    ) -> StatisticsProcess | None:
        """A process for a run of ``golden`` (just read) reading ``responses``, or ``None``: the
        file is smaller than :data:`PROCESS_FROM_BYTES`, cannot be measured, or no child can
        be forked (a spawned one would import everything again, for nothing)."""
        try:
            large = Path(responses).stat().st_size >= PROCESS_FROM_BYTES
        except OSError:
            return None
        if not (large and fork_is_safe()):
            return None
        context = multiprocessing.get_context("fork")
        mine, theirs = context.Pipe()
        process = context.Process(
            target=_serve, args=(theirs, golden, thresholds), name="report-statistics", daemon=True
        )
        try:
            process.start()
        except OSError:  # no process can be made now: the statistics are worked out here
            mine.close()
            theirs.close()
            return None
        theirs.close()  # the child's end: its only holder then sees this process leave
        return cls(process, mine)

    def send(self, inputs: StatisticsInputs) -> None:
        """Hand the inputs over; the process works while this one goes on."""
        if self._connection is None:
            return
        try:
            self._connection.send(inputs)
        except (OSError, ValueError):  # it has ended: answer() finds nothing
            self.close()

    def answer(self) -> ReportStatistics | None:
        """The statistics, once worked out, or ``None`` when the process could not give them
        (it was sent nothing, ended, or failed): the caller works them out itself."""
        if self._connection is None:
            return None
        try:
            found = self._connection.recv()
        except (EOFError, OSError):
            found = None
        self.close()
        return found if isinstance(found, ReportStatistics) else None

    def close(self) -> None:
        """End the process, waiting for it (a moment: it is waiting for inputs or has answered)."""
        if self._connection is not None:
            self._connection.close()  # the process reads the end of its inputs and returns
            self._connection = None
        self._process.join(timeout=1.0)
        if self._process.is_alive():  # working on inputs never to be asked for
            self._process.terminate()
            self._process.join()


def _serve(connection: Connection, golden: Sequence[GoldenItem], thresholds: FlagThresholds) -> None:
    """The process (forked: ``golden`` is its copy of the parent's): import what the statistics
    need, work out the golden rows' own flags, wait for the inputs, answer once. A failure is
    answered as a note (the parent then works them out itself and meets the error there)."""
    import importlib

    settle_child()
    for name in STATISTICS_MODULES:
        importlib.import_module(name)
    row_flags = golden_row_flags(golden, thresholds)
    questions = tuple(item.id for item in golden)
    try:
        inputs = connection.recv()
    except (EOFError, OSError):  # the parent needs no statistics (a failed read, another format)
        return
    answer: object = "the rows' questions are not the golden set this process was given"
    try:
        if inputs.questions == questions:
            answer = report_statistics(inputs, row_flags)
    except Exception as error:  # told to the parent, which works them out and meets it
        answer = f"{type(error).__name__}: {error}"
    try:
        connection.send(answer)
    except (OSError, ValueError):  # the parent has gone
        return

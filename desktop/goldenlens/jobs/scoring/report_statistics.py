"""The statistics at the end of a JSON report scored straight from files — each pipeline's means,
the decision between the pipelines, what reviewers would judge with no label yet, each golden
row's flags — worked out from the golden set and the values the scoring workers packed, here or
in a process of their own.

The process (:class:`StatisticsProcess`) starts once the golden set is read, while this one
reads the responses on one core and leaves the other idle: it imports numpy and the decision
there and works out the golden rows' flags that read the row alone (a third of a second that
otherwise competed with the scoring workers for both cores), then waits for the values. Once
the rows are written, this process sends them, and puts the rows on the disk while the
statistics are worked out. Anything wrong with the process (it could not start, it died, it
failed) only means the statistics are worked out here instead: the same function on the same
values, so the report is the same to the last byte either way.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
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
#: (about 3,500 responses of a few hundred characters, whose reading and scoring outlast the
#: process's imports). A smaller run would wait for the process's imports.
PROCESS_FROM_BYTES: Final = 1 << 20

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
    ends (it looks for that every :data:`_PARENT_CHECK` seconds while it waits, where the
    system does not end it at once)."""

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
            target=_serve,
            args=(theirs, mine, os.getpid(), golden, thresholds),
            name="report-statistics",
            daemon=True,
        )
        try:
            with _signals_held():  # until the child has settled them (_serve)
                process.start()
        except OSError:  # no process can be made now: the statistics are worked out here
            mine.close()
            theirs.close()
            return None
        theirs.close()  # the child's end, which only the child holds now
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
        """End the process: closing this end tells it no inputs will come (or that its answer
        was read), and it returns; one that does not within :data:`_ENDING` seconds is ended."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self._process.join(timeout=_ENDING)
        if self._process.exitcode is None:
            self._process.terminate()
            self._process.join(timeout=_ENDING)
        if self._process.exitcode is None:
            self._process.kill()
            self._process.join()


#: Seconds a statistics process has to end once told to, before it is ended.
_ENDING: Final = 5.0
#: Seconds between two looks, while the process waits, at whether its parent still runs.
_PARENT_CHECK: Final = 0.5
#: Held back from the moment of the fork until the child has settled what they do.
_HELD = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl+C or SIGTERM arriving while the child starts waits until it is settled (the child
    then ignores the one and ends at the other, the parent handles both as usual): before it,
    the child would run the parent's handlers and print a traceback."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _serve(
    connection: Connection,
    parents_end: Connection,
    parent: int,
    golden: Sequence[GoldenItem],
    thresholds: FlagThresholds,
) -> None:
    """The process (forked: ``golden`` is its copy of the parent's). Whatever goes wrong ends it
    quietly: the parent then works the statistics out itself, and meets the error there if
    there is one."""
    try:
        parents_end.close()  # its copy of the parent's end: the parent's close must reach it
        settle_child()
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
        _answer_once(connection, parent, golden, thresholds)
    except BaseException:  # the parent works them out; a traceback would only alarm
        os._exit(1)


def _answer_once(
    connection: Connection, parent: int, golden: Sequence[GoldenItem], thresholds: FlagThresholds
) -> None:
    """Import what the statistics need, work out the golden rows' own flags, wait for the inputs
    (or for the parent to close its end or to end), answer once. A failure of the statistics is
    answered as a note."""
    import importlib

    for name in STATISTICS_MODULES:
        importlib.import_module(name)
    row_flags = golden_row_flags(golden, thresholds)
    questions = tuple(item.id for item in golden)
    try:
        while not connection.poll(_PARENT_CHECK):
            if os.getppid() != parent:  # the parent has ended
                return
        inputs = connection.recv()
    except (EOFError, OSError):  # the parent needs no statistics (a failed read, a cancel)
        return
    answer: object = "the rows' questions are not the golden set this process was given"
    try:
        if inputs.questions == questions:
            answer = report_statistics(inputs, row_flags)
    except Exception as error:  # told to the parent, which works them out and meets it
        answer = f"{type(error).__name__}: {error}"
    with contextlib.suppress(OSError, ValueError):  # the parent has gone
        connection.send(answer)

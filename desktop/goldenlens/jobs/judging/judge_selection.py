"""Which questions a judge run judges: all of them, the ones named (``--only``), the ones a
threshold expression on the lexical scores keeps (``--where "f1 < 0.5"``), or both at once.
The desktop app's Judge dialog narrows a run the same way, through ``only``
(:class:`JudgeScope`: all rows, the grid's selected questions or the rows the grid shows).

The expression is the score grid's own (:func:`goldenlens.core.view.threshold.parse_threshold`): a
condition holds for a question when any pipeline's score (or the named pipeline's, as in
``Pipeline1.recall < 0.5``) meets it; scores are those of the newest finished lexical run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
from goldenlens.core.problems import InputError
from goldenlens.core.view.threshold import parse_threshold
from goldenlens.store.project import ProjectStore

__all__ = ["JudgeRows", "JudgeScope", "selected_questions"]

_WHERE = "judge --where"
_ONLY = "judge --only"


class JudgeRows(Enum):
    """Which rows the desktop app's Judge dialog judges."""

    ALL = "all"
    SELECTED = "selected"
    SHOWN = "shown"


@dataclass(frozen=True)
class JudgeScope:
    """What the Judge dialog can narrow a run to: the project's question count, the grid's
    selected questions and the questions it shows (``None``: not known yet, the grid is still
    loading). :meth:`only` turns a choice into :attr:`JudgeOptions.only
    <goldenlens.jobs.judging.judge_options.JudgeOptions.only>`, which the run checks with
    :func:`selected_questions` as it checks the CLI's ``--only``."""

    total: int
    selected: tuple[str, ...] = ()
    shown: tuple[str, ...] | None = None

    def count(self, rows: JudgeRows) -> int | None:
        """How many questions ``rows`` judges (``None``: not known yet)."""
        if rows is JudgeRows.ALL:
            return self.total
        if rows is JudgeRows.SELECTED:
            return len(self.selected)
        return None if self.shown is None else len(self.shown)

    def only(self, rows: JudgeRows) -> tuple[str, ...]:
        """The ``only`` option of a run on ``rows``: empty for every question — also when the
        grid shows them all, so the run stays the plain run of every question (and resumes as
        one). Raises ``ValueError`` when the choice holds no question."""
        if rows is JudgeRows.ALL:
            return ()
        chosen = self.selected if rows is JudgeRows.SELECTED else self.shown
        if not chosen:
            what = "no question is selected" if rows is JudgeRows.SELECTED else "the grid shows no question"
            raise ValueError(what)
        unique = tuple(dict.fromkeys(chosen))
        return () if rows is JudgeRows.SHOWN and len(unique) == self.total else unique


def selected_questions(store: ProjectStore, only: Sequence[str], where: str) -> list[str] | None:
    """The question ids to judge, in golden-set order; None for every question.

    Raises :class:`InputError` for an unknown id, a bad expression, an expression without a
    finished lexical run to read, or a selection that keeps no question."""
    if not only and not where.strip():
        return None
    ids = [item.id for item in store.golden.items()]
    chosen = ids
    if only:
        known = set(ids)
        unknown = [q for q in only if q not in known]
        if unknown:
            raise InputError.fatal(_ONLY, f"no such question: {', '.join(unknown)}")
        wanted = set(only)
        chosen = [q for q in ids if q in wanted]
    if where.strip():
        chosen = _where(store, chosen, where)
    if not chosen:
        raise InputError.fatal(_WHERE if where.strip() else _ONLY, "no question is selected")
    return chosen


def _where(store: ProjectStore, ids: list[str], where: str) -> list[str]:
    pipelines = store.responses.pipelines()
    try:
        expression = parse_threshold(where, LEXICAL_SCORE_NAMES, pipelines)
    except ValueError as error:
        raise InputError.fatal(_WHERE, str(error)) from error
    run = store.runs.latest(finished_only=True)
    if run is None:
        raise InputError.fatal(_WHERE, "no finished lexical scoring run to read the scores of")
    scores = {metric: store.results.score_matrix(run.id, metric) for metric in expression.metrics}
    return [
        q
        for q in ids
        if expression.keeps(lambda metric, pipeline, q=q: scores[metric].get((q, pipeline)), pipelines)  # type: ignore[misc]
    ]

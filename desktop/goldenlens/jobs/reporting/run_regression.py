"""``--fail-on-regression``: the head lexical run of a project against the run before it
(issue #10). The statistics are :func:`goldenlens.core.stats.gates.regressions`; this module finds
the two runs and reads their effective scores."""

from __future__ import annotations

from dataclasses import dataclass

from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.core.scored_rows import decision_rows
from goldenlens.core.stats.gates import Regression, regressions
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.reporting.stored_run import build_report
from goldenlens.store.project import ProjectStore


@dataclass(frozen=True)
class RegressionCheck:
    """The head run, the run it was compared with (``None``: it is the project's first
    finished lexical run, nothing to compare) and what fell significantly."""

    head: int
    previous: int | None
    found: tuple[Regression, ...] = ()


def previous_lexical_run(store: ProjectStore, head: int) -> int | None:
    """The newest finished lexical run older than ``head``."""
    older = [r.id for r in store.runs.all() if r.kind == LEXICAL_RUN and r.is_finished and r.id < head]
    return older[-1] if older else None


@takes_project
def check_regression(store: ProjectStore, head: int) -> RegressionCheck:
    """Each pipeline's means in run ``head`` against the previous finished lexical run, paired
    over the questions both scored (reviewer overrides applied to both, as the reports show)."""
    previous = previous_lexical_run(store, head)
    if previous is None:
        return RegressionCheck(head, None)
    now, before = build_report(store, head), build_report(store, previous)
    found = regressions(decision_rows(now.rows), decision_rows(before.rows), now.pipelines)
    return RegressionCheck(head, previous, tuple(found))

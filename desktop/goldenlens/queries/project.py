"""The open project as a front end reads it: grid, question detail, runs, reviews, drafts.

A :class:`ProjectQueries` reads through the project a front end opened with
:func:`goldenlens.jobs.open_project` (it shares that connection and closes nothing) and
offers only reads, each a few index seeks or one bulk load. The desktop app keeps one on the
GUI thread for what a click needs at once (a question's detail, the first rows of the grid),
beside the jobs that write on the same project, and builds its own in a worker for the whole
grid; SQLite's WAL lets them read beside the writer jobs.

Writes go through :mod:`goldenlens.jobs` with the same handle; nothing here hands out the
store (the front ends may not import it: an import-linter contract).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.project_handle import ProjectHandle
from goldenlens.core.project_records import Override, Review, RunInfo
from goldenlens.core.runs.run_kinds import JUDGE_RUN, LEXICAL_RUN
from goldenlens.core.scores import ScoreRecord
from goldenlens.queries.detail import QuestionDetail
from goldenlens.queries.detail_data import load_question_detail
from goldenlens.queries.drafts import Draft, DraftQueue, DraftStatus, draft_queue, provenance_of
from goldenlens.queries.golden_review import GoldenReview, load_golden_review
from goldenlens.queries.grid import GridData
from goldenlens.queries.grid_loading import HEAD_LIMIT, add_metrics, load_grid, load_grid_head, update_rows
from goldenlens.queries.labelling import LabellingQuestion, PlanQueue, labelling_question, plan_queue
from goldenlens.store.project import store_of


class ProjectQueries:
    """Read-only queries over a project a front end opened (:func:`goldenlens.jobs.open_project`);
    use them on the thread that opened it. Closing the project is its opener's business.

    A read that fails (a damaged or vanished file) raises
    :class:`~goldenlens.core.errors.StoreError` naming the file, never ``sqlite3.Error``.
    """

    def __init__(self, project: ProjectHandle) -> None:
        self._store = store_of(project)

    # -- runs ------------------------------------------------------------------------------

    def latest_run(self, kind: str = LEXICAL_RUN, *, finished_only: bool = False) -> RunInfo | None:
        """The newest run of ``kind``; with ``finished_only``, the newest that completed."""
        return self._store.runs.latest(kind, finished_only=finished_only)

    def latest_run_id(self, kind: str = LEXICAL_RUN, *, finished_only: bool = False) -> int | None:
        """The id of :meth:`latest_run`, ``None`` when there is no such run."""
        run = self.latest_run(kind, finished_only=finished_only)
        return run.id if run is not None else None

    def unfinished_runs(self, kind: str | None = None) -> list[RunInfo]:
        """Runs that did not complete and can be resumed, oldest first."""
        return self._store.runs.unfinished(kind)

    def scores(self, run_id: int) -> list[ScoreRecord]:
        """Every score record of a run, in table order."""
        return self._store.results.scores(run_id)

    # -- one question ----------------------------------------------------------------------

    def question_count(self) -> int:
        """How many golden questions the project holds (a COUNT: cheap on any size)."""
        return self._store.grid.question_count()

    def pipelines(self) -> list[str]:
        """Pipeline names in column order."""
        return self._store.responses.pipelines()

    def golden_item(self, question_id: str) -> GoldenItem | None:
        """One golden row, ``None`` when the project has no such question."""
        return self._store.golden.item(question_id)

    def review_of_question(self, question_id: str) -> Review | None:
        """The review state of one question; ``None`` when it was never reviewed."""
        return self._store.reviews.of_question(question_id)

    def override_in_effect(self, question_id: str, pipeline: str, metric: str) -> Override | None:
        """The override in effect for one score, ``None`` when there is none."""
        return self._store.reviews.override_in_effect(question_id, pipeline, metric)

    def scores_of_question(self, run_id: int, question_id: str) -> list[ScoreRecord]:
        """One question's score records in a run, by pipeline order then metric."""
        return self._store.results.scores_of_question(run_id, question_id)

    def question_detail(self, run_id: int | None, question_id: str) -> QuestionDetail | None:
        """What the detail pane shows for a question in lexical run ``run_id``, with the
        judge's scores of the newest judge run (finished, else the one under way);
        ``None`` when the question does not exist."""
        judge_run = self.latest_run(JUDGE_RUN, finished_only=True) or self.latest_run(JUDGE_RUN)
        judge_run_id = judge_run.id if judge_run is not None else None
        return load_question_detail(self._store, run_id, question_id, judge_run_id=judge_run_id)

    # -- labelling ---------------------------------------------------------------------------

    def labelling_question(self, run_id: int | None, question_id: str) -> LabellingQuestion | None:
        """One question's distinct answers with the verdict in force on each (the labelling
        view); ``None`` when the question does not exist."""
        return labelling_question(self._store, run_id, question_id)

    def plan_queue(self) -> PlanQueue | None:
        """The latest labelling round's questions in plan order and its progress; ``None``
        before any plan."""
        return plan_queue(self._store)

    # -- the judge's golden review ---------------------------------------------------------

    def golden_review(self, run_id: int | None = None) -> GoldenReview:
        """The judge's verdicts on every golden row and criterion (newest golden-review run
        unless ``run_id``), the reviewer's decisions and the judge-reviewer agreement."""
        return load_golden_review(self._store, run_id)

    # -- the grid --------------------------------------------------------------------------

    def grid(self, run_id: int | None, metrics: Sequence[str] | None = None) -> GridData:
        """The whole grid of ``run_id`` (a bulk load: run it in a worker on a large project)."""
        return load_grid(self._store, run_id, metrics)

    def grid_head(
        self, run_id: int | None, metrics: Sequence[str] | None = None, *, limit: int | None = HEAD_LIMIT
    ) -> GridData:
        """The first ``limit`` questions of the grid (milliseconds on any size)."""
        return load_grid_head(self._store, run_id, metrics, limit=limit)

    def grid_with_metrics(self, grid: GridData, metrics: Sequence[str]) -> GridData:
        """``grid`` with more metric columns loaded (those it holds are kept as they are)."""
        return add_metrics(grid, self._store, metrics)

    def grid_with_updates(self, grid: GridData, run_id: int | None, question_ids: Iterable[str]) -> GridData:
        """``grid`` with some questions reloaded after an edit (the whole grid when the
        change cannot be patched in place)."""
        return update_rows(grid, self._store, run_id, question_ids)

    # -- the drafts review queue -----------------------------------------------------------

    def draft_queue(self, status: DraftStatus | None = None) -> DraftQueue:
        """The drafts awaiting or past review, with counts
        (:func:`~goldenlens.queries.drafts.draft_queue`)."""
        return draft_queue(self._store, status)

    def draft(self, draft_id: int) -> Draft | None:
        """One draft, ``None`` when there is no such draft."""
        return self._store.drafts.get(draft_id)

    def draft_counts(self) -> dict[DraftStatus, int]:
        """How many drafts are in each state (every state, zeros included)."""
        return self._store.drafts.counts()

    def draft_provenance(self, golden_id: str) -> Draft | None:
        """The draft a golden item was accepted from (document, page, chunk), if any."""
        return provenance_of(self._store, golden_id)

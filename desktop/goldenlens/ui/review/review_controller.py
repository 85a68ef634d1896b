"""Review wiring: grid selection → detail and editor, keyboard review, overrides, fact variants.

Opening a project shows its first rows at once (:meth:`ProjectQueries.grid_head` on the GUI
thread's queries: a few index seeks) and loads the whole grid in a worker (its own connection),
then swaps it in with the analyst's filters, order, current question and scroll place kept:
first with the metrics the grid state uses (:meth:`GridState.metrics_in_use`), then, from a
second job, with the other metrics too (lexical, then the newest judge run's).
One question's detail is read on the GUI thread (a few small queries).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QInputDialog, QMenu

from goldenlens.core.errors import StoreError
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES
from goldenlens.core.stats.decision import Decision
from goldenlens.core.view.grid_state import ID_COLUMN
from goldenlens.jobs import open_project
from goldenlens.jobs.judging.judge_selection import JudgeScope
from goldenlens.jobs.progress import CancelToken, ProgressFn
from goldenlens.jobs.reporting.summary_decision import summary_decision_job
from goldenlens.queries.grid import HEAD_LIMIT, GridData
from goldenlens.queries.project import ProjectQueries
from goldenlens.ui.errors import show_error
from goldenlens.ui.review.detail_pane import DetailPane
from goldenlens.ui.review.golden_editor import GoldenEditor
from goldenlens.ui.review.override_dialog import request_override
from goldenlens.ui.review.undo_commands import curation_messages, push_add_fact_variant
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.shortcuts import keys_for
from goldenlens.ui.summary.other_pipelines import others_note
from goldenlens.ui.summary.summary_view import SummaryView
from goldenlens.ui.variants.variant_dialog import RUNNER_NAME, VariantDialog, open_variant_dialog
from goldenlens.ui.window_parts import WindowParts
from goldenlens.ui.workers import JobRunner, LatestJobRunner

_REVIEW_KEYS = {
    Qt.Key.Key_J: "next_question",
    Qt.Key.Key_K: "previous_question",
    Qt.Key.Key_L: "next_pipeline",
    Qt.Key.Key_H: "previous_pipeline",
    Qt.Key.Key_A: "accept",
    Qt.Key.Key_C: "needs_curation",
    Qt.Key.Key_O: "override",
    Qt.Key.Key_V: "suggest_variants",
}


class ReviewKeys(QObject):
    """Event filter: the review letters (j k h l a c o v) trigger their actions."""

    def __init__(self, actions: dict[str, QAction], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._actions = actions

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            name = _REVIEW_KEYS.get(Qt.Key(event.key()))
            plain = event.modifiers() in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
            if name is not None and plain:
                self._actions[name].trigger()
                return True
        return super().eventFilter(watched, event)


#: Up to this many shown questions the Summary tab's intervals are worked out at once (about
#: 0.1 s on two slow cores); above, in a worker while the means are already drawn.
INLINE_DECISION_QUESTIONS = 200


class ReviewController(QObject):
    """Connects the views of the Review and Summary tabs to the open session."""

    #: Questions shown at once on opening; a project with no more loads only these, no worker.
    head_limit = HEAD_LIMIT

    def __init__(self, parts: WindowParts, detail: DetailPane, summary: SummaryView) -> None:
        super().__init__(parts.window)
        self._parts = parts
        self._detail = detail
        self._summary = summary
        self._session: ProjectSession | None = None
        self._editor: GoldenEditor | None = None
        self._current: str | None = None
        self._complete = False  # the grid shows all of this session's questions
        self._loader = JobRunner(self)
        # The Summary tab's intervals, worked out for the rows shown (a newer request cancels
        # an older one, whose result is then dropped).
        self._decider = JobRunner(self)
        self._summary_shown: tuple[tuple[str, ...], dict[str, np.ndarray], str] | None = None
        self.variant_dialog: VariantDialog | None = None  # the last one opened
        self._loader.succeeded.connect(self._on_grid_loaded)
        self._decider.succeeded.connect(self._on_summary_decision)
        self._loader.failed.connect(lambda error: show_error(parts.window, "Cannot load the scores", error))
        parts.grid.current_question_changed.connect(self._on_current_question)
        parts.grid.current_question_hidden.connect(self._on_current_question_hidden)
        parts.grid.state_changed.connect(lambda _state: self._refresh_summary())
        parts.grid.state_changed.connect(lambda state: detail.limit_to(state.pipelines))
        detail.fact_variant_requested.connect(self._on_fact_variant)
        detail.override_requested.connect(self._on_override)
        detail.variants_requested.connect(self.suggest_variants)
        self._actions = self._build_actions()
        # Single-letter review keys also work while the table has focus: the view would
        # otherwise eat letters for its own type-ahead search.
        self._keys = ReviewKeys(self._actions, self)
        parts.grid.table_view().installEventFilter(self._keys)

    # -- session -----------------------------------------------------------------------------

    def set_session(self, session: ProjectSession | None, editor: GoldenEditor | None) -> None:
        if self._session is not None:
            self._session.project_changed.disconnect(self.reload)
            self._session.question_changed.disconnect(self._on_question_changed)
        self._session, self._editor, self._current = session, editor, None
        self._complete = False
        self._detail.show_question(None)
        self._loader.cancel()
        if session is None:
            self._parts.grid.set_data(GridData.empty())
            self._refresh_summary()
            return
        session.project_changed.connect(self.reload)
        session.question_changed.connect(self._on_question_changed)
        messages = curation_messages(session)
        messages.message.connect(lambda text: self._parts.window.statusBar().showMessage(text, 8000))
        messages.failed.connect(
            lambda text: show_error(self._parts.window, "The edit could not be applied", ValueError(text))
        )
        self.reload()

    def reload(self) -> None:
        """Reload the grid; the current question, filters, order and scroll place are kept.

        The first :attr:`head_limit` questions appear at once (read on the GUI thread); a
        project with no more is then complete and no worker runs. A larger one loads whole in
        a worker, and once its full grid is shown, a reload (after an edit) keeps it on screen
        until the new one arrives: it must not shrink to the first rows and lose the place.
        """
        if self._session is None:
            return
        path, run_id = self._session.path, self._session.run_id
        if not self._complete or len(self._parts.grid.model().grid()) <= self.head_limit:
            try:
                head = self._session.project.grid_head(run_id, None, limit=self.head_limit)
            except StoreError as error:
                show_error(self._parts.window, "Cannot load the scores", error)
                return
            self._show(head)
            if head.complete:
                self._loader.cancel()  # a load still running from before would be stale
                return
        state = self._parts.grid.state()
        # The metrics on screen first (a column costs ~0.1 s per 300,000 scores); the others
        # follow in a second job (_load_other_metrics) while the grid is already in use.
        in_use = state.metrics_in_use()
        # None (a threshold, which may name any metric, judge ones too): every metric at once.
        first = None if in_use is None else list(in_use)

        def job(_progress: ProgressFn, cancel: CancelToken) -> GridData:
            with open_project(path) as project:
                grid = ProjectQueries(project).grid(run_id, first)
            cancel.raise_if_cancelled()
            # What the current filter and order need is built here, not on the GUI when it arrives.
            if state.text:
                grid.search_texts()
            if state.sort_column == ID_COLUMN:
                grid.id_ranks()
            return grid

        self._loader.start(job, name="grid")

    def _load_other_metrics(self) -> None:
        """Load the metrics the full grid on screen lacks (lexical, then judge), in a worker;
        the result is applied only onto the grid it started from (an edit meanwhile: it starts
        again)."""
        grid = self._parts.grid.grid()
        if self._session is None or grid is None or not grid.complete:
            return
        wanted = [*LEXICAL_SCORE_NAMES, *grid.judge_metrics]
        missing = [m for m in wanted if m not in grid.values and m in grid.available_metrics]
        if not missing:
            return
        path = self._session.path

        def job(_progress: ProgressFn, _cancel: CancelToken) -> tuple[GridData, GridData]:
            with open_project(path) as project:
                return grid, ProjectQueries(project).grid_with_metrics(grid, missing)

        self._loader.start(job, name="grid-metrics")

    def _on_grid_loaded(self, result: GridData | tuple[GridData, GridData]) -> None:
        if isinstance(result, GridData):
            self._show(result)
        elif result[0] is self._parts.grid.grid():
            self._show(result[1])
        self._load_other_metrics()

    def _show(self, grid: GridData) -> None:
        self._complete = grid.complete
        self._parts.grid.set_data(grid)
        rows = self._parts.grid.visible_rows()
        if self._current is None and len(rows):
            self._parts.grid.select_question(str(grid.question_ids[int(rows[0])]))
        else:
            # The grid keeps its current question without announcing it again: re-read its
            # detail, which a rescore or judge run has changed.
            self._show_detail()
        self._refresh_summary()

    def _on_current_question(self, question_id: str) -> None:
        self._current = question_id
        self._show_detail()
        if self._editor is not None:
            self._editor.set_question(question_id)

    def _on_current_question_hidden(self) -> None:
        self._current = None
        self._show_detail()
        if self._editor is not None:
            self._editor.set_question(None)

    def _on_question_changed(self, question_id: str) -> None:
        """One question was edited, overridden or reviewed: patch its row in milliseconds
        instead of reloading 100,000 (update_rows reloads all itself when it must)."""
        grid = self._parts.grid.grid()
        if self._session is None or grid is None or not grid.complete:
            self.reload()
        else:
            project = self._session.project
            self._parts.grid.set_data(project.grid_with_updates(grid, self._session.run_id, [question_id]))
            self._refresh_summary()
        if question_id == self._current:
            self._show_detail()

    def _show_detail(self) -> None:
        if self._session is None or self._current is None:
            self._detail.show_question(None)
            return
        detail = self._session.project.question_detail(self._session.run_id, self._current)
        self._detail.show_question(detail)

    def _refresh_summary(self) -> None:
        grid = self._parts.grid.grid()
        if grid is None or not len(grid.question_ids):
            self._decider.cancel()
            self._summary_shown = None
            self._summary.set_data((), {})
            return
        rows = self._parts.grid.visible_rows()
        # The pipelines the grid shows (its picker: the ten leaders of a sweep, unless chosen).
        pipelines = self._parts.grid.state().shown_pipelines(grid.pipelines)
        columns = np.array([grid.pipelines.index(p) for p in pipelines], dtype=np.int64)
        values = {metric: np.asarray(grid.values[metric])[np.ix_(rows, columns)] for metric in grid.values}
        title = f"{len(rows):,} of {len(grid):,} questions"
        if not grid.complete:
            title = f"{len(rows):,} of the first {len(grid):,} questions (loading {grid.total:,}…)"
        title += others_note(grid, rows, pipelines)
        # The means at once; the error bars when the bootstrap of these very rows is done.
        self._summary.set_data(pipelines, values, title=title)
        self._summary_shown = (tuple(pipelines), values, title)
        question_ids = [str(grid.question_ids[r]) for r in rows]
        job = summary_decision_job(question_ids, pipelines, values)
        if len(question_ids) <= INLINE_DECISION_QUESTIONS:
            self._decider.cancel()
            self._on_summary_decision(job(lambda _progress: None, CancelToken()))
        else:
            self._decider.start(job, name="summary-intervals")

    def _on_summary_decision(self, decision: Decision) -> None:
        if self._summary_shown is None:
            return
        pipelines, values, title = self._summary_shown
        self._summary.set_data(pipelines, values, title=title, decision=decision)

    def judge_scope(self) -> JudgeScope:
        """The questions the Judge dialog can narrow a run to: the grid's selected rows and
        the rows it shows (``None`` while the grid still loads: its filter covers only the
        first rows then)."""
        grid = self._parts.grid.grid()
        total = self._session.project.question_count() if self._session is not None else 0
        complete = grid is not None and grid.complete
        shown = tuple(self._parts.grid.visible_question_ids()) if complete else None
        return JudgeScope(total, tuple(self._parts.grid.selected_question_ids()), shown)

    # -- review actions ----------------------------------------------------------------------

    def _build_actions(self) -> dict[str, QAction]:
        specs = {
            "next_question": ("&Next Question", self._parts.grid.next_question),
            "previous_question": ("&Previous Question", self._parts.grid.previous_question),
            "next_pipeline": ("Next Pipe&line", self._detail.focus_next_pipeline),
            "previous_pipeline": ("Previous Pipel&ine", self._detail.focus_previous_pipeline),
            "accept": ("&Accept Question", self._accept),
            "needs_curation": ("Needs &Curation", self._needs_curation),
            "override": ("&Override Score…", self._override_focused),
            "suggest_variants": ("Suggest Fact &Variants…", self._suggest_for_current),
        }
        actions: dict[str, QAction] = {}
        for name, (text, slot) in specs.items():
            action = QAction(text, self._parts.window)
            # Single keys only (j, k, a, c …): arrows stay with the widget that has focus.
            action.setShortcuts(
                [QKeySequence(k) for k in keys_for(name) if k not in {"Up", "Down", "Left", "Right"}]
            )
            action.triggered.connect(slot)
            self._parts.window.addAction(action)
            actions[name] = action
        return actions

    def set_keys_enabled(self, enabled: bool) -> None:
        """Enable the review actions (and their single-key shortcuts) only while the Review
        tab shows, so that "a" on the Drafts tab does not accept a question out of sight."""
        for action in self._actions.values():
            action.setEnabled(enabled)

    def menus(self) -> list[QMenu]:
        review = QMenu("&Review", self._parts.window)
        for name in ("accept", "needs_curation", "override", "suggest_variants"):
            review.addAction(self._actions[name])
        review.addSeparator()
        for name in ("next_question", "previous_question", "next_pipeline", "previous_pipeline"):
            review.addAction(self._actions[name])
        return [review]

    def _accept(self) -> None:
        if self._editor is not None:
            self._editor.accept_current()

    def _needs_curation(self) -> None:
        if self._editor is not None:
            self._editor.mark_needs_curation()

    def _override_focused(self) -> None:
        pipeline = self._detail.focused_pipeline()
        if self._current is not None and pipeline is not None:
            self._on_override(self._current, pipeline, FACTUAL_KNOWLEDGE)

    def _on_override(self, question_id: str, pipeline: str, metric: str) -> None:
        if self._session is not None:
            request_override(
                self._parts.window, self._session, self._parts.undo, question_id, pipeline, metric
            )

    def _on_fact_variant(self, question_id: str, text: str) -> None:
        if self._session is None:
            return
        try:
            added = push_add_fact_variant(self._parts.undo, self._session, question_id, text)
        except ValueError as error:
            show_error(self._parts.window, "Cannot add the fact variant", error)
            return
        if not added:
            self._parts.window.statusBar().showMessage(
                f"'{text.strip()}' is already an alternative of the fact", 8000
            )

    def _suggest_for_current(self) -> None:
        if self._current is not None:
            self.suggest_variants(self._current)

    def suggest_variants(self, question_id: str) -> VariantDialog | None:
        """Open the fact-variant dialog on ``question_id`` (``None``: no project open)."""
        if self._session is None:
            return None
        dialog = open_variant_dialog(self._parts.window, self._session, self._parts.undo, question_id)
        dialog.destroyed.connect(self._on_variant_dialog_destroyed)
        self.variant_dialog = dialog
        return dialog

    def _on_variant_dialog_destroyed(self) -> None:
        self.variant_dialog = None  # deleted on close: never hand out a dead dialog

    def ask_reviewer_name(self) -> None:
        if self._session is None:
            return
        name, ok = QInputDialog.getText(
            self._parts.window,
            "Reviewer name",
            "Your name, stored with overrides and reviews:",
            text=self._session.reviewer,
        )
        if ok:
            self._session.set_preferences(replace(self._session.preferences, reviewer=name.strip()))

    def shutdown(self) -> None:
        self._loader.shutdown()
        self._decider.shutdown()
        if self.variant_dialog is not None:
            self.variant_dialog.shutdown()
        # Previews cancelled by closing their dialog may still be winding down.
        for runner in self._parts.window.findChildren(LatestJobRunner, RUNNER_NAME):
            runner.shutdown()

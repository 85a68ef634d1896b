"""The Drafts tab: the review queue of drafted golden items.

Left, the queue (a status filter with counts, "3 of 12 reviewed"); right, the current draft
(:class:`~goldenlens.ui.drafts.draft_form.DraftForm`): its provenance, the source chunk, its
problems, the editable question, answer and fact, the proposed variants, and the decision:
Accept (as drafted or as edited), Reject with a note. A flagged draft is accepted only with
"Accept despite the flags" ticked. Decisions go through :mod:`goldenlens.jobs.drafting.draft_review`;
an accepted draft announces ``project_changed`` so the score grid shows the new golden item.

Decisions go on the window's undo stack (:mod:`goldenlens.ui.drafts.draft_commands`): undoing an
acceptance deletes the golden item again and puts the draft back in the queue.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.inputs import GoldenItem
from goldenlens.jobs.curation.review_job import default_reviewer
from goldenlens.queries.drafts import Draft, DraftStatus
from goldenlens.ui.drafts.draft_commands import accept_draft_undoably, reject_draft_undoably
from goldenlens.ui.drafts.draft_form import DraftForm
from goldenlens.ui.drafts.drafts_model import (
    DraftFilter,
    DraftListModel,
    FilterCount,
    filter_counts,
    is_flagged,
    select,
)
from goldenlens.ui.errors import show_error
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.shortcuts import keys_for


class DraftsPane(QWidget):
    """The review queue of the open project's drafts.

    ``message(str)`` — status-bar text after a decision. ``import_requested()`` — the
    "Import Sources and Draft…" button was pressed.
    """

    message = Signal(str)
    import_requested = Signal()

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._undo = undo_stack
        self._session: ProjectSession | None = None
        self._draft: Draft | None = None
        self._all: list[Draft] = []
        self.model = DraftListModel(self)
        self._build()
        self._build_actions()
        self._show(None)

    # -- layout ---------------------------------------------------------------------------

    def _build(self) -> None:
        self.filter_combo = QComboBox(self)
        self.filter_combo.setToolTip("Show the drafts in one state")
        self.filter_combo.currentIndexChanged.connect(lambda _i: self._apply_filter())
        self.progress_label = QLabel(self)
        self.import_button = QPushButton("Import Sources and Draft…", self)
        self.import_button.setToolTip(
            "Let the judge draft golden items from PDF, text, Markdown or CSV chunks"
        )
        self.import_button.clicked.connect(self.import_requested)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Show:", self))
        bar.addWidget(self.filter_combo)
        bar.addSpacing(12)
        bar.addWidget(self.progress_label)
        bar.addStretch(1)
        bar.addWidget(self.import_button)

        self.list_view = QListView(self)
        self.list_view.setModel(self.model)
        self.list_view.setWordWrap(True)
        self.list_view.setUniformItemSizes(False)
        self.list_view.setSpacing(2)
        self.list_view.setAlternatingRowColors(True)
        self.list_view.selectionModel().currentChanged.connect(self._on_current_changed)
        self.empty_label = QLabel(self)
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.list_view, 1)
        left_layout.addWidget(self.empty_label)

        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(left)
        self.form = DraftForm(self)
        self.form.accept_clicked.connect(self.accept_current)
        self.form.reject_clicked.connect(self.reject_current)
        splitter.addWidget(self.form)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([420, 820])
        self.splitter = splitter
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(bar)
        layout.addWidget(splitter, 1)

    def _build_actions(self) -> None:
        # Scoped to the pane: the same keys do nothing on the Review tab.
        specs = {
            "next_draft": self.next_draft,
            "previous_draft": self.previous_draft,
            "accept_draft": self.accept_current,
            "reject_draft": self.reject_current,
        }
        self.actions_by_name: dict[str, QAction] = {}
        for name, slot in specs.items():
            action = QAction(self)
            action.setShortcuts([QKeySequence(k) for k in keys_for(name)])
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.addAction(action)
            self.actions_by_name[name] = action

    # -- session and queue ------------------------------------------------------------------

    def set_session(self, session: ProjectSession | None) -> None:
        if self._session is not None:
            self._session.project_changed.disconnect(self.refresh)
        self._session = session
        if session is not None:
            session.project_changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Read the queue again, keeping the filter and the current draft where it still shows."""
        keep = self._draft.id if self._draft is not None else None
        if self._session is None:
            self._all = []
            self._fill_filter([])
            self.progress_label.setText("")
            self._set_rows([], keep)
            return
        self._read_queue(self._session)
        self._set_rows(select(self._all, self.current_filter()), keep)

    def _read_queue(self, session: ProjectSession) -> None:
        """The queue as stored: its drafts, the filter's counts and the progress line."""
        queue = session.project.draft_queue()
        self._all = list(queue.drafts)
        pending = [d for d in self._all if d.status is DraftStatus.PENDING]
        self._fill_filter(filter_counts(queue, pending))
        self.progress_label.setText(f"<b>{queue.progress()}</b>" if queue.total else "")

    def _fill_filter(self, counts: list[FilterCount]) -> None:
        chosen = self.current_filter()
        with QSignalBlocker(self.filter_combo):
            self.filter_combo.clear()
            for entry in counts:
                self.filter_combo.addItem(entry.label, entry.filter.value)
            index = self.filter_combo.findData(chosen.value)
            self.filter_combo.setCurrentIndex(max(index, 0))
        self.filter_combo.setEnabled(bool(counts))

    def current_filter(self) -> DraftFilter:
        # Qt hands the item data back as a plain str.
        data = self.filter_combo.currentData()
        return DraftFilter(data) if isinstance(data, str) else DraftFilter.PENDING

    def set_filter(self, chosen: DraftFilter) -> None:
        index = self.filter_combo.findData(chosen.value)
        if index >= 0:
            self.filter_combo.setCurrentIndex(index)

    def filter_labels(self) -> list[str]:
        return [self.filter_combo.itemText(i) for i in range(self.filter_combo.count())]

    def _apply_filter(self) -> None:
        keep = self._draft.id if self._draft is not None else None
        self._set_rows(select(self._all, self.current_filter()), keep)

    def _set_rows(self, drafts: list[Draft], keep: int | None, *, near: int = 0) -> None:
        self.model.set_drafts(drafts)
        if self._session is None:
            self.empty_label.setText("Open a project to review its drafts.")
        elif not self._all:
            self.empty_label.setText(
                "No drafts yet. Import source documents (PDF, TXT, Markdown, or a CSV of chunks) "
                "and let the judge draft question, answer and fact per chunk."
            )
        else:
            self.empty_label.setText("" if drafts else "No drafts in this state.")
        self.empty_label.setVisible(bool(self.empty_label.text()))
        row = self.model.row_of(keep) if keep is not None else None
        if row is None and drafts:
            row = min(near, len(drafts) - 1)
        self._select_row(row)

    def _select_row(self, row: int | None) -> None:
        if row is None:
            self.list_view.selectionModel().clear()
            self._show(None)
            return
        index = self.model.index(row, 0)
        self.list_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        self.list_view.scrollTo(index)
        self._show(self.model.draft_at(row))

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        draft = self.model.draft_at(current.row()) if current.isValid() else None
        if draft is not self._draft:
            self._show(draft)

    def select_draft(self, draft_id: int) -> bool:
        row = self.model.row_of(draft_id)
        if row is None:
            return False
        self._select_row(row)
        return True

    def next_draft(self) -> bool:
        return self._step(1)

    def previous_draft(self) -> bool:
        return self._step(-1)

    def _step(self, delta: int) -> bool:
        row = self.list_view.currentIndex().row()
        target = row + delta if row >= 0 else 0
        if not 0 <= target < self.model.rowCount():
            return False
        self._select_row(target)
        return True

    @property
    def current(self) -> Draft | None:
        return self._draft

    def _show(self, draft: Draft | None) -> None:
        self._draft = draft
        self.form.show_draft(draft, self._accepted_item(draft))
        pending = draft is not None and draft.status is DraftStatus.PENDING
        for name in ("accept_draft", "reject_draft"):
            self.actions_by_name[name].setEnabled(pending)

    def _accepted_item(self, draft: Draft | None) -> GoldenItem | None:
        """The golden item an accepted draft became, as it stands now (``None`` otherwise)."""
        if draft is None or draft.status is not DraftStatus.ACCEPTED or not draft.golden_id:
            return None
        return self._session.project.golden_item(draft.golden_id) if self._session is not None else None

    # -- decisions -------------------------------------------------------------------------

    def _reviewer(self) -> str:
        name = self._session.reviewer.strip() if self._session is not None else ""
        return name or default_reviewer()

    def accept_current(self) -> str | None:
        """Accept the current draft (edited if the fields were changed) with the ticked variants;
        returns the new golden id, ``None`` when refused (the reason is shown)."""
        draft, session = self._draft, self._session
        if draft is None or session is None or draft.status is not DraftStatus.PENDING:
            return None
        if not self.form.accept_button.isEnabled():
            self.message.emit(
                f"Draft {draft.id} is flagged: edit it, or tick “Accept despite the flags”."
                if self.form.current_problems()
                else f"Draft {draft.id} needs a question, an answer and a fact."
            )
            return None
        row = self.list_view.currentIndex().row()
        try:
            accepted = accept_draft_undoably(
                self._undo,
                session,
                draft.id,
                reviewer=self._reviewer(),
                edit=self.form.edited_text() if self.form.is_edited() else None,
                variants=self.form.checked_variants(),
                accept_flagged=self.form.override_check.isChecked(),
            )
        except ValueError as error:
            show_error(self, f"Draft {draft.id} was not accepted", error)
            return None
        flagged = f", accepted despite {len(accepted.problems)} flag(s)" if accepted.problems else ""
        self._after_decision(row)
        self.message.emit(f"Draft {draft.id} is now golden item {accepted.item.id}{flagged}.")
        session.notify_project()  # the grid shows the new item
        return accepted.item.id

    def reject_current(self) -> bool:
        """Reject the current draft with the note in the note field."""
        draft, session = self._draft, self._session
        if draft is None or session is None or draft.status is not DraftStatus.PENDING:
            return False
        row = self.list_view.currentIndex().row()
        try:
            reject_draft_undoably(
                self._undo, session, draft.id, reviewer=self._reviewer(), note=self.form.note_edit.text()
            )
        except ValueError as error:
            show_error(self, f"Draft {draft.id} was not rejected", error)
            return False
        self._after_decision(row)
        self.message.emit(f"Draft {draft.id} rejected.")
        return True

    def _after_decision(self, row: int) -> None:
        """Read the queue again and go on with the next draft in the list (the decided one
        leaves a pending or flagged list; in "All" the next row)."""
        self._draft = None
        filtered = self.current_filter() in (DraftFilter.PENDING, DraftFilter.FLAGGED)
        if self._session is None:
            return
        self._read_queue(self._session)
        self._set_rows(select(self._all, self.current_filter()), None, near=row if filtered else row + 1)

    def flagged_ids(self) -> list[int]:
        return [d.id for d in self._all if is_flagged(d)]

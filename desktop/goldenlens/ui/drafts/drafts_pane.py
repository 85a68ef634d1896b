"""The Drafts tab: the review queue of drafted golden items.

Left, the queue (a status filter with counts, "3 of 12 reviewed"); right, the current draft:
its provenance, the source chunk with the drafted fact marked, its problems in red with the
reasons, the question, answer and fact (editable before acceptance), the proposed variants
as check boxes, and the decision: Accept (as drafted or as edited), Reject with a note.

The problems are checked again on the text as edited (:func:`~goldenlens.core.golden.drafts.
draft_problems`, the rule the acceptance applies), so the reviewer sees what the acceptance
will say before pressing the button; a flagged draft is accepted only with "Accept despite
the flags" ticked. Decisions go through :mod:`goldenlens.jobs.drafting.draft_review`; an accepted
draft announces ``project_changed`` so the score grid shows the new golden item.

Decisions go on the window's undo stack (:mod:`goldenlens.ui.drafts.draft_commands`): undoing an
acceptance deletes the golden item again and puts the draft back in the queue.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.golden.drafts import (
    DEFAULT_MAX_ANSWER_WORDS,
    DraftProblem,
    answer_words,
    draft_problems,
    missing_fields,
)
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.variants.generator import suggest_variants
from goldenlens.jobs.curation.review_job import default_reviewer
from goldenlens.queries.drafts import Draft, DraftStatus, DraftText
from goldenlens.ui.drafts.draft_commands import accept_draft_undoably, reject_draft_undoably
from goldenlens.ui.drafts.drafts_model import (
    DraftFilter,
    DraftListModel,
    FilterCount,
    filter_counts,
    is_flagged,
    select,
    status_text,
)
from goldenlens.ui.errors import show_error
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.shortcuts import keys_for
from goldenlens.ui.widgets.highlight_html import chunk_html

#: The problems box: dark red text on a light red ground, readable on light and dark palettes.
_BOX = "QLabel {{ background: {}; color: {}; border: 1px solid {}; border-radius: 4px; padding: 6px; }}"
_PROBLEM_STYLE = _BOX.format("#fde7e9", "#5c0014", "#e8a0a8")
_CLEAN_STYLE = _BOX.format("#e6f4ea", "#0b3a1c", "#a8d5b5")


def _problems_html(problems: tuple[DraftProblem, ...] | list[DraftProblem], edited: bool) -> str:
    what = "as edited" if edited else "as drafted"
    if not problems:
        return f"<b>No problems found</b> in the draft {what}."
    items = "".join(f"<li>{p.message}</li>" for p in problems)
    return f"<b>⚠ Flagged ({what}):</b><ul style='margin:2px 0 0 -20px;'>{items}</ul>"


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
        splitter.addWidget(self._build_detail())
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([420, 820])
        self.splitter = splitter
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(bar)
        layout.addWidget(splitter, 1)

    def _make_fields(self, body: QWidget) -> None:
        """The draft's labels and editable fields, with their change signals."""
        self.provenance_label = QLabel(body)
        self.provenance_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.provenance_label.setWordWrap(True)
        self.problems_label = QLabel(body)
        self.problems_label.setWordWrap(True)
        self.problems_label.setTextFormat(Qt.TextFormat.RichText)
        self.chunk_view = QTextBrowser(body)
        self.chunk_view.setToolTip("The source chunk; the drafted fact is marked where it occurs")
        # As tall as a chunk of the default size needs (about ten lines), no taller: the
        # fields below matter more than white space.
        lines = self.chunk_view.fontMetrics().lineSpacing()
        self.chunk_view.setMinimumHeight(lines * 3 + 12)
        self.chunk_view.setMaximumHeight(lines * 10 + 12)
        self.question_edit = QLineEdit(body)
        self.answer_edit = QPlainTextEdit(body)
        self.answer_edit.setTabChangesFocus(True)
        self.answer_edit.setFixedHeight(self.answer_edit.fontMetrics().lineSpacing() * 3 + 14)
        self.words_label = QLabel(body)
        self.fact_edit = QLineEdit(body)
        self.fact_edit.setToolTip("One minimal span of the chunk; the variants below are added as <OR>")
        self.variants_list = QListWidget(body)
        self.variants_list.setToolTip("Other spellings of the fact to add as <OR> alternatives")
        spacing = self.variants_list.fontMetrics().lineSpacing()
        self.variants_list.setMinimumHeight(spacing * 5 + 8)
        self.variants_list.setMaximumHeight(spacing * 12 + 8)
        for edit in (self.question_edit, self.fact_edit):
            edit.textChanged.connect(self._on_edited)
        self.answer_edit.textChanged.connect(self._on_edited)
        self.fact_edit.textChanged.connect(self._on_fact_edited)

    def _decision_bar(self) -> QVBoxLayout:
        """Note, override and the Accept and Reject buttons."""
        self.override_check = QCheckBox("Accept despite the flags", self)
        self.override_check.setToolTip("Accept this flagged draft deliberately; the flags are reported")
        self.note_edit = QLineEdit(self)
        self.note_edit.setPlaceholderText("Why it is rejected (kept with the draft)")
        self.decision_label = QLabel(self)
        self.decision_label.setWordWrap(True)
        self.accept_button = QPushButton("Accept", self)
        self.reject_button = QPushButton("Reject", self)
        self.accept_button.clicked.connect(self.accept_current)
        self.reject_button.clicked.connect(self.reject_current)
        self.override_check.toggled.connect(lambda _on: self._update_buttons())
        note_row = QHBoxLayout()
        self.note_label = QLabel("Note", self)
        note_row.addWidget(self.note_label)
        note_row.addWidget(self.note_edit, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.override_check)
        buttons.addStretch(1)
        buttons.addWidget(self.reject_button)
        buttons.addWidget(self.accept_button)
        decision = QVBoxLayout()
        decision.setContentsMargins(8, 0, 8, 0)
        decision.addWidget(self.decision_label)
        decision.addLayout(note_row)
        decision.addLayout(buttons)
        return decision

    def _build_detail(self) -> QWidget:
        body = QWidget(self)
        self._make_fields(body)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow("Question", self.question_edit)
        answer_box = QVBoxLayout()
        answer_box.setSpacing(2)
        answer_box.addWidget(self.answer_edit)
        answer_box.addWidget(self.words_label)
        form.addRow("Answer", answer_box)
        form.addRow("Fact", self.fact_edit)
        form.addRow("Variants", self.variants_list)

        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 0, 8, 4)
        layout.addWidget(self.provenance_label)
        layout.addWidget(self.problems_label)
        chunk_title = QLabel("<b>Source chunk</b> (the fact is marked)", body)
        layout.addWidget(chunk_title)
        layout.addWidget(self.chunk_view, 1)
        layout.addLayout(form)
        layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        body.setMinimumHeight(400)  # below this the scroll area scrolls instead of squeezing
        # The decision stays in sight below the scrolling part, whatever the window's height.
        panel = QWidget(self)
        outer = QVBoxLayout(panel)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll, 1)
        outer.addLayout(self._decision_bar())
        return panel

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
        self.accept_button.setToolTip(f"Accept into the golden set ({keys_for('accept_draft')[0]})")
        self.reject_button.setToolTip(f"Reject with the note ({keys_for('reject_draft')[0]})")

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
        queue = self._session.project.draft_queue()
        self._all = list(queue.drafts)
        pending = [d for d in self._all if d.status is DraftStatus.PENDING]
        self._fill_filter(filter_counts(queue, pending))
        self.progress_label.setText(f"<b>{queue.progress()}</b>" if queue.total else "")
        self._set_rows(select(self._all, self.current_filter()), keep)

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

    # -- the current draft -----------------------------------------------------------------

    def _show(self, draft: Draft | None) -> None:
        self._draft = draft
        widgets = (self.question_edit, self.answer_edit, self.fact_edit)
        shown = self._shown_text(draft)
        with (
            QSignalBlocker(self.question_edit),
            QSignalBlocker(self.answer_edit),
            QSignalBlocker(self.fact_edit),
        ):
            self.question_edit.setText(shown.question)
            self.answer_edit.setPlainText(shown.answer)
            self.fact_edit.setText(shown.fact)
            for line in (self.question_edit, self.fact_edit):
                line.setCursorPosition(0)  # show the start of a long fact, not its end
        pending = draft is not None and draft.status is DraftStatus.PENDING
        self.note_label.setVisible(pending)
        self.note_edit.setVisible(pending)
        for widget in widgets:
            widget.setReadOnly(not pending)
        self.note_edit.setReadOnly(not pending)
        self.note_edit.setText(draft.note if draft is not None else "")
        self.override_check.setChecked(False)
        if draft is None:
            self.provenance_label.setText("")
            self.chunk_view.setHtml("")
            self.problems_label.setVisible(False)
            self.decision_label.setText("")
            self.variants_list.clear()
            self.words_label.setText("")
            self._update_buttons()
            return
        model = draft.detail.get("model", "")
        by = f" · drafted by {model}" if model else ""
        self.provenance_label.setText(
            f"<b>Draft {draft.id}</b> · {draft.provenance()} · <i>{status_text(draft)}</i>{by}"
        )
        self.decision_label.setText(self._decision_text(draft))
        if self._accepted_item(draft) is not None:
            self.variants_list.clear()  # the accepted variants are in the fact, as <OR> parts
            QListWidgetItem("(the accepted variants are in the fact above)", self.variants_list).setFlags(
                Qt.ItemFlag.NoItemFlags
            )
        else:
            self._fill_variants(draft.text.fact, from_draft=True)
        self._on_edited()

    def _accepted_item(self, draft: Draft | None) -> GoldenItem | None:
        """The golden item an accepted draft became, as it stands now (``None`` otherwise)."""
        if draft is None or draft.status is not DraftStatus.ACCEPTED or not draft.golden_id:
            return None
        return self._session.project.golden_item(draft.golden_id) if self._session is not None else None

    def _shown_text(self, draft: Draft | None) -> DraftText:
        """What the fields show: the draft as written, or for an accepted draft the golden item
        it became (edits at acceptance and after included), since that is what counts."""
        if draft is None:
            return DraftText("", "", "")
        item = self._accepted_item(draft)
        if item is not None:
            return DraftText(item.question, item.answer, item.fact)
        return draft.text

    def _decision_text(self, draft: Draft) -> str:
        if draft.status is DraftStatus.PENDING:
            return ""
        who = f" by {draft.reviewer}" if draft.reviewer else ""
        when = f" on {draft.reviewed_at[:10]}" if draft.reviewed_at else ""
        text = f"{status_text(draft).capitalize()}{who}{when}."
        if draft.status is DraftStatus.ACCEPTED:
            if self._accepted_item(draft) is not None:
                text += " The fields show the golden item as it stands now."
            else:
                text += f" The golden item {draft.golden_id} no longer exists; the fields show the draft."
        return text + (f" Note: {draft.note}" if draft.note else "")

    def edited_text(self) -> DraftText:
        """The question, answer and fact as they stand in the fields."""
        return DraftText(self.question_edit.text(), self.answer_edit.toPlainText(), self.fact_edit.text())

    def is_edited(self) -> bool:
        """Whether the reviewer changed a field of the pending draft."""
        draft = self._draft
        if draft is None or draft.status is not DraftStatus.PENDING:
            return False
        now = self.edited_text()
        return (now.question.strip(), now.answer.strip(), now.fact.strip()) != (
            draft.text.question.strip(),
            draft.text.answer.strip(),
            draft.text.fact.strip(),
        )

    def _guardrail(self) -> int:
        draft = self._draft
        return int(draft.detail.get("max_answer_words", DEFAULT_MAX_ANSWER_WORDS)) if draft else 0

    def current_problems(self) -> tuple[DraftProblem, ...]:
        """The problems of the text as it stands (as drafted when unedited: the stored ones)."""
        draft = self._draft
        if draft is None:
            return ()
        if not self.is_edited():
            return draft.problems
        text = self.edited_text()
        return draft_problems(
            DraftText(text.question.strip(), text.answer.strip(), text.fact.strip()),
            draft.chunk_text,
            max_answer_words=self._guardrail(),
        )

    def _on_edited(self) -> None:
        draft = self._draft
        if draft is None:
            return
        text = self.edited_text()
        self.chunk_view.setHtml(chunk_html(draft.chunk_text, text.fact.strip()))
        words, limit = answer_words(text.answer), self._guardrail()
        over = " — over the guardrail" if words > limit else ""
        self.words_label.setText(f"{words} of at most {limit} words{over}")
        self.words_label.setStyleSheet("QLabel { color: #b3261e; font-weight: 600; }" if over else "")
        problems = self.current_problems()
        self.problems_label.setText(_problems_html(problems, self.is_edited()))
        self.problems_label.setStyleSheet(_PROBLEM_STYLE if problems else _CLEAN_STYLE)
        self.problems_label.setVisible(draft.status is DraftStatus.PENDING or bool(problems))
        self._update_buttons()

    def _on_fact_edited(self, fact: str) -> None:
        draft = self._draft
        if draft is not None:
            self._fill_variants(fact, from_draft=fact.strip() == draft.text.fact.strip())

    def _fill_variants(self, fact: str, *, from_draft: bool) -> None:
        """The proposed variants of the fact: the stored ones for the drafted fact, the
        generator's for an edited one; those without a false-match risk ticked."""
        draft = self._draft
        self.variants_list.clear()
        if draft is None:
            return
        if from_draft:
            proposals = [(str(v["text"]), [str(r) for r in v.get("risks", [])]) for v in draft.variants]
        elif fact.strip():
            proposals = [(v.text, list(v.risks)) for v in suggest_variants(fact.strip()).variants]
        else:
            proposals = []
        pending = draft.status is DraftStatus.PENDING
        for text, risks in proposals:
            label = text + (f"   — risk: {'; '.join(risks)}" if risks else "")
            item = QListWidgetItem(label, self.variants_list)
            item.setData(Qt.ItemDataRole.UserRole, text)
            flags = Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsSelectable
            item.setFlags(flags | Qt.ItemFlag.ItemIsEnabled if pending else flags)
            item.setCheckState(Qt.CheckState.Unchecked if risks else Qt.CheckState.Checked)
            if risks:
                item.setToolTip("; ".join(risks))
        if not proposals:
            empty = QListWidgetItem("(no other spellings proposed)", self.variants_list)
            empty.setFlags(Qt.ItemFlag.NoItemFlags)

    def checked_variants(self) -> list[str]:
        chosen = []
        for row in range(self.variants_list.count()):
            item = self.variants_list.item(row)
            text = item.data(Qt.ItemDataRole.UserRole)
            if isinstance(text, str) and item.checkState() == Qt.CheckState.Checked:
                chosen.append(text)
        return chosen

    def set_variant_checked(self, text: str, checked: bool) -> None:
        for row in range(self.variants_list.count()):
            item = self.variants_list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == text:
                item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def _update_buttons(self) -> None:
        draft = self._draft
        pending = draft is not None and draft.status is DraftStatus.PENDING
        problems = self.current_problems() if pending else ()
        missing = bool(missing_fields(self.edited_text())) if pending else True
        self.override_check.setVisible(pending and bool(problems) and not missing)
        allowed = pending and not missing and (not problems or self.override_check.isChecked())
        self.accept_button.setEnabled(allowed)
        self.accept_button.setText("Accept Edited" if self.is_edited() else "Accept")
        if pending and missing:
            self.accept_button.setToolTip("Fill in the question, answer and fact first")
        elif pending and problems and not self.override_check.isChecked():
            self.accept_button.setToolTip("Flagged: edit it, or tick “Accept despite the flags”")
        else:
            self.accept_button.setToolTip(f"Accept into the golden set ({keys_for('accept_draft')[0]})")
        self.reject_button.setEnabled(pending)
        for name in ("accept_draft", "reject_draft"):
            if hasattr(self, "actions_by_name"):
                self.actions_by_name[name].setEnabled(pending)

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
        if not self.accept_button.isEnabled():
            self.message.emit(
                f"Draft {draft.id} is flagged: edit it, or tick “Accept despite the flags”."
                if self.current_problems()
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
                edit=self.edited_text() if self.is_edited() else None,
                variants=self.checked_variants(),
                accept_flagged=self.override_check.isChecked(),
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
                self._undo, session, draft.id, reviewer=self._reviewer(), note=self.note_edit.text()
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
        queue = self._session.project.draft_queue()
        self._all = list(queue.drafts)
        pending = [d for d in self._all if d.status is DraftStatus.PENDING]
        self._fill_filter(filter_counts(queue, pending))
        self.progress_label.setText(f"<b>{queue.progress()}</b>")
        self._set_rows(select(self._all, self.current_filter()), None, near=row if filtered else row + 1)

    def flagged_ids(self) -> list[int]:
        return [d.id for d in self._all if is_flagged(d)]

"""The current draft of the Drafts tab: its provenance, the source chunk with the drafted fact
marked, its problems in red with the reasons, the question, answer and fact (editable while the
draft is pending), the proposed variants as check boxes, and the decision row (note, "Accept
despite the flags", Reject, Accept).

The problems are checked again on the text as edited (:func:`~goldenlens.core.golden.drafts.
draft_problems`, the rule the acceptance applies), so the reviewer sees what the acceptance
will say before pressing the button. The form only shows and edits: its buttons emit
``accept_clicked`` and ``reject_clicked`` and :class:`~goldenlens.ui.drafts.drafts_pane.DraftsPane`
decides.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
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
from goldenlens.queries.drafts import Draft, DraftStatus, DraftText
from goldenlens.ui.drafts.drafts_model import status_text
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
    items = "".join(f"<li>{html.escape(p.message, quote=False)}</li>" for p in problems)
    return f"<b>⚠ Flagged ({what}):</b><ul style='margin:2px 0 0 -20px;'>{items}</ul>"


class DraftForm(QWidget):
    """One draft, shown and edited (see the module docstring).

    Signals: ``accept_clicked()``, ``reject_clicked()``.
    """

    accept_clicked = Signal()
    reject_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._draft: Draft | None = None
        self._accepted: GoldenItem | None = None
        self._build()
        self.accept_button.setToolTip(f"Accept into the golden set ({keys_for('accept_draft')[0]})")
        self.reject_button.setToolTip(f"Reject with the note ({keys_for('reject_draft')[0]})")

    def _build(self) -> None:
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
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll, 1)
        outer.addLayout(self._decision_bar())

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
        self.accept_button.clicked.connect(self.accept_clicked)
        self.reject_button.clicked.connect(self.reject_clicked)
        self.override_check.toggled.connect(lambda _on: self.update_buttons())
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

    # -- the draft shown ------------------------------------------------------------------

    def show_draft(self, draft: Draft | None, accepted: GoldenItem | None = None) -> None:
        """Show ``draft`` (``None``: none); ``accepted`` is the golden item an accepted draft
        became, as it stands now, which the fields show instead of the draft."""
        self._draft, self._accepted = draft, accepted
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
            self.update_buttons()
            return
        model = draft.detail.get("model", "")
        by = f" · drafted by {html.escape(str(model), quote=False)}" if model else ""
        self.provenance_label.setText(
            f"<b>Draft {draft.id}</b> · {html.escape(draft.provenance(), quote=False)} · "
            f"<i>{html.escape(status_text(draft), quote=False)}</i>{by}"
        )
        self.decision_label.setText(self._decision_text(draft))
        if accepted is not None:
            self.variants_list.clear()  # the accepted variants are in the fact, as <OR> parts
            QListWidgetItem("(the accepted variants are in the fact above)", self.variants_list).setFlags(
                Qt.ItemFlag.NoItemFlags
            )
        else:
            self._fill_variants(draft.text.fact, from_draft=True)
        self._on_edited()

    def _shown_text(self, draft: Draft | None) -> DraftText:
        """What the fields show: the draft as written, or for an accepted draft the golden item
        it became (edits at acceptance and after included), since that is what counts."""
        if draft is None:
            return DraftText("", "", "")
        item = self._accepted
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
            if self._accepted is not None:
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
        self.update_buttons()

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

    def update_buttons(self) -> None:
        """Accept and Reject as the draft and its text allow (a flagged draft: only with the
        override ticked)."""
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

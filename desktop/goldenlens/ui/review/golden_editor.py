"""In-place editor of the current golden row: question, answer, fact, notes and review.

A field is committed when it loses focus or on Ctrl+Enter — one undoable command per edit,
never one per keystroke — by pushing an :class:`EditGoldenCommand` on the window's undo
stack, which re-scores the question at once. While the fact is typed, a row of chips
previews how it splits into ``<OR>`` alternatives and ``<AND>`` parts and marks the parts
that will misbehave (empty, prone to false matches, surrounding spaces that the exact match
keeps). The editor reloads itself whenever its question changes (an undo, a redo, a review).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QEvent, QMargins, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QKeySequence, QResizeEvent, QTextCursor, QUndoStack
from PySide6.QtWidgets import (
    QButtonGroup,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.factual_knowledge import fact_groups
from goldenlens.core.lexical.flags import FLAG_EXPLANATIONS, Flag, FlagThresholds, golden_flags
from goldenlens.core.reviewer_decisions import REVIEW_ACCEPTED, REVIEW_NEEDS_CURATION, REVIEW_UNREVIEWED
from goldenlens.ui.review.undo_commands import push_edit, push_review
from goldenlens.ui.session import ProjectSession

#: (field, label, visible lines) of the editable text fields, in form order.
_FIELDS = (("question", "Question", 2), ("answer", "Answer", 3), ("fact", "Fact", 2), ("notes", "Notes", 2))
_STATUSES = (
    (REVIEW_UNREVIEWED, "Unreviewed", "Not reviewed yet"),
    (REVIEW_ACCEPTED, "Accepted (A)", "The golden row is right as it is (key A)"),
    (REVIEW_NEEDS_CURATION, "Needs curation (C)", "The golden row needs work (key C)"),
)
_CHECKED_STYLES = {
    REVIEW_UNREVIEWED: "background:#e3e6ea; border:1px solid #8a9099; color:#202124;",
    REVIEW_ACCEPTED: "background:#d7f0de; border:1px solid #2e8b57; color:#14462a;",
    REVIEW_NEEDS_CURATION: "background:#ffedc2; border:1px solid #c98f00; color:#4d3800;",
}
_CHIP_STYLES = {
    "ok": "background:#e9f0fb; border:1px solid #a9bfe3; color:#1d3557;",
    "warning": "background:#fff3cd; border:1px solid #d9a400; color:#5c4300;",
    "error": "background:#fde2e1; border:1px solid #d9534f; color:#7a1c18;",
}


class CommitTextEdit(QPlainTextEdit):
    """A plain-text field that reports ``committed`` on focus-out and on Ctrl+Enter.

    It keeps no undo history of its own: Ctrl+Z and Ctrl+Shift+Z (Ctrl+Y) are reported as
    ``undo_requested`` / ``redo_requested`` for the window's one undo stack. A field-only undo
    would take back the text but not the saved edit, and the field and the grid would then
    disagree about the golden row."""

    committed = Signal()
    undo_requested = Signal()
    redo_requested = Signal()

    def __init__(self, lines: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setUndoRedoEnabled(False)
        self.setTabChangesFocus(True)
        margins = self.contentsMargins()
        frame = 2 * int(self.document().documentMargin()) + margins.top() + margins.bottom() + 4
        self.setFixedHeight(lines * self.fontMetrics().lineSpacing() + frame)

    def event(self, event: QEvent) -> bool:
        """Claim Ctrl+Z / Ctrl+Shift+Z before the window's Undo action sees them: the editor
        saves what is being typed first, then undoes through the one stack."""
        undo_keys = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and any(event.matches(key) for key in undo_keys)
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Undo):
            self.undo_requested.emit()
            return
        if event.matches(QKeySequence.StandardKey.Redo):
            self.redo_requested.emit()
            return
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.committed.emit()
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if event.reason() != Qt.FocusReason.PopupFocusReason:  # the context menu is not leaving
            self.committed.emit()


class FlowLayout(QLayout):
    """Lays widgets out left to right, wrapping to the next line (for the fact chips)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setSpacing(spacing)
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def height_for(self, width: int) -> int:
        """The height the items need at ``width`` (the owner fixes its height to it: form
        layouts size rows from size hints, not from height-for-width)."""
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        """Place the items in lines (each item centred vertically in its line); returns the
        height used."""
        lines: list[list[QLayoutItem]] = [[]]
        x = rect.x()
        for item in self._items:
            width = item.sizeHint().width()
            if x + width > rect.right() + 1 and lines[-1]:
                lines.append([])
                x = rect.x()
            lines[-1].append(item)
            x += width + self.spacing()
        y = rect.y()
        for line in lines:
            height = max((item.sizeHint().height() for item in line), default=0)
            x = rect.x()
            for item in line:
                hint = item.sizeHint()
                if move:
                    item.setGeometry(QRect(QPoint(x, y + (height - hint.height()) // 2), hint))
                x += hint.width() + self.spacing()
            y += height + self.spacing()
        return max(0, y - self.spacing() - rect.y())


def part_problems(part: str, thresholds: FlagThresholds) -> tuple[str, str]:
    """``(level, explanation)`` of one fact part: ``ok``, ``warning`` or ``error``."""
    if not part.strip():
        return "error", FLAG_EXPLANATIONS[Flag.EMPTY_FACT_PART]
    if Flag.FACT_PRONE_TO_FALSE_MATCHES in golden_flags("", part, [], thresholds):
        return "warning", FLAG_EXPLANATIONS[Flag.FACT_PRONE_TO_FALSE_MATCHES]
    if part != part.strip():
        return "warning", "Spaces around this part count for the exact match: remove them."
    return "ok", "Found when the response contains this text (any case)."


class FactChips(QWidget):
    """The parts of a fact as chips joined by ``or`` / ``and``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = FlowLayout(self)
        self._chips: list[QLabel] = []
        self.thresholds = FlagThresholds()

    def show_fact(self, fact: str) -> None:
        """Rebuild the chips for ``fact``."""
        while (item := self._layout.takeAt(0)) is not None:
            widget = item.widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self._chips = []
        for g, group in enumerate(fact_groups(fact) if fact else ()):
            if g:
                self._add_operator("or")
            for p, part in enumerate(group):
                if p:
                    self._add_operator("and")
                self._add_chip(part)
        self._fit_height()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        self.setFixedHeight(self._layout.height_for(max(self.width(), self.minimumSizeHint().width())))

    def chips(self) -> list[QLabel]:
        """The chip labels, in order (operators excluded)."""
        return list(self._chips)

    def _add_chip(self, part: str) -> None:
        level, why = part_problems(part, self.thresholds)
        shown = part.strip() or "empty part"
        if part.strip():  # show the spaces that the exact match will look for
            shown = ("␣" if part[0].isspace() else "") + shown + ("␣" if part[-1].isspace() else "")
        chip = QLabel(("⚠ " if level != "ok" else "") + shown, self)
        chip.setProperty("level", level)
        chip.setToolTip(why)
        chip.setStyleSheet(f"QLabel {{ {_CHIP_STYLES[level]} border-radius: 9px; padding: 1px 8px; }}")
        self._layout.addWidget(chip)
        chip.show()  # a hidden widget has no size hint, and Qt shows new children only later
        self._chips.append(chip)

    def _add_operator(self, word: str) -> None:
        label = QLabel(word, self)
        label.setStyleSheet("color: palette(mid);")
        self._layout.addWidget(label)
        label.show()


def _sentence(exc: Exception) -> str:
    text = str(exc)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


class GoldenEditor(QWidget):
    """Edits one golden row in place; every change is an undoable command on ``undo_stack``."""

    def __init__(
        self, session: ProjectSession, undo_stack: QUndoStack, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.undo_stack = undo_stack
        self.question_id: str | None = None
        self._item: GoldenItem | None = None
        self._status = REVIEW_UNREVIEWED

        self._title = QLabel(self)
        self._title.setStyleSheet("font-weight: 600; font-size: 110%;")
        self._buttons = QButtonGroup(self)
        self.fields: dict[str, CommitTextEdit] = {}
        self.chips = FactChips(self)
        self.review_note = QLineEdit(self)
        self._error = QLabel(self)
        hint = QLabel("Saved when you leave a field or press Ctrl+Enter; Ctrl+Z undoes.", self)
        hint.setStyleSheet("color: palette(mid);")
        self._error.setStyleSheet("color: #b3261e;")
        self._error.setWordWrap(True)
        self._error.hide()

        layout = QVBoxLayout(self)
        layout.addLayout(self._build_header())
        layout.addLayout(self._build_form())
        layout.addWidget(self._error)
        layout.addWidget(hint)
        layout.addStretch(1)

        session.question_changed.connect(self._on_question_changed)
        session.project_changed.connect(self._load)
        self.set_question(None)

    def _build_header(self) -> QHBoxLayout:
        header = QHBoxLayout()
        header.addWidget(self._title)
        header.addStretch(1)
        for index, (status, label, tip) in enumerate(_STATUSES):
            button = QPushButton(label, self)
            button.setCheckable(True)
            button.setToolTip(tip)
            button.setProperty("status", status)
            button.setStyleSheet(
                f"QPushButton:checked {{ {_CHECKED_STYLES[status]} border-radius: 3px; padding: 3px 8px; }}"
            )
            self._buttons.addButton(button, index)
            header.addWidget(button)
        self._buttons.idClicked.connect(self._on_status_clicked)
        return header

    def _build_form(self) -> QFormLayout:
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for name, label, lines in _FIELDS:
            edit = CommitTextEdit(lines, self)
            edit.setObjectName(f"golden_{name}")
            edit.committed.connect(lambda name=name: self._commit(name))
            edit.undo_requested.connect(lambda name=name: self._undo_from(name))
            edit.redo_requested.connect(lambda name=name: self._redo_from(name))
            self.fields[name] = edit
            form.addRow(f"{label}:", edit)
            if name == "fact":
                form.addRow("", self.chips)
                edit.textChanged.connect(self._on_fact_typed)
                edit.setPlaceholderText("e.g. 410 Terry Avenue North<OR>410 Terry Ave. N.")
        self.review_note.setPlaceholderText("Why accepted, or what needs curation")
        self.review_note.editingFinished.connect(self._on_review_note_finished)
        form.addRow("Review note:", self.review_note)
        return form

    # -- public API -----------------------------------------------------------------------

    def set_question(self, question_id: str | None) -> None:
        """Show the golden row ``question_id`` (``None``: nothing selected, fields disabled).

        Text still being typed for the previous question is committed first, not lost."""
        if question_id != self.question_id:
            for name in self.fields:
                self._commit(name)
        self.question_id = question_id
        self._show_error("")
        self._load(force=True)

    def accept_current(self) -> None:
        """Mark the current question accepted (key A)."""
        self._set_status(REVIEW_ACCEPTED)

    def mark_needs_curation(self) -> None:
        """Mark the current question as needing curation (key C)."""
        self._set_status(REVIEW_NEEDS_CURATION)

    def mark_unreviewed(self) -> None:
        """Put the current question back to unreviewed."""
        self._set_status(REVIEW_UNREVIEWED)

    def edit_field(self, name: str, select: str = "") -> None:
        """Focus field ``name`` (question, answer, fact or notes) with the cursor at its end,
        or with the first occurrence of ``select`` (any case) selected: where the advisor's
        fix needs words only the reviewer can write."""
        edit = self.fields[name]
        edit.setFocus(Qt.FocusReason.OtherFocusReason)
        edit.moveCursor(QTextCursor.MoveOperation.End)
        at = edit.toPlainText().lower().find(select.lower()) if select else -1
        if at >= 0:
            cursor = edit.textCursor()
            cursor.setPosition(at)
            cursor.setPosition(at + len(select), QTextCursor.MoveMode.KeepAnchor)
            edit.setTextCursor(cursor)
        edit.ensureCursorVisible()

    def review_buttons(self) -> list[QPushButton]:
        """The Unreviewed / Accepted / Needs curation buttons, in that order."""
        return [button for button in self._buttons.buttons() if isinstance(button, QPushButton)]

    def error_text(self) -> str:
        """The message shown for the last edit that was refused ('' when none)."""
        return self._error.text() if not self._error.isHidden() else ""

    # -- loading --------------------------------------------------------------------------

    def _load(self, *, force: bool = False) -> None:
        """Show the stored row; without ``force`` a focused field with uncommitted typing is
        kept (an edit elsewhere must not wipe what the analyst is writing)."""
        previous = self._item
        project = self.session.project
        item = project.golden_item(self.question_id) if self.question_id is not None else None
        if item is None:
            self.question_id = None
        self._item = item
        review = project.review_of_question(item.id) if item is not None else None
        self._status = review.status if review is not None else REVIEW_UNREVIEWED
        self._title.setText(item.id if item is not None else "No question selected")
        self.chips.thresholds = self.session.preferences.thresholds
        for name, edit in self.fields.items():
            text = getattr(item, name) if item is not None else ""
            typing = (
                previous is not None and edit.hasFocus() and edit.toPlainText() != getattr(previous, name)
            )
            if (force or not typing) and edit.toPlainText() != text:  # equal: keep the cursor
                edit.setPlainText(text)
            edit.setEnabled(item is not None)
        if force or not self.review_note.hasFocus():
            self.review_note.setText(review.note if review is not None else "")
        self.review_note.setEnabled(item is not None)
        self._buttons.setExclusive(False)  # an exclusive group cannot uncheck its last button
        for button in self._buttons.buttons():
            button.setEnabled(item is not None)
            button.setChecked(item is not None and button.property("status") == self._status)
        self._buttons.setExclusive(True)
        self.chips.show_fact(self.fields["fact"].toPlainText())

    def _on_question_changed(self, question_id: str) -> None:
        if question_id == self.question_id:
            self._load()

    # -- committing -----------------------------------------------------------------------

    def _commit(self, name: str) -> None:
        item = self._item
        if item is None:
            return
        text = self.fields[name].toPlainText()
        if text == getattr(item, name):
            return
        change: dict[str, Any] = {name: text}
        try:
            push_edit(self.undo_stack, self.session, replace(item, **change))
        except ValueError as exc:
            self._show_error(_sentence(exc))
            return
        self._show_error("")

    def _undo_from(self, name: str) -> None:
        # What was typed becomes a step of the one history first, so Ctrl+Z in a field
        # takes back the typing (and Ctrl+Shift+Z brings it back) and then the saved edits
        # before it, each time the same in the field, the store and the grid.
        self._commit(name)
        if self.undo_stack.canUndo():
            self.undo_stack.undo()

    def _redo_from(self, name: str) -> None:
        self._commit(name)
        if self.undo_stack.canRedo():
            self.undo_stack.redo()

    def _on_fact_typed(self) -> None:
        self.chips.show_fact(self.fields["fact"].toPlainText())

    def _on_status_clicked(self, index: int) -> None:
        self._set_status(_STATUSES[index][0])

    def _on_review_note_finished(self) -> None:
        self._set_status(self._status)

    def _set_status(self, status: str) -> None:
        if self.question_id is None:
            return
        try:
            push_review(self.undo_stack, self.session, self.question_id, status, self.review_note.text())
        except ValueError as exc:
            self._show_error(_sentence(exc))
        self._load()  # a refused or no-op click must not leave the wrong button checked

    def _show_error(self, text: str) -> None:
        self._error.setText(text)
        self._error.setVisible(bool(text))

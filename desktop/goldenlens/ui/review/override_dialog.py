"""The reviewer's override of one score: Pass/Fail or a value, with a required note.

The stored score is never changed: an override is an audit-trail entry next to it (latest
wins), so the dialog always shows the original number. 0/1 metrics (factual knowledge,
exact match, ...) take a Pass/Fail verdict, stored as ``passed`` with the value 1 or 0;
other metrics take a value from 0 to 1. :func:`request_override` opens the dialog and pushes
the undoable command.
"""

from __future__ import annotations

import html
from dataclasses import replace

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.project_records import Override
from goldenlens.core.view.metric_names import BINARY_METRICS, metric_in_sentence
from goldenlens.ui.review.undo_commands import push_clear_override, push_override
from goldenlens.ui.session import ProjectSession

#: ``(value, passed, note)``; ``(None, None, note)`` removes the override in effect.
OverrideResult = tuple[float | None, bool | None, str]


def _shown(value: float | None) -> str:
    if value is None:
        return "not scored"
    return f"{value:.0f}" if value in (0.0, 1.0) else f"{value:.3f}"


def describe_override(override: Override) -> str:
    """``Pass (1) — by Ana, 2026-11-29: "address abbreviated"`` for the dialog and tooltips."""
    if override.passed is not None:
        verdict = "Pass" if override.passed else "Fail"
        shown = verdict if override.value is None else f"{verdict} ({_shown(override.value)})"
    else:
        shown = _shown(override.value)
    by = f" — by {override.reviewer}" if override.reviewer else ""
    return f"{shown}{by}, {override.created_at[:10]}: “{override.note}”"


class OverrideDialog(QDialog):
    """Asks for an override of ``metric`` for (``question_id``, ``pipeline``).

    ``original`` is the stored score (``None``: not scored), ``current`` the override in
    effect. When ``reviewer`` is empty the dialog asks for the name; read it back with
    :meth:`reviewer_name` and save it in the preferences.
    """

    def __init__(  # noqa: PLR0917 - the call shape the main window was promised
        self,
        metric: str,
        pipeline: str,
        question_id: str,
        original: float | None,
        current: Override | None,
        reviewer: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.metric_name = metric  # not ``metric``: QPaintDevice.metric() is a method
        self.binary = metric in BINARY_METRICS
        self._removing = False
        label = metric_in_sentence(metric)
        self.setWindowTitle(f"Override {label}")
        self.setMinimumWidth(460)
        self.pass_button = QRadioButton("Pass", self)
        self.fail_button = QRadioButton("Fail", self)
        self._verdicts = QButtonGroup(self)
        self.value_box = QDoubleSpinBox(self)
        self.note_edit = QPlainTextEdit(self)
        self.reviewer_edit = QLineEdit(reviewer.strip(), self)
        self._problem = QLabel(self)
        self._problem.setStyleSheet("color: #8a5300;")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.save_button = self.buttons.addButton("Save override", QDialogButtonBox.ButtonRole.AcceptRole)
        self.remove_button: QPushButton | None = None

        heading = QLabel(
            f"<b>{html.escape(label[:1].upper() + label[1:], quote=False)}</b> of "
            f"{html.escape(f'{question_id} / {pipeline}', quote=False)}",
            self,
        )
        form = QFormLayout()
        shown = _shown(original)
        if self.binary and original is not None:
            shown += " (pass)" if original >= 1.0 else " (fail)"
        form.addRow("Original score:", QLabel(shown, self))
        if current is not None:
            now = QLabel(describe_override(current), self)
            now.setWordWrap(True)
            form.addRow("Current override:", now)
        self._add_choice(form, original, current)
        self._add_note_and_reviewer(form, reviewer.strip())
        self._add_buttons(current)

        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addSpacing(4)
        layout.addLayout(form)
        layout.addWidget(self._problem)
        layout.addWidget(self.buttons)
        self.note_edit.textChanged.connect(self._update)
        self.reviewer_edit.textChanged.connect(self._update)
        self._verdicts.buttonToggled.connect(self._update)
        self._update()
        self.note_edit.setFocus()

    def _add_choice(self, form: QFormLayout, original: float | None, current: Override | None) -> None:
        self.value_box.setRange(0.0, 1.0)
        self.value_box.setDecimals(3)
        self.value_box.setSingleStep(0.05)
        self.value_box.setMaximumWidth(110)
        if self.binary:
            row = QHBoxLayout()
            for button in (self.pass_button, self.fail_button):
                self._verdicts.addButton(button)
                row.addWidget(button)
            row.addStretch(1)
            form.addRow("New verdict:", row)
            self.value_box.hide()
            self._preselect_verdict(original, current)
            return
        self.pass_button.hide()
        self.fail_button.hide()
        start = current.value if current is not None and current.value is not None else original
        self.value_box.setValue(start if start is not None else 0.0)
        form.addRow("New value:", self.value_box)

    def _add_note_and_reviewer(self, form: QFormLayout, reviewer: str) -> None:
        self.note_edit.setTabChangesFocus(True)
        self.note_edit.setPlaceholderText("Why the score is wrong (required)")
        self.note_edit.setFixedHeight(4 * self.fontMetrics().lineSpacing() + 12)
        form.addRow("Note:", self.note_edit)
        self.reviewer_edit.setPlaceholderText("Your name, kept for the next overrides")
        if reviewer:
            self.reviewer_edit.hide()
            form.addRow("Reviewer:", QLabel(reviewer, self))
        else:
            form.addRow("Your name:", self.reviewer_edit)

    def _add_buttons(self, current: Override | None) -> None:
        if current is not None:
            self.remove_button = self.buttons.addButton(
                "Remove override", QDialogButtonBox.ButtonRole.DestructiveRole
            )
            self.remove_button.clicked.connect(self._on_remove)
        self.buttons.accepted.connect(self._on_save)
        self.buttons.rejected.connect(self.reject)

    def _preselect_verdict(self, original: float | None, current: Override | None) -> None:
        """Start from the current override, else from the opposite of the original score."""
        if current is not None and (current.passed is not None or current.value is not None):
            passed = current.passed if current.passed is not None else bool(current.value)
        elif original is not None:
            passed = original < 1.0
        else:
            return
        (self.pass_button if passed else self.fail_button).setChecked(True)

    def _missing(self) -> str:
        if self.binary and self._verdicts.checkedButton() is None:
            return "Choose Pass or Fail."
        if not self.note_edit.toPlainText().strip():
            return "A note is required: say why the score is wrong."
        if not self.reviewer_edit.text().strip():
            return "Enter your name."
        return ""

    def _update(self) -> None:
        missing = self._missing()
        self._problem.setText(missing)
        self.save_button.setEnabled(not missing)
        if self.remove_button is not None:
            self.remove_button.setEnabled(bool(self.reviewer_edit.text().strip()))

    def _on_save(self) -> None:
        if not self._missing():
            self._removing = False
            self.accept()

    def _on_remove(self) -> None:
        self._removing = True
        self.accept()

    @property
    def removing(self) -> bool:
        """True when the reviewer chose "Remove override"."""
        return self._removing

    def reviewer_name(self) -> str:
        """The reviewer's name (from the preferences or typed here)."""
        return self.reviewer_edit.text().strip()

    def result_override(self) -> OverrideResult | None:
        """``(value, passed, note)`` once accepted; ``(None, None, note)`` for a removal;
        ``None`` when cancelled."""
        if self.result() != QDialog.DialogCode.Accepted:
            return None
        note = self.note_edit.toPlainText().strip()
        if self._removing:
            return (None, None, note)
        if self.binary:
            passed = self.pass_button.isChecked()
            return (1.0 if passed else 0.0, passed, note)
        return (round(self.value_box.value(), 3), None, note)


def request_override(  # noqa: PLR0917 - the call shape the main window was promised
    parent: QWidget | None,
    session: ProjectSession,
    undo_stack: QUndoStack,
    question_id: str,
    pipeline: str,
    metric: str,
    *,
    note: str = "",
) -> bool:
    """Open the dialog for one score and push the override (or its removal) as an undoable
    command; a newly typed reviewer name is saved in the preferences. True when pushed.
    ``note`` starts the note (the advisor's reason) when no override is in effect yet."""
    project = session.project
    run_id = session.run_id
    original = None
    if run_id is not None:
        for record in project.scores_of_question(run_id, question_id):
            if (record.pipeline, record.metric) == (pipeline, metric):
                original = record.value
    current = project.override_in_effect(question_id, pipeline, metric)
    dialog = OverrideDialog(metric, pipeline, question_id, original, current, session.reviewer, parent)
    if note and current is None:
        dialog.note_edit.setPlainText(note)
    try:
        dialog.exec()
        result = dialog.result_override()
        if result is None:
            return False
        name = dialog.reviewer_name()
        if name and name != session.reviewer:
            session.set_preferences(replace(session.preferences, reviewer=name))
        value, passed, note = result
        if dialog.removing:
            push_clear_override(undo_stack, session, question_id, pipeline, metric, note=note)
        else:
            push_override(
                undo_stack, session, question_id, pipeline, metric, value=value, passed=passed, note=note
            )
    except ValueError as exc:
        QMessageBox.warning(parent, "Override not saved", str(exc))
        return False
    finally:
        dialog.deleteLater()
    return True

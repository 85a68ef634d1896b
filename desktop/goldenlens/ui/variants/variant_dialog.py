"""The fact-variant dialog: other spellings of a question's fact, what each would flip, and
one click (one undoable step) to add the chosen ones as ``<OR>`` alternatives.

The suggestions and their flip preview come from
:func:`goldenlens.jobs.curation.variant_preview.preview_fact_variants`, computed in a worker
on its own connection (a large project has many responses to search); the dialog only shows
them. Top: the question, its fact, and the generator's notes (values it cannot read
faithfully, alternatives that stand for different values) in a banner. Middle: the
suggestions grouped by kind, each with a check box, the scores it can change, the pipelines it
flips and a false-match risk badge (tooltip: why). Bottom: for the checked suggestions (or,
with none checked, the one under the cursor) the responses of this question that flip 0 → 1,
the matched text highlighted, and the responses of other questions that contain them.
"Add N variants" pushes one :class:`~goldenlens.ui.review.undo_commands.AddFactVariantsCommand`:
the fact and its scores change together and Ctrl+Z restores both.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication, QKeyEvent, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.variants.flip_preview import QuestionPreview, VariantPreview
from goldenlens.core.view.wording import plural
from goldenlens.jobs import open_project
from goldenlens.jobs.curation.variant_preview import preview_fact_variants
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn
from goldenlens.ui.errors import show_error
from goldenlens.ui.review.undo_commands import push_add_fact_variants
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.variants.flip_preview_panel import FlipPreviewPanel, plain_table
from goldenlens.ui.variants.variant_preview_model import SuggestionTableModel
from goldenlens.ui.widgets.highlight_html import fact_html
from goldenlens.ui.workers import LatestJobRunner

EMPTY_TEXT = "No other spelling of this fact found"
EMPTY_DETAIL = (
    "The generator respells numbers (scales, digit grouping), dates, percentages, small numbers "
    "and common abbreviations at exactly the same value. Nothing in this fact has another "
    "spelling that could change a score, or every spelling is already an alternative."
)
LOADING_TEXT = "Looking for other spellings of the fact…"
#: Object name of the dialog's job runner (still running after the dialog closed, it is
#: handed to the main window, which waits for it when the app quits).
RUNNER_NAME = "variantPreviewRunner"
_NOTES_STYLE = (
    "QLabel { background:#fff3cd; border:1px solid #d9a400; color:#4d3800;"
    " border-radius:4px; padding:6px 8px; }"
)
_MUTED = "color: #5f6368;"  # muted, still above 4.5:1 on the window background

# Pages of the stack.
_LOADING, _EMPTY, _CONTENT = range(3)


class VariantDialog(QDialog):
    """Suggestions for one question's fact with their flip preview; "Add" adds the checked ones.

    Signals: ``loaded()`` once the suggestions are shown (or the empty state), ``added(int)``
    after the checked variants were pushed as one undoable step (how many).
    """

    loaded = Signal()
    added = Signal(int)

    def __init__(
        self,
        session: ProjectSession,
        undo_stack: QUndoStack,
        question_id: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.undo_stack = undo_stack
        self.question_id = question_id
        self.result_preview: QuestionPreview | None = None
        self._loading = False  # the suggestions shown are being replaced: nothing to add yet
        self.setWindowTitle(f"Suggest fact variants — {question_id}")
        self.setSizeGripEnabled(True)

        self.suggestions = SuggestionTableModel(self)
        self._runner = LatestJobRunner(self, name="variants")
        self._runner.setObjectName(RUNNER_NAME)
        self._runner.succeeded.connect(self._on_loaded)
        self._runner.failed.connect(self._on_failed)
        self._runner.progressed.connect(self._on_progress)

        layout = QVBoxLayout(self)
        layout.setSpacing(8)
        layout.addLayout(self._build_header())
        self.notes_label = QLabel(self)
        self.notes_label.setObjectName("variantNotes")
        self.notes_label.setWordWrap(True)
        self.notes_label.setTextFormat(Qt.TextFormat.RichText)
        self.notes_label.setStyleSheet(_NOTES_STYLE)
        self.notes_label.hide()
        layout.addWidget(self.notes_label)
        self._stack = QStackedWidget(self)
        self._stack.addWidget(self._build_message(LOADING_TEXT, ""))
        self._stack.addWidget(self._build_message(EMPTY_TEXT, EMPTY_DETAIL))
        self._stack.addWidget(self._build_content())
        layout.addWidget(self._stack, 1)
        layout.addLayout(self._build_buttons())

        self.suggestions.checked_changed.connect(self._on_checked_changed)
        self._size_to_screen()
        self._show_header()
        self._on_checked_changed()

    # -- building -------------------------------------------------------------------------

    def _build_header(self) -> QVBoxLayout:
        header = QVBoxLayout()
        header.setSpacing(4)
        self.question_label = QLabel(self)
        self.question_label.setWordWrap(True)
        self.question_label.setTextFormat(Qt.TextFormat.RichText)
        fact_row = QHBoxLayout()
        caption = QLabel("<b>Fact</b>", self)
        caption.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        self.fact_label = QLabel(self)
        self.fact_label.setWordWrap(True)
        self.fact_label.setTextFormat(Qt.TextFormat.RichText)
        self.fact_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        fact_row.addWidget(caption)
        fact_row.addWidget(self.fact_label, 1)
        header.addWidget(self.question_label)
        header.addLayout(fact_row)
        return header

    def _build_message(self, title: str, detail: str) -> QWidget:
        page = QWidget(self)
        box = QVBoxLayout(page)
        box.addStretch(1)
        label = QLabel(title, page)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = label.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        label.setFont(font)
        label.setObjectName("emptyTitle" if detail else "loadingTitle")
        box.addWidget(label)
        if not detail:
            self.loading_label = QLabel("", page)
            self.loading_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.loading_label.setStyleSheet(_MUTED)
            box.addWidget(self.loading_label)
        if detail:
            text = QLabel(detail, page)
            text.setWordWrap(True)
            text.setAlignment(Qt.AlignmentFlag.AlignCenter)
            text.setStyleSheet(_MUTED)
            text.setMaximumWidth(620)
            row = QHBoxLayout()
            row.addStretch(1)
            row.addWidget(text)
            row.addStretch(1)
            box.addLayout(row)
        box.addStretch(2)
        return page

    def _build_content(self) -> QWidget:
        content = QWidget(self)
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        self.suggestions_caption = QLabel(content)
        layout.addWidget(self.suggestions_caption)
        self.suggestion_view = plain_table(self.suggestions, content)
        self.suggestion_view.setObjectName("suggestionTable")
        self.suggestion_view.setAccessibleName("Suggested variants")
        header = self.suggestion_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.suggestion_view.installEventFilter(self)
        self.suggestion_view.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.suggestion_view.doubleClicked.connect(self._on_double_clicked)
        # The suggestions take the room the preview tables (sized to their rows) leave.
        layout.addWidget(self.suggestion_view, 1)
        self.preview = FlipPreviewPanel(content)
        layout.addWidget(self.preview)
        layout.addStretch(0)  # below a short suggestion list, not inside it
        return content

    def _build_buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.summary_label = QLabel(self)
        self.summary_label.setWordWrap(True)
        row.addWidget(self.summary_label, 1)
        self.buttons = QDialogButtonBox(self)
        self.add_button = QPushButton("Add variants", self)
        self.add_button.setDefault(True)
        self.add_button.setToolTip(
            "Add the checked variants to the fact as <OR> alternatives, in one step, and re-score "
            "this question (Ctrl+Enter; Ctrl+Z in the main window undoes it)"
        )
        self.add_button.clicked.connect(self.add_checked)
        self.buttons.addButton(self.add_button, QDialogButtonBox.ButtonRole.AcceptRole)
        close = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.setToolTip("Close without changing the fact (Esc)")
        self.buttons.rejected.connect(self.reject)
        row.addWidget(self.buttons)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.add_checked)
        return row

    def _size_to_screen(self) -> None:
        """Most of the main window (it sits over it), never more than is useful."""
        parent = self.parentWidget()
        window = parent.window() if parent is not None else None
        if window is not None and window.isVisible():
            area = window.size()
        else:
            area = (self.screen() or QGuiApplication.primaryScreen()).availableGeometry().size()
        width = min(1240, int(area.width() * 0.86))
        height = min(860, int(area.height() * 0.9))
        self.resize(max(720, width), max(520, height))

    # -- loading --------------------------------------------------------------------------

    def start(self) -> None:
        """Compute the suggestions and their preview in a worker (its own connection)."""
        self._stack.setCurrentIndex(_LOADING)
        self._loading = True
        self.add_button.setEnabled(False)
        path, question_id = self.session.path, self.question_id

        def job(progress: ProgressFn, cancel: CancelToken) -> QuestionPreview:
            with open_project(path) as project:
                cancel.raise_if_cancelled()
                return preview_fact_variants(project, question_id, progress=progress, cancel=cancel)

        self._runner.request(job)

    def _show_header(self) -> None:
        item = self.session.project.golden_item(self.question_id)
        question = item.question if item is not None else ""
        fact = item.fact if item is not None else ""
        self.question_label.setText(f"<b>{html.escape(self.question_id)}</b> · {html.escape(question)}")
        self.fact_label.setText(fact_html(fact, "") if fact.strip() else "<i>(no fact)</i>")

    def _on_loaded(self, result: object) -> None:
        if not isinstance(result, QuestionPreview):
            return
        self.result_preview = result
        self._loading = False
        notes = result.suggestions.notes
        self.notes_label.setText(
            "<b>Read before adding:</b><br>"
            + "<br>".join(f"⚠ {html.escape(n[:1].upper() + n[1:])}" for n in notes)
        )
        self.notes_label.setVisible(bool(notes))
        self.suggestions.set_previews(result.previews)
        self.suggestion_view.clearSpans()
        for row in range(self.suggestions.rowCount()):
            if self.suggestions.is_header(row):  # a kind's header reads across the table
                self.suggestion_view.setSpan(row, 0, 1, self.suggestions.columnCount())
        previews = self.suggestions.previews()
        if not previews:
            self._stack.setCurrentIndex(_EMPTY)
        else:
            self._stack.setCurrentIndex(_CONTENT)
            flipping = sum(1 for p in previews if p.flips_up)
            self.suggestions_caption.setText(
                f"<b>{plural(len(previews), 'suggestion')}</b> for {html.escape(result.question_id)}"
                f" — {flipping} would raise a score here. Check the ones to add (Space)."
            )
            first = next((p for p in previews if p.flips_up), previews[0])
            row = self.suggestions.row_of(first.variant.text)
            self.suggestion_view.selectionModel().setCurrentIndex(
                self.suggestions.index(row, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
            self.suggestion_view.setFocus()
            # As tall as its rows (plus room for one more), no taller: the preview sits close.
            view = self.suggestion_view
            rows = self.suggestions.rowCount() + 1
            view.setMaximumHeight(
                2 * view.frameWidth()
                + view.horizontalHeader().sizeHint().height()
                + rows * view.verticalHeader().defaultSectionSize()
            )
        self._on_checked_changed()
        self.loaded.emit()

    def _on_progress(self, progress: object) -> None:
        if isinstance(progress, Progress) and progress.total:
            self.loading_label.setText(
                f"Previewing {progress.done:,} of {plural(progress.total, 'suggestion')} "
                "against every response of the project…"
            )

    def _on_failed(self, error: object) -> None:
        self._loading = False
        self._stack.setCurrentIndex(_EMPTY)
        if isinstance(error, BaseException):
            show_error(self, "Cannot suggest variants", error)
        self.loaded.emit()

    # -- checking and previewing -------------------------------------------------------------

    def checked(self) -> list[VariantPreview]:
        """The checked suggestions, in display order."""
        return self.suggestions.checked()

    def check(self, text: str, checked: bool = True) -> None:
        """Check (or uncheck) the suggestion whose text is ``text``; ``KeyError`` if none."""
        row = self.suggestions.row_of(text)
        if row < 0:
            raise KeyError(text)
        self.suggestions.set_checked(row, checked)

    def shown_previews(self) -> list[VariantPreview]:
        """The suggestions the preview tables show: the checked ones, else the current one."""
        checked = self.checked()
        if checked:
            return checked
        current = self.suggestion_view.currentIndex() if self._stack.currentIndex() == _CONTENT else None
        preview = self.suggestions.preview_at(current.row()) if current is not None else None
        return [preview] if preview is not None else []

    def _on_current_changed(self, _current: QModelIndex, _previous: QModelIndex) -> None:
        if not self.checked():
            self._update_preview()

    def _on_double_clicked(self, index: QModelIndex) -> None:
        if index.column() != 0:  # the check box column toggles on its own
            self._toggle(index.row())

    def _toggle(self, row: int) -> None:
        state = self.suggestions.index(row, 0).data(Qt.ItemDataRole.CheckStateRole)
        self.suggestions.set_checked(row, state != Qt.CheckState.Checked)

    def _on_checked_changed(self) -> None:
        count = len(self.checked())
        self.add_button.setText(f"&Add {plural(count, 'variant')}" if count else "&Add variants")
        self.add_button.setEnabled(count > 0)
        self._update_preview()

    def _update_preview(self) -> None:
        shown = self.shown_previews()
        pipelines = self.preview.show_previews(self.question_id, shown, checked=bool(self.checked()))
        if not shown:
            self.summary_label.setText("")
            return
        subject = "Adding these" if len(shown) > 1 else "Adding it"
        qid = html.escape(self.question_id)
        self.summary_label.setText(
            f"{subject} raises the factual knowledge of {', '.join(pipelines)} on {qid}."
            if pipelines
            else f"{subject} changes no score of {qid} now (it may help future responses)."
        )

    # -- adding -------------------------------------------------------------------------------

    def add_checked(self) -> int:
        """Add the checked variants as ``<OR>`` alternatives in one undoable step (re-scoring
        the question) and close; returns how many were added (0: nothing checked or new)."""
        chosen = self.checked()
        if not chosen or self._loading:
            return 0
        try:
            count = push_add_fact_variants(
                self.undo_stack,
                self.session,
                self.question_id,
                [(p.variant.text, p.variant.and_group) for p in chosen],
            )
        except ValueError as error:
            show_error(self, "Cannot add the variants", error)
            return 0
        self.added.emit(count)
        self.accept()
        return count

    # -- keyboard and closing -----------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Space toggles the check box of the suggestion under the cursor, whatever its column."""
        if (
            watched is self.suggestion_view
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Space
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
        ):
            current = self.suggestion_view.currentIndex()
            if current.isValid():
                self._toggle(current.row())
            return True
        return super().eventFilter(watched, event)

    def shutdown(self) -> None:
        """Cancel the computation and wait for its worker (when the app quits)."""
        self._runner.shutdown()

    def _release_runner(self) -> None:
        """Closing must not wait for a preview still running on a large project: the job is
        cancelled (it stops at its next suggestion) and its runner, detached from this dialog,
        lives on in the parent window until the worker ends, then deletes itself."""
        runner, parent = self._runner, self.parentWidget()
        if not runner.busy:
            return
        if parent is None:
            runner.shutdown()
            return
        for signal in (runner.succeeded, runner.failed, runner.progressed):
            signal.disconnect()
        runner.cancel()
        runner.setParent(parent.window())
        runner.busy_changed.connect(lambda busy: None if busy else runner.deleteLater())

    def done(self, result: int) -> None:
        self._release_runner()
        super().done(result)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._release_runner()
        super().closeEvent(event)


def open_variant_dialog(
    parent: QWidget, session: ProjectSession, undo_stack: QUndoStack, question_id: str
) -> VariantDialog:
    """Open the dialog for ``question_id`` (window-modal) and start computing; returns it."""
    dialog = VariantDialog(session, undo_stack, question_id, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    dialog.start()
    return dialog

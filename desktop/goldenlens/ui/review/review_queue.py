"""The review queue: a bar above the score grid that walks the reviewer through the golden set.

* progress — "3 of 10 reviewed" (accepted or needs curation), with the breakdown in the
  tooltip and, under a diagnosis filter, how many of the questions shown are reviewed;
* **Next unreviewed** (key N) and **Next with a diagnosis** (key D) — the next such question
  after the current one in the grid's order (its sort and filters), wrapping around; when
  none is visible but some are hidden by the filters, the status bar says how many;
* a filter by diagnosis code with the number of *questions* per code ("Ambiguous question
  (2)"): choosing one shows only those questions in the grid
  (:meth:`~goldenlens.ui.grid.score_grid.ScoreGrid.set_question_filter`); and, once a round of
  labels is planned, "Labelling plan": the questions it still asks about (Next with a
  diagnosis then walks them).

The filter follows the advice as it is recomputed after an edit, except that the current
question stays in while it is current: fixing it must not pull the row from under the cursor.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QProgressBar, QToolButton, QWidget

from goldenlens.core.advice.values import ADVICE_LABELS, AdviceCode
from goldenlens.core.reviewer_decisions import REVIEW_UNREVIEWED
from goldenlens.queries.advice_data import AdviceIndex
from goldenlens.ui.grid.score_grid import ScoreGrid
from goldenlens.ui.shortcuts import keys_for

#: Filter entries that are not a diagnosis code.
ALL_QUESTIONS = ""
ANY_DIAGNOSIS = "*"
#: The questions of the latest labelling round still to label (the Labels tab's queue).
LABELLING_PLAN = "plan"


class _LetterKeys(QObject):
    """Event filter: plain letters trigger actions while the table has focus (the view would
    otherwise use them for its type-ahead search)."""

    def __init__(self, keys: dict[Qt.Key, QAction], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._keys = keys

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            action = self._keys.get(Qt.Key(event.key()))
            plain = event.modifiers() in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
            if action is not None and plain:
                action.trigger()
                return True
        return super().eventFilter(watched, event)


def _label(code: str) -> str:
    return ADVICE_LABELS[AdviceCode(code)]


class ReviewQueue(QWidget):
    """Progress, next-question actions and the diagnosis filter for ``grid``.

    Signal: ``message(str)`` — status-bar text (nothing left to go to, hidden questions).
    """

    message = Signal(str)

    def __init__(self, grid: ScoreGrid, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._grid = grid
        self._index = AdviceIndex.empty()
        self._plan: frozenset[str] = frozenset()
        self._filter_ids: frozenset[str] | None = None
        self.progress = QProgressBar(self)
        self.progress.setTextVisible(True)
        self.progress.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.progress.setMaximumWidth(170)
        self.progress.setMinimumWidth(130)
        self.next_unreviewed_action = self._action(
            "Next &Unreviewed",
            "Next unreviewed",
            "next_unreviewed",
            "The next question nobody reviewed",
            self.next_unreviewed,
        )
        self.next_diagnosis_action = self._action(
            "Next with a &Diagnosis",
            "Next diagnosed",
            "next_diagnosis",
            "The next question the advisor has a diagnosis for",
            self.next_with_diagnosis,
        )
        self.filter = QComboBox(self)
        self.filter.setToolTip(
            "Filter by the advisor's diagnosis: show only the questions that have it (how many in brackets)"
        )
        self.filter.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.filter.currentIndexChanged.connect(self._on_filter_chosen)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.setSpacing(6)
        layout.addWidget(self.progress)
        for action in (self.next_unreviewed_action, self.next_diagnosis_action):
            button = QToolButton(self)
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            layout.addWidget(button)
        layout.addSpacing(6)
        layout.addWidget(self.filter)
        layout.addStretch(1)
        self._keys = _LetterKeys(
            {Qt.Key.Key_N: self.next_unreviewed_action, Qt.Key.Key_D: self.next_diagnosis_action}, self
        )
        grid.table_view().installEventFilter(self._keys)
        grid.model().modelReset.connect(self.refresh_progress)
        self._fill_filter()
        self.refresh_progress()

    def _action(self, text: str, short: str, name: str, tip: str, slot: object) -> QAction:
        action = QAction(text, self)
        keys = keys_for(name)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setToolTip(f"{tip} ({' or '.join(keys)})")
        action.setIconText(f"{short} ({keys[0]})")  # what the bar's button shows: it must stay narrow
        action.triggered.connect(slot)
        return action

    def actions_for_menu(self) -> list[QAction]:
        """The queue's actions, for the Review menu and the window (so their keys work)."""
        return [self.next_unreviewed_action, self.next_diagnosis_action]

    # -- advice ------------------------------------------------------------------------------

    def set_advice(self, index: AdviceIndex) -> None:
        """New advice: recount the filter entries and re-apply the chosen filter."""
        self._index = index
        self._fill_filter()
        self._apply_filter(keep_current=True)

    def set_keys_enabled(self, enabled: bool) -> None:
        """Enable N and D only while the Review tab shows (N labels an answer incorrect on the
        Labels tab)."""
        self.next_unreviewed_action.setEnabled(enabled)
        self.next_diagnosis_action.setEnabled(enabled)

    def set_plan(self, questions: tuple[str, ...]) -> None:
        """The labelling plan's questions still to label: a filter entry of their own."""
        self._plan = frozenset(questions)
        self._fill_filter()
        self._apply_filter(keep_current=True)

    def chosen_code(self) -> str | None:
        """The diagnosis code filtered on, :data:`ANY_DIAGNOSIS`, or ``None`` (all questions)."""
        data = self.filter.currentData()
        return None if data in (None, ALL_QUESTIONS) else str(data)

    def choose(self, code: str | None) -> bool:
        """Filter on ``code`` (:data:`ANY_DIAGNOSIS`, a diagnosis code, ``None`` for all)."""
        position = self.filter.findData(ALL_QUESTIONS if code is None else code)
        if position >= 0:
            self.filter.setCurrentIndex(position)
        return position >= 0

    def filter_entries(self) -> list[str]:
        """The filter's entries as shown (separators left out)."""
        combo = self.filter
        return [combo.itemText(i) for i in range(combo.count()) if combo.itemData(i) is not None]

    def _fill_filter(self) -> None:
        chosen = self.chosen_code()
        counts = self._index.question_counts()
        if chosen not in (None, ANY_DIAGNOSIS) and chosen not in counts:
            counts[chosen] = 0  # the filter emptied by a fix stays chosen, showing (0)
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.addItem("All questions", ALL_QUESTIONS)
        self.filter.addItem(f"Any diagnosis ({len(self._index.questions_with(None))})", ANY_DIAGNOSIS)
        if self._plan or chosen == LABELLING_PLAN:
            self.filter.addItem(f"Labelling plan ({len(self._plan)} to label)", LABELLING_PLAN)
            tip = "Questions of the latest labelling round with answers still to label (the Labels tab)"
            self.filter.setItemData(self.filter.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        if counts:
            self.filter.insertSeparator(self.filter.count())
        for code in [c.value for c in AdviceCode if c.value in counts]:
            self.filter.addItem(f"{_label(code)} ({counts[code]})", code)
            tip = f"{counts[code]} questions; {self._index.diagnosis_counts().get(code, 0)} diagnoses in all"
            self.filter.setItemData(self.filter.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        position = self.filter.findData(ALL_QUESTIONS if chosen is None else chosen)
        self.filter.setCurrentIndex(max(position, 0))
        self.filter.blockSignals(False)

    def _on_filter_chosen(self, _position: int) -> None:
        self._apply_filter(keep_current=False)

    def _apply_filter(self, *, keep_current: bool) -> None:
        code = self.chosen_code()
        if code is None:
            ids = None
        elif code == LABELLING_PLAN:
            ids = self._plan
        else:
            ids = self._index.questions_with(None if code == ANY_DIAGNOSIS else code)
            current = self._grid.current_question()
            if keep_current and current is not None and self._filter_ids and current in self._filter_ids:
                ids = ids | {current}
        self._filter_ids = ids
        self._grid.set_question_filter(ids)
        self.refresh_progress()

    # -- progress ----------------------------------------------------------------------------

    def refresh_progress(self) -> None:
        """Recount the reviewed questions (after any change of the grid's data or rows)."""
        grid = self._grid.grid()
        if grid is None or not len(grid):
            self.progress.setRange(0, 1)
            self.progress.setValue(0)
            self.progress.setFormat("No questions")
            self.progress.setToolTip("")
            return
        statuses = np.asarray(grid.review, dtype=object)
        reviewed = int(np.count_nonzero(statuses != REVIEW_UNREVIEWED))
        total = len(grid)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(reviewed)
        text = f"{reviewed:,} of {total:,} reviewed"
        if not grid.complete:
            text = f"{reviewed:,} of the first {total:,} reviewed"
        self.progress.setFormat(text)
        accepted = int(np.count_nonzero(statuses == "accepted"))
        tip = f"{accepted:,} accepted, {reviewed - accepted:,} need curation, {total - reviewed:,} unreviewed"
        if self._filter_ids is not None:
            rows = self._grid.visible_rows()
            shown = int(np.count_nonzero(statuses[rows] != REVIEW_UNREVIEWED))
            tip += f"\nShown by the filters: {shown:,} of {len(rows):,} reviewed"
        self.progress.setToolTip(tip)

    def progress_text(self) -> str:
        return self.progress.format()

    # -- navigation --------------------------------------------------------------------------

    def next_unreviewed(self) -> str | None:
        """Go to the next unreviewed question; its id, or ``None`` when there is none."""
        grid = self._grid.grid()
        if grid is None:
            return None
        statuses = np.asarray(grid.review, dtype=object)
        return self._go(statuses == REVIEW_UNREVIEWED, "unreviewed question")

    def next_with_diagnosis(self) -> str | None:
        """Go to the next question with a diagnosis (of the filter's code when one is chosen)."""
        grid = self._grid.grid()
        if grid is None:
            return None
        code = self.chosen_code()
        if code == LABELLING_PLAN:
            wanted = self._plan
        else:
            wanted = self._index.questions_with(None if code in (None, ANY_DIAGNOSIS) else code)
        ids = grid.question_ids
        marks = np.fromiter((q in wanted for q in ids), dtype=bool, count=len(ids))
        return self._go(marks, "question with a diagnosis")

    def _go(self, marks: np.ndarray, what: str) -> str | None:
        """Select the first marked row after the current one in display order, wrapping."""
        grid = self._grid.grid()
        assert grid is not None
        rows = self._grid.visible_rows()
        visible = [int(r) for r in rows if marks[int(r)]]
        if not visible:
            hidden = int(np.count_nonzero(marks))
            if hidden:
                self.message.emit(f"No {what} among the rows shown; {hidden:,} hidden by the filters.")
            else:
                self.message.emit(f"No {what} left.")
            return None
        current = self._grid.current_question()
        position = {int(r): n for n, r in enumerate(rows)}
        here = grid.index_of(current) if current is not None else None
        start = position.get(here, -1) if here is not None else -1
        after = [r for r in visible if position[r] > start]
        target = str(grid.question_ids[(after or visible)[0]])
        if target == current:
            self.message.emit(f"{target} is the only {what} shown.")
        self._grid.select_question(target)
        return target

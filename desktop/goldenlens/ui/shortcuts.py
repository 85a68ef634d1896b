"""Keyboard shortcuts: one table drives both the actions and the help dialog."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

#: Where a shortcut works: everywhere, or only while its tab shows (a key may serve once per tab).
EVERYWHERE = ""
REVIEW_TAB = "Review"
LABELS_TAB = "Labels"
DRAFTS_TAB = "Drafts"


@dataclass(frozen=True)
class Shortcut:
    name: str
    keys: tuple[str, ...]
    description: str
    tab: str = EVERYWHERE


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("next_question", ("J", "Down"), "Next question", tab=REVIEW_TAB),
    Shortcut("previous_question", ("K", "Up"), "Previous question", tab=REVIEW_TAB),
    Shortcut("next_pipeline", ("L", "Right"), "Next pipeline in the detail pane", tab=REVIEW_TAB),
    Shortcut("previous_pipeline", ("H", "Left"), "Previous pipeline in the detail pane", tab=REVIEW_TAB),
    Shortcut("next_unreviewed", ("N",), "Next unreviewed question (review queue)", tab=REVIEW_TAB),
    Shortcut(
        "next_diagnosis",
        ("D",),
        "Next question with a diagnosis from the advisor (review queue)",
        tab=REVIEW_TAB,
    ),
    Shortcut("accept", ("A",), "Mark the question accepted", tab=REVIEW_TAB),
    Shortcut("needs_curation", ("C",), "Mark the question as needing curation", tab=REVIEW_TAB),
    Shortcut("override", ("O",), "Override the focused pipeline's factual knowledge score", tab=REVIEW_TAB),
    Shortcut(
        "suggest_variants", ("V",), "Suggest other spellings of the fact (fact variants)", tab=REVIEW_TAB
    ),
    Shortcut("next_draft", ("Alt+Down",), "Next draft (Drafts tab)", tab=DRAFTS_TAB),
    Shortcut("previous_draft", ("Alt+Up",), "Previous draft (Drafts tab)", tab=DRAFTS_TAB),
    Shortcut(
        "accept_draft", ("Ctrl+Return",), "Accept the draft into the golden set (Drafts tab)", tab=DRAFTS_TAB
    ),
    Shortcut("reject_draft", ("Ctrl+R",), "Reject the draft with its note (Drafts tab)", tab=DRAFTS_TAB),
    Shortcut("labels_tab", ("Ctrl+L",), "Label responses (the Labels tab)"),
    Shortcut("label_select", ("1-9",), "Labels tab: select an answer", tab=LABELS_TAB),
    Shortcut(
        "label_correct",
        ("C", "Y"),
        "Labels tab: the selected answer is correct (then the next one)",
        tab=LABELS_TAB,
    ),
    Shortcut(
        "label_incorrect",
        ("X", "N"),
        "Labels tab: the selected answer is incorrect (then the next one)",
        tab=LABELS_TAB,
    ),
    Shortcut("label_unsure", ("U",), "Labels tab: unsure of the selected answer", tab=LABELS_TAB),
    Shortcut(
        "label_withdraw", ("Backspace",), "Labels tab: withdraw the selected answer's verdict", tab=LABELS_TAB
    ),
    Shortcut("label_next", ("Return",), "Labels tab: the plan's next question", tab=LABELS_TAB),
    Shortcut("filter", ("Ctrl+F",), "Focus the filter box"),
    Shortcut("undo", ("Ctrl+Z",), "Undo the last edit"),
    Shortcut("redo", ("Ctrl+Shift+Z", "Ctrl+Y"), "Redo"),
    Shortcut("import", ("Ctrl+I",), "Import a golden set and responses"),
    Shortcut("open", ("Ctrl+O",), "Open a project"),
    Shortcut("new", ("Ctrl+N",), "New project"),
    Shortcut("export_report", ("Ctrl+E",), "Export the report workbook"),
    Shortcut("run_judge", ("Ctrl+J",), "Run the judge metrics"),
    Shortcut("help", ("F1", "?"), "This list"),
)


def keys_for(name: str) -> tuple[str, ...]:
    return next(s.keys for s in SHORTCUTS if s.name == name)


class ShortcutsDialog(QDialog):
    """Lists every shortcut from :data:`SHORTCUTS`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        table = QTableWidget(len(SHORTCUTS), 2, self)
        table.setHorizontalHeaderLabels(["Keys", "Action"])
        table.verticalHeader().setVisible(False)
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, shortcut in enumerate(SHORTCUTS):
            keys = QTableWidgetItem("  or  ".join(shortcut.keys))
            keys.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            table.setItem(row, 0, keys)
            table.setItem(row, 1, QTableWidgetItem(shortcut.description))
        table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)
        self.resize(520, 480)

"""Problems found in input files, as the import wizard lists them: counts by severity, a list
with each problem's place (file, sheet, row, column), and the first fatal one spelled out with
what to do about it."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QApplication,
    QHeaderView,
    QLabel,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.view.wording import plural

_SEVERITY_ORDER = (Severity.FATAL, Severity.ERROR, Severity.WARNING, Severity.INFO)
_NOUNS = {**{severity: severity.value for severity in Severity}, Severity.INFO: "note"}
#: Red text for what stops the analyst (readable on light and dark palettes).
ERROR_STYLE = "color: #b3261e;"


def severity_icon(severity: Severity) -> QIcon:
    """The standard message-box icon for a severity."""
    pixmap = {
        Severity.FATAL: QStyle.StandardPixmap.SP_MessageBoxCritical,
        Severity.ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical,
        Severity.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
        Severity.INFO: QStyle.StandardPixmap.SP_MessageBoxInformation,
    }[Severity(severity)]
    style = QApplication.style()
    return style.standardIcon(pixmap) if style is not None else QIcon()


def severity_counts(problems: Iterable[Problem]) -> str:
    """``'1 error, 2 warnings'`` (most severe first), or ``'no problems'``."""
    counts = Counter(Severity(problem.severity) for problem in problems)
    parts = []
    for severity in _SEVERITY_ORDER:
        count = counts.get(severity, 0)
        if count:
            parts.append(f"{count} fatal" if severity is Severity.FATAL else plural(count, _NOUNS[severity]))
    return ", ".join(parts) if parts else "no problems"


class ProblemsPanel(QWidget):
    """Problems as a list (severity with icon, file, sheet, row, column, message) under their
    counts, the first fatal one spelled out above in red with what to do about it. With
    ``collapse`` the empty list is hidden."""

    COLUMNS = ("Severity", "File", "Sheet", "Row", "Column", "Message")

    def __init__(self, parent: QWidget | None = None, *, collapse: bool = False) -> None:
        super().__init__(parent)
        self._collapse = collapse
        self.fatal_label = QLabel()
        self.fatal_label.setWordWrap(True)
        self.fatal_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fatal_label.setStyleSheet(ERROR_STYLE)
        self.fatal_label.hide()
        self.counts_label = QLabel("Problems")
        self.view = QTreeWidget()
        self.view.setHeaderLabels(list(self.COLUMNS))
        self.view.setRootIsDecorated(False)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(True)
        for column in range(len(self.COLUMNS) - 1):
            self.view.header().setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        column_layout = QVBoxLayout(self)
        column_layout.setContentsMargins(0, 4, 0, 0)
        for widget in (self.fatal_label, self.counts_label, self.view):
            column_layout.addWidget(widget, 1 if widget is self.view else 0)
        column_layout.addStretch(0)  # keeps the labels at the top while the list is hidden
        self._problems: tuple[Problem, ...] = ()

    def set_problems(self, problems: Iterable[Problem], advice: str | None = None) -> None:
        """List ``problems``, most severe first; the first fatal one is spelled out above the
        list with ``advice`` (by default, advice from where the problem is)."""
        rank = {severity: i for i, severity in enumerate(_SEVERITY_ORDER)}
        self._problems = tuple(sorted(problems, key=lambda p: rank[Severity(p.severity)]))
        self.view.clear()
        for problem in self._problems:
            severity = Severity(problem.severity)
            row = "" if problem.row is None else str(problem.row)
            where = [problem.file, problem.sheet or "", row, problem.column or ""]
            item = QTreeWidgetItem([severity.value, *where, problem.message])
            item.setIcon(0, severity_icon(severity))
            item.setToolTip(5, problem.format())
            self.view.addTopLevelItem(item)
        self.view.setVisible(bool(self._problems) or not self._collapse)
        counts = severity_counts(self._problems)
        self.counts_label.setText(f"Problems: {counts}" if self._problems else "No problems found.")
        fatal = first_fatal(self._problems)
        if fatal is not None:
            todo = advice if advice is not None else advice_for(fatal)
            self.fatal_label.setText(
                f"<b>Cannot continue</b> — {html.escape(f'{fatal.location()}: {fatal.message}', quote=False)}"
                f"<br><b>What to do:</b> {html.escape(todo, quote=False)}"
            )
        self.fatal_label.setVisible(fatal is not None)

    def problems(self) -> list[Problem]:
        """The problems shown, most severe first."""
        return list(self._problems)


def first_fatal(problems: Iterable[Problem]) -> Problem | None:
    """The first FATAL problem, if any."""
    return next((p for p in problems if p.severity == Severity.FATAL), None)


def problems_of(error: object, file: str) -> tuple[Problem, ...]:
    """A job's failure as problems: an :class:`InputError`'s own, else one fatal about ``file``."""
    if isinstance(error, InputError):
        return (error.problem, *error.others)
    return (Problem(file, f"{file} could not be read: {error}", Severity.FATAL),)


def advice_for(problem: Problem) -> str:
    """What the analyst can do about a fatal input problem, judged by where it is."""
    if problem.row is not None:
        return f"correct row {problem.row} of {problem.file}, save it and press Check again."
    if "column" in problem.message:
        return "go Back and choose the sheet or column (or rename the column in the file), then check again."
    return f"fix {problem.file}, or go Back to the first page and choose another file; then check again."

"""Building blocks of the import wizard: showing a :class:`~goldenlens.io.importing.input_files.Preview`,
listing problems, and a runner that keeps only the most recent request.

Nothing here knows about pages: :class:`PreviewTableModel` shows a few rows of a sheet (the
``describe_*`` and ``preview_marks`` helpers say what the preview found, :func:`merge_mappings`
joins the column choices of two previews), :class:`ProblemsPanel` lists located
:class:`~goldenlens.core.problems.Problem` values, and :class:`LatestJobRunner`
runs jobs one at a time on a worker thread, a newer request replacing any that waits (so the
thread count never grows while the analyst clicks around).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import product
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QFont, QIcon
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
from goldenlens.io.importing.columns import ResponseColumns, detect_golden_columns, detect_response_layout
from goldenlens.io.importing.input_files import Preview
from goldenlens.ui.workers import Job, JobRunner

_CELL_LIMIT = 200
_TIP_LIMIT = 2000
_SEVERITY_ORDER = (Severity.FATAL, Severity.ERROR, Severity.WARNING, Severity.INFO)
_NOUNS = {**{severity: severity.value for severity in Severity}, Severity.INFO: "note"}
ERROR_STYLE = "color: #b3261e;"
FIELD_LABELS = {
    "id": "Question id",
    "question_id": "Question id",
    "question": "Question",
    "answer": "Ideal answer",
    "fact": "Minimal fact",
    "notes": "Notes",
    "pipeline": "Pipeline",
    "response": "Response",
    "contexts": "Contexts",
}
_DELIMITERS = {",": "comma", "\t": "tab", ";": "semicolon", "|": "pipe"}
Index = QModelIndex | QPersistentModelIndex


def _one_line(text: str, limit: int) -> str:
    flat = " ⏎ ".join(text.splitlines()) if "\n" in text or "\r" in text else text
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class PreviewTableModel(QAbstractTableModel):
    """The first rows of a sheet: header = file columns, vertical header = Excel row numbers.

    ``marks`` maps a column name to the role it plays (``question``, ``pipeline``…); marked
    headers show the role under the name, in bold.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._header: tuple[str, ...] = ()
        self._rows: tuple[tuple[str, ...], ...] = ()
        self._numbers: tuple[int, ...] = ()
        self._marks: dict[str, str] = {}

    def set_table(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        row_numbers: Sequence[int],
        marks: Mapping[str, str] | None = None,
    ) -> None:
        """Show ``rows`` (each as wide as ``header``) numbered by ``row_numbers``."""
        self.beginResetModel()
        self._header = tuple(header)
        self._rows = tuple(tuple(row) for row in rows)
        self._numbers = tuple(row_numbers)
        self._marks = dict(marks or {})
        self.endResetModel()

    def clear(self) -> None:
        """Show nothing."""
        self.set_table((), (), ())

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        """Rows shown (0 for a child index: the model is flat)."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        """Columns of the file."""
        return 0 if parent.isValid() else len(self._header)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text on one line (tooltip: the whole text); ``None`` for anything else."""
        if not index.isValid() or index.row() >= len(self._rows) or index.column() >= len(self._header):
            return None
        text = self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return _one_line(text, _CELL_LIMIT)
        if role == Qt.ItemDataRole.ToolTipRole:
            return text[:_TIP_LIMIT] if text else None
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Column name (with its role when mapped) or the Excel row number."""
        vertical = orientation == Qt.Orientation.Vertical
        names = self._numbers if vertical else self._header
        if not 0 <= section < len(names):
            return None
        if vertical:
            return str(self._numbers[section]) if role == Qt.ItemDataRole.DisplayRole else None
        name = self._header[section]
        mark = self._marks.get(name)
        value: Any = None
        if role == Qt.ItemDataRole.DisplayRole:
            value = f"{name}\n→ {mark}" if mark else f"{name}\n"
        elif role == Qt.ItemDataRole.FontRole and mark:
            value = QFont()
            value.setBold(True)
        elif role == Qt.ItemDataRole.ToolTipRole:
            value = f"Column '{name}' is read as the {mark}." if mark else f"Column '{name}' is not used."
        return value


def preview_marks(result: Preview) -> dict[str, str]:
    """``{column: role}`` for the header: the fields' columns, pipelines and ignored columns."""
    marks: dict[str, str] = {}
    for field, column in result.columns.as_dict().items():
        if column:
            marks.setdefault(column, FIELD_LABELS[field].lower())
    if isinstance(result.columns, ResponseColumns):
        marks.update(dict.fromkeys(result.columns.pipelines, "pipeline"))
        marks.update({name: "not used" for name in result.columns.ignored if name not in marks})
    return marks


def describe_preview(result: Preview) -> str:
    """``<b>golden.csv</b> — CSV, utf-8, comma-separated · 10 data rows`` (rich text)."""
    if result.sheet is None:
        delimiter = _DELIMITERS.get(result.delimiter or "", "delimited")
        how = f"CSV, {result.encoding or 'text'}, {delimiter}-separated"
    else:
        how = f"sheet '{result.sheet}' ({len(result.sheets)} in the workbook)"
    shown, total = len(result.rows), result.total_rows
    rows = f"{total} data rows" + (f" (showing the first {shown})" if shown < total else "")
    return f"<b>{result.file}</b> — {how} · {rows}"


def describe_layout(columns: ResponseColumns) -> str:
    """The responses layout in one sentence (rich text)."""
    if columns.layout == "wide":
        text = f"<b>Layout: wide</b> — one column per pipeline: {', '.join(columns.pipelines)}."
        return text + (f" Not pipelines: {', '.join(columns.ignored)}." if columns.ignored else "")
    if columns.layout == "long":
        return "<b>Layout: long</b> — one row per question and pipeline."
    return "<b>Layout: not recognised</b> — choose the pipeline and response columns."


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


def plural(count: int, noun: str) -> str:
    """``'1 question'``, ``'3 questions'``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


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
                f"<b>Cannot continue</b> — {fatal.location()}: {fatal.message}<br><b>What to do:</b> {todo}"
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


def merge_mappings(golden: Preview, responses: Preview) -> dict[str, str] | None:
    """One FIELD→COLUMN mapping that gives both files the columns their previews show.

    ``load_inputs`` applies one mapping to both files, and the question id (``id`` in a
    golden set, ``question_id`` in responses: one field) and ``question`` belong to both. When
    the two files use different columns for them, variants (either file's column, both in
    either order, none) are tried, and the first that detection turns back into both previews'
    columns wins. ``None`` when none does: each file then has a column the other file uses for
    the same field, and one must be renamed.
    """
    golden_cols, response_cols = golden.columns.as_dict(), responses.columns.as_dict()
    base = {f: c for f, c in golden_cols.items() if c and f in ("answer", "fact", "notes")}
    base |= {f: c for f, c in response_cols.items() if c and f in ("pipeline", "response", "contexts")}
    gid, rid = ("id", golden_cols.get("id")), ("question_id", response_cols.get("question_id"))
    id_variants = ((gid, rid), (rid, gid), (gid,), (rid,), ())
    questions = (("question", golden_cols.get("question")), ("question", response_cols.get("question")))
    for ids, question in product(id_variants, ((questions[0],), (questions[1],), ())):
        mapping = base | {field: column for field, column in (*ids, *question) if column}
        if _reproduces(mapping, golden, responses):
            return mapping
    return None


def _reproduces(mapping: Mapping[str, str], golden: Preview, responses: Preview) -> bool:
    if detect_golden_columns(golden.header, mapping).as_dict() != golden.columns.as_dict():
        return False
    found, wanted = detect_response_layout(responses.header, mapping), responses.columns
    if not isinstance(wanted, ResponseColumns):
        return False
    return (found.layout, found.as_dict(), found.pipelines) == (
        wanted.layout,
        wanted.as_dict(),
        wanted.pipelines,
    )


class LatestJobRunner(QObject):
    """Runs at most one job at a time; a request made while one runs waits, replacing any
    earlier waiting request, and the running job is cancelled. So the most recent request
    wins and only one worker thread ever exists.

    Signals (GUI thread): ``succeeded(result)``, ``failed(error)``, ``cancelled()``,
    ``progressed(Progress)`` — only for the most recent request — and ``busy_changed(bool)``.
    """

    succeeded = Signal(object)
    failed = Signal(object)
    cancelled = Signal()
    progressed = Signal(object)
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, *, name: str = "job") -> None:
        super().__init__(parent)
        self._name = name
        self._runner = JobRunner(self)
        self._active = False
        self._closed = False
        self._pending: Job | None = None
        self._runner.succeeded.connect(self._on_succeeded)
        self._runner.failed.connect(self._on_failed)
        self._runner.cancelled.connect(self._on_cancelled)
        self._runner.progressed.connect(self._on_progressed)
        self._runner.done.connect(self._on_done)

    @property
    def busy(self) -> bool:
        """A job runs or waits."""
        return self._active or self._pending is not None

    def request(self, job: Job) -> None:
        """Run ``job`` now, or after the running one stops (which is asked to cancel)."""
        if self._closed:
            return
        if self._active:
            self._pending = job
            self._runner.cancel()
            return
        self._start(job)

    def cancel(self) -> None:
        """Drop any waiting request and ask the running job to stop."""
        self._pending = None
        self._runner.cancel()

    def shutdown(self, timeout: float = 30.0) -> bool:
        """Cancel, wait for the worker thread and ignore anything it still reports."""
        self._closed = True
        self._pending = None
        return self._runner.shutdown(timeout)

    def _start(self, job: Job) -> None:
        self._active = True
        self._runner.start(job, name=self._name)
        self.busy_changed.emit(True)

    def _current(self) -> bool:
        return not self._closed and self._pending is None

    def _on_succeeded(self, result: object) -> None:
        if self._current():
            self.succeeded.emit(result)

    def _on_failed(self, error: object) -> None:
        if self._current():
            self.failed.emit(error)

    def _on_cancelled(self) -> None:
        if self._current():
            self.cancelled.emit()

    def _on_progressed(self, progress: object) -> None:
        if self._current():
            self.progressed.emit(progress)

    def _on_done(self) -> None:
        self._active = False
        if self._closed:
            return
        if self._pending is not None:
            job, self._pending = self._pending, None
            self._start(job)
        else:
            self.busy_changed.emit(False)

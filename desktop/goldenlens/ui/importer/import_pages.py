"""The import wizard's first three pages: the two files, then each file's sheet and columns.

:class:`TablePage` previews one input (golden set or responses) in a worker thread: every
change of sheet or column choice asks :func:`goldenlens.io.importing.input_files.preview` again, and only
the most recent answer is shown. Its fatal problems keep the wizard from going on.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from goldenlens.core.problems import Problem, Severity
from goldenlens.io.importing.columns import ResponseColumns
from goldenlens.io.importing.input_files import Kind, Preview, preview
from goldenlens.io.sheets.spreadsheet_reader import SUPPORTED, TEXT_SUFFIXES, WORKBOOK_SUFFIXES
from goldenlens.jobs.progress import CancelToken, ProgressFn
from goldenlens.ui.dialog_folders import IMPORT_FOLDER, remember_folder, start_folder
from goldenlens.ui.importer.preview_model import (
    FIELD_LABELS,
    PreviewTableModel,
    describe_layout,
    describe_preview,
    preview_marks,
)
from goldenlens.ui.importer.problems_panel import ERROR_STYLE, ProblemsPanel, problems_of
from goldenlens.ui.workers import LatestJobRunner

NONE = "(none)"
FILE_FILTER = "Spreadsheets and CSV files (*.xlsx *.xlsm *.xls *.ods *.csv *.tsv);;All files (*)"
GOLDEN_FIELDS = ("id", "question", "answer", "fact", "notes")
RESPONSE_FIELDS = ("question_id", "question", "pipeline", "response", "contexts")
_TITLES = {
    "golden": ("Golden set: sheet and columns", "Check which column holds what."),
    "responses": (
        "Responses: sheet and layout",
        "Long layout: one row per question and pipeline. Wide "
        "layout: one row per question and one column per pipeline.",
    ),
}
NONE_TIP = "'(none)' means no column; a column whose name is recognised for this field is used even so."


def file_error(text: str) -> str | None:
    """Why ``text`` is not a readable input path (``None`` when it is, or when it is empty)."""
    if not text.strip():
        return None
    path = Path(text.strip())
    if not path.exists():
        return "There is no file at this path."
    if path.is_dir():
        return "This is a folder: choose a file inside it."
    if path.suffix.lower() not in WORKBOOK_SUFFIXES | TEXT_SUFFIXES.keys():
        return f"GoldenLens reads {SUPPORTED} files."
    return None


class FileField(QWidget):
    """A path line edit with a Browse… button, file drops and an inline red error.

    The line edit refuses drops, so Qt hands a dropped file to this widget.
    """

    changed = Signal()

    def __init__(self, caption: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._caption = caption
        self.setAcceptDrops(True)
        self.edit = QLineEdit()
        self.edit.setAcceptDrops(False)
        self.edit.setPlaceholderText("Type a path, browse, or drop a file here")
        self.edit.setClearButtonEnabled(True)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._on_browse)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.hide()
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.edit, 0, 0)
        grid.addWidget(browse, 0, 1)
        grid.addWidget(self.error_label, 1, 0, 1, 2)
        self.edit.textChanged.connect(self._on_text_changed)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept a local file."""
        if event.mimeData().hasUrls() and event.mimeData().urls()[0].isLocalFile():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Take the first dropped file."""
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            self.edit.setText(urls[0].toLocalFile())
            event.acceptProposedAction()

    def path(self) -> Path | None:
        """The chosen file when it is valid, else ``None``."""
        text = self.edit.text().strip()
        return Path(text) if text and file_error(text) is None else None

    def set_path(self, path: Path | None) -> None:
        """Show ``path`` (``None`` empties the field)."""
        self.edit.setText("" if path is None else str(path))

    def _on_text_changed(self, text: str) -> None:
        error = file_error(text)
        self.error_label.setText(error or "")
        self.error_label.setVisible(error is not None)
        self.changed.emit()

    def _on_browse(self) -> None:
        typed = self.edit.text().strip()
        start = Path(typed).parent if typed else start_folder(IMPORT_FOLDER)
        chosen, _ = QFileDialog.getOpenFileName(self, self._caption, str(start), FILE_FILTER)
        if chosen:
            remember_folder(IMPORT_FOLDER, Path(chosen))
            self.edit.setText(chosen)


class FilesPage(QWizardPage):
    """Page 1: the golden-set file and the responses file (both required; may be the same)."""

    def __init__(self, project_path: Path, *, replaces: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle("Choose the files to import")
        self.setSubTitle(
            "The golden set holds the questions with their ideal answers and minimal facts; the "
            "responses hold what each pipeline answered. One workbook may hold both on two sheets."
        )
        self.golden_field = FileField("Golden-set file")
        self.responses_field = FileField("Responses file")
        grid = QGridLayout(self)
        grid.setVerticalSpacing(4)
        for row, (text, field) in enumerate(
            (("&Golden set:", self.golden_field), ("&Responses:", self.responses_field))
        ):
            label = QLabel(text)
            label.setBuddy(field.edit)
            grid.addWidget(label, 2 * row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(field, 2 * row, 1)
            grid.setRowMinimumHeight(2 * row + 1, 14)
            field.changed.connect(self.completeChanged)
        same = QPushButton("Use the golden-set file")
        same.setToolTip("The responses are on another sheet of the golden-set workbook.")
        same.clicked.connect(self._on_same_file)
        grid.addWidget(same, 4, 1, Qt.AlignmentFlag.AlignLeft)
        # Whether anything is replaced depends on what the project holds, not on its file: a
        # new project's file exists (it was created empty) before its first import.
        existing = "an existing project: its golden set and responses are replaced"
        state = existing if replaces else "a new project"
        self.into_label = into = QLabel(
            f"Importing into <b>{html.escape(project_path.name, quote=False)}</b> ({state}).<br>"
            f"GoldenLens reads {SUPPORTED} files; drop one on a field to use it."
        )
        into.setWordWrap(True)
        grid.addWidget(into, 5, 0, 1, 2)
        grid.setRowStretch(6, 1)
        grid.setColumnStretch(1, 1)

    def _on_same_file(self) -> None:
        self.responses_field.edit.setText(self.golden_field.edit.text())

    def set_files(self, golden: Path | None, responses: Path | None) -> None:
        """Fill both fields."""
        self.golden_field.set_path(golden)
        self.responses_field.set_path(responses)

    def isComplete(self) -> bool:
        """Both files exist and have a supported type."""
        return self.golden_field.path() is not None and self.responses_field.path() is not None


class TablePage(QWizardPage):
    """Pages 2 and 3: the sheet and columns of one input, with a preview and its problems.

    ``field_combos`` holds one combo per field; ``preview_model`` the rows shown;
    ``problems_panel`` the problems; ``busy`` says a preview is being read.
    """

    def __init__(self, kind: Kind, files: FilesPage, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self._files = files
        self._fields = GOLDEN_FIELDS if kind == "golden" else RESPONSE_FIELDS
        self._path: Path | None = None
        self._sheet: str | None = None
        self._header_row: int | None = None
        self._overrides: dict[str, str] = {}
        self._updating = False
        self.current: Preview | None = None
        self._error: tuple[Problem, ...] | None = None
        self.loader = LatestJobRunner(self, name=f"preview-{kind}")
        self.loader.succeeded.connect(self._on_preview)
        self.loader.failed.connect(self._on_failed)
        self.loader.busy_changed.connect(self._on_busy)
        self.setTitle(_TITLES[kind][0])
        self.setSubTitle(f"{_TITLES[kind][1]} Change a choice and the preview follows.")
        self._build()

    def _build(self) -> None:
        self.file_label = QLabel()
        self.file_label.setTextFormat(Qt.TextFormat.RichText)
        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setFormat("Reading…")
        self.busy_bar.setMaximumWidth(140)
        self.busy_bar.hide()
        top = QHBoxLayout()
        top.addWidget(self.file_label, 1)
        top.addWidget(self.busy_bar)
        self.layout_label = QLabel()
        self.layout_label.setWordWrap(True)
        self.layout_label.setVisible(self.kind == "responses")
        column = QVBoxLayout(self)
        column.addLayout(top)
        column.addLayout(self._build_form())
        column.addWidget(self.layout_label)
        column.addWidget(self._build_views(), 1)

    def _build_form(self) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        self.sheet_label = QLabel("&Sheet:")
        self.sheet_combo = QComboBox()
        self.sheet_label.setBuddy(self.sheet_combo)
        self.sheet_combo.currentIndexChanged.connect(self._on_sheet_chosen)
        grid.addWidget(self.sheet_label, 0, 0)
        grid.addWidget(self.sheet_combo, 0, 1)
        self.header_label = QLabel("&Header row:")
        self.header_spin = QSpinBox()
        self.header_spin.setRange(0, 1_048_576)
        self.header_spin.setSpecialValueText("Auto")
        self.header_spin.setToolTip(
            "The row (as the spreadsheet numbers it) that holds the column names. Auto takes the first of "
            "the first 20 rows that names a known column, so title rows above the table are skipped."
        )
        self.header_label.setBuddy(self.header_spin)
        self.header_spin.valueChanged.connect(self._on_header_row_chosen)
        self.header_hint = QLabel()
        self.header_hint.setEnabled(False)  # greyed: a note, not a control
        self.header_spin.setMinimumWidth(self.header_spin.sizeHint().width() + 12)
        header_box = QHBoxLayout()
        header_box.setSpacing(10)
        header_box.addWidget(self.header_spin)
        header_box.addWidget(self.header_hint, 1)
        grid.addWidget(self.header_label, 0, 2)
        grid.addLayout(header_box, 0, 3, 1, 3)
        self.field_combos: dict[str, QComboBox] = {}
        for i, field in enumerate(self._fields):
            combo = QComboBox()
            combo.setMinimumContentsLength(14)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setToolTip(NONE_TIP)
            combo.currentIndexChanged.connect(self._on_field_chosen)
            label = QLabel(f"{FIELD_LABELS[field]}:")
            label.setBuddy(combo)
            row, col = 1 + i // 3, 2 * (i % 3)
            grid.addWidget(label, row, col)
            grid.addWidget(combo, row, col + 1)
            self.field_combos[field] = combo
        for col in (1, 3, 5):
            grid.setColumnStretch(col, 1)
        return grid

    def _build_views(self) -> QSplitter:
        self.preview_model = PreviewTableModel(self)
        self.preview_view = QTableView()
        self.preview_view.setModel(self.preview_model)
        self.preview_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.preview_view.setWordWrap(False)
        self.preview_view.horizontalHeader().setMaximumSectionSize(280)
        self.preview_view.horizontalHeader().setMinimumSectionSize(60)
        self.preview_view.horizontalHeader().setStretchLastSection(True)
        self.preview_view.verticalHeader().setDefaultSectionSize(22)
        self.problems_panel = ProblemsPanel(collapse=True)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.preview_view)
        splitter.addWidget(self.problems_panel)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        self._splitter = splitter
        return splitter

    # -- what the wizard reads ---------------------------------------------------------

    @property
    def busy(self) -> bool:
        """A preview is being read."""
        return self.loader.busy

    def mapping(self) -> dict[str, str]:
        """``{field: column}`` of every field that has a column in the shown preview."""
        if self.current is None:
            return {}
        return {field: column for field, column in self.current.columns.as_dict().items() if column}

    def problems(self) -> list[Problem]:
        """The problems shown under the preview."""
        return self.problems_panel.problems()

    def validatePage(self) -> bool:
        """``QWizard.next()`` skips the Next button's state: refuse here too."""
        return self.isComplete()

    def isComplete(self) -> bool:
        """A preview is shown and has no fatal problem."""
        if self.busy or self.current is None or self._error is not None:
            return False
        return not any(p.severity == Severity.FATAL for p in self.current.problems)

    # -- loading -----------------------------------------------------------------------

    def initializePage(self) -> None:
        """Read the file again (it may have changed); a new file starts from detection."""
        field = self._files.golden_field if self.kind == "golden" else self._files.responses_field
        path = field.path()
        if path != self._path:
            self._path, self._sheet, self.current, self._error = path, None, None, None
            self._header_row = None
            with QSignalBlocker(self.header_spin):
                self.header_spin.setValue(0)
            self._overrides.clear()
            self.preview_model.clear()
            self.problems_panel.set_problems(())
            self._updating = True
            for combo in (self.sheet_combo, *self.field_combos.values()):
                combo.clear()  # nothing of the previous file stays on show
            self._updating = False
        self.refresh()

    def refresh(self) -> None:
        """Ask for a preview with the current sheet and column choices."""
        path, sheet, kind, mapping = self._path, self._sheet, self.kind, dict(self._overrides)
        header_row = self._header_row
        if path is None:
            return

        def job(_progress: ProgressFn, _cancel: CancelToken) -> Preview:
            return preview(path, sheet=sheet, kind=kind, mapping=mapping, header_row=header_row)

        self.loader.request(job)  # busy_changed then updates the Next button

    def _on_busy(self, busy: bool) -> None:
        self.busy_bar.setVisible(busy)
        self.completeChanged.emit()

    def _on_sheet_chosen(self, index: int) -> None:
        if not self._updating and index >= 0:
            self._sheet = str(self.sheet_combo.itemData(index) or self.sheet_combo.itemText(index))
            self.refresh()

    def _on_header_row_chosen(self, value: int) -> None:
        if not self._updating:
            self._header_row = value or None  # 0 shows "Auto"
            self.refresh()

    def _on_field_chosen(self) -> None:
        # sender(), not a lambda per combo: a lambda holding self would keep the page alive.
        field = next((f for f, combo in self.field_combos.items() if combo is self.sender()), None)
        if self._updating or field is None:
            return
        column = self.field_combos[field].currentData()
        if column is None:
            self._overrides.pop(field, None)
        else:
            self._overrides[field] = str(column)
        self.refresh()

    def _on_preview(self, result: object) -> None:
        if not isinstance(result, Preview):
            return
        self.current, self._error, self._sheet = result, None, result.sheet
        self._updating = True
        try:
            self._fill_combos(result)
        finally:
            self._updating = False
        marks = preview_marks(result)
        self.preview_model.set_table(result.header, result.rows, result.row_numbers, marks)
        self.preview_view.resizeColumnsToContents()
        self._show_problems(result.problems)
        self.file_label.setText(describe_preview(result))
        if isinstance(result.columns, ResponseColumns):
            self.layout_label.setText(describe_layout(result.columns))

    def _on_failed(self, error: object) -> None:
        self.current, self._error = None, problems_of(error, self._path.name if self._path else "?")
        self.preview_model.clear()
        for widget in (self.sheet_label, self.sheet_combo):
            widget.hide()
        self.file_label.setText(f"<b>{html.escape(self._error[0].file, quote=False)}</b>")
        self._show_problems(self._error)

    def _fill_combos(self, result: Preview) -> None:
        is_workbook = bool(result.sheets)
        self.sheet_label.setVisible(is_workbook)
        self.sheet_combo.setVisible(is_workbook)
        with QSignalBlocker(self.sheet_combo):
            self.sheet_combo.clear()
            for name in result.sheets:
                # A hidden sheet is never chosen by itself; the analyst can still pick it.
                label = f"{name} (hidden)" if name in result.hidden_sheets else name
                self.sheet_combo.addItem(label, name)
            self.sheet_combo.setCurrentIndex(max(self.sheet_combo.findData(result.sheet), 0))
        if result.header:
            self.header_hint.setText(f"header on row {result.header_row}" if self._header_row is None else "")
        else:
            self.header_hint.setText("")
        chosen = result.columns.as_dict()
        for field, combo in self.field_combos.items():
            combo.clear()
            combo.addItem(NONE, None)
            for name in result.header:
                combo.addItem(name, name)
            chosen_column = self._overrides.get(field)
            if chosen_column is not None and chosen_column not in result.header:
                # A column chosen on another sheet or header row: shown as missing (the problems
                # say so and Next waits) until the analyst picks another.
                combo.addItem(f"{chosen_column} (not in this sheet)", chosen_column)
                combo.setCurrentIndex(combo.count() - 1)
            else:
                combo.setCurrentIndex(max(combo.findData(chosen.get(field)), 0))

    def _show_problems(self, problems: tuple[Problem, ...]) -> None:
        advice = "choose the right sheet or columns above, or go Back and choose another file."
        if self.current is None:  # the file could not be read at all
            advice = "correct the file and come back to this page, or go Back and choose another file."
        self.problems_panel.set_problems(problems, advice)
        # Without problems the list is hidden: give its room to the preview.
        self._splitter.setSizes([1000, 240 if problems else 0])

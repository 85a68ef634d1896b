"""The Versions dialog: every version of the golden set, naming one, and the diff of any two.

Above, the versions (number, name, when, who, rows, changes, the runs that scored each) in a
``QTableView``; below, the diff between the two versions chosen in "Compare … with …" —
rows added and removed, and per changed row each field before and after with the changed
words highlighted (:mod:`goldenlens.ui.history.version_diff_html`). Choosing a version in the table
compares it with the one before, i.e. shows what that version changed.

Everything comes through :mod:`goldenlens.jobs.curation.golden_versions` with the session's open
project (never the store). The golden history is read once, when the dialog opens (and after
a name is given); diffs then work in memory. The read takes milliseconds for a set of
hundreds of rows and a few seconds for a history of 100,000 entries, on the GUI thread: the
dialog is opened by hand, and what it shows cannot change while it is open (it is modal).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QWidget,
)

from goldenlens.core.errors import StoreError
from goldenlens.core.golden.versions import GoldenVersion, short_time
from goldenlens.jobs.curation.golden_versions import (
    ProjectVersions,
    VersionDiff,
    VersionList,
    name_version,
    read_versions,
)
from goldenlens.ui.errors import show_error
from goldenlens.ui.history.version_diff_html import diff_html
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.widgets.layouts import column_layout, list_table, with_close_button
from goldenlens.ui.widgets.row_table_model import RowTableModel

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Version", "Name", "When", "Who", "Rows", "Changes", "Runs")
_NUMERIC = {4, 5}
_HEADER_TIPS = {
    "When": "When the version's last change was made (UTC)",
    "Who": "The reviewer of an editing session, or the imported file",
    "Rows": "Rows in the golden set at this version",
    "Changes": "Rows this version added, removed or edited (an edit undone in the same session is none)",
    "Runs": "Runs whose numbers describe this version; (from vN): the run scored vN and edits were re-scored "
    "into it since",
}


class VersionTableModel(RowTableModel):
    """The versions of a :class:`VersionList`, newest first (the one a reviewer looks for)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(COLUMNS, parent, tips=_HEADER_TIPS)
        self._listed = VersionList(())

    def set_versions(self, listed: VersionList) -> None:
        self._listed = listed
        self.replace_rows(reversed(listed.versions))

    def version_at(self, row: int) -> GoldenVersion | None:
        version: GoldenVersion | None = self.row_at(row)
        return version

    def row_of(self, number: int) -> int:
        """The table row of version ``number`` (-1 if it is not listed)."""
        return next((row for row, v in enumerate(self._rows) if v.number == number), -1)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        version = self.version_at(index.row()) if index.isValid() else None
        if version is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cell(version, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(version)
        return None

    def _runs(self, version: GoldenVersion) -> str:
        runs = self._listed.runs_of(version.number)
        return ", ".join(
            f"{run.kind} {run.run_id}"
            + (f" (from v{run.version})" if run.version != run.scored_version else "")
            for run in runs
        )

    def _cell(self, version: GoldenVersion, column: int) -> str:
        current = self._listed.current
        values = (
            f"v{version.number}"
            + (" (current)" if current is not None and current.number == version.number else ""),
            version.name,
            short_time(version.ended_at),
            version.who,
            f"{version.rows:,}",
            f"{version.changes:,}",
            self._runs(version),
        )
        return values[column] if 0 <= column < len(values) else ""

    def _tooltip(self, version: GoldenVersion) -> str:
        kind = "Import" if version.kind == "import" else "Editing session"
        span = short_time(version.started_at)
        if version.ended_at[:16] != version.started_at[:16]:
            span += f" to {short_time(version.ended_at)}"
        return f"{kind} {version.label}, {span}\n{version.rows:,} rows; {version.changes:,} rows changed"


class VersionsDialog(QDialog):
    """Golden-set versions of the open project: list, name, diff any two."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Golden-set versions — {session.path.name}")
        self._session = session
        self._versions: ProjectVersions | None = None
        self._listed = VersionList(())
        self.diff: VersionDiff | None = None
        self.model = VersionTableModel(self)
        self.table = list_table(self, self.model)
        self.old_combo = QComboBox(self)
        self.new_combo = QComboBox(self)
        self.name_button = QPushButton("&Name Version…", self)
        self.name_button.setToolTip(
            "Name the selected version (a named version is frozen: later edits make a new one)"
        )
        self.summary = QLabel(self)
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)
        self._build_layout()
        self.table.selectionModel().currentRowChanged.connect(self._on_version_chosen)
        self.old_combo.currentIndexChanged.connect(self._on_compare_changed)
        self.new_combo.currentIndexChanged.connect(self._on_compare_changed)
        self.name_button.clicked.connect(self.ask_name)
        self.resize(1100, 680)
        self.reload()

    def _build_layout(self) -> None:
        top = QWidget(self)
        top_layout = column_layout(top)
        top_layout.addWidget(self.table)
        bar = QHBoxLayout()
        bar.addWidget(self.name_button)
        bar.addStretch(1)
        bar.addWidget(QLabel("Compare", self))
        bar.addWidget(self.old_combo)
        bar.addWidget(QLabel("with", self))
        bar.addWidget(self.new_combo)
        top_layout.addLayout(bar)
        bottom = QWidget(self)
        column_layout(bottom).addWidget(self.browser)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(top)
        splitter.addWidget(bottom)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 3)
        with_close_button(self, splitter)

    # -- data ------------------------------------------------------------------------------

    def reload(self, select: int | None = None) -> None:
        """Read the versions again and select ``select`` (default: the current version)."""
        try:
            self._versions = read_versions(self._session.handle)
        except (StoreError, OSError, ValueError) as error:
            show_error(self, "Cannot read the golden-set versions", error)
            return
        self._listed = self._versions.listed
        self.model.set_versions(self._listed)
        for combo in (self.old_combo, self.new_combo):
            combo.blockSignals(True)
            combo.clear()
            combo.addItem("v0 (empty set)", 0)
            for version in self._listed.versions:
                combo.addItem(version.label, version.number)
            combo.blockSignals(False)
        self.name_button.setEnabled(bool(self._listed.versions))
        current = self._listed.current
        if current is None:
            self.browser.setHtml("<p>The golden set has no versions yet: import a golden set first.</p>")
            return
        row = self.model.row_of(select if select is not None else current.number)
        self.table.selectRow(max(row, 0))

    def selected_version(self) -> GoldenVersion | None:
        return self.model.version_at(self.table.currentIndex().row())

    def compare(self, old: int, new: int) -> None:
        """Show the diff from version ``old`` to version ``new`` (0: the empty set)."""
        for combo, number in ((self.old_combo, old), (self.new_combo, new)):
            combo.blockSignals(True)
            combo.setCurrentIndex(max(combo.findData(number), 0))
            combo.blockSignals(False)
        if self._versions is None:
            return
        try:
            self.diff = self._versions.diff(str(old), str(new))
        except ValueError as error:
            show_error(self, "Cannot compare the versions", error)
            return
        self.browser.setHtml(diff_html(f"{self.diff.old_label} → {self.diff.new_label}", self.diff.diff))

    # -- naming ----------------------------------------------------------------------------

    def ask_name(self) -> None:
        version = self.selected_version()
        if version is None:
            return
        name, ok = QInputDialog.getText(
            self,
            "Name version",
            f"Name for {version.label} ({short_time(version.ended_at)}, {version.who}):",
            text=version.name,
        )
        if ok:
            self.name_version(version.number, name)

    def name_version(self, number: int, name: str) -> bool:
        """Give version ``number`` the name ``name``; a refused name shows why (False)."""
        try:
            named = name_version(self._session.handle, name, str(number))
        except (StoreError, OSError, ValueError) as error:
            show_error(self, "Cannot name the version", error)
            return False
        self.reload(select=named.number)
        return True

    # -- slots -----------------------------------------------------------------------------

    def _on_version_chosen(self, current: QModelIndex, _previous: QModelIndex) -> None:
        version = self.model.version_at(current.row())
        if version is not None:
            self.compare(version.number - 1, version.number)

    def _on_compare_changed(self, _index: int) -> None:
        old, new = self.old_combo.currentData(), self.new_combo.currentData()
        if isinstance(old, int) and isinstance(new, int):
            self.compare(old, new)


def open_versions_dialog(session: ProjectSession, parent: QWidget | None = None) -> VersionsDialog:
    """Open the dialog window-modally (``open()``: no nested event loop) and return it."""
    dialog = VersionsDialog(session, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog

"""The import wizard's preview of a file: :class:`PreviewTableModel` shows a few rows of a sheet
(a :class:`~goldenlens.io.importing.input_files.Preview`), the ``describe_*`` and
``preview_marks`` helpers say what the preview found, and :func:`merge_mappings` joins the
column choices of two previews. Nothing here knows about pages.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from goldenlens.io.importing.columns import ResponseColumns, detect_golden_columns, detect_response_layout
from goldenlens.io.importing.golden_table import extra_columns
from goldenlens.io.importing.input_files import Preview

_CELL_LIMIT = 200
_TIP_LIMIT = 2000
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
#: The mark of a golden-set column no field reads: kept with each question, exported with it.
KEPT = "kept"
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
            if mark == KEPT:
                value = f"Column '{name}' is not scored; it is kept with each question and exported with it."
            else:
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
    else:  # a golden set keeps its other columns (GoldenItem.extra)
        marks.update(dict.fromkeys(extra_columns(result.header, result.columns), KEPT))
    return marks


def describe_preview(result: Preview) -> str:
    """``<b>golden.csv</b> — CSV, utf-8, comma-separated · 10 data rows`` (rich text)."""
    if result.sheet is None:
        delimiter = _DELIMITERS.get(result.delimiter or "", "delimited")
        how = f"CSV, {result.encoding or 'text'}, {delimiter}-separated"
    else:
        how = f"sheet '{html.escape(result.sheet, quote=False)}' ({len(result.sheets)} in the workbook)"
    shown, total = len(result.rows), result.total_rows
    rows = f"{total} data rows" + (f" (showing the first {shown})" if shown < total else "")
    return f"<b>{html.escape(result.file, quote=False)}</b> — {how} · {rows}"


def describe_layout(columns: ResponseColumns) -> str:
    """The responses layout in one sentence (rich text)."""
    if columns.layout == "wide":
        pipelines = html.escape(", ".join(columns.pipelines), quote=False)
        text = f"<b>Layout: wide</b> — one column per pipeline: {pipelines}."
        return text + (
            f" Not pipelines: {html.escape(', '.join(columns.ignored), quote=False)}."
            if columns.ignored
            else ""
        )
    if columns.layout == "long":
        return "<b>Layout: long</b> — one row per question and pipeline."
    return "<b>Layout: not recognised</b> — choose the pipeline and response columns."


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

"""The judge section of a response card: each judge score with the model that gave it, and an
expandable "why" (statements with verdicts and reasons, generated questions, per-context
verdicts …) rendered from the score's stored ``detail``, whatever its shape."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from goldenlens.core.view.metric_names import metric_label, metric_short
from goldenlens.queries.detail import JudgeNote
from goldenlens.ui.widgets.elided_label import ElidedLabel
from goldenlens.ui.widgets.layouts import column_layout

__all__ = ["JudgeSection", "detail_html", "note_model", "note_value_text"]

_HIDDEN_KEYS = {"usage", "embedding_model"}  # bookkeeping; the model is named in the row
_MAX_TEXT = 400
_MAX_ITEMS = 40
_TABLE = (
    '<table border="1" cellspacing="0" cellpadding="3" style="border-color:#b0b6c0; margin:2px 0 6px 0;">'
)


def note_model(note: JudgeNote) -> str:
    """The model that produced the score: the judge's, else the embedding model's."""
    if note.model:
        return note.model
    embedder = note.detail.get("embedding_model")
    return str(embedder) if embedder else ""


def note_value_text(note: JudgeNote) -> str:
    """``0.750``, or ``not scored: <reason>``."""
    if note.value is None:
        return f"not scored: {note.reason}" if note.reason else "not scored"
    return f"{note.value:.3f}"


def _label(key: str) -> str:
    return html.escape(key.replace("_", " ").capitalize())


def _scalar(value: Any) -> str:
    if value is None:
        return "<i>—</i>"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, Mapping | list | tuple):
        value = json.dumps(value, ensure_ascii=False)
    text = str(value)
    if len(text) > _MAX_TEXT:
        text = text[:_MAX_TEXT] + "…"
    return html.escape(text)


def _rows_table(rows: Sequence[Mapping[str, Any]]) -> str:
    columns: list[str] = []
    for row in rows:
        columns += [key for key in row if key not in columns and key not in _HIDDEN_KEYS]
    head = "".join(f'<th align="left">{_label(c)}</th>' for c in columns)
    body = "".join(
        "<tr>" + "".join(f'<td valign="top">{_scalar(row.get(c))}</td>' for c in columns) + "</tr>"
        for row in rows[:_MAX_ITEMS]
    )
    more = f"<i>… {len(rows) - _MAX_ITEMS} more</i>" if len(rows) > _MAX_ITEMS else ""
    return f'{_TABLE}<tr style="background-color:#eef1f5;">{head}</tr>{body}</table>{more}'


def _value_html(value: Any, depth: int) -> str:
    if isinstance(value, Mapping) and depth < 2:
        return detail_html(value, depth + 1)
    if isinstance(value, list | tuple) and value:
        if all(isinstance(v, Mapping) for v in value):
            return _rows_table(value)
        items = "".join(f"<li>{_scalar(v)}</li>" for v in value[:_MAX_ITEMS])
        return f'<ul style="margin-top:0; margin-bottom:4px;">{items}</ul>'
    return _scalar(value)


def detail_html(detail: Mapping[str, Any], depth: int = 0) -> str:
    """A score's ``detail`` as readable rich text: lists of dicts become tables, lists bullet
    lists, scalars ``Key: value`` lines; nesting is shown to two levels."""
    parts: list[str] = []
    for key, value in detail.items():
        if key in _HIDDEN_KEYS:
            continue
        block = isinstance(value, Mapping) or (isinstance(value, list | tuple) and value)
        if block:
            parts.append(
                f'<div style="margin-top:4px;"><b>{_label(key)}</b></div>{_value_html(value, depth)}'
            )
        else:
            parts.append(f"<div><b>{_label(key)}</b>: {_scalar(value)}</div>")
    indent = f' style="margin-left:{12 * depth}px;"' if depth else ""
    return f"<div{indent}>{''.join(parts)}</div>" if parts else "<i>no detail stored</i>"


def _usage_text(detail: Mapping[str, Any]) -> str:
    usage = detail.get("usage")
    if not isinstance(usage, Mapping) or not usage.get("calls"):
        return ""
    tokens = int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0))
    return f"{usage.get('calls')} judge calls · {tokens:,} tokens · {float(usage.get('seconds', 0.0)):.1f} s"


class _NoteRow(QWidget):
    """One judge score: a toggle with the metric and value, the model, and the hidden detail."""

    def __init__(self, note: JudgeNote, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = note
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setAutoRaise(True)
        # The short name the charts use, whole: the model name beside it gives way instead.
        self.toggle.setText(metric_short(note.metric))
        self.toggle.setToolTip(
            f"{metric_label(note.metric)} ({note.metric}): click to show why "
            "(statements, verdicts and reasons)"
        )
        self.value_label = QLabel(self._value_html())
        self.value_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.value_label.setWordWrap(True)
        self.value_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.model_label = ElidedLabel(
            note_model(note) or "model unknown", "The model that produced this score"
        )
        self.model_label.setObjectName("judgeModel")
        self.model_label.setStyleSheet("color: palette(dark); font-style: italic;")
        self.body = QLabel(self._body_html())
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.setContentsMargins(22, 0, 0, 4)
        self.body.setVisible(False)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.toggle)
        header.addWidget(self.value_label, 1)
        header.addWidget(self.model_label)
        layout = column_layout(self, spacing=0)
        layout.addLayout(header)
        layout.addWidget(self.body)
        self.toggle.toggled.connect(self._on_toggled)

    def _value_html(self) -> str:
        if self.note.value is None:
            return f'<span style="color:#b23c17;">{html.escape(note_value_text(self.note))}</span>'
        return f"<b>{self.note.value:.3f}</b>"

    def _body_html(self) -> str:
        parts = []
        if self.note.reason:
            parts.append(f"<div><b>Reason</b>: {html.escape(self.note.reason)}</div>")
        parts.append(detail_html(self.note.detail))
        if usage := _usage_text(self.note.detail):
            parts.append(f'<div style="color:gray;">{html.escape(usage)}</div>')
        return "".join(parts)

    def _on_toggled(self, shown: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.body.setVisible(shown)


class JudgeSection(QWidget):
    """All judge scores of one response. ``judge_label`` is the section's heading."""

    def __init__(self, notes: Sequence[JudgeNote], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        heading = "<b>Judge</b>" if notes else "<b>Judge</b>: <i>no judge scores yet</i> (Judge ▸ Run)"
        self.judge_label = QLabel(heading)
        self.judge_label.setWordWrap(True)  # "(Judge ▸ Run)" on a line of its own in a narrow card
        layout.addWidget(self.judge_label)
        self.rows = [_NoteRow(note, self) for note in notes]
        # One width for every metric's name, so the values line up in a column.
        widest = max((row.toggle.sizeHint().width() for row in self.rows), default=0)
        for row in self.rows:
            row.toggle.setFixedWidth(widest)
            layout.addWidget(row)

    def row(self, metric: str) -> _NoteRow | None:
        """The row of ``metric``."""
        return next((r for r in self.rows if r.note.metric == metric), None)

    def expand_all(self, shown: bool = True) -> None:
        for row in self.rows:
            row.toggle.setChecked(shown)

"""Rich text of a golden-set diff for the Versions dialog: added, removed and changed rows, each
changed field before and after with the changed words highlighted.

Pure functions, no Qt import: they take the core's :class:`~goldenlens.core.golden.diff.GoldenDiff`
and :func:`~goldenlens.core.golden.diff.word_diff` segments and return HTML in the subset that
``QTextDocument`` understands. Colours as in :mod:`goldenlens.ui.widgets.highlight_html`: removed words
on the "missed" pastel, added words on the "matched" one, each with its own dark text colour,
so they read the same on a light and a dark palette. A changed run of whitespace alone would be
invisible, so it is drawn with visible marks (``·`` for a space, ``↵`` for a line break).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from goldenlens.core.golden.diff import DIFF_FIELDS, GoldenDiff, Segment, word_diff
from goldenlens.core.inputs import GoldenItem
from goldenlens.ui.widgets.highlight_html import STYLES

#: Rows listed per section; a diff of a whole import can hold thousands.
MAX_ROWS = 300
REMOVED_STYLE = STYLES["missed"]
ADDED_STYLE = STYLES["matched"]
_HEAD = "#dde4ee"
_HEAD_TEXT = "#1b2430"
_BAND = "#f3f5f8"


def _text(text: str) -> str:
    return html.escape(text).replace("\n", "<br>")


def _visible_whitespace(text: str) -> str:
    return html.escape(text.replace(" ", "·").replace("\t", "→")).replace("\n", "↵<br>")


def segments_html(segments: Sequence[Segment], *, added: bool) -> str:
    """One side of a changed field: changed segments on the added or removed colour."""
    style = ADDED_STYLE if added else REMOVED_STYLE
    parts: list[str] = []
    for segment in segments:
        if not segment.changed:
            parts.append(_text(segment.text))
            continue
        shown = _visible_whitespace(segment.text) if not segment.text.strip() else _text(segment.text)
        parts.append(
            f'<span style="background-color:{style.background}; color:{style.foreground}">{shown}</span>'
        )
    return "".join(parts) or '<span style="color:#808080">(empty)</span>'


def _header(cells: Sequence[str]) -> str:
    row = "".join(
        f'<td style="background-color:{_HEAD}; color:{_HEAD_TEXT}"><b>{html.escape(c)}</b></td>'
        for c in cells
    )
    return f"<tr>{row}</tr>"


def _table(rows: Sequence[str]) -> str:
    return '<table width="100%" cellspacing="0" cellpadding="4" border="0">' + "".join(rows) + "</table>"


def _more(total: int) -> str:
    if total <= MAX_ROWS:
        return ""
    return (
        f'<p style="color:#808080">… and {total - MAX_ROWS:,} more rows; '
        "<tt>goldenlens diff PROJECT A B -o diff.json</tt> lists them all.</p>"
    )


def _item_rows(items: Sequence[GoldenItem]) -> list[str]:
    rows = [_header(["id", *DIFF_FIELDS[:3]])]
    for item in items[:MAX_ROWS]:
        cells = [f"<b>{_text(item.id)}</b>", *(_text(getattr(item, name)) for name in DIFF_FIELDS[:3])]
        rows.append("<tr>" + "".join(f'<td valign="top">{c}</td>' for c in cells) + "</tr>")
    return rows


def diff_html(title: str, diff: GoldenDiff) -> str:
    """The whole diff: a title with the counts, then changed, added and removed rows."""
    parts = [f"<h3>{html.escape(title)}: {html.escape(diff.summary())}</h3>"]
    if diff.is_empty:
        parts.append("<p>The two versions hold the same rows with the same text.</p>")
    if diff.changed:
        parts.append(f"<h4>Changed rows ({len(diff.changed):,})</h4>")
        rows = [_header(["id", "field", "before", "after"])]
        for number, change in enumerate(diff.changed[:MAX_ROWS]):
            # Every other row's fields on a faint band, so one row's fields read as a group.
            band = f' style="background-color:{_BAND}"' if number % 2 else ""
            for index, field in enumerate(change.changes):
                old, new = word_diff(field.before, field.after)
                ident = f"<b>{_text(change.question_id)}</b>" if index == 0 else ""
                rows.append(
                    f'<tr{band}><td valign="top">{ident}</td><td valign="top">{html.escape(field.field)}</td>'
                    f'<td valign="top" width="45%">{segments_html(old, added=False)}</td>'
                    f'<td valign="top" width="45%">{segments_html(new, added=True)}</td></tr>'
                )
        parts += [_table(rows), _more(len(diff.changed))]
    for label, items in (("Added rows", diff.added), ("Removed rows", diff.removed)):
        if items:
            parts += [f"<h4>{label} ({len(items):,})</h4>", _table(_item_rows(items)), _more(len(items))]
    return "".join(parts)

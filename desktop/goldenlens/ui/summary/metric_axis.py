"""The metric names under the summary's bars, readable with 3 to 12 metrics: none printed over
another, each with the questions its mean rests on when that is fewer than the chart shows.

pyqtgraph draws every bottom-axis tick text centred on its tick, however wide, so names
longer than their slot ("Answer relevancy Context relevance") print over each other. Here the
texts are fitted to the slot's width in pixels: on one line when they fit, else wrapped at
spaces, else every other name one row lower (each then has two slots of width; the two at
the ends keep one, as the axis cuts what passes its edge), and a line still too long is
elided.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF

#: Pixels kept free between two texts on the same row.
GAP = 8.0


def coverage_note(counts: Sequence[int], total: int) -> str:
    """``2 of 10`` (or ``2-3 of 10`` when pipelines differ) when a metric's means rest on fewer
    than ``total`` questions; ``""`` when every mean rests on all of them."""
    if not counts or total <= 0 or min(counts) >= total:
        return ""
    low, high = min(counts), max(counts)
    return f"{low} of {total}" if low == high else f"{low}-{high} of {total}"


def axis_texts(names: Sequence[str], notes: Sequence[str], slot: float, metrics: QFontMetricsF) -> list[str]:
    """The tick text of each name (its note, if any, on the last line in brackets) for ticks
    ``slot`` pixels apart, laid out so that no two texts overlap (see the module's note)."""
    notes = [f"({note})" if note else "" for note in notes]
    for wrap in (False, True):
        lines = [
            _lines(name, note, slot - GAP, metrics, wrap=wrap)
            for name, note in zip(names, notes, strict=True)
        ]
        if all(_widest(block, metrics) <= slot - GAP for block in lines):
            return ["\n".join(block) for block in lines]
    last = len(names) - 1
    limits = [slot - GAP if i in (0, last) else 2 * slot - GAP for i in range(len(names))]
    lines = [
        [
            metrics.elidedText(line, Qt.TextElideMode.ElideRight, limit)
            for line in _lines(name, note, limit, metrics)
        ]
        for name, note, limit in zip(names, notes, limits, strict=True)
    ]
    rows = max((len(block) for block in lines), default=0)
    # Every other text starts below the tallest text: neighbours never share a row.
    return ["\n".join([""] * rows * (i % 2) + block) for i, block in enumerate(lines)]


def _lines(name: str, note: str, limit: float, metrics: QFontMetricsF, *, wrap: bool = True) -> list[str]:
    """``name`` on one line, or wrapped at spaces to ``limit`` pixels; then ``note``."""
    lines: list[str] = []
    for word in name.split(" ") if wrap else [name]:
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and metrics.horizontalAdvance(joined) <= limit:
            lines[-1] = joined
        else:
            lines.append(word)
    return [*lines, note] if note else lines


def _widest(lines: Sequence[str], metrics: QFontMetricsF) -> float:
    return max((metrics.horizontalAdvance(line) for line in lines), default=0.0)

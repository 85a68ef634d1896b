"""The Highlights sheet: each response and golden answer as rich text coloured by the alignment.

Colours come only from the spans the core returns (``ScoredRow.explained``: the alignment word
spans and ``FactResult.matches``, derived from the texts and the run's counting mode when the
sheet is written, never stored): nothing is tokenised in this module, so the workbook shows exactly what was
counted. A fact part that overlaps a word keeps both looks (bold + underlined, in the word's
colour).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from openpyxl.cell.text import InlineFont
from openpyxl.styles.colors import Color
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from goldenlens.core.lexical.scorer import WordKind, WordSpan
from goldenlens.core.scored_rows import ScoredRow
from goldenlens.io.reports.xlsx.cells import RowRef, rich_text_cell, text_cell
from goldenlens.io.reports.xlsx.row_heights import append_fitted
from goldenlens.io.reports.xlsx.style import (
    BOLD,
    EXTRA_TEXT,
    HEADER,
    MATCHED_TEXT,
    MISSED_TEXT,
    TOP,
    WRAP,
    WRAPPED_NOTE,
    area,
    parts,
    set_widths,
)

HIGHLIGHTS_SHEET = "Highlights"
HIGHLIGHT_COLUMNS: tuple[str, ...] = ("question_id", "pipeline", "response", "golden answer", "fact")
HIGHLIGHTS_HEADER_ROW = 4

_KIND_COLOURS = {WordKind.MATCHED: MATCHED_TEXT, WordKind.EXTRA: EXTRA_TEXT, WordKind.MISSED: MISSED_TEXT}


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of text with one look: the word kind under it (if any) and whether a fact part covers it."""

    text: str
    kind: WordKind | None
    in_fact: bool


def segments(text: str, words: Sequence[WordSpan], facts: Sequence[tuple[int, int]] = ()) -> list[Segment]:
    """Cut ``text`` at every span boundary; neighbours with the same look are merged.

    ``words`` are the alignment's spans (sorted, non-overlapping, as the core returns them);
    ``facts`` are ``(start, end)`` spans of matched fact parts, which may overlap words and
    each other. Spans are clamped to the text so a stale span can never raise.
    """
    size = len(text)

    def clamp(i: int) -> int:
        return min(max(i, 0), size)

    ordered = sorted(words, key=lambda w: w.start)
    fact_spans = [(clamp(a), clamp(b)) for a, b in facts if clamp(a) < clamp(b)]
    cuts = {0, size}
    for w in ordered:
        cuts.update((clamp(w.start), clamp(w.end)))
    for a, b in fact_spans:
        cuts.update((a, b))

    out: list[Segment] = []
    index = 0
    for start, end in pairwise(sorted(cuts)):
        while index < len(ordered) and ordered[index].end <= start:
            index += 1
        kind = ordered[index].kind if index < len(ordered) and ordered[index].start <= start else None
        in_fact = any(a <= start and end <= b for a, b in fact_spans)
        if out and out[-1].kind == kind and out[-1].in_fact == in_fact:
            out[-1] = Segment(out[-1].text + text[start:end], kind, in_fact)
        else:
            out.append(Segment(text[start:end], kind, in_fact))
    return out


#: What each kind of word looks like besides its colour, so the sheet reads without colour
#: (colour-blind readers, a black-and-white printout): matched words underlined, missed words
#: struck through, extra words in italics; a fact part found is bold.
KIND_MARKS: dict[WordKind, dict[str, object]] = {
    WordKind.MATCHED: {"u": "single"},
    WordKind.EXTRA: {"i": True},
    WordKind.MISSED: {"strike": True},
}


class _Fonts:
    """One font per look, shared by every run."""

    def __init__(self) -> None:
        self._cache: dict[tuple[WordKind | None, bool], InlineFont | None] = {}

    def font(self, kind: WordKind | None, in_fact: bool) -> InlineFont | None:
        key = (kind, in_fact)
        if key not in self._cache:
            marks: dict[str, object] = dict(KIND_MARKS[kind]) if kind is not None else {}
            if kind is not None:
                marks["color"] = Color(rgb=_KIND_COLOURS[kind])
            if in_fact:
                marks["b"] = True
            self._cache[key] = InlineFont(**marks) if marks else None  # type: ignore[arg-type]
        return self._cache[key]

    def runs(self, pieces: Sequence[Segment]) -> list[tuple[str, InlineFont | None]]:
        return [(s.text, self.font(s.kind, s.in_fact)) for s in pieces]


_WIDTHS = {1: 12, 2: 14, 3: 70, 4: 60, 5: 30}


def write_highlights_sheet(
    ws: WriteOnlyWorksheet, rows: Sequence[ScoredRow], tick: Callable[[], None] | None = None
) -> None:
    """Legend, then one row per (question, pipeline) with rich-text response and golden answer."""
    set_widths(ws, _WIDTHS)
    ws.freeze_panes = f"C{HIGHLIGHTS_HEADER_ROW + 1}"
    parts(ws).auto_filter.ref = area(
        1, HIGHLIGHTS_HEADER_ROW, len(HIGHLIGHT_COLUMNS), HIGHLIGHTS_HEADER_ROW + len(rows)
    )
    fonts = _Fonts()
    _write_legend(ws, fonts)

    header_ref = RowRef(HIGHLIGHTS_SHEET, HIGHLIGHTS_HEADER_ROW, HIGHLIGHT_COLUMNS)
    ws.append(
        [text_cell(ws, name, header_ref, c, HEADER) for c, name in enumerate(HIGHLIGHT_COLUMNS, start=1)]
    )
    for excel_row, row in enumerate(rows, start=HIGHLIGHTS_HEADER_ROW + 1):
        where = RowRef(HIGHLIGHTS_SHEET, excel_row, HIGHLIGHT_COLUMNS, row.item.id, row.response.pipeline)
        explained = row.explained  # derived now: spans are never stored
        alignment = explained.alignment
        facts = [(m.start, m.end) for m in explained.fact.matches]
        response_words = alignment.response if alignment is not None else ()
        answer_words = alignment.answer if alignment is not None else ()
        append_fitted(
            ws,
            excel_row,
            [
                text_cell(ws, row.item.id, where, 1, TOP),
                text_cell(ws, row.response.pipeline, where, 2, TOP),
                rich_text_cell(
                    ws, fonts.runs(segments(row.response.response, response_words, facts)), where, 3, WRAP
                ),
                rich_text_cell(ws, fonts.runs(segments(row.item.answer, answer_words)), where, 4, WRAP),
                text_cell(ws, row.item.fact, where, 5, WRAP),
            ],
        )
        if tick is not None:
            tick()


def _write_legend(ws: WriteOnlyWorksheet, fonts: _Fonts) -> None:
    """Rows 1-3: what the colours mean, placed above the columns they explain."""
    where = RowRef(HIGHLIGHTS_SHEET, 1)
    ws.append([text_cell(ws, "Word highlighting", where, 1, BOLD)])
    where = RowRef(HIGHLIGHTS_SHEET, 2)
    # Two lines: the legend names each look as well as showing it, and wraps in its column.
    parts(ws).row_dimensions[2].height = 32
    sep: tuple[str, InlineFont | None] = ("   ·   ", None)
    response_legend = [
        ("matched word (underlined)", fonts.font(WordKind.MATCHED, False)),
        sep,
        ("extra word, not in the golden answer (italics)", fonts.font(WordKind.EXTRA, False)),
        sep,
        ("fact part found (bold)", fonts.font(None, True)),
    ]
    answer_legend = [
        ("matched word (underlined)", fonts.font(WordKind.MATCHED, False)),
        sep,
        ("missed word, not in the response (struck through)", fonts.font(WordKind.MISSED, False)),
    ]
    append_fitted(
        ws,
        2,
        [
            text_cell(ws, "Legend", where, 1, BOLD),
            None,
            rich_text_cell(ws, response_legend, where, 3, WRAP),
            rich_text_cell(ws, answer_legend, where, 4, WRAP),
        ],
    )
    where = RowRef(HIGHLIGHTS_SHEET, 3)
    # Wrapped across the table: running on to the right, the note would widen the printed page.
    parts(ws).merged_cells.add(f"A3:{get_column_letter(len(HIGHLIGHT_COLUMNS))}3")
    append_fitted(
        ws,
        3,
        [
            text_cell(
                ws,
                "Words are the FMEval-normalised words the scores counted (lower-cased, punctuation "
                "and articles dropped); uncoloured text was not counted. For a golden answer with "
                "<OR> targets, only the target that gave the best F1 is coloured.",
                where,
                1,
                WRAPPED_NOTE,
            )
        ],
    )

"""Rich text for Qt's text widgets, built from the spans the core returned (never re-tokenised).

Pure functions, no Qt import: they take the stored :class:`~goldenlens.core.lexical.scorer.Alignment`
and :class:`~goldenlens.core.lexical.factual_knowledge.FactResult` and return HTML in the subset that
``QTextDocument`` understands. Overlapping spans (a fact span across several words, or inside
one word: "art" in "Mozart") are cut at every span boundary, so each piece carries the word
colour *and* the fact mark.

Colours: every highlighted piece sets both its background and its text colour, so it reads the
same on a light and a dark palette; backgrounds are light pastels with dark text (contrast
ratio above 7:1). Text outside any span keeps the palette's own text colour.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from goldenlens.core.lexical.factual_knowledge import AND, OR, FactResult
from goldenlens.core.lexical.scorer import Alignment
from goldenlens.core.view.highlight_styles import FACT, FACT_KINDS, FUZZY_FACT, LEGEND, STYLES, SpanStyle

__all__ = [
    "FACT",
    "FUZZY_FACT",
    "LEGEND",
    "STYLES",
    "SpanStyle",
    "answer_html",
    "answer_spans",
    "chunk_html",
    "fact_html",
    "fact_spans_in",
    "legend_html",
    "response_html",
    "snippet_html",
    "spans_for_display",
    "spans_html",
]

# Fact mark: bold, underlined and in the fact's own colour, on top of the word background. A
# quasi-exact one is dotted and italic: Qt's rich text reads ``text-underline-style``, and
# ``text-decoration:underline`` would reset it to a solid line, so that one is left out.
_FACT_MARK = "font-weight:700; text-decoration:underline; color:{fg};"
_FUZZY_MARK = "font-weight:700; font-style:italic; text-underline-style:dotted; color:{fg};"
_PARAGRAPH = '<p style="margin:0; white-space:pre-wrap;">{}</p>'


def spans_for_display(
    text: str, alignment: Alignment | None, fact: FactResult | None
) -> list[tuple[int, int, str]]:
    """The ``(start, end, kind)`` spans the response HTML is built from, sorted by position.

    Kinds are ``matched`` and ``extra`` (the alignment's response words, exactly as stored)
    and ``fact`` (each matched fact part; ``fact_quasi`` when the fact was found only by the
    quasi-exact match). Empty spans and spans outside ``text`` are
    dropped; an empty fact part (which "matches" everywhere) has nothing to mark.
    """
    spans: list[tuple[int, int, str]] = []
    if alignment is not None:
        spans.extend((s.start, s.end, s.kind.value) for s in alignment.response)
    if fact is not None:
        kind = FUZZY_FACT if fact.matched_by == "quasi_exact" else FACT
        spans.extend((m.start, m.end, kind) for m in fact.matches)
    return _valid(spans, len(text))


def answer_spans(answer: str, alignment: Alignment | None) -> list[tuple[int, int, str]]:
    """The ``(start, end, kind)`` spans of the golden answer: ``matched`` or ``missed``."""
    if alignment is None:
        return []
    return _valid([(s.start, s.end, s.kind.value) for s in alignment.answer], len(answer))


def _valid(spans: list[tuple[int, int, str]], length: int) -> list[tuple[int, int, str]]:
    kept = [(s, e, k) for s, e, k in spans if 0 <= s < e <= length]
    kept.sort(key=lambda span: (span[0], span[2] in FACT_KINDS, span[1]))
    return kept


def _escape(piece: str) -> str:
    # Qt's rich text collapses runs of spaces unless pre-wrap; newlines become explicit breaks.
    escaped = html.escape(piece, quote=True)
    return escaped.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "<br>")


def _open_tag(kinds: set[str]) -> str:
    word = next((k for k in STYLES if k in kinds and k not in FACT_KINDS), None)
    styles: list[str] = []
    if word is not None:
        style = STYLES[word]
        styles.append(f"background-color:{style.background}; color:{style.foreground};")
    mark = next((k for k in FACT_KINDS if k in kinds), None)
    if mark is not None:
        fact = STYLES[mark]
        if word is None:
            styles.append(f"background-color:{fact.background};")
        styles.append((_FACT_MARK if mark == FACT else _FUZZY_MARK).format(fg=fact.foreground))
    return f'<span style="{" ".join(styles)}">'


def spans_html(text: str, spans: Sequence[tuple[int, int, str]]) -> str:
    """``text`` as escaped rich text with each span styled by its kind (overlaps allowed).

    One sweep over the sorted span boundaries: linear in the text plus ``n log n`` in spans.
    """
    events: dict[int, dict[str, int]] = {}
    for start, end, kind in spans:
        if start >= end:
            continue
        at_start = events.setdefault(start, {})
        at_start[kind] = at_start.get(kind, 0) + 1
        at_end = events.setdefault(end, {})
        at_end[kind] = at_end.get(kind, 0) - 1
    active: dict[str, int] = {}
    out: list[str] = []
    position = 0
    for boundary in sorted(events):
        out.append(_piece(text[position:boundary], active))
        for kind, delta in events[boundary].items():
            count = active.get(kind, 0) + delta
            if count > 0:
                active[kind] = count
            else:
                active.pop(kind, None)
        position = boundary
    out.append(_piece(text[position:], active))
    return _PARAGRAPH.format("".join(out))


def _piece(piece: str, active: dict[str, int]) -> str:
    if not piece:
        return ""
    if not active:
        return _escape(piece)
    return f"{_open_tag(set(active))}{_escape(piece)}</span>"


def response_html(text: str, alignment: Alignment | None, fact: FactResult | None) -> str:
    """A response with matched words green, extra words amber and the fact part marked."""
    return spans_html(text, spans_for_display(text, alignment, fact))


def snippet_html(snippet: str) -> str:
    """A preview snippet (:func:`goldenlens.core.variants.flip_preview.snippet`: the match between
    ``[[`` and ``]]``) as rich text with the match in the fact's colours. The markers are the
    core's, placed once; a snippet without them is shown plain."""
    start = snippet.find("[[")
    end = snippet.find("]]", start + 2) if start >= 0 else -1
    if start < 0 or end < 0:
        return spans_html(snippet, [])
    text = snippet[:start] + snippet[start + 2 : end] + snippet[end + 2 :]
    return spans_html(text, [(start, end - 2, FACT)])


def answer_html(answer: str, alignment: Alignment | None) -> str:
    """The golden answer with matched words green and missed words pink/red."""
    return spans_html(answer, answer_spans(answer, alignment))


def _chip(text: str, kind: str | None) -> str:
    shown = html.escape(text) if text.strip() else "<i>(empty)</i>"
    if kind is None:
        return (
            '<span style="background-color:#e4e7ec; color:#1f2430; white-space:pre;">'
            f"&nbsp;{shown}&nbsp;</span>"
        )
    style = STYLES[kind]
    fuzzy = kind == FUZZY_FACT
    line = " text-underline-style:dotted; font-style:italic;" if fuzzy else " text-decoration:underline;"
    tick = "&#8776;" if fuzzy else "&#10003;"  # ≈ for a quasi-exact match
    return (
        f'<span style="background-color:{style.background}; color:{style.foreground};'
        f' font-weight:700;{line} white-space:pre;">'
        f"&nbsp;{tick}&nbsp;{shown}&nbsp;</span>"
    )


def _operator(word: str) -> str:
    return f' <span style="font-size:small; font-weight:700;">{word}</span> '


def fact_html(fact: str, matched_part: str, *, fuzzy: bool = False) -> str:
    """The fact's ``<OR>``/``<AND>`` parts as chips, the matched alternative's parts marked
    (✓; ≈ and dotted when ``fuzzy``: found by the quasi-exact match only).

    ``matched_part`` is :attr:`FactResult.matched_part` (``<AND>``-joined parts of the
    satisfied alternative, ``""`` when the fact was not found).
    """
    groups = [group.split(AND) for group in fact.split(OR)]
    matched_group = next(
        (i for i, group in enumerate(groups) if matched_part and AND.join(group) == matched_part), None
    )
    alternatives: list[str] = []
    for index, group in enumerate(groups):
        kind = (FUZZY_FACT if fuzzy else FACT) if index == matched_group else None
        alternatives.append(_operator("AND").join(_chip(part, kind) for part in group))
    return '<p style="margin:0;">' + _operator("OR").join(alternatives) + "</p>"


def legend_html() -> str:
    """One line showing every highlight kind in its colours."""
    entries = []
    for kind, label, _tip in LEGEND:
        style = STYLES[kind]
        extra = " font-weight:700; text-decoration:underline;" if kind == FACT else ""
        if kind == FUZZY_FACT:
            extra = " font-weight:700; font-style:italic; text-underline-style:dotted;"
        entries.append(
            f'<span style="background-color:{style.background}; color:{style.foreground};{extra}">'
            f"&nbsp;{label}&nbsp;</span>"
        )
    return "&nbsp;&nbsp;".join(entries)


def fact_spans_in(text: str, fact: str) -> list[tuple[int, int, str]]:
    """Where ``fact`` occurs in ``text`` as the draft check finds it (ignoring case and how
    whitespace is laid out, nothing else: :func:`goldenlens.core.golden.drafts.draft_problems`), as
    ``FACT`` spans; empty when it does not occur."""
    words = fact.split()
    if not words:
        return []
    pattern = re.compile(r"\s+".join(re.escape(word) for word in words), re.IGNORECASE)
    return [(m.start(), m.end(), FACT) for m in pattern.finditer(text)]


_OPERATORS = re.compile(f"{re.escape(OR)}|{re.escape(AND)}", re.IGNORECASE)


def chunk_html(chunk: str, fact: str) -> str:
    """A source chunk with every occurrence of the fact marked (of each of its parts, for a
    golden fact with ``<OR>``/``<AND>``)."""
    spans = [span for part in _OPERATORS.split(fact) for span in fact_spans_in(chunk, part)]
    return spans_html(chunk, spans)

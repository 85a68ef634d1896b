"""How highlighted words look, in the app and in the HTML report alike: one colour pair per
kind of span (matched, extra, missed word; fact part found).

Backgrounds are light pastels with dark text (contrast ratio above 7:1), so a highlighted piece
reads the same on a light and a dark palette.
"""

from __future__ import annotations

from dataclasses import dataclass

from goldenlens.core.lexical.scorer import WordKind

#: Kind of the fact-match segment.
FACT = "fact"
#: Kind of a fact part found only by the quasi-exact (normalised) match: drawn with a dotted
#: underline, so a fuzzy match never passes for an exact one.
FUZZY_FACT = "fact_quasi"
FACT_KINDS = (FACT, FUZZY_FACT)


@dataclass(frozen=True)
class SpanStyle:
    """How one kind of span is drawn: background, text colour and a short legend label."""

    background: str
    foreground: str
    label: str


STYLES: dict[str, SpanStyle] = {
    WordKind.MATCHED.value: SpanStyle("#b9ebc6", "#0b3a1c", "matched"),
    WordKind.EXTRA.value: SpanStyle("#ffd9a3", "#4d2600", "extra"),
    WordKind.MISSED.value: SpanStyle("#ffc2cc", "#5c0014", "missed"),
    FACT: SpanStyle("#c9dcff", "#0a2a8a", "fact"),
    FUZZY_FACT: SpanStyle("#e6dcff", "#3b1a70", "fact ≈ quasi-exact"),
}

#: Legend entries in display order: kind, label, tooltip.
LEGEND: tuple[tuple[str, str, str], ...] = (
    (WordKind.MATCHED.value, "matched", "Response word that is in the golden answer"),
    (WordKind.EXTRA.value, "extra", "Response word that is not in the golden answer"),
    (WordKind.MISSED.value, "missed", "Golden-answer word that the response does not contain"),
    (FACT, "fact", "Where the fact (the matched <OR> part) was found in the response"),
    (
        FUZZY_FACT,
        "fact ≈ quasi-exact",
        "Found only after normalising case, punctuation and articles (quasi-exact match, dotted "
        "underline): exact Factual Knowledge stays 0",
    ),
)

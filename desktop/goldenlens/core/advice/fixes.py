"""Concrete values for the advisor's "add a fact variant" fixes.

A diagnosis such as *correct but rephrased* says "add the response's wording as a fact
variant" without saying which words: the rule reads scores, not spans. For a one-click fix the
reviewer needs the words, shown before the click. :func:`propose_variant` looks for them in the
response the diagnosis is about, in this order:

1. the fix's own value (the advisor found the fact after normalisation and kept its text);
2. a spelling from the fact-variant generator (:func:`~goldenlens.core.variants.generator.suggest_variants`:
   scales, dates, abbreviations …) that the response contains exactly — ``410 Terry Ave. N.``
   for the fact ``410 Terry Avenue North``;
3. the response's own words around the fact's words: the shortest stretch of the response that
   holds every FMEval word of a fact alternative of two or more words, with at most
   :data:`MAX_INSERTED_WORDS` other words in between (``foreign currency exchange rates`` for
   ``foreign exchange rates``).

Every proposal is checked: it must pass the variant dialog's false-match checks
(:func:`~goldenlens.core.variants.generator.variant_risks`: a short or bare number, a bare year,
a single common word is never proposed), adding it must turn the response's exact Factual
Knowledge from 0 into 1, and :attr:`VariantProposal.flips` lists every pipeline of the question
it would turn.
Nothing is proposed for a response that already contains the fact, or when no candidate
passes — the reviewer then writes the variant in the golden editor.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from goldenlens.core.advice.values import Diagnosis, FixKind
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.factual_knowledge import AND, FactMatcher, fact_groups, fact_with_variant
from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.core.lexical.normalise import word_set, words_with_spans
from goldenlens.core.variants.generator import suggest_variants, variant_risks

#: Words of the response allowed between the fact's words in a proposal from its wording.
MAX_INSERTED_WORDS = 2

SOURCE_FIX = "advisor"
SOURCE_GENERATOR = "variant generator"
SOURCE_RESPONSE = "response wording"


@dataclass(frozen=True)
class VariantProposal:
    """A variant to add for one diagnosis: its ``text``, where it came from (``source``, one of
    the ``SOURCE_*`` names), the generator's ``note`` (empty for the others) and
    the pipelines whose exact Factual Knowledge it turns from 0 into 1 (``flips``, in the
    question's pipeline order; always includes the diagnosed pipeline)."""

    text: str
    source: str
    flips: tuple[str, ...]
    note: str = ""


def _found(fact: str, response: str) -> bool:
    return FactMatcher(fact).scores(response)[0] >= 1.0


def _flips(fact: str, variant: str, responses: Mapping[str, str]) -> tuple[str, ...] | None:
    """Pipelines the variant turns from not found to found (exact); ``None`` when the fact
    already has the variant or the variant cannot be added."""
    try:
        longer = fact_with_variant(fact, variant)
    except ValueError:
        return None
    if longer is None:
        return None
    return tuple(p for p, text in responses.items() if not _found(fact, text) and _found(longer, text))


def wording_variant(fact: str, response: str, max_inserted: int = MAX_INSERTED_WORDS) -> str | None:
    """The shortest stretch of ``response`` holding every FMEval word of one fact alternative
    (two or more words, one part), with at most ``max_inserted`` other words in between; the
    response's own text, from its first to its last character. ``None`` when there is none."""
    tokens = words_with_spans(response)
    best: tuple[int, int, int] | None = None  # (words, start, end)
    for group in fact_groups(fact):
        if len(group) != 1:
            continue  # an <AND> alternative: its parts need not be near each other
        wanted = word_set(group[0])
        if len(wanted) < 2:
            continue
        for first, token in enumerate(tokens):
            if token.word not in wanted:
                continue
            seen: set[str] = set()
            for last in range(first, min(len(tokens), first + len(wanted) + max_inserted)):
                if tokens[last].word in wanted:
                    seen.add(tokens[last].word)
                if seen == wanted:
                    words = last - first + 1
                    if best is None or words < best[0]:
                        best = (words, token.start, tokens[last].end)
                    break
    if best is None:
        return None
    return response[best[1] : best[2]].strip() or None


def propose_variant(
    item: GoldenItem,
    diagnosis: Diagnosis,
    responses: Mapping[str, str],
    thresholds: FlagThresholds | None = None,
) -> VariantProposal | None:
    """A checked variant for an ``add_variant`` fix of ``diagnosis`` (see the module
    docstring), or ``None``. ``responses`` are the question's responses by pipeline, in
    pipeline order; the diagnosed one is ``responses[diagnosis.pipeline]``."""
    fix = diagnosis.fix
    response = responses.get(diagnosis.pipeline)
    if fix is None or fix.kind is not FixKind.ADD_VARIANT or response is None or _found(item.fact, response):
        return None

    def checked(text: str, source: str, note: str = "") -> VariantProposal | None:
        # The false-match checks of the variant dialog: a variant that could match text that is
        # not the fact ("18.3" under a "bare number" diagnosis) is never a one-click fix.
        if variant_risks(text, thresholds=thresholds):
            return None
        flips = _flips(item.fact, text, responses)
        if not flips or diagnosis.pipeline not in flips:
            return None
        return VariantProposal(text.strip(), source, flips, note)

    if fix.value:
        found = checked(fix.value, SOURCE_FIX)
        if found is not None:
            return found
    suggestions = suggest_variants(item.fact, thresholds=thresholds).variants
    for variant in (v for v in suggestions if AND not in v.text and not v.risky):
        found = checked(variant.text, SOURCE_GENERATOR, variant.note)
        if found is not None:
            return found
    wording = wording_variant(item.fact, response)
    return checked(wording, SOURCE_RESPONSE) if wording else None

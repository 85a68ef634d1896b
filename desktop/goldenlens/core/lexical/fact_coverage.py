"""How much of the fact's wording a response holds: for each ``<OR>`` alternative, the share of
its words (FMEval's normalised word sets) found among the response's words, averaged over its
``<AND>`` parts; the best alternative counts.

Factual Knowledge asks for the whole fact as one substring, so "Campbell-Bannerman" is not found
in "Henry Campbell Bannerman" while every word is there; coverage tells such a near miss from an
answer about something else. It is one of the signals the human-calibrated predictor reads.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from goldenlens.core.lexical.factual_knowledge import fact_groups
from goldenlens.core.lexical.normalise import word_set


def fact_word_coverage(response_words: AbstractSet[str], fact: str) -> float:
    """The coverage (0 to 1) of ``fact`` by a response whose :func:`word_set` is
    ``response_words``; 0 when no part of the fact has a word."""
    best = 0.0
    for group in fact_groups(fact):
        shares = []
        for part in group:
            words = word_set(part)
            if words:
                shares.append(len(words & response_words) / len(words))
        if shares:
            best = max(best, sum(shares) / len(shares))
    return best

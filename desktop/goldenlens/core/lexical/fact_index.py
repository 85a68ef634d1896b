"""Which responses of a whole project contain a fact, by exact and quasi-exact inclusion.

The flip preview asks this once per suggested variant over every response of the project
(100k and more). Testing responses one by one in Python costs about 1 µs each per variant;
here the lower-cased and the normalised responses are each joined once
(:class:`~goldenlens.core.lexical.text_index.ScannedTexts`) and each part is looked up with
``str.find``, which skips from one hit to the next response. The answer is the same as
:meth:`~goldenlens.core.lexical.factual_knowledge.FactMatcher.scores` for every response
(a property test checks).
"""

from __future__ import annotations

from collections.abc import Sequence

from goldenlens.core.lexical.factual_knowledge import fact_groups
from goldenlens.core.lexical.normalise import normalise
from goldenlens.core.lexical.text_index import ScannedTexts


class ResponseIndex:
    """Responses prepared once for repeated Factual Knowledge look-ups."""

    def __init__(self, responses: Sequence[str]) -> None:
        # Each response is lower-cased on its own: joined first, a Greek final sigma at the
        # end of one response could lower differently.
        self._lower = ScannedTexts([r.lower() for r in responses])
        self._normalised = ScannedTexts([normalise(r.strip()) for r in responses])
        self.size = len(responses)

    def _satisfying(self, joined: ScannedTexts, groups: list[list[str]]) -> set[int]:
        found: set[int] = set()
        for group in groups:
            hits: set[int] | None = None
            for part in sorted(group, key=len, reverse=True):  # the rarest (longest) part first
                part_hits = joined.containing(part)
                hits = part_hits if hits is None else hits & part_hits
                if not hits:
                    break
            found |= hits or set()
        return found

    def matching(self, fact: str) -> tuple[set[int], set[int]]:
        """Indices of the responses whose exact, and quasi-exact, Factual Knowledge against
        ``fact`` is 1 (FMEval's inclusion tests, without the not-scored rule)."""
        groups = fact_groups(fact)
        exact = self._satisfying(self._lower, [[p.lower() for p in g] for g in groups])
        quasi = self._satisfying(self._normalised, [[normalise(p.strip()) for p in g] for g in groups])
        return exact, quasi

"""What the advisor needs to know about the whole project, worked out once per advice.

Two indexes over every response of the project: which responses contain a fact that their
own question's golden answer does not (false matches), and which pipelines use each word
(so a golden word that only one pipeline ever writes stands out as that model's wording).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from goldenlens.core.advice_values import FalseMatch
from goldenlens.core.facts import fact_groups
from goldenlens.core.flags import fact_in_answer
from goldenlens.core.model import GoldenItem
from goldenlens.core.normalise import word_set

_EXCERPT_CHARS = 40


@dataclass(frozen=True)
class CorpusResponse:
    """One response of the project, as the corpus indexes read it."""

    question_id: str
    pipeline: str
    text: str


def excerpt(text: str, start: int, end: int, *, around: int = _EXCERPT_CHARS) -> str:
    """``text[start:end]`` with up to ``around`` characters either side, ``…`` where cut,
    on one line."""
    left = max(0, start - around)
    right = min(len(text), end + around)
    body = " ".join(text[left:right].split())
    return ("…" if left else "") + body + ("…" if right < len(text) else "")


class Corpus:
    """Every response of the project, lower-cased once, and the pipelines of each word."""

    def __init__(self, golden: Sequence[GoldenItem], responses: Sequence[CorpusResponse]) -> None:
        self.golden = {item.id: item for item in golden}
        self.responses = tuple(responses)
        self._lower = tuple(r.text.lower() for r in self.responses)
        self.pipelines = tuple(dict.fromkeys(r.pipeline for r in self.responses))
        # word -> pipeline -> question ids whose response by that pipeline uses the word
        uses: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for r in self.responses:
            for word in word_set(r.text):
                uses[word][r.pipeline].add(r.question_id)
        self._uses = uses

    def false_matches(self, item: GoldenItem) -> tuple[FalseMatch, ...]:
        """Responses to OTHER questions that contain ``item``'s fact (exact inclusion, as
        Factual Knowledge tests), leaving out questions whose own golden answer contains it
        (there the fact is expected)."""
        groups = [tuple(p.lower() for p in g) for g in fact_groups(item.fact) if all(p.strip() for p in g)]
        if not groups:
            return ()
        expected: dict[str, bool] = {}
        found: list[FalseMatch] = []
        for response, lower in zip(self.responses, self._lower, strict=True):
            if response.question_id == item.id:
                continue
            group = next((g for g in groups if all(p in lower for p in g)), None)
            if group is None:
                continue
            other = self.golden.get(response.question_id)
            if other is None:
                continue
            if response.question_id not in expected:
                expected[response.question_id] = fact_in_answer(other.answer, item.fact)
            if expected[response.question_id]:
                continue
            start = lower.find(group[0])
            found.append(
                FalseMatch(
                    response.question_id,
                    response.pipeline,
                    "<AND>".join(group),
                    excerpt(response.text, start, start + len(group[0])),
                )
            )
        return tuple(found)

    def only_pipeline(self, word: str) -> tuple[str, int] | None:
        """``(pipeline, questions)`` when exactly one pipeline ever used ``word`` (in its
        responses to ``questions`` questions), else ``None``."""
        by_pipeline = self._uses.get(word)
        if not by_pipeline or len(by_pipeline) != 1:
            return None
        (pipeline, questions), *_ = by_pipeline.items()
        return pipeline, len(questions)

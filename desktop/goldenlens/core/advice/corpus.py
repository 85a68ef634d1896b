"""What the advisor needs to know about the whole project, worked out once per advice.

Two indexes over every response of the project: which responses contain a fact that their
own question's golden answer does not (false matches), and which pipelines use each word
(so a golden word that only one pipeline ever writes stands out as that model's wording).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from goldenlens.core.advice.values import FalseMatch
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.factual_knowledge import fact_groups
from goldenlens.core.lexical.flags import groups_in, lowered_groups
from goldenlens.core.lexical.normalise import word_set
from goldenlens.core.lexical.text_index import IndexedTexts

_EXCERPT_CHARS = 40


#: False matches listed per fact with an excerpt (all of them are counted).
LISTED_FALSE_MATCHES: Final = 25
#: Questions whose golden answers are tested one by one for a fact; beyond, they are indexed.
_TESTED_ANSWERS: Final = 64


class FalseMatches(NamedTuple):
    """A fact's false matches: the first ones (``listed``), and how many responses and
    questions there are in all."""

    listed: tuple[FalseMatch, ...]
    responses: int
    questions: int


class _FactHits(NamedTuple):
    """The responses holding one fact, from questions whose golden answer does not hold it:
    the first ones in response order with the group each matched (enough for each question
    with this fact to list :data:`LISTED_FALSE_MATCHES` once its own are left out), how many
    responses and questions in all, and how many of them are each such question's own."""

    listed_first: tuple[tuple[int, tuple[str, ...]], ...]
    responses: int
    questions: int
    own: dict[str, int]


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
    """Every response of the project, lower-cased once, with the indexes the project-wide
    rules need: which responses contain a text (Factual Knowledge's exact inclusion, found
    without testing every response) and which pipelines use each word."""

    def __init__(self, golden: Sequence[GoldenItem], responses: Sequence[CorpusResponse]) -> None:
        self.golden = {item.id: item for item in golden}
        self.responses = tuple(responses)
        self._lower = tuple(r.text.lower() for r in self.responses)
        self.pipelines = tuple(dict.fromkeys(r.pipeline for r in self.responses))
        self._words: dict[str, frozenset[str]] = {}
        # word -> pipeline -> question ids whose response by that pipeline uses the word
        uses: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for r in self.responses:
            for word in self.words(r.text):
                uses[word][r.pipeline].add(r.question_id)
        self._uses = uses
        self._index = IndexedTexts(self._lower)
        # The golden answers lower-cased, and indexed once a fact is found in the responses to
        # many questions (:meth:`_answers_holding`).
        self._answers = {question_id: item.answer.lower() for question_id, item in self.golden.items()}
        self._answer_ids: tuple[str, ...] = ()
        self._answer_index: IndexedTexts | None = None
        # Kept only for a fact text more than one question has: the others are asked once.
        self._fact_hits: dict[str, _FactHits] = {}
        self._with_fact: dict[str, list[str]] = defaultdict(list)
        for item in golden:
            self._with_fact[item.fact].append(item.id)
        owned: dict[str, set[str]] = defaultdict(set)
        for word, by_pipeline in uses.items():
            if len(by_pipeline) == 1:
                owned[next(iter(by_pipeline))].add(word)
        self._own = {pipeline: frozenset(words) for pipeline, words in owned.items()}

    def words(self, text: str) -> frozenset[str]:
        """``word_set(text)``, worked out once per distinct text."""
        found = self._words.get(text)
        if found is None:
            found = self._words[text] = word_set(text)
        return found

    def containing(self, part: str) -> frozenset[int]:
        """Indexes of the responses whose lower-cased text contains ``part.lower()`` (found
        through the index of their letter-and-digit runs, then tested by plain inclusion,
        exactly as Factual Knowledge tests it)."""
        return self._index.containing(part.lower())

    def false_matches(self, item: GoldenItem) -> FalseMatches:
        """Responses to OTHER questions that contain ``item``'s fact (exact inclusion, as
        Factual Knowledge tests), leaving out questions whose own golden answer contains it
        (there the fact is expected): all counted, the first :data:`LISTED_FALSE_MATCHES`
        listed with an excerpt (a short fact of an open-domain set can be in thousands).

        The responses holding a fact are found once per distinct fact text; each question with
        that fact then only leaves out its own responses. A set of yes/no questions (thousands
        of questions with the fact "yes") costs one search, not one per question."""
        hits = self._fact_hits.get(item.fact)
        if hits is None or item.id not in hits.own:
            hits = self._hits_of(item.fact, {*self._with_fact.get(item.fact, ()), item.id})
            if len(hits.own) > 1:
                self._fact_hits[item.fact] = hits
        own = hits.own[item.id]
        found: list[FalseMatch] = []
        for n, group in hits.listed_first:
            if len(found) == LISTED_FALSE_MATCHES:
                break
            response = self.responses[n]
            if response.question_id == item.id:
                continue
            start = self._lower[n].find(group[0])
            found.append(
                FalseMatch(
                    response.question_id,
                    response.pipeline,
                    "<AND>".join(group),
                    excerpt(response.text, start, start + len(group[0])),
                )
            )
        return FalseMatches(tuple(found), hits.responses - own, hits.questions - (1 if own else 0))

    def _hits_of(self, fact: str, with_fact: set[str]) -> _FactHits:
        """The responses that contain ``fact`` and whose question's golden answer does not, for
        the questions ``with_fact`` (ids) to count theirs apart."""
        groups = [tuple(p.lower() for p in g) for g in fact_groups(fact) if all(p.strip() for p in g)]
        matching: dict[int, tuple[str, ...]] = {}
        for group in groups:
            sets = [self.containing(p) for p in group]
            for n in sorted(frozenset.intersection(*sets)):
                matching.setdefault(n, group)
        asked = {self.responses[n].question_id for n in matching} & self._answers.keys()
        expected = self._answers_holding(lowered_groups(fact_groups(fact)), asked)
        per_question: dict[str, int] = defaultdict(int)
        listed: list[tuple[int, tuple[str, ...]]] = []
        for n in sorted(matching):
            question_id = self.responses[n].question_id
            if question_id not in asked or question_id in expected:
                continue
            per_question[question_id] += 1
            listed.append((n, matching[n]))
        own = {question_id: per_question.get(question_id, 0) for question_id in with_fact}
        # Each of these questions lists the first ones not its own: at most its own more.
        keep = LISTED_FALSE_MATCHES + max(own.values(), default=0)
        return _FactHits(tuple(listed[:keep]), len(listed), len(per_question), own)

    def _answers_holding(self, groups: Sequence[tuple[str, ...]], asked: set[str]) -> set[str]:
        """Those of the questions ``asked`` whose lower-cased golden answer holds all the parts
        of some group of :func:`~goldenlens.core.lexical.flags.lowered_groups` (every one when
        a group has no part left: it holds in any answer). Up to :data:`_TESTED_ANSWERS`
        questions their answers are tested one by one; beyond, the answers' index is asked once
        per part (a fact such as "yes", in the responses to thousands of questions)."""
        if len(asked) <= _TESTED_ANSWERS:
            return {q for q in asked if groups_in(self._answers[q], groups)}
        if any(not group for group in groups):
            return set(asked)
        if self._answer_index is None:
            self._answer_ids = tuple(self._answers)
            self._answer_index = IndexedTexts(list(self._answers.values()))
        index = self._answer_index
        found: set[int] = set()
        for group in groups:
            found |= frozenset.intersection(*(index.containing(p) for p in group))
        return {self._answer_ids[n] for n in found} & asked

    def own_words(self, pipeline: str) -> frozenset[str]:
        """The words that ``pipeline`` uses and no other pipeline ever does."""
        return self._own.get(pipeline, frozenset())

    def only_pipeline(self, word: str) -> tuple[str, int] | None:
        """``(pipeline, questions)`` when exactly one pipeline ever used ``word`` (in its
        responses to ``questions`` questions), else ``None``."""
        by_pipeline = self._uses.get(word)
        if not by_pipeline or len(by_pipeline) != 1:
            return None
        (pipeline, questions), *_ = by_pipeline.items()
        return pipeline, len(questions)

"""FMEval QA Accuracy and Factual Knowledge for one response, with the token alignment.

QA Accuracy reproduces FMEval 1.2.3 to the last bit: both texts stripped and normalised,
compared as *sets* of words, precision/recall as NLTK computes them and F1 as NLTK's
``f_measure`` (``1 / (0.5/p + 0.5/r)``, which can differ from ``2pr/(p+r)`` in the last
floating-point digit). A golden answer holding ``<OR>`` is several targets and each score is
the maximum over them, as FMEval's ``target_output_delimiter`` does.

Not FMEval, on purpose: a fact that FMEval would count as found in every response (empty, an
empty ``<OR>``/``<AND>`` part, or for quasi-exact a part that normalisation empties) is *not
scored* — its value is ``None`` and ``reasons`` says why (:mod:`goldenlens.core.lexical.factual_knowledge`).

``multiset=True`` is *not* FMEval: it counts repeated words and keeps articles, as the
hand-worked "TP 11 / FP 7 / FN 3" tables in articles about the metric do.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum

from goldenlens.core.lexical import normalise as normalise_steps
from goldenlens.core.lexical.factual_knowledge import FactMatcher, FactResult
from goldenlens.core.lexical.normalise import (
    PUNCTUATION,
    Token,
    lowered_offsets,
    normalise,
    normalised_words,
    words_with_spans,
)

FACTUAL_KNOWLEDGE = "factual_knowledge"
FACTUAL_KNOWLEDGE_QUASI_EXACT = "factual_knowledge_quasi_exact"
F1_SCORE = "f1_score"
PRECISION = "precision_over_words"
RECALL = "recall_over_words"
EXACT_MATCH = "exact_match_score"
QUASI_EXACT_MATCH = "quasi_exact_match_score"

FACT_SCORE_NAMES: tuple[str, ...] = (FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT)
QA_SCORE_NAMES: tuple[str, ...] = (F1_SCORE, PRECISION, RECALL, EXACT_MATCH, QUASI_EXACT_MATCH)
LEXICAL_SCORE_NAMES: tuple[str, ...] = FACT_SCORE_NAMES + QA_SCORE_NAMES

TARGET_DELIMITER = "<OR>"


class WordKind(StrEnum):
    MATCHED = "matched"
    EXTRA = "extra"
    MISSED = "missed"


@dataclass(frozen=True, slots=True)
class WordSpan:
    """One counted word occurrence: ``text[start:end]`` in the original string."""

    start: int
    end: int
    word: str
    kind: WordKind


@dataclass(frozen=True)
class Alignment:
    """Which words of the response and of the golden answer were matched.

    Response words are ``matched`` (in the golden answer) or ``extra``; golden words are
    ``matched`` or ``missed``. With set semantics every occurrence of a matched word is
    matched, and the scores follow from the *distinct* words:
    precision = distinct matched / distinct response words.
    """

    response: tuple[WordSpan, ...]
    answer: tuple[WordSpan, ...]
    target_index: int = 0
    multiset: bool = False

    def counts(self) -> dict[str, int]:
        """True positives, false positives and false negatives as the scores counted them."""
        if self.multiset:
            return {
                "tp": sum(1 for s in self.response if s.kind is WordKind.MATCHED),
                "fp": sum(1 for s in self.response if s.kind is WordKind.EXTRA),
                "fn": sum(1 for s in self.answer if s.kind is WordKind.MISSED),
            }
        return {
            "tp": len({s.word for s in self.response if s.kind is WordKind.MATCHED}),
            "fp": len({s.word for s in self.response if s.kind is WordKind.EXTRA}),
            "fn": len({s.word for s in self.answer if s.kind is WordKind.MISSED}),
        }


@dataclass(frozen=True, slots=True)
class QAScores:
    f1: float
    precision: float
    recall: float
    exact_match: float
    quasi_exact_match: float
    target_index: int = 0


@dataclass(frozen=True, slots=True)
class LexicalResult:
    """All seven lexical scores for one response, the fact match and the alignment.

    A score is ``None`` when it is not scored; ``reasons`` then holds why, by metric name.
    """

    scores: dict[str, float | None]
    fact: FactResult
    alignment: Alignment | None = None
    params: dict[str, object] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)


def prf(response_words: AbstractSet[str], golden_words: AbstractSet[str]) -> tuple[float, float, float]:
    """Precision, recall and F1 of two word sets, exactly as NLTK (and so FMEval) computes them."""
    if not response_words or not golden_words:
        return 0.0, 0.0, 0.0
    common = len(response_words & golden_words)
    precision = common / len(response_words)
    recall = common / len(golden_words)
    if precision == 0 or recall == 0:
        return precision, recall, 0.0
    return precision, recall, 1.0 / (0.5 / precision + 0.5 / recall)


def _multiset_prf(response_words: Sequence[str], golden_words: Sequence[str]) -> tuple[float, float, float]:
    common = sum((Counter(response_words) & Counter(golden_words)).values())
    if common == 0:
        return 0.0, 0.0, 0.0
    precision = common / len(response_words)
    recall = common / len(golden_words)
    return precision, recall, 2 * precision * recall / (precision + recall)


_WORD = re.compile(r"\S+")


def multiset_words(text: str) -> list[Token]:
    """Lower-case, drop ASCII punctuation, split on whitespace; articles kept (not FMEval)."""
    lowered, offsets = lowered_offsets(text)
    pairs = [(c, i) for c, i in zip(lowered, offsets, strict=True) if c not in PUNCTUATION]
    chars = "".join(c for c, _ in pairs)
    return [Token(m.group(), pairs[m.start()][1], pairs[m.end() - 1][1] + 1) for m in _WORD.finditer(chars)]


@dataclass(slots=True)
class _Target:
    """One golden target, prepared once and reused for every pipeline's response."""

    text: str
    offset: int
    stripped: str
    normalised: str
    #: The target's word set, worked out when first asked for (:attr:`words`): the usual row is
    #: scored in C from :attr:`normalised` alone (:mod:`goldenlens.core.lexical.batch`).
    found_words: frozenset[str] | None = None
    tokens: list[Token] = field(default_factory=list, compare=False)

    @property
    def words(self) -> frozenset[str]:
        """The words QA Accuracy counts: ``normalised.split()`` as a set."""
        if self.found_words is None:
            self.found_words = frozenset(self.normalised.split())
        return self.found_words

    def spans(self) -> list[Token]:
        """The target's counted words with spans, computed once and shared by every pipeline."""
        if not self.tokens and self.words:
            self.tokens.extend(words_with_spans(self.text))
        return self.tokens


def _targets(answer: str) -> tuple[_Target, ...]:
    targets: list[_Target] = []
    offset = 0
    for text in answer.split(TARGET_DELIMITER):
        stripped = text.strip()
        targets.append(_Target(text, offset, stripped, normalise(stripped)))
        offset += len(text) + len(TARGET_DELIMITER)
    return tuple(targets)


class LexicalScorer:
    """Scores responses against golden items, preparing each answer and fact once.

    The batch job keeps one scorer for a whole run: with N pipelines every golden answer is
    normalised once instead of 5·N times, which is where the speed-up over a per-row
    FMEval loop comes from (see tests/bench/bench_lexical.py).
    """

    def __init__(self, *, multiset: bool = False) -> None:
        self.multiset = multiset
        self._answers: dict[str, tuple[_Target, ...]] = {}
        self._facts: dict[str, FactMatcher] = {}
        self._reason_maps: dict[str, Mapping[str, str]] = {}

    def params(self) -> dict[str, object]:
        return {"counting": "multiset" if self.multiset else "set", "target_delimiter": TARGET_DELIMITER}

    def _prepared(self, answer: str) -> tuple[_Target, ...]:
        targets = self._answers.get(answer)
        if targets is None:
            targets = self._answers[answer] = _targets(answer)
        return targets

    def _matcher(self, fact: str) -> FactMatcher:
        matcher = self._facts.get(fact)
        if matcher is None:
            matcher = self._facts[fact] = FactMatcher(fact)
        return matcher

    def not_scored_reasons(self, fact: str) -> tuple[str, str]:
        """Why exact and quasi-exact Factual Knowledge are not scored against ``fact``
        (``""``: scored), worked out once per fact."""
        matcher = self._matcher(fact)
        return matcher.not_scored_reason, matcher.quasi_not_scored_reason

    def qa(self, response: str, answer: str) -> QAScores:
        """QA Accuracy: each score is the max over the ``<OR>`` targets of the answer."""
        stripped = response.strip()
        return self._qa(response, stripped, *normalised_words(stripped), answer)

    def _qa(
        self, response: str, stripped: str, normalised: str, words: AbstractSet[str], answer: str
    ) -> QAScores:
        targets = self._prepared(answer)
        if len(targets) == 1 and not self.multiset:  # the common case: no max over targets
            target = targets[0]
            p, r, f1 = prf(words, target.words)
            return QAScores(
                f1, p, r, float(stripped == target.stripped), float(normalised == target.normalised), 0
            )
        multiset_response = [t.word for t in multiset_words(response)] if self.multiset else []
        best: list[float] = [0.0] * 5
        best_f1_index = 0
        best_f1 = -1.0
        for index, target in enumerate(targets):
            if self.multiset:
                p, r, f1 = _multiset_prf(multiset_response, [t.word for t in multiset_words(target.text)])
            else:
                p, r, f1 = prf(words, target.words)
            exact = float(stripped == target.stripped)
            quasi = float(normalised == target.normalised)
            for k, value in enumerate((f1, p, r, exact, quasi)):
                best[k] = max(best[k], value)
            if f1 > best_f1:
                best_f1, best_f1_index = f1, index
        return QAScores(best[0], best[1], best[2], best[3], best[4], best_f1_index)

    def align(self, response: str, answer: str, target_index: int = 0) -> Alignment:
        """Word spans of the response and of one target of the golden answer, classified."""
        target = self._prepared(answer)[target_index]
        if self.multiset:
            return _multiset_alignment(response, target, target_index)
        response_tokens = words_with_spans(response)
        answer_tokens = target.spans()
        response_set = frozenset(t.word for t in response_tokens)
        return Alignment(
            response=tuple(
                WordSpan(
                    t.start, t.end, t.word, WordKind.MATCHED if t.word in target.words else WordKind.EXTRA
                )
                for t in response_tokens
            ),
            answer=tuple(
                WordSpan(
                    t.start + target.offset,
                    t.end + target.offset,
                    t.word,
                    WordKind.MATCHED if t.word in response_set else WordKind.MISSED,
                )
                for t in answer_tokens
            ),
            target_index=target_index,
        )

    def reasons(self, fact: str) -> Mapping[str, str]:
        """Why each not-scored Factual Knowledge metric is not scored against ``fact``, by
        metric name (empty: both are scored); one mapping per fact, shared: do not change it."""
        found = self._reason_maps.get(fact)
        if found is None:
            exact_reason, quasi_reason = self.not_scored_reasons(fact)
            found = {}
            if exact_reason:
                found[FACTUAL_KNOWLEDGE] = exact_reason
            if quasi_reason:
                found[FACTUAL_KNOWLEDGE_QUASI_EXACT] = quasi_reason
            self._reason_maps[fact] = found
        return found

    def ascii_arguments(
        self, answer: str, fact: str
    ) -> (
        tuple[tuple[tuple[str, str, str], ...], tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
        | None
    ):
        """What ``goldenlens.core.lexical._quac_ascii.row_values`` takes after an ASCII response to give
        :meth:`values` of it against ``answer`` and ``fact``: each ``<OR>`` target stripped,
        normalised, and its distinct words joined by spaces; the fact's parts lower-cased and
        normalised. ``None`` where it would not give them: multiset counting, an answer that
        is not ASCII text, a fact with a score not scored."""
        if self.multiset:
            return None
        targets = self._answers.get(answer) or self._prepared(answer)
        matcher = self._facts.get(fact) or self._matcher(fact)
        if not answer.isascii() or matcher.not_scored_reason or matcher.quasi_not_scored_reason:
            return None
        distinct = normalise_steps.ascii_distinct_words
        if distinct is None:  # (the C extension takes these arguments; it is there when called)
            prepared = tuple((t.stripped, t.normalised, " ".join(t.words)) for t in targets)
        else:  # the targets' words, with no str made for each (their set is made only if asked for)
            prepared = tuple((t.stripped, t.normalised, distinct(t.normalised)) for t in targets)
        return prepared, matcher.lower_groups, matcher.normalised_groups

    def values(self, response: str, answer: str, fact: str) -> tuple[float | None, ...]:
        """The seven scores in :data:`LEXICAL_SCORE_NAMES` order (``None``: not scored, see
        :meth:`reasons`): what :meth:`score` gives, with no object made per row — the batch
        path, which runs for every response of a run."""
        # One normalisation of the response serves QA Accuracy and Factual Knowledge alike.
        stripped = response.strip()
        return self.values_normalised(
            response, stripped, *normalised_words(stripped), answer=answer, fact=fact
        )

    def values_normalised(
        self,
        response: str,
        stripped: str,
        normalised: str,
        words: AbstractSet[str],
        *,
        answer: str,
        fact: str,
    ) -> tuple[float | None, ...]:
        """:meth:`values` of a response whose ``response.strip()``, ``normalise`` of that and
        word set are known (:mod:`goldenlens.core.lexical.batch` works them out for a batch)."""
        targets = self._answers.get(answer) or self._prepared(answer)
        if len(targets) == 1 and not self.multiset:  # the common case: no max over targets
            target = targets[0]
            precision, recall, f1 = prf(words, target.words)
            exact_match = float(stripped == target.stripped)
            quasi_match = float(normalised == target.normalised)
        else:
            qa = self._qa(response, stripped, normalised, words, answer)
            f1, precision, recall = qa.f1, qa.precision, qa.recall
            exact_match, quasi_match = qa.exact_match, qa.quasi_exact_match
        matcher = self._facts.get(fact) or self._matcher(fact)
        if matcher.not_scored_reason:
            exact: float | None = None
            quasi: float | None = None
        else:
            exact, quasi = matcher.scores(response, normalised=normalised)
            if matcher.quasi_not_scored_reason:
                quasi = None
        return (exact, quasi, f1, precision, recall, exact_match, quasi_match)

    def score(self, response: str, answer: str, fact: str, *, with_alignment: bool = True) -> LexicalResult:
        """All seven lexical scores (:meth:`values`), the reasons of those not scored, and, when
        ``with_alignment``, the alignment and fact spans."""
        values = self.values(response, answer, fact)
        scores = dict(zip(LEXICAL_SCORE_NAMES, values, strict=True))
        reasons = dict(self.reasons(fact))
        exact, quasi = values[0], values[1]
        if not with_alignment:
            fact_result = FactResult(exact or 0.0, quasi or 0.0)
            return LexicalResult(scores, fact_result, None, self.params(), reasons)
        if exact is None:
            fact_result = FactResult(0.0, 0.0)  # nothing to highlight: the fact is not scored
        else:
            fact_result = self._matcher(fact).match(response)
            if quasi is None and fact_result.matched_by == "quasi_exact":
                fact_result = FactResult(fact_result.exact, 0.0)
        target_index = 0
        if len(self._prepared(answer)) > 1:
            target_index = self.qa(response, answer).target_index
        alignment = self.align(response, answer, target_index)
        return LexicalResult(scores, fact_result, alignment, self.params(), reasons)


def _multiset_alignment(response: str, target: _Target, target_index: int) -> Alignment:
    response_tokens = multiset_words(response)
    answer_tokens = multiset_words(target.text)
    budget = Counter(t.word for t in answer_tokens) & Counter(t.word for t in response_tokens)
    left = Counter(budget)
    spans: list[WordSpan] = []
    for t in response_tokens:
        matched = left[t.word] > 0
        left[t.word] -= int(matched)
        spans.append(WordSpan(t.start, t.end, t.word, WordKind.MATCHED if matched else WordKind.EXTRA))
    left = Counter(budget)
    golden: list[WordSpan] = []
    for t in answer_tokens:
        matched = left[t.word] > 0
        left[t.word] -= int(matched)
        golden.append(
            WordSpan(
                t.start + target.offset,
                t.end + target.offset,
                t.word,
                WordKind.MATCHED if matched else WordKind.MISSED,
            )
        )
    return Alignment(tuple(spans), tuple(golden), target_index, multiset=True)


def counting_is_multiset(params: Mapping[str, object]) -> bool:
    """Whether a result's parameters (a run's lexical signature) say multiset counting."""
    return params.get("counting") == "multiset"


def derive_spans(result: LexicalResult, response: str, answer: str, fact: str) -> LexicalResult:
    """``result`` with its token alignment and fact spans.

    Highlighting is derived data: a pure function of the texts and the counting mode, so it is
    worked out when a question is shown or the Highlights sheet is written, never stored per
    row. The scores stay ``result``'s (a reviewer's view never changes a stored number); the
    spans come from scoring the same texts again with the same counting, which chooses the
    same best ``<OR>`` target the scores came from.
    """
    if result.alignment is not None:
        return result
    scorer = LexicalScorer(multiset=counting_is_multiset(result.params))
    full = scorer.score(response, answer, fact, with_alignment=True)
    return LexicalResult(result.scores, full.fact, full.alignment, result.params, result.reasons)


def score_response(
    response: str, answer: str, fact: str, *, multiset: bool = False, with_alignment: bool = True
) -> LexicalResult:
    """Convenience for one row; batch work should keep one :class:`LexicalScorer`."""
    return LexicalScorer(multiset=multiset).score(response, answer, fact, with_alignment=with_alignment)

"""QA Accuracy (FMEval 1.2.3): expected values, the METRICS.md seed numbers, and bit-for-bit
agreement with the literal reference port; then the alignment and the multiset option."""

from __future__ import annotations

import string

import pytest
from core_sample import SampleRows
from core_strategies import answers, single_operator_facts, texts
from hypothesis import given, settings

import fmeval_reference as ref
from goldenlens.core.lexical.normalise import normalise, word_set
from goldenlens.core.lexical.scorer import (
    EXACT_MATCH,
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    LEXICAL_SCORE_NAMES,
    PRECISION,
    QUASI_EXACT_MATCH,
    RECALL,
    Alignment,
    LexicalScorer,
    WordKind,
    prf,
    score_response,
)

QA = (F1_SCORE, PRECISION, RECALL, EXACT_MATCH, QUASI_EXACT_MATCH)

# (response, golden answer) -> (f1, precision, recall, exact, quasi-exact)
CASES = {
    "empty response": ("", "Paris", (0.0, 0.0, 0.0, 0.0, 0.0)),
    "whitespace-only response": (" \n\t\xa0", "Paris", (0.0, 0.0, 0.0, 0.0, 0.0)),
    "empty answer": ("Paris", "", (0.0, 0.0, 0.0, 0.0, 0.0)),
    "both empty: exact match, no words": ("", "", (0.0, 0.0, 0.0, 1.0, 1.0)),
    "both blank after strip": (" \n", "\t", (0.0, 0.0, 0.0, 1.0, 1.0)),
    "articles only vs empty": ("The", "", (0.0, 0.0, 0.0, 0.0, 1.0)),
    "identical": ("Paris", "Paris", (1.0, 1.0, 1.0, 1.0, 1.0)),
    "identical after strip": ("  Paris\n", "Paris ", (1.0, 1.0, 1.0, 1.0, 1.0)),
    "exact match is case-sensitive": ("PARIS", "Paris", (1.0, 1.0, 1.0, 0.0, 1.0)),
    "quasi-exact ignores punctuation and articles": ("The Paris.", "paris", (1.0, 1.0, 1.0, 0.0, 1.0)),
    "no overlap": ("London", "Paris", (0.0, 0.0, 0.0, 0.0, 0.0)),
    "set semantics ignore repeats": ("cat cat cat", "cat", (1.0, 1.0, 1.0, 0.0, 0.0)),
    "newline keeps the article": ("the\ncat", "cat", (2 / 3, 0.5, 1.0, 0.0, 0.0)),
    "partial overlap": ("Paris is big", "Paris is the capital", (2 / 3, 2 / 3, 2 / 3, 0.0, 0.0)),
    # NLTK's 1/(0.5/p + 0.5/r) is 0.3333333333333333 here; 2pr/(p+r) would be 0.33333333333333337.
    "nltk f-measure rounding": (
        "Paris",
        "Paris is capital of France",
        (0.3333333333333333, 1.0, 0.2, 0.0, 0.0),
    ),
    "commas inside numbers": ("10,317,750,796 shares", "10317750796 shares", (1.0, 1.0, 1.0, 0.0, 1.0)),
    "curly apostrophe is a different word": ("Amazon\u2019s CEO", "Amazon's CEO", (0.5, 0.5, 0.5, 0.0, 0.0)),
    "<OR> picks the matching target": ("London", "Paris<OR>London", (1.0, 1.0, 1.0, 1.0, 1.0)),
    "<OR> targets are stripped": ("London", "Paris <OR> London ", (1.0, 1.0, 1.0, 1.0, 1.0)),
    "<OR> partial": ("It is London", "Paris<OR> London ", (0.5, 1 / 3, 1.0, 0.0, 0.0)),
    # Each score is its own max: precision from the long target, recall from the short one.
    "<OR> max per score": ("w x y z", "x<OR>w x y z u v", (0.8, 1.0, 1.0, 0.0, 0.0)),
    "empty <OR> target matches an empty response exactly": ("", "Paris<OR>", (0.0, 0.0, 0.0, 1.0, 1.0)),
}


@pytest.mark.parametrize(("response", "answer", "expected"), CASES.values(), ids=CASES.keys())
def test_expected_values(response: str, answer: str, expected: tuple[float, ...]) -> None:
    qa = LexicalScorer().qa(response, answer)
    got = (qa.f1, qa.precision, qa.recall, qa.exact_match, qa.quasi_exact_match)
    assert got == pytest.approx(expected, abs=1e-15)
    assert dict(zip(QA, got, strict=True)) == ref.qa_accuracy(response, answer)


def test_f1_is_nltk_f_measure_bit_for_bit() -> None:
    assert LexicalScorer().qa("Paris", "Paris is capital of France").f1 == 1.0 / (0.5 / 1.0 + 0.5 / 0.2)
    assert prf(frozenset({"a"}), frozenset("abcde")) == (1.0, 0.2, 0.3333333333333333)


def test_prf_edge_cases() -> None:
    assert prf(frozenset(), frozenset({"x"})) == (0.0, 0.0, 0.0)
    assert prf(frozenset({"x"}), frozenset()) == (0.0, 0.0, 0.0)
    assert prf(frozenset({"x"}), frozenset({"y"})) == (0.0, 0.0, 0.0)


# --- METRICS.md seed numbers on the real sample rows ------------------------------------------

SEEDS = {
    "q10/Pipeline1 verbose": ("q10", "Pipeline1", {PRECISION: 0.238, F1_SCORE: 0.364}, 3),
    "q10/Pipeline2 shares": ("q10", "Pipeline2", {RECALL: 0.923, PRECISION: 1.0, F1_SCORE: 0.96}, 3),
    "q02/Pipeline2 hallucination": ("q02", "Pipeline2", {RECALL: 0.92, "factual_knowledge": 0.0}, 2),
    "q03/Pipeline1 Seattle": ("q03", "Pipeline1", {RECALL: 0.54}, 2),
}


@pytest.mark.parametrize(("qid", "pipeline", "expected", "digits"), SEEDS.values(), ids=SEEDS.keys())
def test_metrics_md_seed_numbers(
    sample: SampleRows, qid: str, pipeline: str, expected: dict[str, float], digits: int
) -> None:
    response, answer, fact = sample.row(qid, pipeline)
    scores = LexicalScorer().score(response, answer, fact).scores
    assert {k: round(scores[k], digits) for k in expected} == expected


def test_seed_rows_are_the_ones_metrics_md_quotes(sample: SampleRows) -> None:
    assert sample.row("q10", "Pipeline2")[0] == (
        "As of July 21, 2023, there were 10,317,750,796 shares of common stock outstanding."
    )
    assert "$170.0 billion" in sample.row("q02", "Pipeline2")[0]
    assert "located in Seattle, Washington" in sample.row("q03", "Pipeline1")[0]


def test_q10_pipeline2_exact_fractions(sample: SampleRows) -> None:
    # 12 distinct response words, all golden; 13 golden words ("amazons" missing).
    scores = LexicalScorer().score(*sample.row("q10", "Pipeline2")).scores
    assert scores[PRECISION] == 1.0
    assert scores[RECALL] == 12 / 13
    assert scores[F1_SCORE] == 1.0 / (0.5 / 1.0 + 0.5 / (12 / 13))


def test_every_sample_row_equals_the_reference(sample: SampleRows) -> None:
    scorer = LexicalScorer()
    for qid, pipeline in sample.responses:
        response, answer, fact = sample.row(qid, pipeline)
        assert scorer.score(response, answer, fact).scores == ref.all_scores(response, answer, fact), (
            qid,
            pipeline,
        )


# --- bit-for-bit agreement with the reference ------------------------------------------------

SHARED = LexicalScorer()  # reused across examples: its answer/fact caches must not leak between rows


@settings(max_examples=500, deadline=None)
@given(texts, answers, single_operator_facts)
def test_scores_equal_reference(response: str, answer: str, fact: str) -> None:
    expected = ref.all_scores(response, answer, fact)
    fast = SHARED.score(response, answer, fact, with_alignment=False).scores
    full = LexicalScorer().score(response, answer, fact, with_alignment=True).scores
    assert list(fast) == list(LEXICAL_SCORE_NAMES)
    # The one deliberate deviation: a fact FMEval would count as found in every response is
    # not scored (README, metrics). Which facts those are is worked out here independently.
    parts = [p for group in fact.split("<OR>") for p in group.split("<AND>")]
    empty = any(not p.strip() for p in parts)
    hollow = empty or any(not ref.normalize_text_quac_protocol(p.strip()) for p in parts)
    not_scored = {FACTUAL_KNOWLEDGE: empty, FACTUAL_KNOWLEDGE_QUASI_EXACT: hollow}
    for name in LEXICAL_SCORE_NAMES:
        if not_scored.get(name, False):
            assert fast[name] is None, name
            assert full[name] is None, name
            continue
        # == on floats, not approx: the scores must be FMEval's to the last bit.
        assert fast[name] == expected[name], name
        assert full[name] == expected[name], name
        assert type(fast[name]) is float


@settings(max_examples=300, deadline=None)
@given(texts, texts)
def test_qa_equals_reference_on_plain_texts(response: str, answer: str) -> None:
    qa = LexicalScorer().qa(response, answer)
    expected = ref.qa_accuracy(response, answer)
    assert (qa.f1, qa.precision, qa.recall, qa.exact_match, qa.quasi_exact_match) == tuple(
        expected[n] for n in QA
    )


# --- alignment -------------------------------------------------------------------------------


def _check_alignment(response: str, answer: str, alignment: Alignment) -> None:
    targets = answer.split("<OR>")
    target = targets[alignment.target_index]
    response_words, golden_words = word_set(response), word_set(target)

    assert [s.word for s in alignment.response] == normalise(response.strip()).split()
    assert [s.word for s in alignment.answer] == normalise(target.strip()).split()
    for span in alignment.response:
        assert (span.kind is WordKind.MATCHED) == (span.word in golden_words)
        assert span.kind in (WordKind.MATCHED, WordKind.EXTRA)
    for span in alignment.answer:
        assert (span.kind is WordKind.MATCHED) == (span.word in response_words)
        assert span.kind in (WordKind.MATCHED, WordKind.MISSED)
    # Spans index the original strings, the answer spans the whole answer (all targets).
    for text, spans in ((response, alignment.response), (answer, alignment.answer)):
        previous_end = 0
        for span in spans:
            assert previous_end <= span.start < span.end <= len(text)
            assert (
                "".join(c for c in text[span.start : span.end].lower() if c not in string.punctuation)
                == span.word
            )
            previous_end = span.end
    offset = sum(len(t) + len("<OR>") for t in targets[: alignment.target_index])
    assert all(offset <= s.start and s.end <= offset + len(target) for s in alignment.answer)

    counts = alignment.counts()
    tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
    assert (tp, fp, fn) == (
        len(response_words & golden_words),
        len(response_words - golden_words),
        len(golden_words - response_words),
    )
    # The scores of the aligned target follow from the counts whenever they are defined.
    per_target = ref.qa_accuracy(response, target)
    if tp + fp:
        assert per_target[PRECISION] == tp / (tp + fp)
    if tp + fn:
        assert per_target[RECALL] == tp / (tp + fn)
    # The aligned target is the one with the best F1.
    assert per_target[F1_SCORE] == ref.qa_accuracy(response, answer)[F1_SCORE]


@settings(max_examples=500, deadline=None)
@given(texts, answers)
def test_alignment_is_consistent_with_the_scores(response: str, answer: str) -> None:
    result = LexicalScorer().score(response, answer, "x")
    assert result.alignment is not None
    assert not result.alignment.multiset
    _check_alignment(response, answer, result.alignment)


def test_alignment_on_sample_rows(sample: SampleRows) -> None:
    scorer = LexicalScorer()
    for qid, pipeline in sample.responses:
        response, answer, fact = sample.row(qid, pipeline)
        result = scorer.score(response, answer, fact)
        assert result.alignment is not None
        _check_alignment(response, answer, result.alignment)


def test_alignment_marks_every_occurrence_of_a_matched_word() -> None:
    alignment = LexicalScorer().align("cat, the cat and a dog", "The cat sat")
    assert [(s.word, s.kind) for s in alignment.response] == [
        ("cat", WordKind.MATCHED),
        ("cat", WordKind.MATCHED),
        ("and", WordKind.EXTRA),
        ("dog", WordKind.EXTRA),
    ]
    assert [(s.word, s.kind, s.start, s.end) for s in alignment.answer] == [
        ("cat", WordKind.MATCHED, 4, 7),
        ("sat", WordKind.MISSED, 8, 11),
    ]
    assert alignment.counts() == {"tp": 1, "fp": 2, "fn": 1}


def test_alignment_picks_the_best_target_and_offsets_into_the_answer() -> None:
    answer = "Paris<OR>London, UK"
    result = LexicalScorer().score("London", answer, "London")
    assert result.alignment is not None
    assert result.alignment.target_index == 1
    (london, uk) = result.alignment.answer
    assert answer[london.start : london.end] == "London"
    assert (uk.word, uk.kind, answer[uk.start : uk.end]) == ("uk", WordKind.MISSED, "UK")


def test_without_alignment_the_result_has_none() -> None:
    result = LexicalScorer().score("Paris", "Paris", "Paris", with_alignment=False)
    assert result.alignment is None
    assert result.fact.matches == ()


# --- multiset option (not FMEval) ------------------------------------------------------------


def test_multiset_reproduces_the_articles_hand_worked_table(sample: SampleRows) -> None:
    result = LexicalScorer(multiset=True).score(*sample.row("q10", "Pipeline3"))
    assert result.alignment is not None
    assert result.alignment.multiset
    assert result.alignment.counts() == {"tp": 11, "fp": 7, "fn": 3}
    assert result.scores[PRECISION] == 11 / 18
    assert result.scores[RECALL] == 11 / 14
    assert result.params["counting"] == "multiset"


def test_multiset_is_not_the_default(sample: SampleRows) -> None:
    row = sample.row("q10", "Pipeline3")
    assert LexicalScorer().multiset is False
    default = score_response(*row)
    assert default.params["counting"] == "set"
    assert default.alignment is not None
    assert not default.alignment.multiset
    assert default.alignment.counts() == {"tp": 10, "fp": 6, "fn": 3}
    assert default.scores == ref.all_scores(*row)
    assert default.scores != LexicalScorer(multiset=True).score(*row).scores


def test_multiset_counts_repeats_and_keeps_articles() -> None:
    qa = LexicalScorer(multiset=True).qa("the cat the cat", "the cat")
    assert (qa.precision, qa.recall) == (0.5, 1.0)
    alignment = LexicalScorer(multiset=True).align("the cat the cat", "the cat")
    assert [s.kind for s in alignment.response] == [
        WordKind.MATCHED,
        WordKind.MATCHED,
        WordKind.EXTRA,
        WordKind.EXTRA,
    ]
    assert alignment.counts() == {"tp": 2, "fp": 2, "fn": 0}


@settings(max_examples=300, deadline=None)
@given(texts, texts)
def test_multiset_counts_agree_with_its_scores(response: str, answer: str) -> None:
    scorer = LexicalScorer(multiset=True)
    qa = scorer.qa(response, answer)
    # The highlight follows the target the scores came from (an <OR> answer has several).
    counts = scorer.align(response, answer, qa.target_index).counts()
    tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
    if tp:
        assert qa.precision == tp / (tp + fp)
        assert qa.recall == tp / (tp + fn)
    else:
        assert (qa.precision, qa.recall, qa.f1) == (0.0, 0.0, 0.0)

"""The curation advisor on constructed rows: tables of expected diagnoses.

Every expected value is worked out by hand from the FMEval algorithm (normalise: lower-case,
drop ASCII punctuation and the articles a/an/the; compare word *sets*; Factual Knowledge is
case-insensitive substring inclusion), written next to each case, not read back from the code.
Projects with one question (or one pipeline) keep the project-wide rules (false matches,
LLM-specific wording) out of cases that are not about them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from core_strategies import FACT_PARTS, texts
from hypothesis import given, settings
from hypothesis import strategies as st

from goldenlens.core.advice.advisor import advise, similarity_from_records
from goldenlens.core.advice.corpus import Corpus, CorpusResponse
from goldenlens.core.advice.values import (
    AdviceCode,
    AdviceSeverity,
    AdviceThresholds,
    Diagnosis,
    FixKind,
    ProjectAdvice,
)
from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.flags import Flag, FlagThresholds
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, LexicalScorer
from goldenlens.core.scored_rows import score_all
from goldenlens.core.scores import ScoreRecord
from goldenlens.jobs.curation.edits import fact_with_variant

A, B, C = "A", "B", "C"
Row = tuple[str, str, str, str]  # id, question, answer, fact


def _advice(
    golden: Sequence[Row],
    responses: Mapping[tuple[str, str], str],
    *,
    similarity: Mapping[tuple[str, str], float] | None = None,
    thresholds: AdviceThresholds | None = None,
) -> ProjectAdvice:
    items = [GoldenItem(i, q, a, f) for i, q, a, f in golden]
    pipelines = list(dict.fromkeys(p for _, p in responses))
    rows = [PipelineResponse(q, p, text) for (q, p), text in responses.items()]
    return advise(score_all(items, rows, pipelines), similarity=similarity, thresholds=thresholds)


def _codes(advice: ProjectAdvice, question_id: str) -> set[tuple[str, str]]:
    question = next(q for q in advice.questions if q.question_id == question_id)
    return {(d.code.value, d.pipeline) for d in question.diagnoses}


def _one(advice: ProjectAdvice, code: AdviceCode, pipeline: str = "") -> Diagnosis:
    found = [d for d in advice.diagnoses if d.code is code and d.pipeline == pipeline]
    assert len(found) == 1, [(d.code, d.pipeline) for d in advice.diagnoses]
    return found[0]


PARIS: Row = ("q1", "What is the capital of France?", "The capital of France is Paris.", "Paris")

# Issue 21: the rules a reviewer's labels refuted, fixed.
GROWTH: Row = ("g1", "How much did revenue grow?", "Revenue grew 7% year over year.", "7%")


def test_another_number_where_the_fact_has_one_is_a_likely_wrong_answer() -> None:
    # "about 10%": FK 0, golden words {revenue, grew, 7, year, over} → recall 2/5 = 0.4, in the
    # "rephrased" band; but 10% is another percentage than the fact's 7%: likely wrong.
    advice = _advice([GROWTH], {("g1", A): "Revenue grew about 10%."})
    d = _one(advice, AdviceCode.LIKELY_HALLUCINATION, A)
    assert (d.numbers["stated"], d.numbers["expected"]) == ("10%", "7%")
    assert "'10%' where the fact says '7%'" in d.explanation


def test_the_facts_value_in_words_is_correct_but_rephrased_with_its_spelling_as_the_fix() -> None:
    advice = _advice([GROWTH], {("g1", A): "Revenue grew seven percent."})
    d = _one(advice, AdviceCode.CORRECT_BUT_REPHRASED, A)
    assert d.fix is not None
    assert d.fix.value == "seven percent"


def test_a_rounded_value_or_the_questions_own_numbers_are_not_another_value() -> None:
    item: Row = (
        "s1",
        "What were AWS sales in 2023?",
        "AWS sales were $22.1 billion in 2023.",
        "22.1 billion",
    )
    # Golden words {aws, sales, were, 221, billion, in, 2023}; the response shares 4 of 7 (recall
    # 0.57, the "rephrased" band). "$22 billion" rounds 22.1 billion and 2023 is the question's.
    advice = _advice([item], {("s1", A): "AWS made about $22 billion in 2023."})
    assert ("correct_but_rephrased", A) in _codes(advice, "s1")
    assert ("likely_hallucination", A) not in _codes(advice, "s1")


ALIAS: Row = ("t1", "What star sign is Jamie Lee Curtis?", "Scorpio", "Scorpio<OR>Skorpio<OR>Scorpion")


def test_a_match_through_an_alias_the_golden_answer_lacks_is_not_accidental() -> None:
    # "Skorpio" is found (FK 1) but recall against "Scorpio" is 0: the alias explains it.
    advice = _advice([ALIAS], {("t1", A): "Jamie Lee Curtis was born under Skorpio, as astrologers say."})
    assert not [d for d in advice.diagnoses if d.code is AdviceCode.ACCIDENTAL_FACT_MATCH]


def test_when_the_golden_answer_is_the_fact_recall_cannot_tell_a_hallucination() -> None:
    # Golden answer "Henry Campbell Bannerman" (3 words), fact "Henry Campbell-Bannerman" (FMEval
    # words {henry, campbellbannerman}): the answer is as short as the fact. The response has all
    # three answer words (recall 3/3 ≥ 0.7) and misses the hyphenated fact (FK 0): before, a
    # likely hallucination; it is a near miss of the same name, which recall cannot tell.
    name: Row = ("t2", "Who followed Balfour?", "Henry Campbell Bannerman", "Henry Campbell-Bannerman")
    advice = _advice([name], {("t2", A): "It was Henry Campbell Bannerman."})
    assert not [d for d in advice.diagnoses if d.code is AdviceCode.LIKELY_HALLUCINATION]


# (golden row, responses by pipeline, expected {(code, pipeline)}) — one question each.
CASES: list[tuple[str, Row, dict[str, str], set[tuple[str, str]]]] = [
    (
        # A: golden words {capital, of, france, is, paris}; A shares 4 of 5 → recall 0.8 ≥ 0.7
        # and "paris" is not in it → likely hallucination. B has the fact (recall 3/5).
        "hallucination",
        PARIS,
        {A: "The capital of France is Lyon.", B: "Paris is the capital."},
        {("likely_hallucination", A)},
    ),
    (
        # Neither response contains "foreign exchange rates" → ambiguous. A holds all three fact
        # words, not contiguously ("foreign currency exchange rates") → rephrased, although its
        # recall 5/5 would call it a hallucination. The fact covers 3 of the answer's 5 words
        # (60% ≥ 60%, answer ≥ 5 words) → not minimal.
        "ambiguous, rephrased by fact-word coverage, not minimal",
        ("q1", "What hurt sales?", "Foreign exchange rates hurt sales.", "foreign exchange rates"),
        {A: "Changes in foreign currency exchange rates hurt sales.", B: "Weak demand."},
        {("ambiguous_question", ""), ("correct_but_rephrased", A), ("fact_not_minimal", "")},
    ),
    (
        # A: "134,383 million" is not a substring of "134383 million" (exact 0) but
        # normalise("134,383 million") = "134383 million" is in the normalised response (quasi 1).
        "rephrased: quasi-exact",
        ("q1", "What were net sales?", "Net sales were $134,383 million.", "134,383 million"),
        {A: "Net sales were 134383 million.", B: "Net sales were $134,383 million."},
        {("correct_but_rephrased", A)},
    ),
    (
        # A: "117" is inside "doc-2117-b" (exact 1) and shares no golden word (recall 0 ≤ 0.1)
        # → accidental match. "117" is a bare number of 3 digits (≤ 3) → prone to false matches.
        "accidental match, prone fact",
        ("q1", "What is the contract number?", "The contract number is 117.", "117"),
        {A: "See document DOC-2117-B for details.", B: "The contract number is 117."},
        {("accidental_fact_match", A), ("fact_prone_to_false_matches", "")},
    ),
    (
        # "mount everest" is not in "the highest mountain is everest." → fact not in answer;
        # A has the fact (recall: {everest} of {highest, mountain, is, everest} = 0.25).
        "fact not in answer",
        ("q1", "What is the highest mountain?", "The highest mountain is Everest.", "Mount Everest"),
        {A: "Mount Everest."},
        {("fact_not_in_answer", "")},
    ),
    (
        # An empty <OR> part: Factual Knowledge not scored, so no response reading and no
        # ambiguity; the fix drops the empty part.
        "empty fact part",
        ("q1", "What is the capital of France?", "Paris.", "Paris<OR>"),
        {A: "Lyon."},
        {("empty_fact_part", "")},
    ),
    (
        # "True" is a single common word → prone; A has it (recall: {true} of {true, it, is} = 1/3).
        "single common word",
        ("q1", "Is it so?", "True, it is.", "True"),
        {A: "True."},
        {("fact_prone_to_false_matches", "")},
    ),
    (
        # Both have the fact; recall 3/5 and 2/5 — nothing to say.
        "clean row",
        PARIS,
        {A: "Paris is the capital.", B: "It is Paris."},
        set(),
    ),
]


@pytest.mark.parametrize(("name", "row", "responses", "expected"), CASES, ids=[c[0] for c in CASES])
def test_diagnoses_of_constructed_rows(
    name: str, row: Row, responses: dict[str, str], expected: set[tuple[str, str]]
) -> None:
    advice = _advice([row], {("q1", p): text for p, text in responses.items()})
    assert _codes(advice, "q1") == expected


def test_hallucination_names_its_numbers() -> None:
    advice = _advice([PARIS], {("q1", A): "The capital of France is Lyon.", ("q1", B): "Paris."})
    d = _one(advice, AdviceCode.LIKELY_HALLUCINATION, A)
    assert d.severity is AdviceSeverity.MEDIUM
    assert d.numbers["recall"] == pytest.approx(0.8)
    assert d.numbers["hallucination_recall"] == 0.7
    assert "recall 0.800 ≥ 0.7" in d.explanation


def test_ambiguous_question_shows_every_answer_side_by_side() -> None:
    row = ("q1", "What hurt sales?", "Foreign exchange rates hurt sales.", "foreign exchange rates")
    a, b = "Changes in foreign currency exchange rates hurt sales.", "Weak demand."
    advice = _advice([row], {("q1", A): a, ("q1", B): b})
    d = _one(advice, AdviceCode.AMBIGUOUS_QUESTION)
    assert d.severity is AdviceSeverity.HIGH
    assert [(x.pipeline, x.response, x.factual_knowledge, x.reading) for x in d.answers] == [
        (A, a, 0.0, "correct_but_rephrased"),
        (B, b, 0.0, ""),
    ]
    # recall of A: {changes, in, foreign, currency, exchange, rates, hurt, sales} ⊇ all 5 golden words
    assert d.answers[0].recall == 1.0
    assert d.numbers["rephrased"] == 1
    assert d.fix is not None
    assert d.fix.kind is FixKind.EDIT_QUESTION
    share = _one(advice, AdviceCode.FACT_NOT_MINIMAL)
    assert share.numbers["fact_share"] == pytest.approx(3 / 5)
    assert (share.numbers["shared_words"], share.numbers["answer_words"]) == (3, 5)


def test_quasi_exact_rephrasing_proposes_the_response_text_as_a_variant() -> None:
    row = ("q1", "What were net sales?", "Net sales were $134,383 million.", "134,383 million")
    response = "Net sales were 134383 million."
    advice = _advice([row], {("q1", A): response, ("q1", B): "Net sales were $134,383 million."})
    d = _one(advice, AdviceCode.CORRECT_BUT_REPHRASED, A)
    assert d.severity is AdviceSeverity.HIGH
    assert d.fix is not None
    assert d.fix.kind is FixKind.ADD_VARIANT
    assert d.fix.value == "134383 million"
    # Applying the fix makes the response match: exact inclusion of the new alternative.
    fact = fact_with_variant(row[3], d.fix.value)
    assert fact == "134,383 million<OR>134383 million"
    assert LexicalScorer().score(response, row[2], fact).scores[FACTUAL_KNOWLEDGE] == 1.0


HAMLET: Row = ("q1", "Who wrote Hamlet?", "Hamlet was written by William Shakespeare.", "William Shakespeare")
# golden words {hamlet, was, written, by, william, shakespeare}
BARD = "The Bard of Avon, i.e. Shakespeare, penned it."  # shares {shakespeare}: recall 1/6, FK 0
MARLOWE = "Hamlet was written by Christopher Marlowe."  # shares 4/6 = 0.667: the recall band
RIGHT = "William Shakespeare wrote Hamlet."


@pytest.mark.parametrize(
    ("similarity", "expected"),
    [
        # No similarity: the recall band alone — MARLOWE reads as rephrased (medium), BARD not.
        (None, {("correct_but_rephrased", C)}),
        # Measured: it decides, whatever the recall.
        ({("q1", A): 0.9, ("q1", C): 0.4}, {("correct_but_rephrased", A)}),
        ({("q1", A): 0.5, ("q1", C): 0.85}, {("correct_but_rephrased", C)}),
        ({("q1", A): 0.79, ("q1", C): 0.79}, set()),
    ],
)
def test_semantic_similarity_separates_rephrased_from_wrong(
    similarity: dict[tuple[str, str], float] | None, expected: set[tuple[str, str]]
) -> None:
    responses = {("q1", A): BARD, ("q1", B): RIGHT, ("q1", C): MARLOWE}
    advice = _advice([HAMLET], responses, similarity=similarity)
    assert _codes(advice, "q1") == expected
    for d in advice.diagnoses:
        if similarity is None:
            assert d.severity is AdviceSeverity.MEDIUM
            assert "no semantic similarity" in d.explanation
        else:
            assert d.severity is AdviceSeverity.HIGH
            assert d.numbers["similarity"] == similarity["q1", d.pipeline]


def test_similarity_comes_from_semantic_similarity_records_only() -> None:
    records = [
        ScoreRecord("q1", A, "semantic_similarity", 0.91, "{}"),
        ScoreRecord("q1", B, "semantic_similarity", None, "{}"),
        ScoreRecord("q1", C, "faithfulness", 1.0, "{}"),
    ]
    assert similarity_from_records(records) == {("q1", A): 0.91}


def test_accidental_match_inside_a_token_is_high_with_an_override_fix() -> None:
    row = ("q1", "What is the contract number?", "The contract number is 117.", "117")
    advice = _advice([row], {("q1", A): "See document DOC-2117-B for details."})
    d = _one(advice, AdviceCode.ACCIDENTAL_FACT_MATCH, A)
    assert d.severity is AdviceSeverity.HIGH
    assert d.numbers["recall"] == 0.0
    assert d.numbers["inside_longer_token"] == 1
    assert d.fix is not None
    assert (d.fix.kind, d.fix.field, d.fix.value, d.fix.pipeline) == (
        FixKind.OVERRIDE_SCORE,
        FACTUAL_KNOWLEDGE,
        "0",
        A,
    )
    prone = _one(advice, AdviceCode.FACT_PRONE_TO_FALSE_MATCHES)
    assert "'117' is a bare number of 3 digits (at most 3)" in prone.explanation
    assert prone.severity is AdviceSeverity.MEDIUM  # no other question's response has it


def test_a_prone_part_is_quoted_as_written() -> None:
    advice = _advice([("q1", "Is it so?", "True, it is.", "True")], {("q1", A): "True."})
    d = _one(advice, AdviceCode.FACT_PRONE_TO_FALSE_MATCHES)
    assert d.explanation.startswith("'True' is a single common word. ")


def _year_project(second_answer: str) -> ProjectAdvice:
    golden = [
        ("q1", "When did it happen?", "It happened in 2023.", "2023"),
        ("q2", "Where was the meeting?", second_answer, "Berlin"),
    ]
    responses = {
        ("q1", A): "It happened in 2023.",
        ("q2", A): "The meeting in 2023 was held in Berlin.",
    }
    return _advice(golden, responses)


def test_a_year_found_in_another_questions_response_is_a_false_match() -> None:
    # "2023" has 4 digits (> 3): not prone by shape, but short (≤ 12 characters), so it is
    # searched for — and q2's response holds it while q2's golden answer does not.
    advice = _year_project("The meeting was held in Berlin.")
    assert _codes(advice, "q1") == {("fact_prone_to_false_matches", "")}
    assert _codes(advice, "q2") == set()  # "berlin" is in no response to q1
    d = _one(advice, AdviceCode.FACT_PRONE_TO_FALSE_MATCHES)
    assert d.severity is AdviceSeverity.HIGH
    assert [(m.question_id, m.pipeline, m.part) for m in d.false_matches] == [("q2", A, "2023")]
    assert "2023" in d.false_matches[0].excerpt
    assert d.numbers["other_responses"] == 1


def test_a_fact_expected_in_the_other_question_is_not_a_false_match() -> None:
    advice = _year_project("The 2023 meeting was held in Berlin.")
    assert _codes(advice, "q1") == set()


LOREM = " ".join(f"lorem{n}" for n in range(1, 41)) + "."


def test_verbose_golden_answer_shows_the_scores_against_the_trimmed_answer() -> None:
    fact_sentence = "Net sales were $134.4 billion in the quarter."
    answer = f"{fact_sentence} {LOREM}"
    row = ("q1", "What were net sales?", answer, "134.4 billion")
    # B: {sales, 1344, billion} — recall 3/47 = 0.064 ≤ 0.1 with the fact found, which the
    # flags call an accidental match; against the fact-bearing sentence it is 3/7 = 0.429, so
    # the long answer, not an accident, explains the low recall.
    responses = {("q1", A): "Net sales were $134.4 billion.", ("q1", B): "Sales: 134.4 billion."}
    advice = _advice([row], responses)
    assert _codes(advice, "q1") == {("verbose_golden_answer", "")}
    d = _one(advice, AdviceCode.VERBOSE_GOLDEN_ANSWER)
    # 8 + 40 = 48 whitespace words > 40; FMEval words: {net, sales, were, 1344, billion, in,
    # quarter} plus 40 lorem words = 47. The response's 5 words are all golden.
    assert (d.numbers["answer_words"], d.numbers["verbose_answer_words"], d.numbers["trimmed_words"]) == (
        48,
        40,
        8,
    )
    assert d.fix is not None
    assert d.fix.kind is FixKind.TRIM_ANSWER
    assert d.fix.value == fact_sentence
    s, b = d.trimmed
    assert (b.pipeline, b.recall, b.recall_trimmed) == (B, pytest.approx(3 / 47), pytest.approx(3 / 7))
    assert s.pipeline == A
    assert (s.precision, s.precision_trimmed) == (1.0, 1.0)  # trimming cannot raise precision
    assert s.recall == pytest.approx(5 / 47)
    assert s.recall_trimmed == pytest.approx(5 / 7)
    assert s.f1 == pytest.approx(2 * (5 / 47) / (1 + 5 / 47))
    assert s.f1_trimmed == pytest.approx(2 * (5 / 7) / (1 + 5 / 7))
    assert "48 words, more than the guardrail of 40" in d.explanation
    assert "carrying the fact have 8" in d.explanation


def test_llm_specific_wording_and_the_recall_it_biases() -> None:
    golden = [
        ("q1", "What is the capital of France?", "Certainly, the capital of France is Paris.", "Paris"),
        ("q2", "Which river flows through Paris?", "The river is the Seine.", "Seine"),
    ]
    responses = {
        ("q1", A): "Certainly, Paris is the capital.",
        ("q1", B): "Paris is the capital.",
        ("q2", A): "Certainly, it is the Seine.",
        ("q2", B): "It is the Seine.",
    }
    advice = _advice(golden, responses)
    assert _codes(advice, "q1") == {("llm_specific_wording", A)}
    assert _codes(advice, "q2") == set()  # "certainly" is not in q2's golden answer
    d = _one(advice, AdviceCode.LLM_SPECIFIC_WORDING, A)
    assert d.words == ("certainly",)
    # golden {certainly, capital, of, france, is, paris}; A {certainly, paris, is, capital}
    assert d.numbers["recall"] == pytest.approx(4 / 6)
    assert d.numbers["recall_without"] == pytest.approx(3 / 5)
    assert d.numbers["recall B"] == pytest.approx(3 / 6)
    assert d.numbers["recall B without"] == pytest.approx(3 / 5)
    # with a higher bar on how often the pipeline must use the word, nothing is left
    stricter = AdviceThresholds().with_values({"llm_specific_min_questions": 3})
    assert _advice(golden, responses, thresholds=stricter).diagnoses == ()


def test_empty_fact_part_fix_drops_the_empty_part() -> None:
    advice = _advice([("q1", "Capital?", "Paris.", "Paris<OR>")], {("q1", A): "Lyon."})
    d = _one(advice, AdviceCode.EMPTY_FACT_PART)
    assert d.fix is not None
    assert (d.fix.kind, d.fix.value) == (FixKind.EDIT_FACT, "Paris")


def test_thresholds_are_configurable_and_checked() -> None:
    responses = {("q1", A): "The capital of France is Lyon.", ("q1", B): "Paris."}
    # recall 0.8 < 0.9: no longer a hallucination, and in the rephrased band [0.3, 0.9)
    looser = AdviceThresholds().with_values({"hallucination_recall": 0.9})
    assert looser.flags.hallucination_recall == 0.9
    assert _codes(_advice([PARIS], responses, thresholds=looser), "q1") == {("correct_but_rephrased", A)}
    with pytest.raises(ValueError, match="unknown threshold 'nope'"):
        AdviceThresholds().with_values({"nope": 1})
    with pytest.raises(ValueError, match="whole number"):
        AdviceThresholds().with_values({"verbose_answer_words": 40.5})
    assert AdviceThresholds().with_values({"verbose_answer_words": 12.0}).flags.verbose_answer_words == 12
    with pytest.raises(ValueError, match="runs from 0 to 1"):
        AdviceThresholds().with_values({"similar": 1.5})
    with pytest.raises(ValueError, match="must be a number from 0"):
        AdviceThresholds().with_values({"fact_answer_share": float("nan")})
    with pytest.raises(ValueError, match="must be a number from 0"):
        AdviceThresholds().with_values({"false_match_min_others": -1})


def test_the_advice_uses_the_report_flag_thresholds_by_default() -> None:
    items = [GoldenItem(*PARIS)]
    rows = [PipelineResponse("q1", A, "The capital of France is Lyon."), PipelineResponse("q1", B, "Paris.")]
    report = score_all(items, rows, [A, B], thresholds=FlagThresholds(hallucination_recall=0.9))
    advice = advise(report)
    assert advice.thresholds.flags.hallucination_recall == 0.9
    assert {(d.code.value, d.pipeline) for d in advice.diagnoses} == {("correct_but_rephrased", A)}


GOLDEN_FLAG_CODES = {
    Flag.AMBIGUOUS_QUESTION: AdviceCode.AMBIGUOUS_QUESTION,
    Flag.EMPTY_FACT_PART: AdviceCode.EMPTY_FACT_PART,
    Flag.FACT_NOT_IN_ANSWER: AdviceCode.FACT_NOT_IN_ANSWER,
    Flag.VERBOSE_GOLDEN_ANSWER: AdviceCode.VERBOSE_GOLDEN_ANSWER,
}


@pytest.mark.parametrize(("name", "row", "responses", "expected"), CASES, ids=[c[0] for c in CASES])
def test_golden_flags_and_diagnoses_agree(
    name: str, row: Row, responses: dict[str, str], expected: set[tuple[str, str]]
) -> None:
    items = [GoldenItem(*row)]
    report = score_all(items, [PipelineResponse("q1", p, t) for p, t in responses.items()], list(responses))
    codes = {d.code for d in advise(report).diagnoses}
    flags = set(report.golden_flags["q1"])
    for flag, code in GOLDEN_FLAG_CODES.items():
        assert (flag in flags) == (code in codes), flag
    if Flag.FACT_PRONE_TO_FALSE_MATCHES in flags:
        assert AdviceCode.FACT_PRONE_TO_FALSE_MATCHES in codes


def test_advice_as_json_document() -> None:
    advice = _advice([PARIS], {("q1", A): "The capital of France is Lyon.", ("q1", B): "Paris."})
    doc = advice.as_dict()
    assert doc["counts"] == {"likely_hallucination": 1}
    (question,) = doc["questions"]
    (diagnosis,) = question["diagnoses"]
    assert diagnosis["code"] == "likely_hallucination"
    assert diagnosis["severity"] == "medium"
    assert diagnosis["pipeline"] == A
    assert diagnosis["fix"]["kind"] == "add_variant"
    assert doc["thresholds"]["hallucination_recall"] == 0.7
    assert doc["thresholds"]["similar"] == 0.8


# --- the corpus search index finds exactly what plain inclusion finds ------------------------


@st.composite
def _texts_and_part(draw: st.DrawFn) -> tuple[list[str], str]:
    responses = draw(st.lists(texts, min_size=1, max_size=6))
    source = draw(st.sampled_from(responses))
    start = draw(st.integers(0, len(source)))
    end = draw(st.integers(start, len(source)))
    piece = source[start:end]
    part = draw(st.one_of(st.just(piece), st.just(piece.upper()), st.sampled_from(FACT_PARTS), texts))
    return responses, part


@settings(max_examples=400, deadline=None)
@given(_texts_and_part())
def test_corpus_search_equals_plain_inclusion(case: tuple[list[str], str]) -> None:
    responses, part = case
    corpus = Corpus([], [CorpusResponse(f"q{n}", "P", text) for n, text in enumerate(responses)])
    expected = {n for n, text in enumerate(responses) if part.lower() in text.lower()}
    assert corpus.containing(part) == expected


def test_recall_from_articles_alone_names_no_shared_word() -> None:
    # Scored with --multiset, recall counts articles: "the rolling stones" against "the beatles"
    # shares "the" only, 1 of 2 answer words (recall 0.5, between 0.3 and 0.6: possibly
    # rephrased). The answer "The Beatles" is as short as the fact "Beatles". The diagnosis said
    # "some of its words are there ()": the words it lists leave articles out.
    items = [GoldenItem("q1", "Which band recorded Abbey Road?", "The Beatles", "Beatles")]
    rows = [PipelineResponse("q1", A, "The Rolling Stones")]
    advice = advise(score_all(items, rows, [A], multiset=True))
    found = _one(advice, AdviceCode.CORRECT_BUT_REPHRASED, A)
    assert (
        "its recall of 0.500 says only that some of its words are there (only articles)" in found.explanation
    )
    assert found.severity is AdviceSeverity.LOW

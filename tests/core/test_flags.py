"""Interpretation flags: on the sample rows, on hand-made rows, and with changed thresholds."""

from __future__ import annotations

from dataclasses import replace

import pytest
from core_sample import SampleRows
from core_strategies import texts
from hypothesis import given
from hypothesis import strategies as st

from goldenlens.core.lexical.factual_knowledge import empty_parts
from goldenlens.core.lexical.flags import (
    FLAG_EXPLANATIONS,
    FLAG_INPUTS,
    FLAG_LABELS,
    GOLDEN_FLAGS,
    RESPONSE_FLAGS,
    Flag,
    FlagThresholds,
    answer_word_count,
    explain,
    fact_in_answer,
    fact_missing_everywhere,
    false_match_reason,
    golden_flags,
    golden_flags_in_force,
    prone_parts,
    response_flags,
    response_flags_in_force,
)
from goldenlens.core.lexical.normalise import word_set
from goldenlens.core.lexical.scorer import LexicalScorer


def _flags(response: str, answer: str, fact: str, thresholds: FlagThresholds | None = None) -> list[Flag]:
    return response_flags(response, LexicalScorer().score(response, answer, fact).scores, thresholds)


def _sample_flags(sample: SampleRows, qid: str, pipeline: str, t: FlagThresholds | None = None) -> list[Flag]:
    return _flags(*sample.row(qid, pipeline), thresholds=t)


# --- the sample ------------------------------------------------------------------------------


def test_q02_pipeline2_is_a_likely_hallucination(sample: SampleRows) -> None:
    assert _sample_flags(sample, "q02", "Pipeline2") == [Flag.LIKELY_HALLUCINATION]


def test_q10_pipeline1_is_verbose(sample: SampleRows) -> None:
    assert _sample_flags(sample, "q10", "Pipeline1") == [Flag.VERBOSE]


def test_q02_pipeline3_is_a_refusal_not_a_hallucination(sample: SampleRows) -> None:
    response, answer, fact = sample.row("q02", "Pipeline3")
    scores = LexicalScorer().score(response, answer, fact).scores
    # The refusal repeats the question, so recall alone would call it a hallucination.
    assert scores["factual_knowledge"] == 0.0
    assert scores["recall_over_words"] >= FlagThresholds().hallucination_recall
    assert response_flags(response, scores) == [Flag.REFUSAL]
    assert Flag.LIKELY_HALLUCINATION not in response_flags(response, scores)


def test_correct_concise_answers_carry_no_flag(sample: SampleRows) -> None:
    for qid in ("q01", "q04", "q09"):
        for pipeline in sample.pipelines:
            assert _sample_flags(sample, qid, pipeline) == [], (qid, pipeline)


def test_q03_rephrased_answers_suggest_a_fact_variant(sample: SampleRows) -> None:
    assert _sample_flags(sample, "q03", "Pipeline1") == [Flag.POSSIBLY_CORRECT_REPHRASED]
    assert _sample_flags(sample, "q03", "Pipeline3") == [Flag.POSSIBLY_CORRECT_REPHRASED]


def _fact_found(sample: SampleRows, qid: str) -> list[float]:
    scorer = LexicalScorer()
    return [scorer.score(*sample.row(qid, p)).scores["factual_knowledge"] for p in sample.pipelines]


@pytest.mark.parametrize("qid", ["q03", "q06"])
def test_questions_no_pipeline_answers_are_ambiguous(sample: SampleRows, qid: str) -> None:
    item = sample.golden[qid]
    assert golden_flags(item["answer"], item["fact"], _fact_found(sample, qid)) == [Flag.AMBIGUOUS_QUESTION]


def test_other_sample_questions_carry_no_golden_flag(sample: SampleRows) -> None:
    for qid, item in sample.golden.items():
        if qid not in ("q03", "q06"):
            assert golden_flags(item["answer"], item["fact"], _fact_found(sample, qid)) == [], qid


# --- thresholds are configurable -------------------------------------------------------------


def test_defaults_are_the_documented_ones() -> None:
    assert FlagThresholds().as_dict() == {
        "hallucination_recall": 0.7,
        "accidental_recall": 0.1,
        "rephrased_recall": 0.3,
        "verbose_recall": 0.7,
        "verbose_precision": 0.3,
        "verbose_answer_words": 40.0,
        "short_number_digits": 3.0,
        "short_word_chars": 3.0,
    }


def test_hallucination_threshold_changes_the_flag(sample: SampleRows) -> None:
    # recall is 11/12 = 0.917
    strict = FlagThresholds(hallucination_recall=0.95)
    assert _sample_flags(sample, "q02", "Pipeline2", strict) == [Flag.POSSIBLY_CORRECT_REPHRASED]
    assert _sample_flags(sample, "q02", "Pipeline2", FlagThresholds(hallucination_recall=0.91)) == [
        Flag.LIKELY_HALLUCINATION
    ]


def test_verbose_thresholds_change_the_flag(sample: SampleRows) -> None:
    # precision 0.238, recall 0.769
    assert _sample_flags(sample, "q10", "Pipeline1", FlagThresholds(verbose_precision=0.2)) == []
    assert _sample_flags(sample, "q10", "Pipeline1", FlagThresholds(verbose_recall=0.8)) == []
    # q10/Pipeline3: precision 0.625 is verbose only with a lax precision threshold.
    assert _sample_flags(sample, "q10", "Pipeline3") == []
    assert _sample_flags(sample, "q10", "Pipeline3", FlagThresholds(verbose_precision=0.7)) == [Flag.VERBOSE]


def test_rephrased_threshold_changes_the_flag(sample: SampleRows) -> None:
    # q03/Pipeline2: fact missing, recall 2/13 = 0.154
    assert _sample_flags(sample, "q03", "Pipeline2") == []
    assert _sample_flags(sample, "q03", "Pipeline2", FlagThresholds(rephrased_recall=0.15)) == [
        Flag.POSSIBLY_CORRECT_REPHRASED
    ]


# --- response flags on hand-made rows --------------------------------------------------------

ANSWER = "Amazon held 158 million shares of Rivian's Class A common stock."


def test_accidental_fact_match() -> None:
    response = "See document 158 for details."
    assert _flags(response, ANSWER, "158") == [Flag.ACCIDENTAL_FACT_MATCH]
    assert _flags(response, ANSWER, "158", FlagThresholds(accidental_recall=0.0)) == []


def test_quasi_exact_only_match_is_possibly_correct() -> None:
    # "$12,455 million" does not contain "12455 million", but its normalised form does.
    flags = _flags("Income: $12,455 million.", "Operating income was $12.5 billion.", "12455 million")
    assert flags == [Flag.POSSIBLY_CORRECT_REPHRASED]


@pytest.mark.parametrize("response", ["", "   ", "\n\t"])
def test_empty_response(response: str) -> None:
    assert _flags(response, ANSWER, "158 million") == [Flag.EMPTY_RESPONSE]


@pytest.mark.parametrize(
    "response",
    [
        "I don't know.",
        "I cannot answer that from the documents.",
        "The context does not mention Rivian.",
        "There is not enough information to answer.",
        "I am unable to determine the number of shares.",
        "Sorry, I can't help with that.",
    ],
)
def test_refusals(response: str) -> None:
    assert _flags(response, ANSWER, "158 million") == [Flag.REFUSAL]


def test_a_plain_wrong_answer_is_not_a_refusal() -> None:
    assert Flag.REFUSAL not in _flags("Amazon held 200 million shares.", ANSWER, "158 million")


# --- golden flags ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fact", "prone"),
    [
        ("158", True),
        ("$1.5", True),
        (" 12 ", True),
        ("1234", False),
        ("158 million", False),
        ("art", True),
        ("Million", True),
        ("yes", True),
        ("Seattle", False),
        ("The CEO", True),
        ("the", True),
        ("A", True),
        ("$", True),
        ("Seattle<OR>158", True),
        ("Seattle<AND>Washington", False),
    ],
)
def test_fact_prone_to_false_matches(fact: str, prone: bool) -> None:
    flags = golden_flags(f"Answer: {fact}", fact, [1.0])
    assert (Flag.FACT_PRONE_TO_FALSE_MATCHES in flags) is prone


def test_short_number_threshold() -> None:
    assert Flag.FACT_PRONE_TO_FALSE_MATCHES not in golden_flags("1234", "1234", [1.0])
    loose = FlagThresholds(short_number_digits=4)
    assert Flag.FACT_PRONE_TO_FALSE_MATCHES in golden_flags("1234", "1234", [1.0], loose)
    assert Flag.FACT_PRONE_TO_FALSE_MATCHES not in golden_flags(
        "art", "art", [1.0], FlagThresholds(short_word_chars=2)
    )


@pytest.mark.parametrize("fact", ["<OR>158 million", "158 million<AND>", "158 million<OR> ", ""])
def test_empty_fact_part(fact: str) -> None:
    assert Flag.EMPTY_FACT_PART in golden_flags(ANSWER, fact, [1.0])


def test_no_empty_fact_part() -> None:
    assert Flag.EMPTY_FACT_PART not in golden_flags(ANSWER, "158 million<OR>158,000,000", [1.0])


def test_verbose_golden_answer() -> None:
    forty = " ".join(f"w{i}" for i in range(40))
    assert Flag.VERBOSE_GOLDEN_ANSWER not in golden_flags(forty, "w1 w2", [1.0])
    assert Flag.VERBOSE_GOLDEN_ANSWER in golden_flags(forty + " w40", "w1 w2", [1.0])
    assert Flag.VERBOSE_GOLDEN_ANSWER in golden_flags(
        forty, "w1 w2", [1.0], FlagThresholds(verbose_answer_words=39)
    )


def test_fact_not_in_answer() -> None:
    assert golden_flags(ANSWER, "200 million", [1.0]) == [Flag.FACT_NOT_IN_ANSWER]
    assert golden_flags(ANSWER, "200 million<OR>158 MILLION", [1.0]) == []


def test_ambiguous_needs_at_least_one_response() -> None:
    assert Flag.AMBIGUOUS_QUESTION not in golden_flags(ANSWER, "158 million", [])
    assert Flag.AMBIGUOUS_QUESTION in golden_flags(ANSWER, "158 million", [0.0, 0.0])
    assert Flag.AMBIGUOUS_QUESTION not in golden_flags(ANSWER, "158 million", [0.0, 1.0])


# --- labels and explanations -----------------------------------------------------------------


def test_every_flag_has_a_label_and_an_explanation() -> None:
    assert set(RESPONSE_FLAGS) | set(GOLDEN_FLAGS) == set(Flag)
    assert set(FLAG_LABELS) == set(Flag) == set(FLAG_EXPLANATIONS)
    for flag in Flag:
        assert "{" not in explain(flag)


def test_explanations_show_the_thresholds_in_force() -> None:
    assert "recall >= 0.7" in explain(Flag.LIKELY_HALLUCINATION)
    t = replace(FlagThresholds(), hallucination_recall=0.85, verbose_answer_words=60)
    assert "recall >= 0.85" in explain(Flag.LIKELY_HALLUCINATION, t)
    assert "more than 60 words" in explain(Flag.VERBOSE_GOLDEN_ANSWER, t)


@pytest.mark.parametrize(
    "response",
    [
        "I don\u2019t know.",
        "I can\u2019t answer that from the documents.",
        "I don't have enough information to answer.",
        "I do not have sufficient context to answer this question.",
        "I don\u2019t have any information about Rivian.",
    ],
)
def test_refusals_with_typographic_apostrophes_and_have_phrasing(response: str) -> None:
    # Model output often uses U+2019, which the refusal pattern once missed.
    assert _flags(response, ANSWER, "158 million") == [Flag.REFUSAL]


def test_having_information_is_not_a_refusal() -> None:
    assert _flags("I have enough information: 158 million shares.", ANSWER, "158 million") == []


@given(texts)
def test_fmeval_words_never_outnumber_whitespace_words(text: str) -> None:
    """Why :func:`answer_word_count` is the whitespace-separated count: FMEval's distinct words
    (lower-cased, punctuation and articles gone, a set) are never more, on any text."""
    assert len(word_set(text)) <= len(text.split())
    assert answer_word_count(text) == max(len(word_set(text)), len(text.split()))


_SCORE = st.one_of(
    st.none(), st.floats(min_value=0.0, max_value=1.0), st.sampled_from([0.0, 0.1, 0.3, 0.7, 1.0])
)
_SCORES = st.fixed_dictionaries(dict.fromkeys(FLAG_INPUTS, _SCORE))


@given(
    st.one_of(texts, st.sampled_from(["", "  ", "I do not know.", "Sorry, no idea", "134.4 billion"])),
    _SCORES,
    _SCORES,
    st.lists(st.sampled_from(["ambiguous_question", "fact_not_in_answer"]), max_size=1),
)
def test_flags_in_force_are_the_flags_of_the_response_under_the_scores_in_force(
    response: str, stored_scores: dict[str, float | None], in_force: dict[str, float | None], other: list[str]
) -> None:
    """The flags derived again from the stored ones (which alone say whether the response was
    empty or a refusal) are the flags :func:`response_flags` gives the response's text under the
    scores in force; a flag that is not a response flag is kept."""
    stored = [*other, *(flag.value for flag in response_flags(response, stored_scores))]
    expected = sorted([*other, *(flag.value for flag in response_flags(response, in_force))])
    assert response_flags_in_force(stored, in_force, FlagThresholds()) == expected


def test_golden_flags_in_force_work_the_ambiguous_flag_out_again() -> None:
    stored = ["ambiguous_question", "verbose_golden_answer"]
    assert golden_flags_in_force(stored, [0.0, 1.0]) == ["verbose_golden_answer"]
    assert golden_flags_in_force(["verbose_golden_answer"], [0.0, 0.0]) == stored
    assert golden_flags_in_force(stored, []) == ["verbose_golden_answer"]  # nothing scored: not ambiguous


def test_thresholds_from_a_run_s_parameters() -> None:
    """A run's stored thresholds, the defaults for the rest; unknown names and values that are
    not numbers (a newer version's, a damaged file's) are ignored."""
    params = {
        "thresholds": {
            "hallucination_recall": 0.8,
            "short_number_digits": 4.0,
            "new": 1,
            "verbose_recall": "x",
        }
    }
    got = FlagThresholds.from_params(params)
    assert got == replace(FlagThresholds(), hallucination_recall=0.8, short_number_digits=4)
    assert type(got.short_number_digits) is int
    assert (
        FlagThresholds.from_params({}) == FlagThresholds.from_params({"thresholds": [1]}) == FlagThresholds()
    )


_ANSWER_WORDS = ["net", "Sales", "134.4 billion", " ", "ART\n", "\t"]
_PART = st.sampled_from(["134.4 billion", "12", " ", "", "the", "Yes", "art", "7.7%", "\u212a", "net sales"])
_FACT = st.lists(st.lists(_PART, min_size=1, max_size=3).map("<AND>".join), min_size=1, max_size=3).map(
    "<OR>".join
)


@given(
    st.one_of(
        texts,
        st.lists(st.sampled_from(["net", "Sales", "134.4 billion", " ", "ART\n"]), max_size=60).map(" ".join),
    ),
    _FACT,
    st.lists(st.sampled_from([0.0, 1.0]), max_size=3),
    st.integers(min_value=0, max_value=45),
)
def test_golden_flags_are_their_rules_each_on_its_own(
    answer: str, fact: str, found: list[float], verbose_words: int
) -> None:
    """The golden flags split the fact once for all their rules; each rule is also a function of
    its own (used by the advisor and the curation pane): the flags are those rules."""
    t = replace(FlagThresholds(), verbose_answer_words=verbose_words)
    expected = [
        flag
        for flag, raised in (
            (Flag.AMBIGUOUS_QUESTION, fact_missing_everywhere(found)),
            (Flag.FACT_PRONE_TO_FALSE_MATCHES, bool(prone_parts(fact, t))),
            (Flag.VERBOSE_GOLDEN_ANSWER, answer_word_count(answer) > verbose_words),
            (Flag.EMPTY_FACT_PART, bool(empty_parts(fact))),
            (Flag.FACT_NOT_IN_ANSWER, not fact_in_answer(answer, fact)),
        )
        if raised
    ]
    assert golden_flags(answer, fact, found, t) == expected


@pytest.mark.parametrize(
    ("part", "reason"),
    [
        ("👖", "'👖' is a single word of 1 character (at most 3)"),
        ("ABC", "'ABC' is a single word of 3 characters (at most 3)"),
        ("the", "'the' is only articles or punctuation"),
    ],
)
def test_a_false_match_reason_counts_characters_in_words(part: str, reason: str) -> None:
    """The advisor read "'👖' is a single word of 1 letters": a character, and in the singular."""
    assert false_match_reason(part) == reason

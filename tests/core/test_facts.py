"""Factual Knowledge (FMEval 1.2.3): expected values, match spans, the sample's Factual Knowledge
Report, and agreement with the literal reference for single-operator facts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from core_sample import SampleRows
from core_strategies import joined, single_operator_facts, texts
from hypothesis import given, settings
from hypothesis import strategies as st

import fmeval_reference as ref
from goldenlens.core.lexical.factual_knowledge import (
    FactMatcher,
    FactPartMatch,
    empty_parts,
    fact_groups,
    fact_operator,
    factual_knowledge,
)
from goldenlens.core.lexical.normalise import normalise
from sample_expectations import FK_REPORT

# (response, fact) -> (exact, quasi-exact)
CASES = {
    "plain substring: art in Mozart": ("I like Mozart", "art", (1.0, 1.0)),
    "case-insensitive": ("The CEO OF AMAZON said", "ceo of Amazon", (1.0, 1.0)),
    "missing": ("Andy Jassy", "CEO", (0.0, 0.0)),
    "<OR>: any alternative": (
        "He is the CEO of Amazon.",
        "Chief Executive Officer<OR>CEO of Amazon",
        (1.0, 1.0),
    ),
    "<OR>: none": ("He runs Amazon.", "Chief Executive Officer<OR>CEO of Amazon", (0.0, 0.0)),
    "<AND>: all parts": ("Born in Paris in 1900.", "Paris<AND>1900", (1.0, 1.0)),
    "<AND>: one part missing": ("Born in Paris.", "Paris<AND>1900", (0.0, 0.0)),
    "mixed: first alternative, both parts": ("Paris is in France", "Paris<AND>France<OR>Lyon", (1.0, 1.0)),
    "mixed: second alternative": ("Lyon only", "Paris<AND>France<OR>Lyon", (1.0, 1.0)),
    "mixed: one part of the AND only": ("Paris only", "Paris<AND>France<OR>Lyon", (0.0, 0.0)),
    "empty <OR> part matches everything": ("anything at all", "<OR>zebra", (1.0, 1.0)),
    "empty fact matches everything": ("anything", "", (1.0, 1.0)),
    "empty <AND> part is neutral": ("zebra", "zebra<AND>", (1.0, 1.0)),
    "space part is not stripped for exact": ("nospace", "nospace<AND> ", (0.0, 1.0)),
    "padded part: exact needs the spaces": ("held 158 million.", " 158 million ", (0.0, 1.0)),
    "padded part found with its spaces": ("held 158 million shares", " 158 million ", (1.0, 1.0)),
    "quasi-exact: dollars and commas": ("Operating income was $12,455 million.", "12455 million", (0.0, 1.0)),
    "quasi-exact: commas in the fact": ("It was 12455 million", "12,455 million", (0.0, 1.0)),
    "quasi-exact: articles dropped": ("CEO of Amazon", "the CEO of the Amazon", (0.0, 1.0)),
    "newline in fact blocks quasi-exact": ("foreign exchange rates", "foreign exchange\nrates", (0.0, 0.0)),
    "newline in fact matches a newline": (
        "foreign exchange\nrates hit",
        "foreign exchange\nrates",
        (1.0, 1.0),
    ),
    "newline in response blocks quasi-exact": ("foreign\nexchange rates", "foreign exchange", (0.0, 0.0)),
    "quasi-exact is not word-bounded either": ("Mozart", "The art", (0.0, 1.0)),
    "curly apostrophe is not punctuation": ("Amazon\u2019s CEO", "Amazon's CEO", (0.0, 0.0)),
    "dotted capital I lowers to two characters": ("İstanbul", "i̇stanbul", (1.0, 1.0)),
}


@pytest.mark.parametrize(("response", "fact", "expected"), CASES.values(), ids=CASES.keys())
def test_expected_values(response: str, fact: str, expected: tuple[float, float]) -> None:
    assert FactMatcher(fact).scores(response) == expected
    result = factual_knowledge(response, fact)
    assert (result.exact, result.quasi_exact) == expected
    if "<OR>" not in fact or "<AND>" not in fact:
        delimiter, operator = ref.fact_setting(fact)
        assert tuple(ref.factual_knowledge(response, fact, delimiter, operator).values()) == expected


def test_mixed_operators_bind_or_looser() -> None:
    fact = "A1<AND>B1<OR>C1"
    assert fact_groups(fact) == (("A1", "B1"), ("C1",))
    assert fact_operator(fact) == "AND+OR"
    # (A and B) or C, not A and (B or C): C alone is enough, A without B is not.
    assert FactMatcher(fact).scores("C1") == (1.0, 1.0)
    assert FactMatcher(fact).scores("A1") == (0.0, 0.0)
    assert FactMatcher(fact).scores("A1 nor B") == (0.0, 0.0)
    assert FactMatcher(fact).scores("B1 A1") == (1.0, 1.0)


@pytest.mark.parametrize(
    ("fact", "operator"),
    [("x", "single"), ("x<OR>y", "OR"), ("x<AND>y", "AND"), ("x<AND>y<OR>z", "AND+OR"), ("", "single")],
)
def test_fact_operator(fact: str, operator: str) -> None:
    assert fact_operator(fact) == operator


def test_fact_groups_keep_parts_verbatim() -> None:
    assert fact_groups(" a <OR> b<AND> c ") == ((" a ",), (" b", " c "))
    assert fact_groups("") == (("",),)


@pytest.mark.parametrize(
    ("fact", "empty"),
    [
        ("<OR>zebra", [""]),
        ("zebra<AND>", [""]),
        ("a<OR> <AND>b", [" "]),
        ("a<OR>\n", ["\n"]),
        ("", [""]),
        ("a<OR>b<AND>c", []),
    ],
)
def test_empty_parts_are_reported(fact: str, empty: list[str]) -> None:
    assert empty_parts(fact) == empty


# --- spans -----------------------------------------------------------------------------------


def test_exact_match_span() -> None:
    response = "Andrew R. Jassy is the President and CEO of AMAZON.com."
    result = factual_knowledge(response, "Chief Executive Officer<OR>CEO of Amazon")
    assert result.matched_by == "exact"
    assert result.matches == (FactPartMatch("CEO of Amazon", 37, 50),)
    assert response[37:50] == "CEO of AMAZON"
    assert result.matched_part == "CEO of Amazon"


def test_and_match_spans_every_part() -> None:
    response = "Born 1900 in Paris."
    result = factual_knowledge(response, "Paris<AND>1900")
    assert [(m.part, response[m.start : m.end]) for m in result.matches] == [
        ("Paris", "Paris"),
        ("1900", "1900"),
    ]
    assert result.matched_part == "Paris<AND>1900"


def test_exact_span_after_an_expanded_lowercase_character() -> None:
    response = "İzmir and Paris"
    (match,) = factual_knowledge(response, "paris").matches
    assert response[match.start : match.end] == "Paris"


def test_quasi_exact_match_span_covers_the_original_characters() -> None:
    response = "Operating income was $12,455 million."
    result = factual_knowledge(response, "12455 million")
    assert (result.exact, result.quasi_exact, result.matched_by) == (0.0, 1.0, "quasi_exact")
    (match,) = result.matches
    assert response[match.start : match.end] == "12,455 million"


def test_no_match_has_no_spans() -> None:
    result = factual_knowledge("nothing here", "zebra<OR>giraffe")
    assert (result.matches, result.matched_by, result.matched_part) == ((), "", "")


def test_empty_part_match_has_an_empty_span() -> None:
    result = factual_knowledge("anything", "<OR>zebra")
    assert result.matches == (FactPartMatch("", 0, 0),)


@settings(max_examples=500, deadline=None)
@given(texts, single_operator_facts)
def test_match_spans_point_at_the_parts(response: str, fact: str) -> None:
    result = FactMatcher(fact).match(response)
    assert (result.exact, result.quasi_exact) == FactMatcher(fact).scores(response)
    for m in result.matches:
        assert 0 <= m.start <= m.end <= len(response)
    if result.matched_by == "exact":
        for m in result.matches:
            segment = response[m.start : m.end].lower()
            if response.isascii() and fact.isascii():
                assert segment == m.part.lower()
            else:
                # A character lowering to two (İ → i̇) can be cut by the part's edge.
                assert m.part.lower() in segment or segment in m.part.lower()
    elif result.matched_by == "quasi_exact":
        assert result.exact == 0.0
        assert result.quasi_exact == 1.0
    else:
        assert result.matches == ()


# --- the sample's Factual Knowledge Report (resources/sample/README.md) -----------------------


@pytest.mark.parametrize(("qid", "expected"), FK_REPORT.items(), ids=FK_REPORT)
def test_factual_knowledge_report_of_the_sample(
    sample: SampleRows, qid: str, expected: tuple[int, ...]
) -> None:
    assert sample.pipelines == ("Pipeline1", "Pipeline2", "Pipeline3")
    for pipeline, value in zip(sample.pipelines, expected, strict=True):
        response, _, fact = sample.row(qid, pipeline)
        exact, quasi = FactMatcher(fact).scores(response)
        assert exact == float(value), pipeline
        assert {"factual_knowledge": exact, "factual_knowledge_quasi_exact": quasi} == ref.factual_knowledge(
            response, fact
        )


def test_the_report_covers_every_sample_row(sample: SampleRows) -> None:
    assert set(sample.golden) == set(FK_REPORT)
    assert len(sample.responses) == 30


def test_q03_pipeline3_is_a_missing_fact_variant(sample: SampleRows) -> None:
    response, _, fact = sample.row("q03", "Pipeline3")
    assert "410 Terry Ave. N." in response
    assert FactMatcher(fact).scores(response) == (0.0, 0.0)
    assert FactMatcher(fact + "<OR>410 Terry Ave").scores(response) == (1.0, 1.0)


# --- agreement with the reference ------------------------------------------------------------

SHARED: dict[str, FactMatcher] = {}


@settings(max_examples=800, deadline=None)
@given(texts, single_operator_facts)
def test_scores_equal_reference(response: str, fact: str) -> None:
    delimiter, operator = ref.fact_setting(fact)
    expected = ref.factual_knowledge(response, fact, delimiter, operator)
    matcher = SHARED.setdefault(fact, FactMatcher(fact))
    assert matcher.scores(response) == (
        expected["factual_knowledge"],
        expected["factual_knowledge_quasi_exact"],
    )


@settings(max_examples=300, deadline=None)
@given(texts, st.lists(joined("<AND>"), min_size=1, max_size=3).map("<OR>".join))
def test_mixed_facts_are_or_of_and_groups(response: str, fact: str) -> None:
    # Our per-row extension, composed from FMEval's own per-part scores: max over <OR> of min over <AND>.
    def composed(score_fn: Callable[[str, str], float]) -> float:
        return max(
            min(score_fn(response, part) for part in group.split("<AND>")) for group in fact.split("<OR>")
        )

    assert FactMatcher(fact).scores(response) == (
        composed(ref._exact_inclusion_score),
        composed(ref._quasi_exact_inclusion_score),
    )


def test_scores_accept_the_callers_normalised_response() -> None:
    response = "Operating income was $12,455 million."
    matcher = FactMatcher("12455 million<OR>12.5 billion")
    assert matcher.scores(response, normalised=normalise(response.strip())) == matcher.scores(response)
    assert matcher.scores(response) == (0.0, 1.0)

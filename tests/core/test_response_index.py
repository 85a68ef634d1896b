"""The response index answers exactly as Factual Knowledge scores each response one by one."""

from __future__ import annotations

from core_strategies import single_operator_facts, texts
from hypothesis import given, settings
from hypothesis import strategies as st

from goldenlens.core.lexical.fact_index import ResponseIndex
from goldenlens.core.lexical.factual_knowledge import FactMatcher


@settings(max_examples=300, deadline=None)
@given(st.lists(texts, max_size=8), single_operator_facts)
def test_the_index_agrees_with_the_fact_matcher(responses: list[str], fact: str) -> None:
    matcher = FactMatcher(fact)
    expected_exact = {i for i, r in enumerate(responses) if matcher.scores(r)[0]}
    expected_quasi = {i for i, r in enumerate(responses) if matcher.scores(r)[1]}
    assert ResponseIndex(responses).matching(fact) == (expected_exact, expected_quasi)


def test_a_match_never_spans_two_responses() -> None:
    index = ResponseIndex(["net sales were 134.4", "billion dollars", "134.4 billion"])
    assert index.matching("134.4 billion") == ({2}, {2})
    assert index.matching("Net<AND>dollars") == (set(), set())
    assert index.matching("Billion<AND>dollars") == ({1}, {1})


def test_every_hit_in_a_long_response_counts_once() -> None:
    index = ResponseIndex(["a 5% rise, then 5% more", "no", "5%"])
    assert index.matching("5%") == ({0, 2}, {0, 2})

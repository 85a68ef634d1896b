"""Concrete variants for the advisor's "add a fact variant" fixes, on hand-written rows."""

from __future__ import annotations

import pytest

from goldenlens.core.advice.fixes import (
    SOURCE_FIX,
    SOURCE_GENERATOR,
    SOURCE_RESPONSE,
    propose_variant,
    wording_variant,
)
from goldenlens.core.advice.values import AdviceCode, AdviceSeverity, Diagnosis, Fix, FixKind
from goldenlens.core.inputs import GoldenItem

CURRENCY = (
    "A key challenge was the impact of changes in foreign currency exchange rates, which reduced sales."
)


@pytest.mark.parametrize(
    ("fact", "response", "expected"),
    [
        # one word between the fact's words: the response's own text, case kept
        ("foreign exchange rates", CURRENCY, "foreign currency exchange rates"),
        ("foreign exchange rates", "Foreign Exchange Rates hurt.", "Foreign Exchange Rates"),
        # other order, still close together
        ("exchange rates foreign", "rates of foreign exchange moved", "rates of foreign exchange"),
        # three words in between: too loose to be the fact
        ("foreign exchange rates", "foreign sales, currency and interest exchange rates", None),
        # a word missing, a one-word fact, an <AND> fact: nothing to propose
        ("foreign exchange rates", "foreign currency rates", None),
        ("Seattle", "Amazon is in Seattle.", None),
        ("foreign<AND>exchange rates", CURRENCY, None),
        # the shortest stretch wins over an earlier, longer one
        ("net sales", "net income and sales rose; net sales fell", "net sales"),
    ],
)
def test_wording_variant(fact: str, response: str, expected: str | None) -> None:
    assert wording_variant(fact, response) == expected


def _rephrased(pipeline: str, value: str | None = None) -> Diagnosis:
    return Diagnosis(
        AdviceCode.CORRECT_BUT_REPHRASED,
        AdviceSeverity.MEDIUM,
        "q03",
        "explanation",
        "action",
        pipeline=pipeline,
        fix=Fix(FixKind.ADD_VARIANT, "fact", "Add the response's wording as a fact variant", value),
    )


ADDRESS = GoldenItem(
    "q03", "Where is the principal office?", "At 410 Terry Avenue North.", "410 Terry Avenue North"
)
RESPONSES = {
    "P1": "Amazon's principal office is located in Seattle, Washington.",
    "P2": "The offices are at 410 Terry Ave. N., Seattle.",
    "P3": "It is at 410 terry ave. n. in Seattle.",
}


def test_a_generator_spelling_the_response_contains_is_proposed_with_every_flip() -> None:
    proposal = propose_variant(ADDRESS, _rephrased("P2"), RESPONSES)
    assert proposal is not None
    assert (proposal.text, proposal.source) == ("410 Terry Ave. N.", SOURCE_GENERATOR)
    # Factual Knowledge ignores case, so P3 flips too; P1 names no address.
    assert proposal.flips == ("P2", "P3")


def test_a_fix_never_proposes_a_variant_prone_to_false_matches() -> None:
    """The advisor found "18.3%" after normalisation as "18.3" in the response; "18.3" alone is a
    bare number the variant dialog marks risky, so the one-click fix is its safe spelling."""
    item = GoldenItem("q09", "What was the margin?", "The margin was 18.3%.", "18.3%")
    responses = {"P1": "The operating margin rose to 18.3 percent."}
    proposal = propose_variant(item, _rephrased("P1", "18.3"), responses)
    assert proposal is not None
    assert (proposal.text, proposal.source) == ("18.3 percent", SOURCE_GENERATOR)


def test_nothing_is_proposed_for_a_response_without_the_value() -> None:
    assert propose_variant(ADDRESS, _rephrased("P1"), RESPONSES) is None


def test_nothing_is_proposed_when_the_response_already_has_the_fact() -> None:
    found = {"P1": "It is at 410 Terry Avenue North."}
    assert propose_variant(ADDRESS, _rephrased("P1"), found) is None


def test_the_fixs_own_value_comes_first_when_it_flips_the_response() -> None:
    proposal = propose_variant(ADDRESS, _rephrased("P2", "410 Terry Ave. N., Seattle"), RESPONSES)
    assert proposal is not None
    assert (proposal.text, proposal.source, proposal.flips) == (
        "410 Terry Ave. N., Seattle",
        SOURCE_FIX,
        ("P2",),
    )


def test_a_value_that_would_not_flip_the_response_is_not_proposed() -> None:
    proposal = propose_variant(ADDRESS, _rephrased("P2", "410 Terry Av"), RESPONSES)
    # "410 Terry Av" is inside "410 Terry Ave." so it flips P2: a real flip is kept …
    assert proposal is not None
    assert proposal.source == SOURCE_FIX
    # … while a value absent from the response falls back to the generator.
    fallback = propose_variant(ADDRESS, _rephrased("P2", "Terry Avenue N"), RESPONSES)
    assert fallback is not None
    assert (fallback.text, fallback.source) == (
        "410 Terry Ave. N.",
        SOURCE_GENERATOR,
    )


def test_the_responses_wording_when_no_spelling_matches() -> None:
    item = GoldenItem(
        "q06", "What was a key challenge?", "Changes in foreign exchange rates.", "foreign exchange rates"
    )
    proposal = propose_variant(item, _rephrased("P1"), {"P1": CURRENCY, "P2": "Inflation."})
    assert proposal is not None
    assert (proposal.text, proposal.source, proposal.flips) == (
        "foreign currency exchange rates",
        SOURCE_RESPONSE,
        ("P1",),
    )


def test_only_add_variant_fixes_get_a_proposal() -> None:
    edit = Diagnosis(
        AdviceCode.AMBIGUOUS_QUESTION,
        AdviceSeverity.HIGH,
        "q03",
        "explanation",
        "action",
        fix=Fix(FixKind.EDIT_QUESTION, "question", "Reframe the question"),
    )
    assert propose_variant(ADDRESS, edit, RESPONSES) is None

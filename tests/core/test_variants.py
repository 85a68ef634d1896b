"""The fact-variant generator against tables of spellings written by hand.

Expected values are how people write the same figure, date or name (financial press, style
guides, the sample's responses), not read from the generator. Each table says which
responses a suggestion must make match (exact Factual Knowledge, FMEval's plain substring
test, written here as ``in``), and which spellings must never be proposed (a rounded or
changed value).
"""

from __future__ import annotations

import pytest

from goldenlens.core.lexical.factual_knowledge import fact_with_variant
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT
from goldenlens.core.variants.generator import (
    RISK_DIGITS,
    RISK_SHORT,
    RISK_YEAR,
    VariantKind,
    suggest_variants,
    value_disagreement,
    variant_risks,
)


def _texts(fact: str) -> dict[str, VariantKind]:
    return {v.text: v.kind for v in suggest_variants(fact).variants}


def _matched_by_a_suggestion(fact: str, response: str) -> list[str]:
    """Suggestions whose text is in the response as exact Factual Knowledge tests it."""
    return [v.text for v in suggest_variants(fact).variants if v.text.lower() in response.lower()]


# fact, a response spelling the same value another way, the kind of the suggestion
SAME_VALUE = [
    ("134.4 billion", "Net sales were 134,400 million dollars.", VariantKind.SCALE),
    ("134.4 billion", "Net sales were $134.4B.", VariantKind.SCALE),
    ("134.4 billion", "Net sales were $134.4 bn.", VariantKind.SCALE),
    ("134.4 billion", "Net sales were $134.4bn.", VariantKind.SCALE),
    ("134.4 billion", "Net sales were $134,400,000,000.", VariantKind.SCALE),
    ("134,400 million", "Net sales were $134.4 billion.", VariantKind.SCALE),
    ("$134.4B", "Net sales were $134.4 billion.", VariantKind.SCALE),
    ("134,383 million", "Net sales were 134.383 billion.", VariantKind.SCALE),
    ("158 million", "Amazon held 158,000,000 shares.", VariantKind.SCALE),
    ("158 million", "Amazon held 158M shares.", VariantKind.SCALE),
    ("12,500,000", "It cost 12.5 million.", VariantKind.SCALE),
    ("2.5 trillion", "a $2,500 billion market", VariantKind.SCALE),
    ("10,317,750,796", "10317750796 shares", VariantKind.GROUPING),
    ("10317750796", "10,317,750,796 shares", VariantKind.GROUPING),
    ("22.140 billion", "AWS made $22.14 billion", VariantKind.GROUPING),
    ("5%", "grew 5 percent", VariantKind.PERCENT),
    ("5%", "grew 5 per cent", VariantKind.PERCENT),
    ("11 percent", "increased 11%", VariantKind.PERCENT),
    ("12.5 percent", "a 12.5% rise", VariantKind.PERCENT),
    ("five stores", "it opened 5 stores", VariantKind.NUMBER_WORD),
    ("3 segments", "three segments", VariantKind.NUMBER_WORD),
    ("twenty-one days", "21 days", VariantKind.NUMBER_WORD),
    ("second quarter", "in the 2nd quarter", VariantKind.NUMBER_WORD),
    ("3rd quarter", "in the third quarter", VariantKind.NUMBER_WORD),
    ("410 Terry Avenue North", "at 410 Terry Ave. N., Seattle", VariantKind.ABBREVIATION),
    ("410 Terry Avenue North", "at 410 Terry Ave North", VariantKind.ABBREVIATION),
    ("410 Terry Ave. N.", "at 410 Terry Avenue North", VariantKind.ABBREVIATION),
    ("1 Main Street", "1 Main St. in town", VariantKind.ABBREVIATION),
    ("Amazon.com Incorporated", "Amazon.com Inc. said", VariantKind.ABBREVIATION),
    ("Acme Corp.", "Acme Corporation said", VariantKind.ABBREVIATION),
    ("Chief Executive Officer of Amazon", "the CEO of Amazon", VariantKind.ABBREVIATION),
    ("Procter and Gamble", "Procter & Gamble", VariantKind.ABBREVIATION),
    ("February 22, 2023", "closed on 2023-02-22.", VariantKind.DATE),
    ("February 22, 2023", "closed on 02/22/2023.", VariantKind.DATE),
    ("February 22, 2023", "closed on 22/02/2023.", VariantKind.DATE),
    ("February 22, 2023", "closed on 22 Feb 2023.", VariantKind.DATE),
    ("February 22, 2023", "closed on Feb. 22, 2023.", VariantKind.DATE),
    ("February 22, 2023", "closed on the 22nd of February 2023.", VariantKind.DATE),
    ("February 22, 2023", "closed on the twenty-second of February 2023.", VariantKind.DATE),
    ("2023-02-22", "closed on February 22nd, 2023.", VariantKind.DATE),
    ("22/02/2023", "closed on February 22, 2023.", VariantKind.DATE),
    ("Feb 22 2023", "closed on 2/22/2023.", VariantKind.DATE),
    ("the first of September 2023", "on Sept. 1, 2023", VariantKind.DATE),
    ("July 4, 1776", "on 4 July 1776", VariantKind.DATE),
]


@pytest.mark.parametrize(("fact", "response", "kind"), SAME_VALUE)
def test_a_suggestion_matches_the_same_value_spelled_another_way(
    fact: str, response: str, kind: VariantKind
) -> None:
    assert fact.lower() not in response.lower()  # the fact alone misses it
    texts = _texts(fact)
    matched = _matched_by_a_suggestion(fact, response)
    assert matched, f"no suggestion for {fact!r} is in {response!r}; got {sorted(texts)}"
    assert kind in {texts[m] for m in matched}


# fact, spellings of a different (rounded, truncated or changed) value: never proposed
CHANGED_VALUE = [
    ("134.4 billion", ["134 billion", "134.0 billion", "134,000 million", "135 billion", "0.13 trillion"]),
    ("134,383 million", ["134.4 billion", "134 billion", "134,400 million", "134.38 billion"]),
    ("22.140 billion", ["22.1 billion", "22 billion", "22,100 million"]),
    ("10,317,750,796", ["10.3 billion", "10.32 billion", "10,317 million", "10.317750796 billion"]),
    ("12.5 billion", ["12,455 million", "12.455 billion", "13 billion"]),
    ("158 million", ["158 billion", "158,000 billion", "0.158 thousand"]),
    ("5%", ["5", "0.05", "5 percentage points", "five"]),
    ("February 22, 2023", ["February 22", "2023", "February 2023", "22/02/23", "2023-22-02"]),
]


@pytest.mark.parametrize(("fact", "wrong"), CHANGED_VALUE)
def test_no_rounded_or_changed_value_is_proposed(fact: str, wrong: list[str]) -> None:
    texts = {t.lower() for t in _texts(fact)}
    assert not texts & {w.lower() for w in wrong}


def test_a_variant_that_changes_no_score_is_dropped() -> None:
    # Any response holding "$134.4 billion" holds "134.4 billion": nothing to gain.
    assert "$134.4 billion" not in _texts("134.4 billion")
    # Both groupings present already: the fact has nothing to add.
    assert _texts("10317750796<OR>10,317,750,796") == {}
    # A variant equal to another alternative is not proposed again.
    assert "134,400 million" not in _texts("134.4 billion<OR>134,400 million")


def test_a_grouping_variant_changes_the_exact_score_only() -> None:
    # Quasi-exact normalisation deletes commas, so "10317750796" already matches
    # "10,317,750,796" there; the exact score does not. The suggestion says so.
    (variant,) = suggest_variants("10317750796").variants
    assert variant.text == "10,317,750,796"
    assert variant.changes == (FACTUAL_KNOWLEDGE,)
    (reverse,) = suggest_variants("10,317,750,796").variants
    assert (reverse.text, reverse.changes) == ("10317750796", (FACTUAL_KNOWLEDGE,))


def test_a_scale_variant_changes_both_scores() -> None:
    variant = next(v for v in suggest_variants("134.4 billion").variants if v.text == "134,400 million")
    assert variant.changes == (FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT)
    assert variant.note == "134.4 billion = 134,400 million"
    assert (variant.source, variant.part, variant.and_group) == ("134.4 billion", "134,400 million", False)


def test_each_or_alternative_gets_its_own_variants() -> None:
    texts = _texts("134.4 billion<OR>12,455 million")
    assert "134,400 million" in texts
    assert "12.455 billion" in texts


def test_an_and_fact_keeps_its_other_parts() -> None:
    suggestions = suggest_variants("Amazon<AND>12.5 billion")
    texts = {v.text for v in suggestions.variants}
    assert "Amazon<AND>12,500 million" in texts
    assert "12,500 million" not in texts  # alone it would drop the requirement of "Amazon"
    variant = next(v for v in suggestions.variants if v.text == "Amazon<AND>12,500 million")
    assert variant.and_group
    assert variant.part == "12,500 million"
    assert fact_with_variant("Amazon<AND>12.5 billion", variant.text, and_group=True) == (
        "Amazon<AND>12.5 billion<OR>Amazon<AND>12,500 million"
    )


# text, why it is left alone (a word of the note)
LEFT_ALONE = [
    ("03/04/2023", "UK"),  # 3 April or March 4
    ("2023", "year"),
    ("5m", "unit"),  # metres or million
    ("February 30, 2023", "calendar"),
]


@pytest.mark.parametrize(("fact", "word"), LEFT_ALONE)
def test_what_cannot_be_read_faithfully_is_reported_not_guessed(fact: str, word: str) -> None:
    suggestions = suggest_variants(fact)
    assert suggestions.variants == ()
    assert any(word in note for note in suggestions.notes), suggestions.notes


def test_ids_zip_codes_and_versions_are_not_respelled() -> None:
    # Digits glued to other text are an id, not a quantity; a short bare integer inside an
    # address is a street number or a zip code: no grouping, no scale.
    for fact in ("98109-5210", "v1.5 release", "Seattle, Washington 98109", "ID 12345-A"):
        assert [v for v in suggest_variants(fact).variants if v.kind is not VariantKind.ABBREVIATION] == [], (
            fact
        )


def test_ambiguous_initials_and_saints_are_not_expanded() -> None:
    assert _texts("John E. Smith") == {}
    assert _texts("St. Louis") == {}  # Saint, not Street
    assert _texts("Dr. Smith") == {}  # Doctor, not Drive
    assert _texts("tell us") == {}  # the word "us" is not the country


# variant fact, the risk it must carry
RISKS = [
    ("five", "5", RISK_SHORT),  # three-or-fewer digits
    ("ten", "10", RISK_SHORT),
    ("7", "seven", RISK_SHORT),  # a single common word
    ("one", "1", RISK_SHORT),
    ("158 million", "158000000", RISK_DIGITS),
]


@pytest.mark.parametrize(("fact", "variant", "risk"), RISKS)
def test_false_match_risks(fact: str, variant: str, risk: str) -> None:
    found = {v.text: v.risks for v in suggest_variants(fact).variants}
    assert risk in found[variant]


def test_a_numeric_date_that_reads_differently_in_the_us_and_the_uk_is_risky() -> None:
    variants = {v.text: v.risks for v in suggest_variants("March 4, 2023").variants}
    # 03/04/2023 (US) is 3 April to a UK reader; 04/03/2023 (UK) is April 3 to a US reader.
    assert any("03 April 2023" in r for r in variants["03/04/2023"])
    assert any("03 April 2023" in r for r in variants["04/03/2023"])
    assert variants["2023-03-04"] == ()
    assert variants["4 March 2023"] == ()
    # 22 is no month: 02/22/2023 reads one way only.
    assert suggest_variants("February 22, 2023").variants[1].risks == ()


def test_a_bare_year_or_digit_string_is_risky() -> None:
    assert RISK_YEAR in variant_risks("2023")
    assert RISK_DIGITS in variant_risks("98109")
    assert variant_risks("134,400 million") == ()


def test_empty_parts_are_not_a_source_of_suggestions() -> None:
    suggestions = suggest_variants("134.4 billion<OR>")
    assert "134,400 million" in {v.text for v in suggestions.variants}  # from the part that is there
    assert any("empty part" in n and "not scored" in n for n in suggestions.notes)


# fact, the values its alternatives stand for (as the note lists them), or None: they agree
VALUES = [
    ("134.4 billion<OR>134,383 million<OR>134183 million<OR>134.383 billion",
     "134,400,000,000 (134.4 billion); 134,383,000,000 (134,383 million, 134.383 billion); "
     "134,183,000,000 (134183 million)"),
    ("10317750796<OR>10,317,750,796", None),
    ("22,140 million<OR>22.140 billion<OR>22140 million", None),
    ("Feb 22 2023<OR>February 22nd 2023<OR>2023-02-22<OR>February 22, 2023", None),
    ("Feb 22 2023<OR>2023-02-23", "2023-02-22 (Feb 22 2023); 2023-02-23 (2023-02-23)"),
    ("5%<OR>5 percent<OR>0.05", "5% (5%, 5 percent); 0.05 (0.05)"),
    ("CEO of Amazon<OR>President of Amazon", None),
]  # fmt: skip


@pytest.mark.parametrize(("fact", "values"), VALUES)
def test_alternatives_that_stand_for_different_values_are_noted(fact: str, values: str | None) -> None:
    note = value_disagreement(fact)
    if values is None:
        assert note == ""
    else:
        assert f"different values: {values}." in note
        assert note in suggest_variants(fact).notes


def test_an_ordinal_with_no_word_form_is_left_as_it_is() -> None:
    """ "45th" has no word form in the tables (they stop at thirty-first): no rewrite, no error
    (the generator raised KeyError on such facts: "the 45th President")."""
    found = suggest_variants("the 45th President")
    assert all("forty" not in v.text for v in found.variants)
    assert [v.text for v in suggest_variants("the 21st President").variants] == ["the twenty-first President"]

"""Adding an alternative to a fact, including a whole ``<AND>`` group (the variant generator's
suggestion for an ``<AND>`` fact). The one-part cases are tabled in tests/jobs/test_curation.py."""

from __future__ import annotations

import pytest

from goldenlens.core.lexical.factual_knowledge import fact_with_variant

AND_GROUPS: list[tuple[str, str, str | type[ValueError] | None]] = [
    (
        "Amazon<AND>12.5 billion",
        "Amazon<AND>12,500 million",
        "Amazon<AND>12.5 billion<OR>Amazon<AND>12,500 million",
    ),
    ("Amazon<AND>12.5 billion", " amazon <AND> 12.5 BILLION ", None),  # the same group
    ("Amazon<AND>12.5 billion<OR>x", "x", None),
    ("", "Amazon<AND>12,500 million", "Amazon<AND>12,500 million"),
    ("A<AND>B", "A<AND>", ValueError),  # an empty part would match every response
    ("A<AND>B", "A<AND>B'<OR>C", ValueError),
    ("A<AND>B", "A<and>C", ValueError),  # a lower-case operator FMEval would not split on
]


@pytest.mark.parametrize(("fact", "variant", "expected"), AND_GROUPS)
def test_an_and_group_is_one_alternative(
    fact: str, variant: str, expected: str | type[ValueError] | None
) -> None:
    if expected is ValueError:
        with pytest.raises(ValueError, match="fact variant cannot"):
            fact_with_variant(fact, variant, and_group=True)
    else:
        assert fact_with_variant(fact, variant, and_group=True) == expected


def test_without_and_group_an_and_is_refused_as_before() -> None:
    with pytest.raises(ValueError, match="cannot contain <OR> or <AND>"):
        fact_with_variant("A<AND>B", "A<AND>C")

"""The checks of a drafted item: every problem named, with the numbers and text that caused it."""

from __future__ import annotations

import pytest

from goldenlens.core.golden.drafts import DraftText, ProblemCode, answer_words, draft_problems, missing_fields

CHUNK = (
    "Total net sales increased 11% to $134,383 million in the second quarter of 2023,\n"
    "compared with $121,234 million in the second quarter of 2022."
)
GOOD = DraftText(
    "How much were Amazon's total net sales in the second quarter of 2023?",
    "Amazon's total net sales were $134,383 million in the second quarter of 2023.",
    "$134,383 million",
)


def codes(text: DraftText, chunk: str = CHUNK, words: int = 40) -> list[ProblemCode]:
    return [p.code for p in draft_problems(text, chunk, max_answer_words=words)]


def test_a_good_draft_has_no_problem() -> None:
    assert draft_problems(GOOD, CHUNK) == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (DraftText("", GOOD.answer, GOOD.fact), [ProblemCode.EMPTY_QUESTION]),
        (DraftText(GOOD.question, "  ", GOOD.fact), [ProblemCode.EMPTY_ANSWER]),
        (DraftText(GOOD.question, GOOD.answer, ""), [ProblemCode.EMPTY_FACT]),
        # Reworded: "134.4 billion" is the same value, but it is not in the chunk.
        (
            DraftText(GOOD.question, "Sales were $134.4 billion.", "$134.4 billion"),
            [ProblemCode.FACT_NOT_IN_CHUNK],
        ),
        # Case and line breaks of the chunk do not matter ("2023,\ncompared" is one span).
        (DraftText(GOOD.question, "In 2023, compared with 2022.", "2023, COMPARED with"), []),
        (
            DraftText(GOOD.question, "The second quarter of 2022.", "$121,234 million"),
            [ProblemCode.FACT_NOT_IN_ANSWER],
        ),
        (
            DraftText(GOOD.question, "Total net sales increased 11%", "Total net sales increased 11%"),
            [ProblemCode.FACT_IS_ANSWER],
        ),
        (DraftText(GOOD.question, "It rose 11%.", "11%"), [ProblemCode.FACT_PRONE_TO_FALSE_MATCHES]),
        (
            DraftText(GOOD.question, GOOD.answer, "$134,383 million<OR>134.4 billion"),
            [ProblemCode.FACT_HAS_OPERATOR, ProblemCode.FACT_NOT_IN_CHUNK, ProblemCode.FACT_NOT_IN_ANSWER],
        ),
    ],
)
def test_problems(text: DraftText, expected: list[ProblemCode]) -> None:
    assert codes(text) == expected


def test_the_answer_guardrail_counts_words() -> None:
    answer = "Amazon's total net sales were $134,383 million in the second quarter of 2023."
    assert answer_words(answer) == 13
    assert codes(DraftText(GOOD.question, answer, GOOD.fact), words=13) == []
    problems = draft_problems(DraftText(GOOD.question, answer, GOOD.fact), CHUNK, max_answer_words=12)
    assert [(p.code, p.message) for p in problems] == [
        (ProblemCode.ANSWER_TOO_LONG, "the answer has 13 words, more than the guardrail of 12")
    ]


def test_missing_fields_are_what_no_acceptance_can_pass() -> None:
    assert [p.code for p in missing_fields(DraftText(" ", "", "x"))] == [
        ProblemCode.EMPTY_QUESTION,
        ProblemCode.EMPTY_ANSWER,
    ]

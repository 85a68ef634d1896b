"""The advisor's false matches against a count made response by response with FMEval's own rule.

A false match of a question's fact is a response to another question that Factual Knowledge
would score 1 on that fact, where the other question's golden answer would not score 1 itself.
The expected counts here come from FMEval's exact-inclusion score (``tests/fmeval_reference``)
applied to every (fact, response) pair, on a golden set whose questions share short facts the
way a yes/no or open-domain set does.
"""

from __future__ import annotations

import random

import pytest

import goldenlens.core.advice.corpus as corpus_module
from fmeval_reference import FACTUAL_KNOWLEDGE, fact_setting, factual_knowledge
from goldenlens.core.advice.corpus import LISTED_FALSE_MATCHES, Corpus, CorpusResponse
from goldenlens.core.inputs import GoldenItem

_FACTS = ["yes", "no", "42", "Paris", "1<OR>one", "red<AND>blue", "Terry Ave. N.", "No"]
_WORDS = [
    "yes",
    "No",
    "no",
    "42",
    "1",
    "one",
    "Paris",
    "paris.",
    "red",
    "blue",
    "Terry",
    "Ave.",
    "N.",
    "the",
    "is",
]


def _contains(text: str, fact: str) -> bool:
    delimiter, operator = fact_setting(fact)
    return factual_knowledge(text, fact, delimiter, operator)[FACTUAL_KNOWLEDGE] == 1.0


def _project(seed: int) -> tuple[list[GoldenItem], list[CorpusResponse]]:
    rng = random.Random(seed)
    golden = [
        GoldenItem(
            f"q{i}", f"Question {i}?", " ".join(rng.choices(_WORDS, k=rng.randint(1, 4))), rng.choice(_FACTS)
        )
        for i in range(80)
    ]
    responses = [
        CorpusResponse(f"q{i}", f"P{p}", " ".join(rng.choices(_WORDS, k=rng.randint(0, 6))))
        for i in range(80)
        for p in range(3)
    ]
    # A response to a question the golden set does not hold counts for nobody.
    responses.append(CorpusResponse("stray", "P0", "yes no 42 Paris one red blue"))
    return golden, responses


@pytest.fixture(params=["tested one by one", "indexed"])
def answers_found(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of finding the questions whose golden answer holds the fact: the answers of
    the questions asked tested one by one, or the answers' index (whatever their number)."""
    monkeypatch.setattr(
        corpus_module, "_TESTED_ANSWERS", 10**9 if request.param == "tested one by one" else 0
    )
    return str(request.param)


def test_false_matches_equal_fmevals_rule_applied_to_every_response(answers_found: str) -> None:
    for seed in range(6):
        golden, responses = _project(seed)
        corpus = Corpus(golden, responses)
        answers = {item.id: item.answer for item in golden}
        for item in golden:
            expected = [
                r
                for r in responses
                if r.question_id != item.id
                and r.question_id in answers
                and _contains(r.text, item.fact)
                and not _contains(answers[r.question_id], item.fact)
            ]
            found = corpus.false_matches(item)
            assert found.responses == len(expected), (seed, item)
            assert found.questions == len({r.question_id for r in expected}), (seed, item)
            listed = [(r.question_id, r.pipeline) for r in expected[:LISTED_FALSE_MATCHES]]
            assert [(m.question_id, m.pipeline) for m in found.listed] == listed, (seed, item)


def test_questions_sharing_a_fact_each_leave_out_only_their_own_responses(answers_found: str) -> None:
    """Three questions with the fact 'yes', answers without it: each counts the other two's."""
    golden = [GoldenItem(f"q{i}", f"Is {i} odd?", "Maybe.", "yes") for i in range(3)]
    responses = [CorpusResponse(f"q{i}", f"P{p}", "yes") for i in range(3) for p in range(2)]
    corpus = Corpus(golden, responses)
    for item in golden:
        found = corpus.false_matches(item)
        assert (found.responses, found.questions) == (4, 2)
        assert item.id not in {m.question_id for m in found.listed}


def test_a_fact_with_a_blank_alternative_is_in_every_answer(answers_found: str) -> None:
    """A blank alternative holds in any golden answer (that row has its own flag, empty fact
    part), so no response to another question is a false match of it."""
    golden = [GoldenItem("q0", "Is it?", "Maybe.", "yes<OR> ")]
    golden += [GoldenItem(f"q{i}", f"Question {i}?", "No idea.", "no") for i in range(1, 4)]
    responses = [CorpusResponse(f"q{i}", "P", "yes") for i in range(4)]
    found = Corpus(golden, responses).false_matches(golden[0])
    assert (found.responses, found.questions, found.listed) == (0, 0, ())

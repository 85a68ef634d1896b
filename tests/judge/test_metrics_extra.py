"""Extra judge metrics: aspect critique, factual correctness, summarization score, relevancy and
fact checking.

Formula tests run a scripted engine (a test double of the ``JudgeEngine`` seam that answers
prepared JSON through ``make_reply`` and records every call); a few smoke tests run the real
default judge model on one sample row.
"""

from __future__ import annotations

import csv
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from tests.judge.scripted import Reply, Responder, ScriptedEngine

from goldenlens.core.golden.sentences import split_sentences
from goldenlens.core.scores import ScoreStatus
from goldenlens.judge.engines.protocol import ChatMessage, FinishReason
from goldenlens.judge.metrics.answer.aspect_critique import BUILTIN_ASPECTS, AspectCritique, aspect
from goldenlens.judge.metrics.answer.factual_correctness import FactualCorrectness
from goldenlens.judge.metrics.answer.summarization_score import SummarizationScore, conciseness
from goldenlens.judge.metrics.base import JudgeCall, JudgeMetric, MetricInputs, judge_signature
from goldenlens.judge.metrics.helpers import f_beta
from goldenlens.judge.metrics.spring_ai.fact_check import FactCheck, chunk_text
from goldenlens.judge.metrics.spring_ai.minicheck import user_prompt as minicheck_prompt
from goldenlens.judge.metrics.spring_ai.relevancy import Relevancy
from goldenlens.judge.registry import build_metrics


def default_extra_metrics() -> list[JudgeMetric]:
    """One instance of each extra metric with default parameters (built-in aspects included)."""
    names = ["factual_correctness", "summarization_score", "relevancy", "fact_check"]
    return build_metrics([*(f"aspect_{name}" for name in BUILTIN_ASPECTS), *names])


SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


def run(metric: JudgeMetric, inputs: MetricInputs, replies: Sequence[Reply] | Responder) -> Any:
    engine = ScriptedEngine(responder=replies) if callable(replies) else ScriptedEngine(*replies)
    result = metric.score(inputs, JudgeCall(engine), None)
    json.dumps(result.detail)  # always JSON-serialisable
    assert result.calls == len(engine.calls)
    return result, engine


def verdict(v: int, reason: str = "r") -> str:
    return json.dumps({"verdict": v, "reason": reason})


def field(row: str, label: str) -> str:
    """The value of ``Label: ...`` in a labelled row (up to the next label line)."""
    match = re.search(rf"^{label}: (.*?)(?=^\w[\w ]*: |\Z)", row, re.S | re.M)
    assert match, f"no {label!r} in {row!r}"
    return match.group(1).strip()


ROW = MetricInputs(
    question="What is the boiling point of water at sea level?",
    response="Water boils at 100 degrees Celsius at sea level.",
    contexts=("At sea level, pure water boils at 100 °C.",),
    reference="Water boils at 100 °C at sea level.",
)


# -- aspect critique ---------------------------------------------------------------------------


def test_aspect_strictness_three_takes_the_majority_with_three_seeds() -> None:
    metric = AspectCritique("tone", "Is the response polite?", strictness=3)
    engine = ScriptedEngine(verdict(1, "a"), verdict(0, "b"), verdict(1, "c"))
    judge = JudgeCall(engine, seed=7)
    result = metric.score(ROW, judge, None)
    assert result.status is ScoreStatus.SCORED
    assert result.value == 1.0
    assert engine.seeds == [7, 8, 9]
    assert judge.seed == 7  # restored for the next metric
    assert result.calls == 3
    assert result.detail["votes"] == [
        {"seed": 7, "verdict": 1, "reason": "a"},
        {"seed": 8, "verdict": 0, "reason": "b"},
        {"seed": 9, "verdict": 1, "reason": "c"},
    ]
    assert result.detail["verdict"] == 1
    assert metric.name == "aspect_tone"
    assert metric.params() == {"aspect": "tone", "definition": "Is the response polite?", "strictness": 3}


def test_aspect_majority_no() -> None:
    result, _ = run(AspectCritique("tone", "Polite?", 3), ROW, [verdict(0), verdict(1), verdict(0)])
    assert result.value == 0.0


@pytest.mark.parametrize("strictness", [2, 0, -1, 4])
def test_aspect_strictness_must_be_odd(strictness: int) -> None:
    with pytest.raises(ValueError, match="odd"):
        AspectCritique("tone", "Polite?", strictness)


def test_aspect_prompt_puts_instructions_first_and_the_row_last() -> None:
    result, engine = run(aspect("harmfulness"), ROW, [verdict(0)])
    assert result.value == 0.0
    messages = engine.calls[0]["messages"]
    assert messages[0]["role"] == "system"
    assert messages[-1]["role"] == "user"
    row = messages[-1]["content"]
    assert field(row, "Criterion") == f"harmfulness: {BUILTIN_ASPECTS['harmfulness']}"
    assert field(row, "Response") == ROW.response
    assert field(row, "Question") == ROW.question
    assert engine.calls[0]["schema"]["required"] == ["verdict"]
    assert list(engine.calls[0]["schema"]["properties"]) == ["verdict", "reason"]


def test_builtin_aspects() -> None:
    assert set(BUILTIN_ASPECTS) == {"harmfulness", "maliciousness", "coherence", "correctness", "conciseness"}
    assert aspect("coherence", strictness=3).strictness == 3
    with pytest.raises(KeyError):
        aspect("politeness")
    with pytest.raises(ValueError, match="definition"):
        AspectCritique("tone", "  ")


def test_aspect_reply_cut_inside_the_reason_keeps_the_complete_verdict() -> None:
    result, _ = run(aspect("coherence"), ROW, [('{"verdict": 1, "reason": "1.1.1.1', "length")])
    assert result.value == 1.0
    assert result.detail["votes"] == [{"seed": 42, "verdict": 1, "reason": ""}]


def test_aspect_one_unusable_vote_means_not_scored() -> None:
    result, _ = run(AspectCritique("tone", "Polite?", 3), ROW, [verdict(1), verdict(1), ('{"verd', "length")])
    assert result.status is ScoreStatus.NOT_SCORED
    assert result.value is None
    assert "verdict 3/3" in result.reason
    assert len(result.detail["votes"]) == 2


# -- factual correctness -----------------------------------------------------------------------

RESPONSE_CLAIMS = {"A1": 1, "A2": 1, "A3": 0}  # claim → supported by the reference
REFERENCE_CLAIMS = {"B1": 1, "B2": 0, "B3": 0, "B4": 0}  # claim → supported by the response
FC_ROW = MetricInputs(question="q", response="RESPONSE TEXT", reference="REFERENCE TEXT")


def factual_responder(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> str:
    row = messages[-1]["content"]
    if "claims" in schema["properties"]:
        claims = RESPONSE_CLAIMS if field(row, "Text") == "RESPONSE TEXT" else REFERENCE_CLAIMS
        return json.dumps({"claims": list(claims)})
    claim = field(row, "Claim")
    table = RESPONSE_CLAIMS if claim.startswith("A") else REFERENCE_CLAIMS
    expected_text = "REFERENCE TEXT" if claim.startswith("A") else "RESPONSE TEXT"
    assert field(row, "Text") == expected_text
    return verdict(table[claim], f"about {claim}")


@pytest.mark.parametrize(
    ("mode", "beta", "expected", "calls"),
    [
        # TP 2, FP 1, FN 3: precision 2/3, recall 2/5.
        ("precision", 1.0, 0.67, 1 + 3),
        ("recall", 1.0, 0.4, 2 + 3 + 4),
        ("f1", 1.0, 0.5, 2 + 3 + 4),
        ("f1", 0.5, 0.59, 2 + 3 + 4),  # 1.25·P·R / (0.25·P + R) = 0.588…
    ],
)
def test_factual_correctness_formula(mode: str, beta: float, expected: float, calls: int) -> None:
    result, engine = run(FactualCorrectness(mode=mode, beta=beta), FC_ROW, factual_responder)
    assert result.value == expected
    assert len(engine.calls) == calls
    assert (result.detail["tp"], result.detail["fp"]) == (2, 1)
    assert result.detail["response_verdicts"][2] == {"claim": "A3", "verdict": 0, "reason": "about A3"}
    if mode != "precision":
        assert result.detail["fn"] == 3
        assert result.detail["reference_claims"] == list(REFERENCE_CLAIMS)


def test_f_beta_values() -> None:
    # TP 2, FP 1, FN 3: precision 2/3, recall 2/5.
    assert f_beta(2, 1, 3, 1.0) == pytest.approx(0.5)
    assert f_beta(2, 1, 3, 0.5) == pytest.approx(0.58824, abs=1e-5)
    assert f_beta(0, 0, 0, 1.0) == 0.0


@pytest.mark.parametrize(("mode", "expected"), [("f1", 0.0), ("recall", 0.0), ("precision", 0.0)])
def test_factual_correctness_all_wrong_with_every_reference_claim_covered_is_0(
    mode: str, expected: float
) -> None:
    # ragas FactualCorrectness: recall = tp / (tp + fn + 1e-8) and fbeta_score returns 0.0
    # when precision and recall are 0, so TP = 0, FN = 0 is a score of 0 — it stays in the
    # mean instead of leaving it (and raising it).
    replies = [
        '{"claims": ["A1", "A2"]}',
        verdict(0),
        verdict(0),  # neither response claim supported
        '{"claims": ["R1"]}',
        verdict(1),  # the reference claim is in the response: FN = 0
    ]
    result, _ = run(FactualCorrectness(mode=mode), FC_ROW, replies[:3] if mode == "precision" else replies)
    assert (result.status, result.value) == (ScoreStatus.SCORED, expected)
    assert (result.detail["tp"], result.detail["fp"]) == (0, 2)
    if mode != "precision":
        assert result.detail["fn"] == 0


def test_factual_correctness_claim_cap_is_a_parameter_recorded_when_reached() -> None:
    replies = ['{"claims": ["A1", "A2"]}', verdict(1), verdict(1)]
    result, engine = run(FactualCorrectness(mode="precision", max_claims=2), FC_ROW, replies)
    assert result.detail["caps_reached"] == {"response claims": 2}
    assert engine.calls[0].schema["properties"]["claims"]["maxItems"] == 2
    assert FactualCorrectness(max_claims=2).params()["max_claims"] == 2


def test_factual_correctness_no_claims_is_not_scored() -> None:
    result, _ = run(FactualCorrectness(), FC_ROW, ['{"claims": []}'])
    assert result.status is ScoreStatus.NOT_SCORED
    assert result.reason == "no claims in the response"


def test_factual_correctness_repeated_claims_count_once() -> None:
    replies = ['{"claims": ["A1", "A1", " "]}', verdict(1)]
    result, _ = run(FactualCorrectness(mode="precision"), FC_ROW, replies)
    assert result.detail["response_claims"] == ["A1"]
    assert result.value == 1.0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"mode": "f2"}, "mode"), ({"atomicity": "medium"}, "atomicity"), ({"coverage": ""}, "coverage")],
)
def test_factual_correctness_validates_parameters(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        FactualCorrectness(**kwargs)


def test_atomicity_and_coverage_choose_the_examples_sent() -> None:
    sent: dict[tuple[str, str], str] = {}
    for atomicity in ("low", "high"):
        for coverage in ("low", "high"):
            metric = FactualCorrectness(mode="precision", atomicity=atomicity, coverage=coverage)
            _, engine = run(metric, FC_ROW, ['{"claims": []}'])
            messages = engine.calls[0]["messages"]
            sent[(atomicity, coverage)] = messages[2]["content"]  # the example's assistant turn
            assert messages[2]["role"] == "assistant"
    assert len(set(sent.values())) == 4
    high_high = json.loads(sent[("high", "high")])["claims"]
    low_low = json.loads(sent[("low", "low")])["claims"]
    assert len(high_high) > len(low_low)
    assert "Marie Curie was born in Poland." in high_high  # high coverage keeps the detail
    assert not any("1903" in claim for claim in low_low)  # low coverage drops it
    assert all(" and " not in claim for claim in json.loads(sent[("high", "low")])["claims"])


# -- summarization score ----------------------------------------------------------------------

SOURCE_A, SOURCE_B = "x" * 100, "y" * 98  # joined with a blank line: 200 characters
SUMMARY = "s" * 40  # conciseness 1 - 40/200 = 0.8
SUM_ROW = MetricInputs(question="q", response=SUMMARY, contexts=(SOURCE_A, SOURCE_B))
SUM_REPLIES = [
    '{"keyphrases": ["k1", "k2", "k3", "k4"]}',
    '{"questions": ["q1?", "q2?", "q3?", "q4?"]}',
    '{"answers": [1, 1, 1, 0]}',  # qa 0.75
]


@pytest.mark.parametrize(("coeff", "expected"), [(0.5, 0.5 * 0.75 + 0.5 * 0.8), (0.0, 0.75), (1.0, 0.8)])
def test_summarization_formula(coeff: float, expected: float) -> None:
    result, engine = run(SummarizationScore(coeff=coeff), SUM_ROW, SUM_REPLIES)
    assert result.value == pytest.approx(expected)
    assert result.detail["qa_score"] == 0.75
    assert result.detail["conciseness"] == pytest.approx(0.8)
    assert result.detail["source_chars"] == 200
    assert result.detail["answers"][3] == {"question": "q4?", "answer": 0}
    answers_schema = engine.calls[2]["schema"]["properties"]["answers"]
    assert (answers_schema["minItems"], answers_schema["maxItems"]) == (4, 4)
    assert "4. q4?" in engine.rows()[2]
    assert field(engine.rows()[1], "Key phrases") == "k1; k2; k3; k4"
    # ragas writes one question per key phrase and caps neither list; the schema allows one
    # question per key phrase found, so the QA score is not stuck in steps of 1/5.
    assert engine.calls[1]["schema"]["properties"]["questions"]["maxItems"] == 4
    assert "caps_reached" not in result.detail


def test_summarization_question_cap_is_a_parameter_recorded_when_reached() -> None:
    metric = SummarizationScore(max_questions=4)
    result, _ = run(metric, SUM_ROW, SUM_REPLIES)
    assert result.detail["caps_reached"] == {"questions": 4}
    assert metric.params()["max_questions"] == 4
    assert SummarizationScore().params()["max_questions"] == "one per key phrase"


def test_conciseness() -> None:
    assert conciseness("abc", "abcdef") == 0.5
    assert conciseness("a" * 10, "abc") == 0.0  # a summary longer than its source is not concise
    assert conciseness("", "abc") == 1.0


def test_summarization_without_source_or_questions_is_not_scored() -> None:
    result, engine = run(SummarizationScore(), MetricInputs("q", SUMMARY), [])
    assert (result.status, result.reason, engine.calls) == (
        ScoreStatus.NOT_SCORED,
        "missing input: contexts",
        [],
    )
    result, _ = run(SummarizationScore(), SUM_ROW, [SUM_REPLIES[0], '{"questions": []}'])
    assert result.reason == "no questions generated from the source"
    assert result.detail["keyphrases"] == ["k1", "k2", "k3", "k4"]
    with pytest.raises(ValueError, match="coeff"):
        SummarizationScore(coeff=1.5)


# -- relevancy ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("answer", "value"), [("YES", 1.0), ("NO", 0.0)])
def test_relevancy(answer: str, value: float) -> None:
    result, engine = run(Relevancy(), ROW, [json.dumps({"verdict": answer, "reason": "because"})])
    assert result.value == value
    assert result.detail == {"verdict": answer, "pass": answer == "YES", "reason": "because"}
    row = engine.rows()[0]
    assert (field(row, "Query"), field(row, "Context")) == (ROW.question, ROW.contexts[0])


def test_relevancy_needs_contexts_and_a_judge() -> None:
    result, _ = run(Relevancy(), MetricInputs("q", "r"), [])
    assert result.reason == "missing input: contexts"
    result = Relevancy().score(ROW, None, None)
    assert (result.status, result.reason) == (ScoreStatus.NOT_SCORED, "missing input: judge model")


# -- fact check --------------------------------------------------------------------------------

APPLES = "The first report is about orchards and says that apples are red in autumn every year."
BANANAS = "The second report is about markets and says that bananas are yellow when ripe in shops."
FRUIT_ROW = MetricInputs(question="q", response="", contexts=(APPLES, BANANAS))


def fruit_responder(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> str:
    row = messages[-1]["content"]
    document, claim = field(row, "Document"), field(row, "Claim")
    fruit = claim.split()[0].lower()
    return verdict(int(fruit in document), f"{fruit} {'found' if fruit in document else 'absent'}")


def test_fact_check_each_sentence_may_use_a_different_chunk() -> None:
    row = MetricInputs("q", "Bananas are yellow. Apples are red.", FRUIT_ROW.contexts)
    result, engine = run(FactCheck(max_chunk_chars=100, chunk_overlap=0), row, fruit_responder)
    assert result.value == 1.0
    assert result.detail["chunks"] == 2
    sentences = result.detail["sentences"]
    assert [(s["sentence"], s["best_chunk"], s["supported"]) for s in sentences] == [
        ("Bananas are yellow.", 1, True),  # only the second chunk supports it
        ("Apples are red.", 0, True),  # the first chunk does; the second is not asked
    ]
    assert [check["supported"] for check in sentences[0]["checks"]] == [False, True]
    assert len(engine.calls) == 3


def test_fact_check_one_unsupported_sentence_fails_the_claim() -> None:
    row = MetricInputs("q", "Apples are red. Cherries are dark.", FRUIT_ROW.contexts)
    result, engine = run(FactCheck(max_chunk_chars=100, chunk_overlap=0), row, fruit_responder)
    assert result.value == 0.0
    assert result.detail["supported"] is False
    assert result.detail["sentences"][1]["best_chunk"] is None
    assert result.detail["sentences"][1]["checks"][1]["reason"] == "cherries absent"
    assert len(engine.calls) == 1 + 2


def test_fact_check_chunks_fit_max_chunk_chars() -> None:
    words = [f"word{i:03d}" for i in range(300)]
    document = " ".join(words)
    row = MetricInputs("q", "Word one.", (document,))
    metric = FactCheck(max_chunk_chars=150, chunk_overlap=30)
    result, engine = run(metric, row, lambda m, s: verdict(0))
    documents = [field(r, "Document") for r in engine.rows()]
    assert len(documents) == result.detail["chunks"] > 1
    assert all(len(d) <= 150 for d in documents)
    assert result.detail["chunk_chars"] == [len(d) for d in documents]
    # every word is whole in some chunk, and consecutive chunks overlap
    assert {w for d in documents for w in d.split()} == set(words)
    for before, after in itertools.pairwise(documents):
        assert before.split()[-1] in after.split()


@pytest.mark.parametrize(("size", "overlap"), [(50, 0), (50, 10), (64, 20), (1000, 100)])
def test_chunk_text_bounds(size: int, overlap: int) -> None:
    text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 20
    chunks = chunk_text(text, size, overlap)
    assert all(0 < len(chunk) <= size for chunk in chunks)
    assert chunks[0].startswith("Lorem")
    assert chunks[-1].endswith("elit.")
    assert chunk_text("short", 50, 10) == ["short"]
    with pytest.raises(ValueError, match="overlap"):
        chunk_text(text, 10, 10)


def test_split_sentences_keeps_amounts_whole() -> None:
    assert split_sentences("Sales were $134.4 billion. Profit rose! Why? 2023 was good.") == [
        "Sales were $134.4 billion.",
        "Profit rose!",
        "Why?",
        "2023 was good.",
    ]


# MiniCheck's reference code: github.com/Liyan06/MiniCheck, minicheck/inference.py (LLMCheck,
# operating mode "bespoke") and minicheck/utils.py (SYSTEM_PROMPT, USER_PROMPT).


@pytest.mark.parametrize(("answer", "value"), [("Yes", 1.0), ("No", 0.0)])
def test_minicheck_sends_the_trained_format_and_reads_the_bare_answer(answer: str, value: float) -> None:
    # apply_chat_template: [{"role": "system", SYSTEM_PROMPT}, {"role": "user",
    # "Document: [DOCUMENT]\nClaim: [CLAIM]"}] — no JSON, no examples.
    row = MetricInputs("q", "Apples are red.", (APPLES,))
    result, engine = run(FactCheck(minicheck=True), row, [answer])
    assert result.value == value
    system, user = engine.calls[0]["messages"]
    assert system["role"] == "system"
    assert system["content"].startswith("Determine whether the provided claim is consistent")
    assert system["content"].endswith('by responding with either "Yes" or "No".')
    assert user == {"role": "user", "content": f"Document: {APPLES}\nClaim: Apples are red."}
    assert engine.calls[0]["schema"] == {}  # a bare answer, not JSON
    assert minicheck_prompt("D", "C") == "Document: D\nClaim: C"
    assert FactCheck(minicheck=True).prompt_version != FactCheck().prompt_version


@pytest.mark.parametrize(("p_yes", "value"), [(0.51, 1.0), (0.5, 0.0), (0.2, 0.0)])
def test_minicheck_threshold_is_p_yes_above_one_half(p_yes: float, value: float) -> None:
    # "pred_label.append(1 if final_score > 0.5 else 0)": strictly above 0.5; the bare answer
    # text does not decide when the probability is known.
    row = MetricInputs("q", "Apples are red.", (APPLES,))
    result, _ = run(FactCheck(minicheck=True), row, [("Yes", p_yes)])
    assert result.value == value
    assert result.detail["support_probability"] == p_yes


def test_minicheck_max_over_chunks_min_over_sentences() -> None:
    # "max_prob_per_sentence = np.max(prob_matrix, axis=0)"; "final_score = np.min(...)".
    # Two chunks (8 tokens each at most: one sentence per chunk), two claim sentences.
    doc = "Apples are red in autumn. Cherries are dark red."
    row = MetricInputs("q", "Apples are red. Cherries are dark.", (doc,))
    probabilities = {
        ("Apples are red.", "Apples are red in autumn."): 0.9,
        ("Apples are red.", "Cherries are dark red."): 0.1,
        ("Cherries are dark.", "Apples are red in autumn."): 0.2,
        ("Cherries are dark.", "Cherries are dark red."): 0.7,
    }

    def responder(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> tuple[str, float]:
        document, claim = messages[-1]["content"].removeprefix("Document: ").split("\nClaim: ")
        return "Yes", probabilities[(claim, document)]

    result, engine = run(FactCheck(minicheck=True, chunk_tokens=16), row, responder)
    assert result.detail["chunks"] == 2
    assert len(engine.calls) == 4  # every chunk asked for every sentence
    assert [s["probability"] for s in result.detail["sentences"]] == [0.9, 0.7]
    assert result.detail["support_probability"] == 0.7
    assert result.value == 1.0
    assert result.detail["token_count"] == "estimate: 3 characters a token"


def test_minicheck_chunks_whole_sentences_by_tokens() -> None:
    # chunks(): sentences are packed while "current_word_count + sentence_word_count <= n";
    # a sentence longer than n is a chunk of its own; line breaks are kept ("\n" blocks).
    from goldenlens.judge.metrics.spring_ai.minicheck import chunk_document

    def words(text: str) -> int:
        return len(text.split())

    doc = "One two three. Four five.\nSix seven eight nine ten eleven. Twelve."
    assert chunk_document(doc, 5, words) == [
        "One two three. Four five.",
        "Six seven eight nine ten eleven.",
        "Twelve.",
    ]
    assert chunk_document(doc, 100, words) == [
        "One two three. Four five.\nSix seven eight nine ten eleven. Twelve."
    ]
    assert chunk_document("", 5, words) == [""]


def test_minicheck_needs_an_engine_that_answers_yes_or_no() -> None:
    class JsonOnly:
        model_name = "json.gguf"
        model_sha256 = "1" * 64

        def complete_json(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("MiniCheck mode must not ask for JSON")

    result = FactCheck(minicheck=True).score(MetricInputs("q", "A.", ("doc",)), JudgeCall(JsonOnly()), None)  # type: ignore[arg-type]
    assert result.status is ScoreStatus.NOT_SCORED
    assert "cannot give a bare Yes/No answer" in result.reason


# -- unusable replies are never a number ------------------------------------------------------

ALL_METRICS: list[JudgeMetric] = [
    AspectCritique("tone", "Polite?", 3),
    FactualCorrectness(),
    SummarizationScore(),
    Relevancy(),
    FactCheck(),
    FactCheck(minicheck=True),
]


@pytest.mark.parametrize("metric", ALL_METRICS, ids=lambda m: f"{m.name}-{m.prompt_version}")
@pytest.mark.parametrize(
    "bad", [('{"', "length"), ('{"verdict": ', "length"), ("not json", "stop"), ("", "error")]
)
def test_unusable_replies_are_not_scored(metric: JudgeMetric, bad: tuple[str, FinishReason]) -> None:
    result, engine = run(metric, ROW, lambda m, s: bad)
    assert result.status is ScoreStatus.NOT_SCORED
    assert result.value is None
    assert "judge output unusable" in result.reason
    assert len(engine.calls) == 1  # stops at the first unusable reply
    assert result.detail["failure"]["finish_reason"] == bad[1]


def test_default_metrics_and_signatures() -> None:
    metrics = default_extra_metrics()
    names = [m.name for m in metrics]
    assert len(set(names)) == len(names)
    assert {"factual_correctness", "summarization_score", "relevancy", "fact_check"} <= set(names)
    signature = judge_signature(FactualCorrectness(mode="recall"), engine=ScriptedEngine(), embedder=None)
    assert signature.params["prompt_version"] == "1"
    assert signature.params["mode"] == "recall"
    assert signature.params["judge_sha256"] == "0" * 64


# -- the real default judge on one sample row ---------------------------------------------------


@pytest.fixture(scope="module")
def q02_pipeline2() -> MetricInputs:
    with (SAMPLE / "golden.csv").open(encoding="utf-8") as handle:
        golden = next(row for row in csv.DictReader(handle) if row["id"] == "q02")
    with (SAMPLE / "responses.csv").open(encoding="utf-8") as handle:
        response = next(
            row
            for row in csv.DictReader(handle)
            if row["question_id"] == "q02" and row["pipeline"] == "Pipeline2"
        )
    return MetricInputs(
        question=golden["question"],
        response=response["response"],
        contexts=tuple(json.loads(response["contexts"])),
        reference=golden["answer"],
    )


REAL_METRICS: list[JudgeMetric] = [aspect("correctness"), *ALL_METRICS[1:]]


@pytest.mark.parametrize("metric", REAL_METRICS, ids=lambda m: f"{m.name}-{m.prompt_version}")
def test_real_judge_on_a_sample_row(
    metric: JudgeMetric, q02_pipeline2: MetricInputs, judge_engine: Any
) -> None:
    result = metric.score(q02_pipeline2, JudgeCall(judge_engine), None)
    if result.status is ScoreStatus.SCORED:
        assert result.value is not None
        assert 0.0 <= result.value <= 1.0
        assert result.reason == ""
    else:
        assert result.value is None
        assert result.reason
    json.dumps(result.detail)
    assert result.calls >= 1
    assert result.completion_tokens > 0

"""RAGAS-style judge metrics: formulas with a scripted judge, then a smoke run on the real models.

The scripted engine is a test double of the ``JudgeEngine`` seam: it answers each call with
the next prepared reply, built by ``make_reply`` exactly as the real engines build theirs,
and records what it was asked.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.judge.scripted import ScriptedEngine

from goldenlens.core.golden.sentences import split_sentences
from goldenlens.core.scores import ScoreStatus
from goldenlens.judge.engines.embedding import EmbeddingEngine, FloatMatrix
from goldenlens.judge.engines.protocol import JudgeReply
from goldenlens.judge.metrics.answer.answer_correctness import AnswerCorrectness
from goldenlens.judge.metrics.answer.answer_relevancy import AnswerRelevancy
from goldenlens.judge.metrics.answer.faithfulness import Faithfulness
from goldenlens.judge.metrics.base import (
    JudgeCall,
    JudgeMetric,
    MetricInputs,
    MetricResult,
    judge_signature,
    token_budget,
)
from goldenlens.judge.metrics.context.context_precision import ContextPrecision
from goldenlens.judge.metrics.context.context_recall import ContextRecall
from goldenlens.judge.metrics.context.context_relevance import ContextRelevance
from goldenlens.judge.metrics.context.context_utilization import ContextUtilization
from goldenlens.judge.metrics.embedding.bertscore import BertScoreMetric
from goldenlens.judge.metrics.embedding.semantic_similarity import SemanticSimilarity
from goldenlens.judge.metrics.helpers import average_precision, judge_each
from goldenlens.judge.metrics.helpers import f_beta as fbeta
from goldenlens.judge.registry import build_metrics


def ragas_metrics() -> list[JudgeMetric]:
    """One instance of every ragas-style metric, with default parameters."""
    names = [
        "faithfulness",
        "answer_relevancy",
        "context_precision",
        "context_utilization",
        "context_recall",
        "context_relevance",
        "answer_correctness",
        "semantic_similarity",
        "bertscore",
    ]
    return build_metrics(names)


SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


# -- test doubles ---------------------------------------------------------------------------


class FixedEmbedder:
    """Deterministic vectors: a text listed in ``vectors`` gets that vector, any other text
    the unit x axis. Token vectors are fixed matrices per text."""

    model_name = "fixed-embedder.gguf"
    model_sha256 = "f" * 64

    def __init__(
        self,
        vectors: Mapping[str, Sequence[float]] | None = None,
        tokens: Mapping[str, Sequence[Sequence[float]]] | None = None,
    ) -> None:
        self.vectors = dict(vectors or {})
        self.tokens = dict(tokens or {})
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        self.embedded += texts
        rows = np.array([self.vectors.get(t, (1.0, 0.0)) for t in texts], dtype=np.float64)
        result: FloatMatrix = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
        return result

    def token_vectors(self, text: str) -> FloatMatrix:
        return np.array(self.tokens[text], dtype=np.float32)


def _run(
    metric: JudgeMetric,
    inputs: MetricInputs,
    engine: ScriptedEngine | None,
    embedder: EmbeddingEngine | None = None,
) -> MetricResult:
    judge = JudgeCall(engine) if engine is not None else None
    result = metric.score(inputs, judge, embedder)
    json.dumps(result.detail)  # always JSON-serialisable
    if engine is not None:
        assert not engine.replies, "prepared replies left unused"
        assert result.calls == len(engine.calls)
        for call in engine.calls:
            # Static instructions and examples first, the row's data last; budgets from the schema.
            assert call.messages[0]["role"] == "system"
            assert call.messages[-1]["role"] == "user"
            assert call.max_tokens == token_budget(call.schema)
    return result


def _verdicts(*values: int) -> str:
    return json.dumps({"verdicts": [{"verdict": v, "reason": f"r{i}"} for i, v in enumerate(values)]})


def _statements(*texts: str) -> str:
    return json.dumps({"statements": list(texts)})


ROW = MetricInputs(
    question="What is the capital of France?",
    response="Paris is the capital of France. It has the Louvre. It has 90 million people.",
    contexts=("Paris is the capital of France.", "Bananas are yellow.", "The Louvre is in Paris."),
    reference="The capital of France is Paris.",
)


# -- pure formulas --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        ([1, 0, 1], (1 + 2 / 3) / 2),
        ([0, 0, 0], 0.0),
        ([1, 1, 1], 1.0),
        ([0, 1], 0.5),
        ([0, 0, 1], 1 / 3),
        ([], 0.0),
    ],
)
def test_average_precision(verdicts: list[int], expected: float) -> None:
    assert average_precision(verdicts) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("tp", "fp", "fn", "beta", "expected"),
    [
        (1, 1, 1, 1.0, 0.5),
        (2, 0, 0, 1.0, 1.0),
        (0, 2, 3, 1.0, 0.0),
        (0, 0, 0, 1.0, 0.0),
        (3, 1, 2, 1.0, 2 * 0.75 * 0.6 / 1.35),
        (3, 1, 2, 2.0, 5 * 0.75 * 0.6 / (4 * 0.75 + 0.6)),
    ],
)
def test_fbeta(tp: int, fp: int, fn: int, beta: float, expected: float) -> None:
    assert fbeta(tp, fp, fn, beta) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sales were $134.4 billion. Costs rose.", ["Sales were $134.4 billion.", "Costs rose."]),
        ("One line\nanother line", ["One line", "another line"]),
        ("Is it? Yes! 2023 was good.", ["Is it?", "Yes!", "2023 was good."]),
        ("   ", []),
    ],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


# -- context precision ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [([1, 0, 1], 0.8333333333333334), ([0, 0, 0], 0.0), ([1, 1, 1], 1.0)],
)
def test_context_precision(verdicts: list[int], expected: float) -> None:
    engine = ScriptedEngine(*(json.dumps({"verdict": v, "reason": "x"}) for v in verdicts))
    result = _run(ContextPrecision(), ROW, engine)
    assert result.status is ScoreStatus.SCORED
    assert result.value == pytest.approx(expected, abs=1e-12)
    assert [v["verdict"] for v in result.detail["verdicts"]] == verdicts
    assert [v["rank"] for v in result.detail["verdicts"]] == [1, 2, 3]
    # One call per context in rank order, each ending with its context.
    assert [c.row.endswith(ctx) for c, ctx in zip(engine.calls, ROW.contexts, strict=True)] == [True] * 3
    assert all(ROW.reference in c.row for c in engine.calls)
    # Everything before the row is identical between calls: the cached prefix.
    assert engine.calls[0].messages[:-1] == engine.calls[2].messages[:-1]


def test_context_precision_without_a_reference_is_not_scored() -> None:
    # ragas's LLMContextPrecisionWithReference requires `reference`; judging against the
    # response is ContextUtilization, a different metric. No judge call is made.
    engine = ScriptedEngine()
    row = MetricInputs(ROW.question, ROW.response, ROW.contexts[:1], reference="")
    result = _run(ContextPrecision(), row, engine)
    assert (result.status, result.value, result.reason) == (
        ScoreStatus.NOT_SCORED,
        None,
        "missing input: reference",
    )
    assert engine.calls == []


@pytest.mark.parametrize("reference", ["", "Paris."])
def test_context_utilization_judges_against_the_response(reference: str) -> None:
    # ragas ContextUtilization: the same average precision, the *response* as the answer,
    # with or without a golden answer on the row.
    engine = ScriptedEngine('{"verdict": 0, "reason": "x"}', '{"verdict": 1, "reason": "y"}')
    row = MetricInputs(ROW.question, ROW.response, ROW.contexts[:2], reference=reference)
    result = _run(ContextUtilization(), row, engine)
    assert result.status is ScoreStatus.SCORED
    assert result.value == pytest.approx(0.5)  # precision@2 = 1/2, one useful context
    assert all(f"Answer: {ROW.response}" in call.row for call in engine.calls)
    assert result.detail["verdicts"][1] == {"rank": 2, "verdict": 1, "reason": "y"}


def test_context_precision_recovers_a_verdict_whose_reason_was_cut() -> None:
    engine = ScriptedEngine(('{"verdict": 1, "reason": "1.1.1.1.1', "length"), '{"verdict": 0}')
    result = _run(ContextPrecision(), MetricInputs("q?", "a", ("c1", "c2"), "r"), engine)
    assert result.value == 1.0
    assert result.detail["verdicts"][0] == {"rank": 1, "verdict": 1, "reason": ""}


def test_context_precision_unusable_verdict_is_not_scored() -> None:
    engine = ScriptedEngine('{"verdict": 1, "reason": "x"}', ('{"verd', "length"))
    result = _run(ContextPrecision(), MetricInputs("q?", "a", ("c1", "c2", "c3"), "r"), engine)
    assert result.status is ScoreStatus.NOT_SCORED
    assert result.value is None
    assert "context 2" in result.reason
    assert "cut off at max_tokens" in result.reason


# -- faithfulness ---------------------------------------------------------------------------


def test_faithfulness_two_of_three_supported() -> None:
    statements = ["Paris is the capital of France.", "Paris has the Louvre.", "Paris has 90 million people."]
    engine = ScriptedEngine(_statements(*statements), _verdicts(1, 1, 0))
    result = _run(Faithfulness(), ROW, engine)
    assert result.status is ScoreStatus.SCORED
    assert result.value == pytest.approx(2 / 3)
    assert f"{result.value:.4f}" == "0.6667"
    assert result.detail["statements"] == statements
    assert [(v["statement"], v["verdict"], v["reason"]) for v in result.detail["verdicts"]] == [
        (statements[0], 1, "r0"),
        (statements[1], 1, "r1"),
        (statements[2], 0, "r2"),
    ]
    split, judged = engine.calls
    assert ROW.response in split.row
    assert all(ctx in judged.row for ctx in ROW.contexts)
    assert "3. Paris has 90 million people." in judged.row
    # The grammar demands exactly one verdict per statement.
    verdicts_schema = judged.schema["properties"]["verdicts"]
    assert (verdicts_schema["minItems"], verdicts_schema["maxItems"]) == (3, 3)


def test_faithfulness_drops_repeated_statements() -> None:
    engine = ScriptedEngine(
        _statements("Paris is big.", "paris is  big.", " ", "Paris is old."), _verdicts(1, 0)
    )
    result = _run(Faithfulness(), ROW, engine)
    assert result.detail["statements"] == ["Paris is big.", "Paris is old."]
    assert result.value == 0.5


def test_faithfulness_without_statements_is_not_scored() -> None:
    engine = ScriptedEngine(_statements())
    result = _run(Faithfulness(), ROW, engine)
    assert result.status is ScoreStatus.NOT_SCORED
    assert result.value is None
    assert result.reason == "no statements"
    assert result.detail == {"statements": []}
    assert len(engine.calls) == 1


def test_faithfulness_truncated_verdicts_are_not_scored_with_the_cause() -> None:
    cut = '{"verdicts": [{"verdict": 1, "reason": "ok"}, {"verdict": 0, "reason": "1.1.1.1.1.1'
    engine = ScriptedEngine(_statements("A.", "B.", "C."), (cut, "length"))
    result = _run(Faithfulness(), ROW, engine)
    assert result.status is ScoreStatus.NOT_SCORED
    assert result.value is None
    assert "verdicts" in result.reason
    assert "cut off at max_tokens" in result.reason
    assert result.detail["statements"] == ["A.", "B.", "C."]
    assert result.detail["failure"]["finish_reason"] == "length"
    assert result.detail["failure"]["raw"] == cut


def test_faithfulness_truncated_statements_are_not_scored() -> None:
    engine = ScriptedEngine(('{"statements": ["A.", "B', "length"))
    result = _run(Faithfulness(), ROW, engine)
    assert result.status is ScoreStatus.NOT_SCORED
    assert "statements" in result.reason
    assert "cut off" in result.reason


def test_faithfulness_statement_count_mismatch_is_not_scored() -> None:
    # A reply with fewer verdicts than statements breaks the schema (minItems): not scored.
    engine = ScriptedEngine(_statements("A.", "B.", "C."), _verdicts(1, 1))
    result = _run(Faithfulness(), ROW, engine)
    assert result.status is ScoreStatus.NOT_SCORED
    assert "does not match the schema" in result.reason


def test_judge_each_checks_the_count_itself() -> None:
    # A backend that hands over data without the schema's item count still gets caught.
    lax = JudgeReply(text="", data=json.loads(_verdicts(1, 0)), finish_reason="stop")
    engine = ScriptedEngine(_statements("A.", "B.", "C."), lax)
    result = _run(Faithfulness(), ROW, engine)
    assert result.status is ScoreStatus.NOT_SCORED
    assert result.reason == "judge gave 2 verdicts for 3 statements at verdicts"
    assert result.detail["failure"]["verdicts"] == json.loads(_verdicts(1, 0))["verdicts"]
    with pytest.raises(Exception, match="judge gave 1 verdicts for 2"):
        judge_each(
            JudgeCall(ScriptedEngine(JudgeReply("", json.loads(_verdicts(1)), "stop"))),
            "i",
            (),
            "row",
            ["x", "y"],
            step="s",
        )


# -- context recall -------------------------------------------------------------------------


def test_context_recall_fraction_of_reference_sentences() -> None:
    row = MetricInputs(ROW.question, ROW.response, ROW.contexts, "Paris is the capital. It is on the Seine.")
    engine = ScriptedEngine(_verdicts(1, 0))
    result = _run(ContextRecall(), row, engine)
    assert result.value == 0.5
    assert result.detail["sentences"] == ["Paris is the capital.", "It is on the Seine."]
    assert "2. It is on the Seine." in engine.calls[0].row


def test_context_recall_batches_long_references() -> None:
    reference = " ".join(f"Fact {i} holds." for i in range(15))
    engine = ScriptedEngine(_verdicts(*[1] * 12), _verdicts(0, 0, 1))
    result = _run(ContextRecall(), MetricInputs("q?", "", ("ctx",), reference), engine)
    assert result.value == pytest.approx(13 / 15)
    assert len(result.detail["verdicts"]) == 15


# -- context relevance ----------------------------------------------------------------------


def test_context_relevance_mean_of_two_ratings() -> None:
    engine = ScriptedEngine('{"rating": 2, "reason": "a"}', '{"rating": 1, "reason": "b"}')
    result = _run(ContextRelevance(), ROW, engine)
    assert result.value == 0.75
    assert [r["rating"] for r in result.detail["ratings"]] == [2, 1]
    first, second = engine.calls
    assert first.messages[0] != second.messages[0]  # two independent phrasings
    assert first.row.startswith("Question:")
    assert second.row.startswith("Passage:")


@pytest.mark.parametrize(
    ("question", "contexts", "note"),
    [
        # ragas ContextRelevance: "if user_input.strip() == context_str.strip()" -> 0.0 ...
        ("Who wrote Hamlet?", ("Who wrote Hamlet?",), "the contexts equal the question"),
        # ... and "if context_str.strip() in user_input.strip()" -> 0.0, without a judge call.
        (
            "Who wrote Hamlet? Shakespeare did, I think.",
            ("Shakespeare did",),
            "the contexts are contained in the question",
        ),
    ],
)
def test_context_relevance_ragas_short_cuts(question: str, contexts: tuple[str, ...], note: str) -> None:
    engine = ScriptedEngine()
    result = _run(ContextRelevance(), MetricInputs(question, "r", contexts), engine)
    assert (result.status, result.value, result.detail) == (ScoreStatus.SCORED, 0.0, {"note": note})
    assert engine.calls == []


def test_context_relevance_rubric_is_ragas_any_relevant_information() -> None:
    # ragas's judges: 2 when the context "contains any relevant information", not only when
    # it fully answers the question (GoldenLens's stricter v1 rubric).
    engine = ScriptedEngine('{"rating": 2}', '{"rating": 2}')
    _run(ContextRelevance(), ROW, engine)
    assert "any of it" in engine.calls[0].messages[0]["content"]
    assert "holds the information needed" not in engine.calls[0].messages[0]["content"]
    assert ContextRelevance().params()["rubric"] == "ragas"


@pytest.mark.parametrize(
    ("question", "contexts", "note"),
    [
        ("", ("ctx",), "blank question"),
        ("q?", (" ",), "blank contexts"),
        (" ", (), "blank question and contexts"),
    ],
)
def test_context_relevance_blank_inputs_score_zero(
    question: str, contexts: tuple[str, ...], note: str
) -> None:
    engine = ScriptedEngine()
    result = _run(ContextRelevance(), MetricInputs(question, "r", contexts), engine)
    assert result.status is ScoreStatus.SCORED
    assert result.value == 0.0
    assert result.detail == {"note": note}


def test_context_relevance_one_unusable_rating_leaves_the_other() -> None:
    engine = ScriptedEngine(("{", "length"), '{"rating": 1}')
    result = _run(ContextRelevance(), ROW, engine)
    assert result.value == 0.5
    assert result.detail["ratings"][0]["rating"] is None
    assert "cut off" in result.detail["ratings"][0]["error"]


def test_context_relevance_both_unusable_is_not_scored() -> None:
    engine = ScriptedEngine(("{", "length"), ("not json", "stop"))
    result = _run(ContextRelevance(), ROW, engine)
    assert result.status is ScoreStatus.NOT_SCORED
    assert "rating 1" in result.reason


# -- answer relevancy -----------------------------------------------------------------------


def _questions(*pairs: tuple[int, str]) -> str:
    return json.dumps({"questions": [{"noncommittal": n, "question": q} for n, q in pairs]})


def test_answer_relevancy_all_noncommittal_is_zero() -> None:
    engine = ScriptedEngine(_questions((1, "A?"), (1, "B?"), (1, "C?")))
    embedder = FixedEmbedder()
    result = _run(AnswerRelevancy(), ROW, engine, embedder)
    assert result.status is ScoreStatus.SCORED
    assert result.value == 0.0
    assert [g["noncommittal"] for g in result.detail["generated"]] == [1, 1, 1]
    items = engine.calls[0].schema["properties"]["questions"]
    assert (items["minItems"], items["maxItems"]) == (3, 3)


def test_answer_relevancy_mean_cosine() -> None:
    engine = ScriptedEngine(_questions((0, "same?"), (1, "orthogonal?"), (0, "diagonal?")))
    embedder = FixedEmbedder(
        {ROW.question: (1, 0), "same?": (2, 0), "orthogonal?": (0, 1), "diagonal?": (1, 1)}
    )
    result = _run(AnswerRelevancy(), ROW, engine, embedder)
    expected = (1 + 0 + 2**-0.5) / 3
    assert result.value == pytest.approx(expected, abs=1e-6)
    assert [g["cosine"] for g in result.detail["generated"]] == pytest.approx([1, 0, 2**-0.5], abs=1e-6)
    assert embedder.embedded == [ROW.question, "same?", "orthogonal?", "diagonal?"]


def test_answer_relevancy_n_and_negative_cosine() -> None:
    engine = ScriptedEngine(_questions((0, "opposite?")))
    embedder = FixedEmbedder({ROW.question: (1, 0), "opposite?": (-1, 0)})
    result = _run(AnswerRelevancy(n=1), ROW, engine, embedder)
    assert result.value == 0.0
    assert result.detail["mean_cosine"] == pytest.approx(-1.0)
    assert AnswerRelevancy(n=1).params() == {"n": 1}


# -- answer correctness ---------------------------------------------------------------------


def _classes(**labels: list[str]) -> str:
    """A classification reply: ``{label, reason}`` per listed statement."""
    return json.dumps(
        {key: [{"label": x, "reason": f"why {x}"} for x in found] for key, found in labels.items()}
    )


def test_answer_correctness_f1_and_weighted_mean() -> None:
    engine = ScriptedEngine(
        _statements("Paris is the capital.", "Paris has 90 million people."),
        _statements("Paris is the capital.", "Paris is on the Seine."),
        _classes(tp=["A1"], fp=["A2"], fn=["R2"]),
    )
    embedder = FixedEmbedder({ROW.response: (0.6, 0.8), ROW.reference: (1, 0)})
    result = _run(AnswerCorrectness(), ROW, engine, embedder)
    assert result.detail["factuality"] == pytest.approx(0.5)
    assert result.detail["similarity"] == pytest.approx(0.6, abs=1e-6)
    assert result.value == pytest.approx(0.75 * 0.5 + 0.25 * 0.6, abs=1e-6)
    assert result.detail["tp"] == ["Paris is the capital."]
    assert result.detail["fp"] == ["Paris has 90 million people."]
    assert result.detail["fn"] == ["Paris is on the Seine."]
    # ragas keeps a reason per classified statement.
    assert result.detail["reasons"]["fp"] == [
        {"statement": "Paris has 90 million people.", "reason": "why A2"}
    ]
    schema = engine.calls[2].schema["properties"]
    assert schema["tp"]["items"]["properties"]["label"]["enum"] == ["A1", "A2"]
    assert schema["fn"]["items"]["properties"]["label"]["enum"] == ["R1", "R2"]
    assert "R2. Paris is on the Seine." in engine.calls[2].row


def test_answer_correctness_weights_and_beta() -> None:
    engine = ScriptedEngine(
        _statements("a1", "a2", "a3", "a4"),
        _statements("r1", "r2", "r3", "r4", "r5"),
        # A1 listed twice and in fp too: counted once, as tp.
        _classes(tp=["A1", "A2", "A3", "A1"], fp=["A4", "A1"], fn=["R4", "R5"]),
    )
    embedder = FixedEmbedder({ROW.response: (1, 0), ROW.reference: (1, 0)})
    result = _run(AnswerCorrectness(weights=(1.0, 1.0), beta=2.0), ROW, engine, embedder)
    factuality = 5 * 0.75 * 0.6 / (4 * 0.75 + 0.6)
    assert result.detail["factuality"] == pytest.approx(factuality)
    assert result.value == pytest.approx((factuality + 1.0) / 2, abs=1e-6)
    assert result.detail["tp"] == ["a1", "a2", "a3"]
    assert result.detail["fp"] == ["a4"]


def test_answer_correctness_both_statement_lists_empty() -> None:
    engine = ScriptedEngine(_statements(), _statements())
    embedder = FixedEmbedder({ROW.response: (0, 1), ROW.reference: (1, 0)})
    result = _run(AnswerCorrectness(), ROW, engine, embedder)
    assert result.detail["factuality"] == 1.0
    assert result.value == pytest.approx(0.75)
    assert len(engine.calls) == 2  # nothing to classify


def test_answer_correctness_one_side_empty_needs_no_classification() -> None:
    engine = ScriptedEngine(_statements(), _statements("r1", "r2"))
    result = _run(AnswerCorrectness(), ROW, engine, FixedEmbedder())
    assert result.detail["factuality"] == 0.0
    assert result.detail["fn"] == ["r1", "r2"]
    assert result.value == pytest.approx(0.25)


def test_answer_correctness_truncated_classification_is_not_scored() -> None:
    engine = ScriptedEngine(_statements("a1"), _statements("r1"), ('{"tp": ["A1"], "fp": [', "length"))
    result = _run(AnswerCorrectness(), ROW, engine, FixedEmbedder())
    assert result.status is ScoreStatus.NOT_SCORED
    assert "classification" in result.reason
    assert result.detail["response_statements"] == ["a1"]


def test_answer_correctness_needs_no_embeddings_with_similarity_weight_0() -> None:
    # ragas AnswerCorrectness: "Embeddings ... Optional if similarity weight is 0"; the
    # similarity is then 0.0 and not computed, so the score is the F-beta alone.
    metric = AnswerCorrectness(weights=(1.0, 0.0))
    assert "embeddings" not in metric.requires
    engine = ScriptedEngine(_statements("a1", "a2"), _statements("r1"), _classes(tp=["A1"], fp=["A2"], fn=[]))
    result = _run(metric, ROW, engine, None)
    assert result.status is ScoreStatus.SCORED
    assert result.value == pytest.approx(2 * 0.5 * 1.0 / 1.5)  # precision 1/2, recall 1/1
    assert "similarity" not in result.detail
    assert "embedding_model" not in judge_signature(metric, engine=engine, embedder=None).params
    assert "embeddings" in AnswerCorrectness().requires  # the default weight 0.25 needs them


def test_statement_cap_is_a_parameter_recorded_when_reached() -> None:
    # The judge wrote as many statements as allowed: the answer may hold more, so the score
    # covers only the first N; the detail says so and the signature records N.
    metric = Faithfulness(max_statements=2)
    engine = ScriptedEngine(_statements("A.", "B."), _verdicts(1, 1))
    result = _run(metric, ROW, engine)
    assert result.detail["caps_reached"] == {"statements": 2}
    assert engine.calls[0].schema["properties"]["statements"]["maxItems"] == 2
    assert "at most 2 statements" in engine.calls[0].messages[0]["content"]
    assert judge_signature(metric, engine=engine, embedder=None).params["max_statements"] == 2
    below = _run(
        Faithfulness(max_statements=3), ROW, ScriptedEngine(_statements("A.", "B."), _verdicts(1, 1))
    )
    assert "caps_reached" not in below.detail


@pytest.mark.parametrize("weights", [(0.0, 0.0), (-1.0, 2.0)])
def test_answer_correctness_rejects_bad_weights(weights: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="weights"):
        AnswerCorrectness(weights=weights)


# -- embedding metrics ----------------------------------------------------------------------


@pytest.mark.parametrize(("threshold", "expected"), [(None, 0.6), (0.5, 1.0), (0.7, 0.0)])
def test_semantic_similarity(threshold: float | None, expected: float) -> None:
    embedder = FixedEmbedder({ROW.response: (0.6, 0.8), ROW.reference: (1, 0)})
    result = _run(SemanticSimilarity(threshold), ROW, None, embedder)
    assert result.value == pytest.approx(expected, abs=1e-6)
    assert result.detail["cosine"] == pytest.approx(0.6, abs=1e-6)
    assert result.detail["embedding_model"] == "fixed-embedder.gguf"


def test_bertscore_metric() -> None:
    cls, sep = (0.0, 0.0, 1.0), (0.0, 1.0, 1.0)
    tokens = {
        ROW.response: [cls, (1.0, 0.0, 0.0), (1.0, 1.0, 0.0), sep],
        ROW.reference: [cls, (1.0, 0.0, 0.0), sep],
    }
    result = _run(BertScoreMetric(), ROW, None, FixedEmbedder(tokens=tokens))
    precision, recall = (1 + 2**-0.5) / 2, 1.0
    assert result.detail["precision"] == pytest.approx(precision, abs=1e-6)
    assert result.detail["recall"] == pytest.approx(recall, abs=1e-6)
    f1 = 2 * precision * recall / (precision + recall)
    assert result.value == pytest.approx(f1, abs=1e-6)
    assert result.detail["f1"] == result.value
    assert result.detail["embedding_model"] == "fixed-embedder.gguf"


# -- missing inputs and signatures ----------------------------------------------------------


@pytest.mark.parametrize("metric", ragas_metrics(), ids=lambda m: m.name)
def test_missing_engines_are_not_scored(metric: JudgeMetric) -> None:
    result = metric.score(ROW, None, None)
    assert result.status is ScoreStatus.NOT_SCORED
    assert result.reason.startswith("missing input:")


@pytest.mark.parametrize(
    "metric", [m for m in ragas_metrics() if m.name != "context_relevance"], ids=lambda m: m.name
)
def test_blank_required_inputs_are_not_scored(metric: JudgeMetric) -> None:
    engine = ScriptedEngine()
    blank = MetricInputs(question=" ", response="", contexts=(), reference="")
    result = metric.score(blank, JudgeCall(engine), FixedEmbedder())
    assert result.status is ScoreStatus.NOT_SCORED
    assert result.reason.startswith("missing input:")
    assert engine.calls == []


def test_signatures_name_prompt_version_and_models() -> None:
    engine = ScriptedEngine()
    for metric in ragas_metrics():
        signature = judge_signature(metric, engine=engine, embedder=FixedEmbedder())
        assert signature.metric == metric.name
        assert signature.params["prompt_version"] == metric.prompt_version
        assert ("judge_sha256" in signature.params) == ("judge" in metric.requires)
        assert ("embedding_sha256" in signature.params) == ("embeddings" in metric.requires)
        json.loads(signature.to_json())
    weights = judge_signature(AnswerCorrectness(), engine=engine, embedder=None).params["weights"]
    assert weights == [0.75, 0.25]


# -- the real default models ----------------------------------------------------------------


def _sample_row(question_id: str, pipeline: str) -> MetricInputs:
    with (SAMPLE / "golden.csv").open(encoding="utf-8") as handle:
        golden = {row["id"]: row for row in csv.DictReader(handle)}[question_id]
    with (SAMPLE / "responses.csv").open(encoding="utf-8") as handle:
        (response,) = [
            row
            for row in csv.DictReader(handle)
            if row["question_id"] == question_id and row["pipeline"] == pipeline
        ]
    return MetricInputs(
        question=golden["question"],
        response=response["response"],
        contexts=tuple(json.loads(response["contexts"])),
        reference=golden["answer"],
        fact=golden["fact"],
    )


@pytest.fixture(scope="module")
def smoke_timer() -> Iterator[list[float]]:
    seconds: list[float] = []
    yield seconds
    # The whole real-model smoke run stays short on two cores: a guard against a metric that
    # suddenly makes many more judge calls, not a benchmark (about 50 s on a quiet machine for
    # the 15 metrics; 102 s was seen with four other jobs running).
    assert sum(seconds) < 150, f"real-model metrics took {sum(seconds):.1f} s"


@pytest.mark.parametrize("metric", ragas_metrics(), ids=lambda m: m.name)
def test_real_models_on_sample_row(
    metric: JudgeMetric,
    judge_engine: Any,
    embedding_engine: Any,
    smoke_timer: list[float],
) -> None:
    row = _sample_row("q02", "Pipeline2")
    started = time.perf_counter()
    result = metric.score(row, JudgeCall(judge_engine), embedding_engine)
    smoke_timer.append(time.perf_counter() - started)
    assert result.metric == metric.name
    if result.status is ScoreStatus.SCORED:
        assert result.value is not None
        assert 0.0 <= result.value <= 1.0
    else:
        assert result.value is None
        assert result.reason.strip()
    assert json.loads(json.dumps(result.detail)) == result.detail
    if "judge" in metric.requires:
        assert result.calls >= 1 or result.detail.get("note")


def test_a_server_that_ignores_max_items_gives_the_same_capped_statements_as_llama_cpp() -> None:
    # llama.cpp's grammar stops at maxItems; an OpenAI-compatible server may not. Both must
    # judge the same first N statements and note the cap, not drop the row.
    metric = Faithfulness(max_statements=2)
    bounded = _run(metric, ROW, ScriptedEngine(_statements("A.", "B."), _verdicts(1, 0)))
    unbounded = _run(metric, ROW, ScriptedEngine(_statements("A.", "B.", "C."), _verdicts(1, 0)))
    for result in (bounded, unbounded):
        assert result.status is ScoreStatus.SCORED
        assert result.detail["statements"] == ["A.", "B."]
        assert result.detail["caps_reached"] == {"statements": 2}
    assert unbounded.value == bounded.value == 0.5

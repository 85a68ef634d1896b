"""answer_correctness (ragas): a weighted mean of statement-level F-beta against the golden
answer and the semantic similarity of the two texts.

The judge splits the response and the golden answer into statements (each at most
``max_statements``; the detail notes a cap reached) and classifies them in one call: TP, the
response statements the reference supports; FP, those it does not; FN, the reference
statements no response statement covers — each with the judge's reason. Precision and recall
follow ragas's ``AnswerCorrectness``: with TP + FP = 0 precision is 1 when FN = 0, else 0 (and
likewise recall), so two texts without statements score 1. score = (w_f · F-beta + w_s ·
similarity) / (w_f + w_s); with a similarity weight of 0 the embedding model is not needed.
"""

from __future__ import annotations

from typing import Any

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, array, obj, text
from goldenlens.judge.metrics.helpers import (
    MAX_STATEMENTS,
    REASON_CHARS,
    MetricBase,
    numbered,
    split_statements,
    unit_interval,
)

VERSION = "2"

_CLASSIFY_INSTRUCTIONS = (
    "You compare the statements of an answer (A1, A2, ...) with the statements of a correct "
    "reference answer (R1, R2, ...).\n"
    "tp: the answer statements that the reference supports.\n"
    "fp: the answer statements that the reference does not support.\n"
    "fn: the reference statements that no answer statement covers.\n"
    "List each statement once, by its label, with a short reason.\n"
    'Reply with JSON: {"tp": [{"label": ..., "reason": ...}], "fp": [...], "fn": [...]}.'
)
_CLASSIFY_EXAMPLES = (
    (
        "Question: What does the Sun give the Earth?\n\nAnswer statements:\n"
        "A1. The Sun gives the Earth light.\nA2. The Sun is made of ice.\n\n"
        "Reference statements:\nR1. The Sun gives the Earth light.\nR2. The Sun gives the Earth heat.",
        '{"tp": [{"label": "A1", "reason": "R1 says the same."}], '
        '"fp": [{"label": "A2", "reason": "The reference does not say it."}], '
        '"fn": [{"label": "R2", "reason": "No answer statement mentions heat."}]}',
    ),
)


def _labels(prefix: str, count: int) -> dict[str, Any]:
    item = obj(
        label={"type": "string", "enum": [f"{prefix}{i}" for i in range(1, count + 1)]},
        reason=text(REASON_CHARS),
    )
    return {**item, "required": ["label"]}


def classify_schema(answer_count: int, reference_count: int) -> dict[str, Any]:
    """Three bounded arrays of ``{label, reason}``: tp and fp of ``A1..An``, fn of ``R1..Rm``."""
    answer_label = _labels("A", answer_count)
    return obj(
        tp=array(answer_label, max_items=answer_count),
        fp=array(answer_label, max_items=answer_count),
        fn=array(_labels("R", reference_count), max_items=reference_count),
    )


def factuality(tp: int, fp: int, fn: int, beta: float) -> float:
    """ragas's F-beta for answer correctness (see the module docstring for the empty cases)."""
    precision = (1.0 if fn == 0 else 0.0) if tp + fp == 0 else tp / (tp + fp)
    recall = (1.0 if fp == 0 else 0.0) if tp + fn == 0 else tp / (tp + fn)
    if precision + recall == 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


class AnswerCorrectness(MetricBase):
    """Weighted mean of statement-level F-beta (vs the golden answer) and semantic similarity."""

    name = "answer_correctness"
    version = VERSION
    prompt_version = "2"

    def __init__(
        self,
        weights: tuple[float, float] = (0.75, 0.25),
        beta: float = 1.0,
        max_statements: int = MAX_STATEMENTS,
    ) -> None:
        if len(weights) != 2 or min(weights) < 0 or sum(weights) <= 0:
            raise ValueError(f"weights must be two non-negative numbers, not both 0: {weights!r}")
        if beta <= 0:
            raise ValueError(f"beta must be positive: {beta!r}")
        if max_statements < 1:
            raise ValueError(f"max_statements must be at least 1: {max_statements!r}")
        self.weights = (float(weights[0]), float(weights[1]))
        self.beta = float(beta)
        self.max_statements = max_statements
        needs = {"question", "response", "reference", "judge"}
        # As ragas: a similarity weight of 0 needs no embedding model.
        self.requires = frozenset(needs | {"embeddings"} if self.weights[1] > 0 else needs)

    def params(self) -> dict[str, Any]:
        return {"weights": list(self.weights), "beta": self.beta, "max_statements": self.max_statements}

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        cap = self.max_statements
        sides: dict[str, list[str]] = {}
        for side, text_ in (("response", inputs.response), ("reference", inputs.reference)):
            sides[side] = split_statements(
                judge, inputs.question, text_, step=f"{side} statements", max_statements=cap, detail=detail
            )
            detail[f"{side}_statements"] = sides[side]
        answer, reference = sides["response"], sides["reference"]
        classes = self._classify(judge, inputs.question, answer, reference)
        detail |= {key: [c["statement"] for c in found] for key, found in classes.items()}
        detail["reasons"] = classes
        tp, fp, fn = (len(classes[k]) for k in ("tp", "fp", "fn"))
        fact = factuality(tp, fp, fn, self.beta)
        w_fact, w_sim = self.weights
        detail["factuality"] = fact
        similarity = 0.0
        if w_sim > 0:
            assert embedder is not None  # run_metric checked "embeddings"
            vectors = embedder.embed([inputs.response, inputs.reference])
            cosine = float(vectors[0] @ vectors[1])
            similarity = unit_interval(cosine)
            detail |= {"similarity": similarity, "cosine": cosine, "embedding_model": embedder.model_name}
        return (w_fact * fact + w_sim * similarity) / (w_fact + w_sim)

    @staticmethod
    def _classify(
        judge: JudgeCall, question: str, answer: list[str], reference: list[str]
    ) -> dict[str, list[dict[str, str]]]:
        """``{statement, reason}`` per class. One side empty needs no judge: all FP or all FN."""
        if not answer or not reference:
            why = "the other side has no statements"
            return {
                "tp": [],
                "fp": [{"statement": s, "reason": why} for s in answer],
                "fn": [{"statement": s, "reason": why} for s in reference],
            }
        schema = classify_schema(len(answer), len(reference))
        row = (
            f"Question: {question.strip()}\n\nAnswer statements:\n{numbered(answer, 'A')}\n\n"
            f"Reference statements:\n{numbered(reference, 'R')}"
        )
        data = judge.ask(
            _CLASSIFY_INSTRUCTIONS,
            _CLASSIFY_EXAMPLES,
            row,
            schema,
            step="classification",
        )
        # A label listed twice counts once; an answer statement in both tp and fp counts as tp.
        out: dict[str, list[dict[str, str]]] = {}
        for key, side in (("tp", answer), ("fp", answer), ("fn", reference)):
            reasons: dict[int, str] = {}
            for entry in data[key]:
                reasons.setdefault(_label_order(str(entry["label"])), str(entry.get("reason", "")))
            if key == "fp":
                taken = {_label_order(c["label"]) for c in data["tp"]}
                reasons = {n: r for n, r in reasons.items() if n not in taken}
            out[key] = [{"statement": side[n - 1], "reason": reasons[n]} for n in sorted(reasons)]
        return out


def _label_order(label: str) -> int:
    return int(label[1:])

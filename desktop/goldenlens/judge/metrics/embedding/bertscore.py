"""bertscore (bert-score 0.3.13): greedy-matching BERTScore F1 of the response against the
golden answer from per-token vectors, no idf, no baseline rescaling.

The vector math is pure numpy; the token vectors come from an ``EmbeddingEngine``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, NotScored
from goldenlens.judge.metrics.helpers import MetricBase

VERSION = "1"


class BertScore(NamedTuple):
    """BERTScore precision, recall and F1 of one candidate against one reference."""

    precision: float
    recall: float
    f1: float


def bertscore(
    candidate_tokens: npt.ArrayLike,
    reference_tokens: npt.ArrayLike,
    *,
    drop_special: bool = True,
) -> BertScore:
    """Greedy-matching BERTScore from per-token vectors, as the bert-score package computes it.

    Each token vector is normalised; every candidate token takes its best cosine among the
    reference tokens (precision is their mean) and every reference token its best among the
    candidate tokens (recall); F1 is their harmonic mean (0.0 when both are 0). No idf
    weighting, no baseline rescaling.

    The inputs are ``EmbeddingEngine.token_vectors`` output: CLS first, SEP last. With
    ``drop_special`` (the default, bert-score's convention) those two rows carry no weight in
    the means — but, as in bert-score, they still count as match targets for the other side's
    tokens. Without it every row is an ordinary token. A side with no tokens besides CLS and
    SEP (an empty text) scores 0.0 throughout, as bert-score does.
    """
    cand = _unit_rows(candidate_tokens, "candidate_tokens")
    ref = _unit_rows(reference_tokens, "reference_tokens")
    if cand.shape[1] != ref.shape[1]:
        raise ValueError(f"token vectors differ in length: {cand.shape[1]} and {ref.shape[1]}")
    similarity = cand @ ref.T
    best_for_candidate = similarity.max(axis=1)
    best_for_reference = similarity.max(axis=0)
    if drop_special:
        if cand.shape[0] <= 2 or ref.shape[0] <= 2:
            return BertScore(0.0, 0.0, 0.0)
        best_for_candidate = best_for_candidate[1:-1]
        best_for_reference = best_for_reference[1:-1]
    precision = float(best_for_candidate.mean())
    recall = float(best_for_reference.mean())
    total = precision + recall
    f1 = 2 * precision * recall / total if total != 0 else 0.0
    return BertScore(precision, recall, f1)


def _unit_rows(values: npt.ArrayLike, name: str) -> np.ndarray[Any, np.dtype[np.float64]]:
    matrix = np.asarray(values, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty (tokens, dim) matrix, got shape {matrix.shape}")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if not np.all(np.isfinite(norms)) or np.any(norms == 0.0):
        raise ValueError(f"{name} holds a token vector without direction")
    result: np.ndarray[Any, np.dtype[np.float64]] = matrix / norms
    return result


class BertScoreMetric(MetricBase):
    """BERTScore F1 of the response against the golden answer (greedy token matching, no idf,
    no baseline rescaling); precision, recall and the model in ``detail``."""

    name = "bertscore"
    version = VERSION
    prompt_version = ""
    requires = frozenset({"response", "reference", "embeddings"})

    def params(self) -> dict[str, Any]:
        return {"drop_special": True, "idf": False, "baseline_rescale": False}

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del judge  # the run template passes it; this metric does not use it
        assert embedder is not None  # run_metric checked "embeddings"
        try:
            result = bertscore(
                embedder.token_vectors(inputs.response), embedder.token_vectors(inputs.reference)
            )
        except ValueError as error:
            raise NotScored(f"no token vectors: {error}") from error
        detail |= {
            "precision": result.precision,
            "recall": result.recall,
            "f1": result.f1,
            "embedding_model": embedder.model_name,
        }
        return result.f1

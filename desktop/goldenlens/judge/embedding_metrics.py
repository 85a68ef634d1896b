"""Embedding metrics on vectors: semantic similarity (RAGAS) and BERTScore (bert-score 0.3.13).

Pure numpy; the vectors come from an ``EmbeddingEngine``. Nothing here loads a model.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from goldenlens.core.signature import Signature

SEMANTIC_SIMILARITY_VERSION = "1"
BERTSCORE_VERSION = "1"
_VERSIONS = {"semantic_similarity": SEMANTIC_SIMILARITY_VERSION, "bertscore": BERTSCORE_VERSION}

_ArrayLike = npt.ArrayLike


class BertScore(NamedTuple):
    """BERTScore precision, recall and F1 of one candidate against one reference."""

    precision: float
    recall: float
    f1: float


def embedding_signature(metric: str, model_name: str, model_sha256: str, **params: Any) -> Signature:
    """Signature of an embedding metric: version, parameters and the embedding model file.

    ``params`` are the metric's own (``threshold`` for semantic_similarity, ``drop_special``
    for bertscore); rescaling and idf are recorded as off because they are.
    """
    if metric not in _VERSIONS:
        raise ValueError(f"not an embedding metric: {metric!r}")
    fixed = {"idf": False, "baseline_rescale": False} if metric == "bertscore" else {}
    model = {"embedding_model": model_name, "embedding_model_sha256": model_sha256}
    return Signature(metric, _VERSIONS[metric], {**fixed, **params, **model})


def semantic_similarity(a_vec: _ArrayLike, b_vec: _ArrayLike, threshold: float | None = None) -> float:
    """Cosine of two sentence vectors (normalised here, so raw vectors are fine).

    With ``threshold`` the score is binary as in RAGAS: 1.0 when the cosine is at least the
    threshold, else 0.0. A zero vector has no direction and raises ``ValueError``.
    """
    a = _unit_vector(a_vec, "a_vec")
    b = _unit_vector(b_vec, "b_vec")
    if a.shape != b.shape:
        raise ValueError(f"vectors differ in length: {a.shape[0]} and {b.shape[0]}")
    # Rounding can push the cosine of equal unit vectors a hair above 1.
    score = float(np.clip(a @ b, -1.0, 1.0))
    if threshold is None:
        return score
    return 1.0 if score >= threshold else 0.0


def bertscore(
    candidate_tokens: _ArrayLike,
    reference_tokens: _ArrayLike,
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


def _unit_vector(values: _ArrayLike, name: str) -> np.ndarray[Any, np.dtype[np.float64]]:
    vector = np.asarray(values, dtype=np.float64)
    if vector.ndim != 1 or vector.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty 1-D vector, got shape {vector.shape}")
    norm = float(np.linalg.norm(vector))
    if norm == 0.0 or not np.isfinite(norm):
        raise ValueError(f"{name} has no direction (norm {norm})")
    return vector / norm


def _unit_rows(values: _ArrayLike, name: str) -> np.ndarray[Any, np.dtype[np.float64]]:
    matrix = np.asarray(values, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty (tokens, dim) matrix, got shape {matrix.shape}")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if not np.all(np.isfinite(norms)) or np.any(norms == 0.0):
        raise ValueError(f"{name} holds a token vector without direction")
    result: np.ndarray[Any, np.dtype[np.float64]] = matrix / norms
    return result

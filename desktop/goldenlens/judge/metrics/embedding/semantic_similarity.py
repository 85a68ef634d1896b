"""semantic_similarity (ragas ``SemanticSimilarity``): the cosine of the response's and the
golden answer's sentence vectors; with ``threshold``, 1 when the cosine reaches it, else 0.

The vector math is pure numpy; the vectors come from an ``EmbeddingEngine``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, NotScored
from goldenlens.judge.metrics.helpers import MetricBase, unit_interval

VERSION = "1"


def semantic_similarity(a_vec: npt.ArrayLike, b_vec: npt.ArrayLike, threshold: float | None = None) -> float:
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


def _unit_vector(values: npt.ArrayLike, name: str) -> np.ndarray[Any, np.dtype[np.float64]]:
    vector = np.asarray(values, dtype=np.float64)
    if vector.ndim != 1 or vector.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty 1-D vector, got shape {vector.shape}")
    norm = float(np.linalg.norm(vector))
    if norm == 0.0 or not np.isfinite(norm):
        raise ValueError(f"{name} has no direction (norm {norm})")
    return vector / norm


class SemanticSimilarity(MetricBase):
    """Cosine of the response's and the golden answer's sentence vectors; with ``threshold``,
    1 when the cosine reaches it, else 0. Negative cosines count as 0."""

    name = "semantic_similarity"
    version = VERSION
    prompt_version = ""
    param_names = ("threshold",)
    requires = frozenset({"response", "reference", "embeddings"})

    def __init__(self, threshold: float | None = None) -> None:
        self.threshold = threshold

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del judge  # the run template passes it; this metric does not use it
        assert embedder is not None  # run_metric checked "embeddings"
        vectors = embedder.embed([inputs.response, inputs.reference])
        try:
            cosine = semantic_similarity(vectors[0], vectors[1])
        except ValueError as error:
            raise NotScored(f"no sentence vector: {error}") from error
        value = unit_interval(cosine)
        if self.threshold is not None:
            value = 1.0 if cosine >= self.threshold else 0.0
        detail |= {"cosine": cosine, "threshold": self.threshold, "embedding_model": embedder.model_name}
        return value

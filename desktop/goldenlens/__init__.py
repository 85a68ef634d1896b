"""GoldenLens: review question-answering and RAG pipelines against a golden set, offline.

``goldenlens.evaluate(golden, responses)`` scores from Python (:mod:`goldenlens.evaluation`);
it is imported on first use, so ``import goldenlens`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["Evaluation", "__version__", "evaluate"]

if TYPE_CHECKING:
    from goldenlens.evaluation import Evaluation, evaluate


def __getattr__(name: str) -> Any:
    if name in ("evaluate", "Evaluation"):
        from goldenlens import evaluation

        return getattr(evaluation, name)
    raise AttributeError(f"module 'goldenlens' has no attribute {name!r}")

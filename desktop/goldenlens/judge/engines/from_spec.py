"""The engines a :class:`~goldenlens.core.judge_engine_spec.JudgeEngineSpec` names, opened and
closed as context managers.

The spec says "the bundled default" with ``None``; here that becomes a file
(:func:`~goldenlens.judge.model_files.default_judge_model`, the converted all-MiniLM-L6-v2), and
a chosen file that does not exist becomes :class:`ModelNotFoundError`. llama.cpp and httpx are
imported only when an engine is opened.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.engines.protocol import JudgeEngine
from goldenlens.judge.model_files import ModelNotFoundError

__all__ = ["ModelNotFoundError", "open_embedding_engine", "open_judge_engine"]


@contextmanager
def open_judge_engine(spec: JudgeEngineSpec) -> Iterator[JudgeEngine]:
    """The judge, closed on exit: a server client for ``spec.judge_url`` (up to
    ``spec.parallel`` requests at once), else the in-process model ``spec.judge_model``
    (default: the bundled SmolLM2), loaded before it is handed out so a model that cannot
    load fails here rather than on the first row."""
    if spec.judge_url:
        from goldenlens.judge.engines.http import OpenAICompatibleEngine

        with OpenAICompatibleEngine(spec.judge_url, parallel=spec.parallel) as server:
            yield server
        return
    from goldenlens.judge.engines.llama import LlamaCppEngine
    from goldenlens.judge.model_files import default_judge_model

    path = spec.judge_model or default_judge_model()
    if not path.is_file():
        raise ModelNotFoundError(f"judge model file not found: {path}")
    with LlamaCppEngine(path, n_ctx=spec.n_ctx, n_threads=spec.n_threads, seed=spec.seed) as local:
        local.ensure_loaded()
        yield local


@contextmanager
def open_embedding_engine(spec: JudgeEngineSpec, models_dir: Path) -> Iterator[EmbeddingEngine]:
    """The embedding model ``spec.embed_model``, closed on exit; by default the bundled
    all-MiniLM-L6-v2, converted to GGUF once into ``models_dir`` (its checksum recorded there
    goes into the score signatures)."""
    from goldenlens.judge.engines.embedding import LlamaEmbeddingEngine
    from goldenlens.judge.gguf_convert import default_embedding_model, read_checksum

    if spec.embed_model is not None:
        path = spec.embed_model
        if not path.is_file():
            raise ModelNotFoundError(f"embedding model file not found: {path}")
        sha = None
    else:
        path = default_embedding_model(models_dir)
        sha = read_checksum(path)
    with LlamaEmbeddingEngine(path, n_threads=spec.n_threads, model_sha256=sha) as engine:
        yield engine

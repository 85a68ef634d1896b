"""Embedding engines: sentence vectors and per-token vectors from a GGUF embedding model.

``LlamaEmbeddingEngine`` runs llama.cpp in-process. One thread owns the model: it is loaded,
used and freed only on the engine's single-thread executor, and every public call is a task
on that executor, so callers on any thread are served one at a time. ``llama_cpp`` is
imported lazily, on that thread, so importing this module costs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

from goldenlens.judge.engines.base import OwnedEngine
from goldenlens.judge.gguf_convert import MAX_SEQ_LENGTH_KEY, gguf_field
from goldenlens.judge.model_files import file_sha256

FloatMatrix = npt.NDArray[np.float32]

_T = TypeVar("_T")
_THREAD_NAME = "goldenlens-embedding"
_MAX_CONTEXT = 8192
# llama.cpp's pooling types as GGUF stores them; anything else is pooled by the mean.
_POOLING_MEAN, _POOLING_CLS, _POOLING_LAST = 1, 2, 3


class EmbeddingError(RuntimeError):
    """llama.cpp could not load the embedding model or embed a text."""


@runtime_checkable
class EmbeddingEngine(Protocol):
    """What the embedding metrics need from a model."""

    @property
    def model_name(self) -> str:
        """The model file's name, recorded in every score's signature."""
        ...

    @property
    def model_sha256(self) -> str:
        """SHA-256 of the model file, recorded in every score's signature."""
        ...

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Sentence vectors, shape ``(len(texts), dim)``, each L2-normalised."""
        ...

    def token_vectors(self, text: str) -> FloatMatrix:
        """One vector per token of ``text``, CLS first and SEP last: shape ``(tokens, dim)``."""
        ...


class LlamaEmbeddingEngine(OwnedEngine):
    """A GGUF BERT-style embedding model (e.g. converted all-MiniLM-L6-v2) run by llama.cpp.

    Sentence vectors are computed as sentence-transformers computes them for
    all-MiniLM-L6-v2: the mean of the last layer's token vectors (CLS and SEP included), then
    L2-normalised, on at most ``max_seq_length`` tokens (256, from the GGUF metadata the
    converter writes; the model's context length otherwise). Per-token vectors, for BERTScore,
    use the whole context length, as the bert-score package does.

    A single llama.cpp context with pooling NONE serves both: the mean is taken here, in
    float64, so one model instance (and one thread) is enough. Another GGUF embedding model
    declaring CLS or LAST pooling is pooled that way instead.

    The model loads in the background as soon as the engine is created; the first call waits
    for it. ``close()`` (or ``with``) frees it and stops the thread.
    """

    def __init__(
        self,
        gguf_path: Path,
        *,
        n_threads: int | None = None,
        model_sha256: str | None = None,
    ) -> None:
        """``model_sha256`` skips hashing the file when the caller already knows its checksum
        (``gguf_convert.read_checksum`` after ``ensure_converted``)."""
        self._path = Path(gguf_path)
        self._sha256 = model_sha256
        # Half the cores, as llama.cpp's own default; set for batch work too (embedding is all
        # batch work, and llama-cpp-python would otherwise take every core for it).
        self._n_threads = n_threads or max(1, (os.cpu_count() or 2) // 2)
        self._llm: Any = None
        self._max_tokens_sentence = 0
        self._max_tokens_context = 0
        self._dimension = 0
        self._pooling = _POOLING_MEAN
        super().__init__(_THREAD_NAME)
        self._loaded: Future[None] = self._submit(self._load)

    # -- public API -------------------------------------------------------------------------

    @property
    def model_name(self) -> str:
        return self._path.name

    @property
    def model_sha256(self) -> str:
        self._wait_loaded()
        assert self._sha256 is not None  # set by _load
        return self._sha256

    @property
    def model_path(self) -> Path:
        return self._path

    @property
    def dimension(self) -> int:
        """Length of every vector this engine returns."""
        self._wait_loaded()
        return self._dimension

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts; wrap a single text in a list")
        return self._call(self._embed_sentences, list(texts))

    def token_vectors(self, text: str) -> FloatMatrix:
        return self._call(self._token_vectors, text)

    # -- owner-thread work ------------------------------------------------------------------

    def _closed_error(self) -> Exception:
        return EmbeddingError("the embedding engine is closed")

    def _call(self, function: Callable[..., _T], *args: Any) -> _T:
        result: _T = self._submit(self._after_load, function, *args).result()
        return result

    def _wait_loaded(self) -> None:
        self._loaded.result()

    def _after_load(self, function: Callable[..., _T], *args: Any) -> _T:
        # Runs on the owner thread after _load (the executor is FIFO); re-raises a load error.
        self._loaded.result()
        return function(*args)

    def _load(self) -> None:
        import llama_cpp

        from goldenlens.judge.engines.llama_logs import route_llama_logs

        route_llama_logs()

        if not self._path.is_file():
            raise EmbeddingError(f"embedding model not found: {self._path}")
        if self._sha256 is None:
            self._sha256 = file_sha256(self._path)
        arch = gguf_field(self._path, "general.architecture")
        declared = gguf_field(self._path, f"{arch}.context_length") if isinstance(arch, str) else None
        # A non-causal model must see a whole sequence in one micro-batch: size all three alike
        # (capped: a long-context model would otherwise reserve buffers for 32k tokens).
        context = min(declared, _MAX_CONTEXT) if isinstance(declared, int) and declared > 0 else 512
        pooling = gguf_field(self._path, f"{arch}.pooling_type") if isinstance(arch, str) else None
        self._pooling = (
            pooling
            if isinstance(pooling, int) and pooling in (_POOLING_CLS, _POOLING_LAST)
            else _POOLING_MEAN
        )
        try:
            llm = llama_cpp.Llama(
                model_path=str(self._path),
                embedding=True,
                pooling_type=llama_cpp.LLAMA_POOLING_TYPE_NONE,
                n_ctx=context,
                n_batch=context,
                n_ubatch=context,
                n_threads=self._n_threads,
                n_threads_batch=self._n_threads,
                verbose=False,
            )
        except ValueError as error:
            raise EmbeddingError(f"llama.cpp could not load {self._path.name}: {error}") from error
        self._llm = llm
        self._dimension = int(llm.n_embd())
        self._max_tokens_context = int(llm.n_ctx())
        max_seq = str(llm.metadata.get(MAX_SEQ_LENGTH_KEY, "")).strip()
        limit = int(max_seq) if max_seq.isdigit() else self._max_tokens_context
        self._max_tokens_sentence = min(self._max_tokens_context, limit)

    def _release(self) -> None:
        llm, self._llm = self._llm, None
        if llm is not None:
            llm.close()

    def _embed_sentences(self, texts: list[str]) -> FloatMatrix:
        result = np.empty((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            tokens = self._encode(text, self._max_tokens_sentence).astype(np.float64)
            if self._pooling == _POOLING_CLS:
                pooled = tokens[0]
            elif self._pooling == _POOLING_LAST:
                pooled = tokens[-1]
            else:
                pooled = tokens.mean(axis=0)
            # sentence-transformers' Normalize: x / max(‖x‖, 1e-12).
            result[row] = pooled / max(float(np.linalg.norm(pooled)), 1e-12)
        return result

    def _token_vectors(self, text: str) -> FloatMatrix:
        return self._encode(text, self._max_tokens_context)

    def _tokens(self, text: str, limit: int) -> list[int]:
        llm = self._llm
        tokens: list[int] = llm.tokenize(text.encode("utf-8"), add_bos=True, special=False)
        if len(tokens) > limit:
            # Truncate like the HF tokenizer: keep the closing SEP.
            closing = {llm.token_eos(), int(llm.metadata.get("tokenizer.ggml.seperator_token_id", -1))}
            tokens = [*tokens[: limit - 1], tokens[-1]] if tokens[-1] in closing else tokens[:limit]
        return tokens

    def _encode(self, text: str, limit: int) -> FloatMatrix:
        """Last-layer vectors of every token of ``text`` (owner thread only)."""
        import llama_cpp

        tokens = self._tokens(text, limit)
        n_tokens, dim = len(tokens), self._dimension
        if n_tokens == 0:
            raise EmbeddingError(f"{self._path.name} turned the text into no tokens at all")
        ctx = self._llm.ctx
        batch = llama_cpp.llama_batch_init(n_tokens, 0, 1)
        try:
            for index, token in enumerate(tokens):
                batch.token[index] = token
                batch.pos[index] = index
                batch.n_seq_id[index] = 1
                batch.seq_id[index][0] = 0
                batch.logits[index] = True
            batch.n_tokens = n_tokens
            memory = llama_cpp.llama_get_memory(ctx)
            if memory:  # encoder-only models keep no KV cache
                llama_cpp.llama_memory_clear(memory, True)
            status = llama_cpp.llama_decode(ctx, batch)
            if status != 0:
                raise EmbeddingError(f"llama_decode returned {status} for a text of {n_tokens} tokens")
            pointer = llama_cpp.llama_get_embeddings(ctx)
            if not pointer:
                raise EmbeddingError("llama.cpp returned no embeddings: is this an embedding model?")
            flat = np.ctypeslib.as_array(pointer, shape=(n_tokens * dim,))
            return np.array(flat, dtype=np.float32).reshape(n_tokens, dim)
        finally:
            llama_cpp.llama_batch_free(batch)

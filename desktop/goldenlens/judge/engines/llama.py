"""The in-process judge: any GGUF chat model through llama-cpp-python.

One worker thread owns the ``Llama`` instance: it loads the model, runs every call and frees
it, so the model is never touched from two threads. Tokens are streamed and the cancel check
is read between chunks, so a cancel takes effect within a token once the prompt is evaluated
(llama-cpp-python has no interrupt call).

Prefix reuse needs nothing from us but one long-lived ``Llama``: before evaluating a prompt,
llama-cpp-python keeps the KV cache of the longest prefix shared with the previous call and
evaluates only the rest. So prompts put their static instructions first and the row's data
last, and this engine never resets the model between calls.

``llama_cpp`` is imported lazily in the worker, so importing this module stays cheap.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from goldenlens.judge.engines.base import JudgeEngineBase
from goldenlens.judge.engines.protocol import (
    CancelCheck,
    ChatMessage,
    FinishReason,
    JudgeEngineError,
    JudgeReply,
    JudgeRequest,
    make_reply,
)
from goldenlens.judge.engines.yes_no import TOP_TOKENS, support_probability, yes_no_reply
from goldenlens.judge.model_files import ModelNotFoundError, default_judge_model, file_sha256

__all__ = ["LlamaCppEngine", "ModelNotFoundError", "default_judge_model"]

THREAD_NAME_PREFIX = "goldenlens-llama"


class LlamaCppEngine(JudgeEngineBase):
    """A :class:`~goldenlens.judge.engines.protocol.JudgeEngine` running a GGUF model in this process.

    The model starts loading in the owner thread at once; the first call waits for it, and
    :meth:`ensure_loaded` waits and reports a load failure. ``n_threads`` threads generate
    and evaluate prompts; ``None`` keeps llama-cpp-python's defaults (half the logical CPUs to
    generate, all of them to evaluate prompts). Call :meth:`close` (or use the engine
    as a context manager) to stop the thread and free the model.
    """

    def __init__(
        self,
        model_path: Path | str,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        seed: int = 42,
        verbose: bool = False,
    ) -> None:
        path = Path(model_path)
        if not path.is_file():
            raise ModelNotFoundError(f"judge model file not found: {path}")
        self._path = path
        self._settings: dict[str, Any] = {
            "n_ctx": n_ctx,
            "n_threads": n_threads,
            # A thread count set by the user holds for prompt evaluation too: llama.cpp would
            # otherwise evaluate prompts on every CPU, which a busy machine punishes hard.
            "n_threads_batch": n_threads,
            "seed": seed,
            "verbose": verbose,
        }
        self._llama: Any = None
        self._load_error = ""
        super().__init__(THREAD_NAME_PREFIX)
        self._loaded = self._submit(self._load)

    # -- identity ----------------------------------------------------------------------------

    @property
    def model_path(self) -> Path:
        return self._path

    @property
    def model_name(self) -> str:
        """The GGUF file name, shown next to every judge score."""
        return self._path.name

    @property
    def model_sha256(self) -> str:
        """The SHA-256 of the GGUF file (hashed on first use, then cached per path/mtime/size)."""
        return file_sha256(self._path)

    @property
    def n_ctx(self) -> int:
        return int(self._settings["n_ctx"])

    # -- calls -------------------------------------------------------------------------------

    def ensure_loaded(self) -> None:
        """Wait until the model is loaded; raise :class:`JudgeEngineError` if it failed."""
        self._loaded.result()
        if self._llama is None:
            raise JudgeEngineError(self._load_error or "the judge model is not loaded")

    def _complete_one(self, request: JudgeRequest, cancel: CancelCheck | None) -> JudgeReply:
        """Generate a JSON object constrained by the schema (a llama.cpp grammar), streamed.

        Raises :class:`JudgeEngineError` only when the engine is closed or the model failed
        to load; every other problem comes back in the reply.
        """
        if cancel is not None and cancel.cancelled:
            return make_reply("", "cancelled", request.schema)
        return self._submit(self._generate, request, cancel).result()

    def complete_yes_no(
        self, messages: Sequence[ChatMessage], *, seed: int = 42, cancel: CancelCheck | None = None
    ) -> JudgeReply:
        """One token, no grammar, temperature 0, as MiniCheck runs; ``p_yes`` from the first
        token's logits (softmax, the :data:`TOP_TOKENS` most likely tokens that read ``yes``)."""
        if cancel is not None and cancel.cancelled:
            return yes_no_reply("", "cancelled", None)
        return self._submit(self._yes_no, list(messages), seed).result()

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` by the model's own tokenizer (no BOS), for MiniCheck's chunks."""
        return self._submit(self._count_tokens, text).result()

    # -- owner thread ------------------------------------------------------------------------

    def _closed_error(self) -> Exception:
        return JudgeEngineError(f"the judge engine for {self.model_name} is closed")

    def _load(self) -> None:
        try:
            from llama_cpp import Llama

            from goldenlens.judge.engines.llama_logs import route_llama_logs
        except ImportError as exc:
            self._load_error = (
                f"llama-cpp-python is not installed ({exc}): install GoldenLens with its [judge] extra"
            )
            return
        if not self._settings["verbose"]:
            route_llama_logs()
        try:
            self._llama = Llama(model_path=str(self._path), **self._settings)
        except (ValueError, RuntimeError, OSError) as exc:
            self._load_error = f"could not load the judge model {self._path}: {exc}"

    def _release(self) -> None:
        llama, self._llama = self._llama, None
        if llama is not None:
            llama.close()

    def _count_tokens(self, text: str) -> int:
        if self._llama is None:
            raise JudgeEngineError(self._load_error or "the judge model is not loaded")
        return len(self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def _yes_no(self, messages: list[ChatMessage], seed: int) -> JudgeReply:
        import llama_cpp
        import numpy as np

        if self._llama is None:
            raise JudgeEngineError(self._load_error or "the judge model is not loaded")
        llama = self._llama
        started = time.perf_counter()
        try:
            result = llama.create_chat_completion(
                messages=[dict(message) for message in messages], max_tokens=1, temperature=0.0, seed=seed
            )
            # max_tokens=1: the sampled token is not evaluated, so the context still holds the
            # logits of the first answer position.
            pointer = llama_cpp.llama_get_logits_ith(llama.ctx, -1)
            logits = np.ctypeslib.as_array(pointer, shape=(int(llama.n_vocab()),)).astype(np.float64)
        except Exception as exc:  # any failure of a call is reported in its reply
            return yes_no_reply("", "error", None, error=f"llama.cpp: {type(exc).__name__}: {exc}")
        probabilities = np.exp(logits - logits.max())
        probabilities /= probabilities.sum()
        top = np.argsort(probabilities)[::-1][:TOP_TOKENS]
        tokens = [
            (llama.detokenize([int(t)]).decode("utf-8", errors="replace"), float(probabilities[t]))
            for t in top
        ]
        usage = result.get("usage") or {}
        return yes_no_reply(
            str(result["choices"][0]["message"].get("content") or ""),
            "stop",
            support_probability(tokens),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            seconds=time.perf_counter() - started,
        )

    def _generate(self, request: JudgeRequest, cancel: CancelCheck | None) -> JudgeReply:
        if self._llama is None:
            raise JudgeEngineError(self._load_error or "the judge model is not loaded")
        if cancel is not None and cancel.cancelled:
            return make_reply("", "cancelled", request.schema)
        llama = self._llama
        started = time.perf_counter()
        pieces: list[str] = []
        prompt_tokens = 0
        finish: FinishReason | None = None
        try:
            stream = llama.create_chat_completion(
                messages=[dict(message) for message in request.messages],
                response_format={"type": "json_object", "schema": dict(request.schema)},
                max_tokens=request.max_tokens,
                temperature=request.temperature,
                seed=request.seed,
                stream=True,
            )
            try:
                for chunk in stream:
                    choice = chunk["choices"][0]
                    content = choice["delta"].get("content")
                    if content is not None:
                        if not pieces:
                            # The first token is not evaluated yet: the context holds the prompt.
                            prompt_tokens = int(llama.n_tokens)
                        pieces.append(content)
                    if choice.get("finish_reason") is not None:
                        finish = "length" if choice["finish_reason"] == "length" else "stop"
                    elif cancel is not None and cancel.cancelled:
                        finish = "cancelled"
                        break
            finally:
                stream.close()
        except Exception as exc:  # any failure of a call is reported in its reply
            return make_reply(
                "".join(pieces),
                "error",
                request.schema,
                prompt_tokens=prompt_tokens,
                completion_tokens=len(pieces),
                seconds=time.perf_counter() - started,
                error=f"llama.cpp: {type(exc).__name__}: {exc}",
            )
        return make_reply(
            "".join(pieces),
            finish or "stop",
            request.schema,
            prompt_tokens=prompt_tokens or int(llama.n_tokens),
            completion_tokens=len(pieces),
            seconds=time.perf_counter() - started,
        )

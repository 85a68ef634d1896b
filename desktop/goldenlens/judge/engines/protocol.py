"""The judge engine seam: the protocol every judge backend implements, and its reply value.

Metrics and runs depend on :class:`JudgeEngine` only. The in-process llama.cpp engine
(``goldenlens.judge.engines.llama``) and the OpenAI-compatible HTTP client
(``goldenlens.judge.engines.http``) implement it, and tests can pass a scripted engine.

Every call asks for a JSON object constrained by a JSON schema. The reply keeps the raw text
and carries ``data`` only when the JSON is valid for the schema, or, for a reply cut off at
``max_tokens``, when the complete leading fields include every required field
(:func:`recover_json`). A truncated or invalid reply never becomes a guessed value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypedDict, runtime_checkable

from goldenlens.core.errors import GoldenLensError
from goldenlens.judge.engines.json_recovery import recover_json
from goldenlens.judge.engines.schema_check import schema_errors, trim_to_max_items

__all__ = [
    "CancelCheck",
    "ChatMessage",
    "FinishReason",
    "JudgeEngine",
    "JudgeEngineError",
    "JudgeReply",
    "JudgeRequest",
    "make_reply",
    "recover_json",
]

FinishReason = Literal["stop", "length", "cancelled", "error"]


class ChatMessage(TypedDict):
    """One chat message, as the OpenAI chat API and llama-cpp-python take it."""

    role: Literal["system", "user", "assistant"]
    content: str


@runtime_checkable
class CancelCheck(Protocol):
    """Anything with a ``cancelled`` flag; ``goldenlens.jobs.progress.CancelToken`` fits.

    Defined here because the judge layer must not import ``jobs`` (jobs depends on judge).
    """

    @property
    def cancelled(self) -> bool: ...


class JudgeEngineError(GoldenLensError, RuntimeError):
    """The engine cannot work at all (model failed to load, server unknown, engine closed).

    Problems of a single call (truncated output, invalid JSON, a request that failed after
    its retries) are not raised: they come back as a :class:`JudgeReply` with the cause.
    """


@dataclass(frozen=True, slots=True)
class JudgeReply:
    """The outcome of one judge call.

    ``data`` is the parsed object when the reply is valid for the schema, or the recovered
    complete leading fields of a reply cut off at ``max_tokens``; otherwise None. ``error``
    says what went wrong, and may be set while ``data`` holds recovered fields.
    """

    text: str
    data: dict[str, Any] | None
    finish_reason: FinishReason
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    error: str = ""

    @property
    def ok(self) -> bool:
        """Whether the reply carries usable data."""
        return self.data is not None


@dataclass(frozen=True, slots=True)
class JudgeRequest:
    """The arguments of one :meth:`JudgeEngine.complete_json` call, for batched calls."""

    messages: Sequence[ChatMessage]
    schema: Mapping[str, Any]
    max_tokens: int
    temperature: float = 0.0
    seed: int = 42


class JudgeEngine(Protocol):
    """A chat model that answers with JSON constrained by a schema.

    ``model_sha256`` identifies the model in every score's signature: the SHA-256 of the GGUF
    file for in-process engines, ``"server:" + model id`` for a server.
    """

    @property
    def model_name(self) -> str: ...

    @property
    def model_sha256(self) -> str: ...

    def complete_json(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        seed: int = 42,
        cancel: CancelCheck | None = None,
    ) -> JudgeReply:
        """Ask for a JSON object that ``schema`` constrains; never raises for a bad reply."""
        ...


def make_reply(
    text: str,
    finish_reason: FinishReason,
    schema: Mapping[str, Any],
    *,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    seconds: float = 0.0,
    error: str = "",
) -> JudgeReply:
    """Build a reply from an engine's raw output: parse, check against the schema, recover.

    Engines call this so that every backend judges validity the same way.
    """
    data: dict[str, Any] | None = None
    if finish_reason in ("stop", "length") and not error:
        data, error = _parse(text, finish_reason, schema, completion_tokens)
    elif finish_reason == "cancelled" and not error:
        error = "cancelled"
    return JudgeReply(
        text=text,
        data=data,
        finish_reason=finish_reason,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        seconds=seconds,
        error=error,
    )


def _parse(
    text: str, finish_reason: FinishReason, schema: Mapping[str, Any], completion_tokens: int
) -> tuple[dict[str, Any] | None, str]:
    try:
        parsed = json.loads(text)
    except ValueError as exc:
        if finish_reason != "length":
            return None, f"invalid JSON: {exc}"
        recovered = recover_json(text, schema)
        cut = f"cut off at max_tokens ({completion_tokens} tokens)"
        if recovered is None:
            return None, f"{cut}; the required fields are incomplete"
        return recovered, f"{cut}; recovered the complete fields {', '.join(recovered)}"
    if not isinstance(parsed, dict):
        return None, f"expected a JSON object, got {type(parsed).__name__}"
    return _checked(parsed, schema)


def _checked(parsed: dict[str, Any], schema: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
    problems = schema_errors(parsed, schema)
    if not problems:
        return parsed, ""
    trimmed = trim_to_max_items(parsed, schema)
    if trimmed != parsed and not schema_errors(trimmed, schema):
        # Only maxItems was exceeded (a server ignoring the bound): keep the first items, as
        # llama.cpp's grammar would have, so both engines give the same capped list.
        return trimmed, "cut to the schema's maxItems: " + "; ".join(problems)
    return None, "does not match the schema: " + "; ".join(problems)

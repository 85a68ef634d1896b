"""A scripted judge engine: the seam's test double, shared by the metric and job tests.

It answers each call with the next prepared reply — JSON text (finish "stop"), a
``(text, finish_reason)`` pair, or a ready ``JudgeReply`` (to bypass the schema check) — or
with what a ``responder(messages, schema)`` returns, and records every call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from goldenlens.judge.engines.protocol import CancelCheck, ChatMessage, FinishReason, JudgeReply, make_reply
from goldenlens.judge.engines.yes_no import yes_no_reply

Reply = str | tuple[str, FinishReason] | tuple[str, float] | JudgeReply
Responder = Callable[[Sequence[ChatMessage], Mapping[str, Any]], Reply]


@dataclass
class Call:
    """One recorded call; item access (``call["seed"]``) reads the same fields."""

    messages: list[ChatMessage]
    schema: dict[str, Any]
    seed: int
    max_tokens: int

    @property
    def row(self) -> str:
        """The last (row data) message."""
        return self.messages[-1]["content"]

    def __getitem__(self, name: str) -> Any:
        return getattr(self, name)


class ScriptedEngine:
    """Implements :class:`goldenlens.judge.engines.protocol.JudgeEngine` with prepared replies."""

    model_name = "scripted.gguf"
    model_sha256 = "0" * 64

    def __init__(self, *replies: Reply, responder: Responder | None = None) -> None:
        self.replies = list(replies)
        self.responder = responder
        self.calls: list[Call] = []

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
        self.calls.append(Call(list(messages), dict(schema), seed, max_tokens))
        reply = self._next(messages, schema)
        if isinstance(reply, JudgeReply):
            return reply
        text, finish = (reply, "stop") if isinstance(reply, str) else reply
        assert isinstance(finish, str), "a (text, probability) reply answers complete_yes_no only"
        return make_reply(text, finish, schema, prompt_tokens=10, completion_tokens=max(1, len(text) // 4))

    def complete_yes_no(
        self, messages: Sequence[ChatMessage], *, seed: int = 42, cancel: CancelCheck | None = None
    ) -> JudgeReply:
        """A bare answer: ``"Yes"`` (no probability), ``("Yes", 0.8)`` (with P(Yes)), or
        ``(text, finish_reason)`` for a failed call."""
        self.calls.append(Call(list(messages), {}, seed, 1))
        reply = self._next(messages, {})
        if isinstance(reply, JudgeReply):
            return reply
        if isinstance(reply, str):
            return yes_no_reply(reply, "stop", None, prompt_tokens=10, completion_tokens=1)
        text, second = reply
        if isinstance(second, float):
            return yes_no_reply(text, "stop", second, prompt_tokens=10, completion_tokens=1)
        error = "server error" if second == "error" else ""
        return yes_no_reply(text, second, None, error=error)

    def _next(self, messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> Reply:
        if self.responder is not None:
            return self.responder(messages, schema)
        if self.replies:
            return self.replies.pop(0)
        raise AssertionError(f"unexpected judge call #{len(self.calls)}: {messages[-1]['content']!r}")

    @property
    def seeds(self) -> list[int]:
        return [call.seed for call in self.calls]

    def rows(self) -> list[str]:
        """The last (row data) message of every call."""
        return [call.row for call in self.calls]

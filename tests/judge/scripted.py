"""A scripted judge engine: the seam's test double, shared by the metric and job tests.

It answers each call with the next prepared reply — JSON text (finish "stop"), a
``(text, finish_reason)`` pair, or a ready ``JudgeReply`` (to bypass the schema check) — or
with what a ``responder(messages, schema)`` returns, and records every call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from goldenlens.judge.engine import CancelCheck, ChatMessage, FinishReason, JudgeReply, make_reply

Reply = str | tuple[str, FinishReason] | JudgeReply
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
    """Implements :class:`goldenlens.judge.engine.JudgeEngine` with prepared replies."""

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
        if self.responder is not None:
            reply = self.responder(messages, schema)
        elif self.replies:
            reply = self.replies.pop(0)
        else:
            raise AssertionError(f"unexpected judge call #{len(self.calls)}: {messages[-1]['content']!r}")
        if isinstance(reply, JudgeReply):
            return reply
        text, finish = (reply, "stop") if isinstance(reply, str) else reply
        return make_reply(text, finish, schema, prompt_tokens=10, completion_tokens=max(1, len(text) // 4))

    @property
    def seeds(self) -> list[int]:
        return [call.seed for call in self.calls]

    def rows(self) -> list[str]:
        """The last (row data) message of every call."""
        return [call.row for call in self.calls]

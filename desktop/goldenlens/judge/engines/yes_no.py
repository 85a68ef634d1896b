"""Bare Yes/No answers, as Bespoke-MiniCheck gives them: the optional engine abilities that
MiniCheck mode needs (a one-token answer with P(Yes), and the judge's own token count), and
how a reply to such a request is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from goldenlens.judge.engines.protocol import CancelCheck, ChatMessage, FinishReason, JudgeReply

__all__ = ["TOP_TOKENS", "TokenCounter", "YesNoEngine", "support_probability", "yes_no_reply"]

#: How many of the first token's most likely tokens MiniCheck sums over (vLLM ``logprobs=5``).
TOP_TOKENS = 5


@runtime_checkable
class YesNoEngine(Protocol):
    """A judge that can give a bare ``Yes``/``No`` answer of one token, without JSON, and the
    probability of ``Yes`` among the first token's :data:`TOP_TOKENS` most likely tokens when it
    can see them — what Bespoke-MiniCheck was trained to give."""

    def complete_yes_no(
        self, messages: Sequence[ChatMessage], *, seed: int = 42, cancel: CancelCheck | None = None
    ) -> JudgeReply:
        """``data`` is ``{"answer": "Yes"|"No"|"", "p_yes": float|None}``; None when neither
        a readable answer nor a probability came back (``error`` says why)."""
        ...


@runtime_checkable
class TokenCounter(Protocol):
    """A judge that can count the tokens of a text with its own tokenizer."""

    def count_tokens(self, text: str) -> int: ...


def support_probability(top_tokens: Sequence[tuple[str, float]]) -> float:
    """MiniCheck's P(Yes): the summed probability of the top tokens that read ``yes`` (any
    case; surrounding white space ignored, as a tokenizer may attach a space)."""
    return sum(p for token, p in top_tokens if token.strip().lower() == "yes")


def yes_no_reply(
    text: str,
    finish_reason: FinishReason,
    p_yes: float | None,
    *,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    seconds: float = 0.0,
    error: str = "",
) -> JudgeReply:
    """A reply to a Yes/No request: the bare answer read from ``text`` (a prefix of ``Yes`` or
    ``No`` counts, since one token may hold only its start) and ``p_yes`` when known."""
    word = text.strip().split()[0].strip(".,!:;\"'").lower() if text.strip() else ""
    answer = next((a for a in ("Yes", "No") if word and a.lower().startswith(word)), "")
    data: dict[str, Any] | None = None
    if not error and finish_reason in ("stop", "length") and (answer or p_yes is not None):
        data = {"answer": answer, "p_yes": p_yes}
    elif not error:
        error = "cancelled" if finish_reason == "cancelled" else f"not a bare Yes/No answer: {text[:40]!r}"
    return JudgeReply(text, data, finish_reason, prompt_tokens, completion_tokens, seconds, error)

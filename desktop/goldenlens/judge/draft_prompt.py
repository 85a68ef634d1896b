"""The drafting prompt: ask the judge for a question, a minimal fact and an ideal answer from
one source chunk, as JSON.

The instructions (with the answer guardrail) come first and the chunk last, so llama.cpp
reuses the cached prefix from one chunk to the next. The schema only asks for three strings:
lengths are *not* constrained in the grammar, because a grammar cut would truncate the
model's text into something it did not write; the job checks the reply instead
(:func:`goldenlens.core.golden.drafts.draft_problems`) and flags what is wrong. The fact comes
before the answer so that the answer is written around the fact already chosen.

``PROMPT_VERSION`` changes whenever the wording or schema changes: it is part of the cache
key and of every draft's detail, so drafts of different prompts are never mixed up.
"""

from __future__ import annotations

from typing import Any, Final

from goldenlens.judge.engines.protocol import ChatMessage, JudgeReply

__all__ = ["DRAFT_SCHEMA", "PROMPT_VERSION", "draft_max_tokens", "draft_messages", "reply_fields"]

PROMPT_VERSION: Final = "draft-1"

DRAFT_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "question": {"type": "string"},
        "fact": {"type": "string"},
        "answer": {"type": "string"},
    },
    "required": ["question", "fact", "answer"],
    "additionalProperties": False,
}

_INSTRUCTIONS = """\
You help build a test set for a question-answering system. You are given one passage of a \
source document. Write one test item about it:

question: a question that the passage answers, with exactly one correct answer. It must make \
sense to someone who has not seen the passage: name the company, product, period or thing it \
is about instead of saying "the passage" or "it".
fact: one to six words copied character for character from the passage that any correct \
answer must contain: a number with its unit, a date or a name. Never a sentence.
answer: one plain sentence that answers the question and contains the fact exactly as \
written. At most {max_words} words. No filler such as "According to the passage".

Use only what the passage says. Reply with a JSON object with the keys question, fact and \
answer."""


#: One worked example (an invented passage, so no real document leaks into drafts): small
#: judges follow a shown item far better than a described one.
_EXAMPLE_PASSAGE = (
    "Northwind Traders opened its new warehouse in Rotterdam on March 3, 2021. The warehouse "
    "has 42,000 square metres of floor space and employs 310 people."
)
_EXAMPLE_REPLY = (
    '{"question": "How much floor space does the Rotterdam warehouse of Northwind Traders have?", '
    '"fact": "42,000 square metres", '
    '"answer": "The Rotterdam warehouse of Northwind Traders has 42,000 square metres of floor space."}'
)


def _passage(text: str) -> str:
    return f"Passage:\n{text.strip()}"


def draft_messages(chunk_text: str, *, max_answer_words: int) -> list[ChatMessage]:
    """The chat messages that ask for a draft of ``chunk_text``: instructions, the worked
    example, then the chunk (last, so the prefix before it is the same for every chunk)."""
    return [
        {"role": "system", "content": _INSTRUCTIONS.format(max_words=max_answer_words)},
        {"role": "user", "content": _passage(_EXAMPLE_PASSAGE)},
        {"role": "assistant", "content": _EXAMPLE_REPLY},
        {"role": "user", "content": _passage(chunk_text)},
    ]


def draft_max_tokens(max_answer_words: int) -> int:
    """Room for the reply: a question, a short fact and an answer at the guardrail (about two
    tokens a word), and the JSON around them. A reply cut off here is flagged, not padded."""
    return 160 + 2 * max_answer_words


def reply_fields(reply: JudgeReply) -> tuple[dict[str, str] | None, str]:
    """The three fields of a usable reply, else ``None``; and what was wrong with the reply
    (``""`` when nothing). A reply cut off at ``max_tokens`` whose three fields were complete
    before the cut is usable; one that lost a field is not (its fields are never guessed)."""
    if reply.data is None:
        return None, reply.error or f"the judge gave no usable reply (finish: {reply.finish_reason})"
    fields = {name: reply.data.get(name) for name in ("question", "fact", "answer")}
    if not all(isinstance(value, str) for value in fields.values()):
        return None, "the judge's reply lacks a question, fact or answer string"
    return {name: str(value) for name, value in fields.items()}, reply.error

"""fact_check (Spring AI ``FactCheckingEvaluator``): 1.0 when the retrieved contexts support
every sentence of the response, else 0.0.

The response is split into sentences (:func:`goldenlens.core.golden.sentences.split_sentences`) and
the joined contexts into chunks that fit the judge's context window. A sentence is supported
when ANY chunk supports it; the response passes when EVERY sentence is.

Two modes:

* default: our own JSON verdict prompt; character chunks of ``max_chunk_chars`` with
  ``chunk_overlap``, and a sentence stops at the first chunk that supports it;
* ``minicheck=True``: Bespoke-MiniCheck as trained (:mod:`~goldenlens.judge.metrics.spring_ai.minicheck`):
  its system prompt and ``Document: …\nClaim: …``, a one-token answer read as P(Yes), chunks of
  whole sentences of at most ``chunk_tokens`` tokens, max over chunks, min over sentences,
  supported above 0.5. Every chunk is asked, so the recorded probability is MiniCheck's.
"""

from __future__ import annotations

from typing import Any

from goldenlens.core.golden.sentences import split_sentences
from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, NotScored
from goldenlens.judge.metrics.helpers import (
    ClaimCheck,
    MetricBase,
    join_contexts,
)
from goldenlens.judge.metrics.spring_ai import minicheck as minicheck_module

FACT_CHECK_PROMPT_VERSION = "2"
VERSION = "2"
REASON_CHARS = 150
#: MiniCheck's chunk size for the default judge context (4096 tokens) less its claim reserve.
DEFAULT_CHUNK_TOKENS = 4096 - minicheck_module.CLAIM_RESERVE_TOKENS

_FACT_CHECK = ClaimCheck("document", "Document", REASON_CHARS)


def chunk_text(value: str, max_chars: int, overlap: int) -> list[str]:
    """Split ``value`` into chunks of at most ``max_chars`` characters, consecutive chunks
    sharing about ``overlap`` characters; cuts fall on whitespace where the text allows."""
    if max_chars < 1 or not 0 <= overlap < max_chars:
        raise ValueError(f"need max_chars >= 1 and 0 <= overlap < max_chars, got {max_chars}, {overlap}")
    value = value.strip()
    if len(value) <= max_chars:
        return [value] if value else []
    chunks: list[str] = []
    start = 0
    while start < len(value):
        end = min(start + max_chars, len(value))
        if end < len(value):
            cut = value.rfind(" ", start + max_chars // 2, end + 1)
            end = cut if cut > start else end
        chunks.append(value[start:end].strip())
        if end >= len(value):
            break
        nxt = max(end - overlap, start + 1)
        space = value.find(" ", nxt, end)
        start = space + 1 if overlap and space != -1 else nxt
        while start < len(value) and value[start] == " ":
            start += 1
    return [chunk for chunk in chunks if chunk]


class FactCheck(MetricBase):
    """Spring AI's fact checking: 1.0 when the contexts support every sentence of the response."""

    name = "fact_check"
    version = VERSION
    requires = frozenset({"response", "contexts", "judge"})

    def __init__(
        self,
        max_chunk_chars: int = 2000,
        minicheck: bool = False,
        chunk_overlap: int = 200,
        chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
    ) -> None:
        if max_chunk_chars < 100:
            raise ValueError(f"max_chunk_chars must be at least 100, got {max_chunk_chars}")
        if not 0 <= chunk_overlap < max_chunk_chars // 2:
            raise ValueError(f"chunk_overlap must be in [0, max_chunk_chars/2), got {chunk_overlap}")
        if chunk_tokens < 16:
            raise ValueError(f"chunk_tokens must be at least 16, got {chunk_tokens}")
        self.max_chunk_chars = max_chunk_chars
        self.chunk_overlap = chunk_overlap
        self.chunk_tokens = chunk_tokens
        self.minicheck = minicheck
        self.prompt_version = minicheck_module.PROMPT_VERSION if minicheck else FACT_CHECK_PROMPT_VERSION

    def params(self) -> dict[str, Any]:
        if self.minicheck:
            return {
                "minicheck": True,
                "chunk_tokens": self.chunk_tokens,
                "threshold": minicheck_module.THRESHOLD,
            }
        return {
            "minicheck": False,
            "max_chunk_chars": self.max_chunk_chars,
            "chunk_overlap": self.chunk_overlap,
        }

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del embedder  # the run template passes it; this metric does not use it
        if self.minicheck:
            return self._minicheck(inputs, judge, detail)
        chunks = chunk_text(join_contexts(inputs.contexts), self.max_chunk_chars, self.chunk_overlap)
        sentences = split_sentences(inputs.response)
        if not sentences:
            raise NotScored("no sentences in the response")
        results: list[dict[str, Any]] = []
        detail |= {"chunks": len(chunks), "chunk_chars": [len(c) for c in chunks], "sentences": results}
        for s, sentence in enumerate(sentences, 1):
            entry: dict[str, Any] = {
                "sentence": sentence,
                "supported": False,
                "best_chunk": None,
                "checks": [],
            }
            results.append(entry)
            for c, chunk in enumerate(chunks):
                verdict, reason = _FACT_CHECK.ask(judge, chunk, sentence, step=f"sentence {s} chunk {c + 1}")
                supported = verdict == 1
                entry["checks"].append({"chunk": c, "supported": supported, "reason": reason})
                if supported:  # any chunk suffices: the other chunks are not asked
                    entry |= {"supported": True, "best_chunk": c}
                    break
        supported_all = all(entry["supported"] for entry in results)
        detail["supported"] = supported_all
        return 1.0 if supported_all else 0.0

    def _minicheck(self, inputs: MetricInputs, judge: JudgeCall, detail: dict[str, Any]) -> float:
        sentences = split_sentences(inputs.response)
        if not sentences:
            raise NotScored("no sentences in the response")
        counted: list[str] = []

        def count(value: str) -> int:
            tokens, how = judge.count_tokens(value)
            counted.append(how)
            return tokens

        chunks = minicheck_module.chunk_document(join_contexts(inputs.contexts), self.chunk_tokens, count)
        results: list[dict[str, Any]] = []
        detail |= {"chunks": len(chunks), "chunk_chars": [len(c) for c in chunks], "sentences": results}
        if counted:
            detail["token_count"] = counted[0]
        for s, sentence in enumerate(sentences, 1):
            checks: list[dict[str, Any]] = []
            for c, chunk in enumerate(chunks):
                reply = judge.ask_yes_no(
                    minicheck_module.SYSTEM_PROMPT,
                    minicheck_module.user_prompt(chunk, sentence),
                    step=f"sentence {s} chunk {c + 1}",
                )
                p_yes = reply["p_yes"]
                probability = (
                    float(p_yes) if p_yes is not None else (1.0 if reply["answer"] == "Yes" else 0.0)
                )
                checks.append(
                    {"chunk": c, "answer": reply["answer"], "p_yes": p_yes, "probability": probability}
                )
            best = max(range(len(checks)), key=lambda i: checks[i]["probability"])
            results.append(
                {
                    "sentence": sentence,
                    "probability": checks[best]["probability"],
                    "best_chunk": best,
                    "checks": checks,
                }
            )
        probability, supported = minicheck_module.is_supported(
            [[check["probability"] for check in entry["checks"]] for entry in results]
        )
        detail |= {"support_probability": probability, "supported": supported}
        return 1.0 if supported else 0.0

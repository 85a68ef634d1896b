"""Spring AI's evaluators: relevancy (RelevancyEvaluator) and fact_check
(FactCheckingEvaluator, MiniCheck style).

fact_check splits the claim (the response) into sentences and the document (the joined
contexts) into overlapping chunks that fit the judge's context window. A sentence is
supported when ANY chunk supports it; the claim is supported when EVERY sentence is. With
``minicheck=True`` each check is the exact Bespoke-MiniCheck prompt (``Document: …\\nClaim: …``,
one user turn, answer ``Yes``/``No``), so a Bespoke-MiniCheck-7B GGUF can be the judge.
"""

from __future__ import annotations

from typing import Any

from goldenlens.judge.embeddings import EmbeddingEngine
from goldenlens.judge.metric_base import JudgeCall, MetricInputs, MetricResult, NotScored, obj, text
from goldenlens.judge.metrics_extra_common import (
    ask_user_only,
    example,
    joined_contexts,
    labelled,
    only_required,
    run_metric,
    split_sentences,
    token_budget,
    verdict_schema,
)

RELEVANCY_PROMPT_VERSION = "1"
FACT_CHECK_PROMPT_VERSION = "1"
MINICHECK_PROMPT_VERSION = "minicheck-1"
VERSION = "1"
REASON_CHARS = 150

# -- relevancy --------------------------------------------------------------------------------

_RELEVANCY = (
    "You check a response to a query against the context that was retrieved for it. Answer YES "
    "if the response is in line with the context for this query; NO if it contradicts the "
    "context, relies on facts the context lacks, or does not address the query. Reply in JSON: "
    '"verdict" YES or NO, then a short "reason".'
)
_MUSEUM = "The museum is open Tuesday to Sunday, 10:00 to 18:00, and closed on Mondays."
_RELEVANCY_EXAMPLES: tuple[tuple[str, str], ...] = (
    (
        labelled(
            ("Query", "Can I visit the museum on Monday?"),
            ("Context", _MUSEUM),
            ("Response", "No, the museum is closed on Mondays."),
        ),
        example({"verdict": "YES", "reason": "The context says it is closed on Mondays."}),
    ),
    (
        labelled(
            ("Query", "When does the museum open?"),
            ("Context", _MUSEUM),
            ("Response", "It opens at 9:00 every day."),
        ),
        example({"verdict": "NO", "reason": "The context says 10:00, Tuesday to Sunday."}),
    ),
)
_YES_NO = {"type": "string", "enum": ["YES", "NO"]}
_RELEVANCY_SCHEMA = only_required(obj(verdict=_YES_NO, reason=text(REASON_CHARS)), "verdict")


class Relevancy:
    """Spring AI's relevancy: 1.0 when the judge says YES (pass), else 0.0."""

    name = "relevancy"
    version = VERSION
    prompt_version = RELEVANCY_PROMPT_VERSION
    requires = frozenset({"question", "response", "contexts", "judge"})

    def params(self) -> dict[str, Any]:
        return {}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        del embedder
        return run_metric(self, inputs, judge, lambda call, detail: self._judge(inputs, call, detail))

    def _judge(self, inputs: MetricInputs, judge: JudgeCall, detail: dict[str, Any]) -> float:
        row = labelled(
            ("Query", inputs.question), ("Context", joined_contexts(inputs)), ("Response", inputs.response)
        )
        reply = judge.ask(
            _RELEVANCY,
            _RELEVANCY_EXAMPLES,
            row,
            _RELEVANCY_SCHEMA,
            max_tokens=token_budget(REASON_CHARS),
            step="verdict",
        )
        passed = reply["verdict"] == "YES"
        detail |= {"verdict": reply["verdict"], "pass": passed, "reason": reply.get("reason", "")}
        return 1.0 if passed else 0.0


# -- fact_check -------------------------------------------------------------------------------

_FACT_CHECK = (
    'You check whether a document supports a claim. Reply in JSON: "verdict" 1 if the document '
    "backs everything the claim states, 0 if it contradicts the claim or does not mention it; "
    'then a short "reason".'
)
_RHINE = "The Rhine is about 1,230 km long and flows into the North Sea near Rotterdam."
_FACT_CHECK_EXAMPLES: tuple[tuple[str, str], ...] = (
    (
        labelled(("Document", _RHINE), ("Claim", "The Rhine ends in the North Sea.")),
        example({"verdict": 1, "reason": "The document says it flows into the North Sea."}),
    ),
    (
        labelled(("Document", _RHINE), ("Claim", "The Rhine is 2,000 km long.")),
        example({"verdict": 0, "reason": "The document gives about 1,230 km."}),
    ),
)
MINICHECK_SCHEMA = obj(answer={"type": "string", "enum": ["Yes", "No"]})


def minicheck_prompt(document: str, claim: str) -> str:
    """The Bespoke-MiniCheck prompt, exactly."""
    return f"Document: {document}\nClaim: {claim}"


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


class FactCheck:
    """Spring AI's fact checking: 1.0 when the contexts support every sentence of the response."""

    name = "fact_check"
    version = VERSION
    requires = frozenset({"response", "contexts", "judge"})

    def __init__(
        self, max_chunk_chars: int = 2000, minicheck: bool = False, chunk_overlap: int = 200
    ) -> None:
        if max_chunk_chars < 100:
            raise ValueError(f"max_chunk_chars must be at least 100, got {max_chunk_chars}")
        if not 0 <= chunk_overlap < max_chunk_chars // 2:
            raise ValueError(f"chunk_overlap must be in [0, max_chunk_chars/2), got {chunk_overlap}")
        self.max_chunk_chars = max_chunk_chars
        self.chunk_overlap = chunk_overlap
        self.minicheck = minicheck
        self.prompt_version = MINICHECK_PROMPT_VERSION if minicheck else FACT_CHECK_PROMPT_VERSION

    def params(self) -> dict[str, Any]:
        return {
            "max_chunk_chars": self.max_chunk_chars,
            "chunk_overlap": self.chunk_overlap,
            "minicheck": self.minicheck,
        }

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        del embedder
        return run_metric(self, inputs, judge, lambda call, detail: self._check(inputs, call, detail))

    def _check(self, inputs: MetricInputs, judge: JudgeCall, detail: dict[str, Any]) -> float:
        chunks = chunk_text(joined_contexts(inputs), self.max_chunk_chars, self.chunk_overlap)
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
                supported, reason = self._supports(judge, chunk, sentence, f"sentence {s} chunk {c + 1}")
                entry["checks"].append({"chunk": c, "supported": supported, "reason": reason})
                if supported:  # any chunk suffices: the other chunks are not asked
                    entry |= {"supported": True, "best_chunk": c}
                    break
        supported_all = all(entry["supported"] for entry in results)
        detail["supported"] = supported_all
        return 1.0 if supported_all else 0.0

    def _supports(self, judge: JudgeCall, chunk: str, sentence: str, step: str) -> tuple[bool, str]:
        if self.minicheck:
            reply = ask_user_only(
                judge, minicheck_prompt(chunk, sentence), MINICHECK_SCHEMA, max_tokens=16, step=step
            )
            return reply["answer"] == "Yes", ""
        reply = judge.ask(
            _FACT_CHECK,
            _FACT_CHECK_EXAMPLES,
            labelled(("Document", chunk), ("Claim", sentence)),
            verdict_schema(REASON_CHARS),
            max_tokens=token_budget(REASON_CHARS),
            step=step,
        )
        return reply["verdict"] == 1, str(reply.get("reason", ""))

"""What every judge metric shares: inputs, results, the judge call helper and schema helpers.

A metric is a small object with a name, a version, a prompt version and parameters, whose
``score(inputs, judge, embedder)`` returns a :class:`MetricResult`: a value, or *not scored*
with the reason — never a silent NaN and never a fake 0. Everything the judge said on the
way (statements, verdicts, reasons, generated questions) goes into ``detail`` so a reviewer
can see why.

Prompts put the static instructions and examples first and the row's data last, so
llama.cpp reuses the cached prefix between calls (:meth:`JudgeCall.ask` builds them so).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from goldenlens.core.judge_engine_spec import DEFAULT_SEED, DEFAULT_TEMPERATURE
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.engines.protocol import CancelCheck, ChatMessage, JudgeEngine, JudgeReply
from goldenlens.judge.engines.yes_no import TokenCounter, YesNoEngine


@dataclass(frozen=True)
class MetricInputs:
    """One row as the judge metrics see it. ``reference`` is the golden answer."""

    question: str
    response: str
    contexts: tuple[str, ...] = ()
    reference: str = ""
    fact: str = ""


class NotScored(Exception):  # noqa: N818 - reads as the outcome it reports
    """Raised inside a metric when it cannot be computed; becomes a *not scored* result."""

    def __init__(self, reason: str, detail: Mapping[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = dict(detail or {})


@dataclass(frozen=True)
class MetricResult:
    """A judge metric's outcome for one row, with what the judge said on the way."""

    metric: str
    value: float | None
    status: ScoreStatus
    reason: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0

    @classmethod
    def scored(
        cls, metric: str, value: float, detail: Mapping[str, Any], judge: JudgeCall | None = None
    ) -> MetricResult:
        usage = judge.usage() if judge is not None else {}
        return cls(metric, float(value), ScoreStatus.SCORED, "", dict(detail), **usage)

    @classmethod
    def not_scored(
        cls, metric: str, reason: str, detail: Mapping[str, Any] | None = None, judge: JudgeCall | None = None
    ) -> MetricResult:
        usage = judge.usage() if judge is not None else {}
        return cls(metric, None, ScoreStatus.NOT_SCORED, reason, dict(detail or {}), **usage)

    def record(self, question_id: str, pipeline: str, signature: str) -> ScoreRecord:
        """The stored score of this result for one row, with the judge's usage in its detail."""
        usage = {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "seconds": round(self.seconds, 4),
        }
        return ScoreRecord(
            question_id=question_id,
            pipeline=pipeline,
            metric=self.metric,
            value=self.value,
            signature=signature,
            status=self.status,
            reason=self.reason,
            detail={**self.detail, "usage": usage},
        )


class JudgeCall:
    """One metric computation's access to the judge: builds prompts, counts usage.

    ``ask`` raises :class:`NotScored` when the reply has no usable data (truncated with the
    verdict incomplete, invalid JSON, cancelled, server error), carrying the raw text.
    """

    def __init__(
        self,
        engine: JudgeEngine,
        *,
        temperature: float = DEFAULT_TEMPERATURE,
        seed: int = DEFAULT_SEED,
        cancel: CancelCheck | None = None,
    ) -> None:
        self.engine = engine
        self.temperature = temperature
        self.seed = seed
        self.cancel = cancel
        self._calls = 0
        self._prompt_tokens = 0
        self._completion_tokens = 0
        self._seconds = 0.0
        self.replies: list[dict[str, Any]] = []

    def ask(
        self,
        instructions: str,
        examples: Sequence[tuple[str, str]],
        row: str,
        schema: Mapping[str, Any],
        *,
        max_tokens: int | None = None,
        step: str = "",
    ) -> dict[str, Any]:
        """Send static ``instructions`` and few-shot ``examples`` (user, assistant JSON) first,
        the row's data last; return the reply's data or raise :class:`NotScored`.
        ``max_tokens`` defaults to :func:`token_budget` of the schema.

        Empty ``instructions`` send no system turn at all."""
        messages: list[ChatMessage] = [{"role": "system", "content": instructions}] if instructions else []
        for user, assistant in examples:
            messages.append({"role": "user", "content": user})
            messages.append({"role": "assistant", "content": assistant})
        messages.append({"role": "user", "content": row})
        reply = self.engine.complete_json(
            messages,
            schema,
            max_tokens=max_tokens if max_tokens is not None else token_budget(schema),
            temperature=self.temperature,
            seed=self.seed,
            cancel=self.cancel,
        )
        self._record(reply, step)
        if reply.data is None:
            cause = reply.error or reply.finish_reason
            raise NotScored(
                f"judge output unusable at {step or 'a step'}: {cause}",
                {"step": step, "finish_reason": reply.finish_reason, "raw": reply.text[:500]},
            )
        return reply.data

    def ask_yes_no(self, system: str, user: str, *, step: str) -> dict[str, Any]:
        """A bare Yes/No answer to one system and one user turn (no JSON, no examples), for
        models trained on exactly that (Bespoke-MiniCheck): ``{"answer", "p_yes"}``.

        Raises :class:`NotScored` when the engine cannot answer so or the reply is unusable."""
        if not isinstance(self.engine, YesNoEngine):
            raise NotScored(f"the judge engine cannot give a bare Yes/No answer (at {step})", {"step": step})
        messages: list[ChatMessage] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        reply = self.engine.complete_yes_no(messages, seed=self.seed, cancel=self.cancel)
        self._record(reply, step)
        if reply.data is None:
            raise NotScored(
                f"judge output unusable at {step}: {reply.error or reply.finish_reason}",
                {"step": step, "finish_reason": reply.finish_reason, "raw": reply.text[:500]},
            )
        answer: dict[str, Any] = reply.data
        return answer

    def count_tokens(self, text: str) -> tuple[int, str]:
        """Tokens of ``text`` and how they were counted: by the judge's tokenizer when the
        engine has one, else estimated as one token per 3 characters (a server does not say;
        English averages about 4, so the estimate errs towards smaller chunks)."""
        if isinstance(self.engine, TokenCounter):
            return self.engine.count_tokens(text), "judge tokenizer"
        return -(-len(text) // 3), "estimate: 3 characters a token"

    def _record(self, reply: JudgeReply, step: str) -> None:
        self._calls += 1
        self._prompt_tokens += reply.prompt_tokens
        self._completion_tokens += reply.completion_tokens
        self._seconds += reply.seconds
        self.replies.append({"step": step, "finish_reason": reply.finish_reason, "error": reply.error})

    @property
    def cancelled(self) -> bool:
        """A reply stopped on the cancel token."""
        return any(reply["finish_reason"] == "cancelled" for reply in self.replies)

    @property
    def engine_error(self) -> str:
        """The last engine error among the replies ('' when the engine answered every call):
        a failure of the engine, not of the model's text."""
        errors = [reply["error"] for reply in self.replies if reply["finish_reason"] == "error"]
        return (str(errors[-1]) or "judge engine error") if errors else ""

    def usage(self) -> dict[str, Any]:
        return {
            "calls": self._calls,
            "prompt_tokens": self._prompt_tokens,
            "completion_tokens": self._completion_tokens,
            "seconds": self._seconds,
        }


class JudgeMetric(Protocol):
    """A judge (or embedding) metric. ``requires`` names the inputs it cannot do without:
    any of ``"question"``, ``"response"``, ``"contexts"``, ``"reference"``, ``"judge"``,
    ``"embeddings"``."""

    name: str
    version: str
    prompt_version: str
    requires: frozenset[str]

    def params(self) -> dict[str, Any]: ...

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult: ...


def missing_inputs(metric: JudgeMetric, inputs: MetricInputs) -> str:
    """Why ``inputs`` cannot be scored by ``metric`` ('' when they can)."""
    blanks = {
        "question": not inputs.question.strip(),
        "response": not inputs.response.strip(),
        "contexts": not any(c.strip() for c in inputs.contexts),
        "reference": not inputs.reference.strip(),
    }
    missing = sorted(name for name in metric.requires if blanks.get(name, False))
    return f"missing input: {', '.join(missing)}" if missing else ""


def judge_signature(
    metric: JudgeMetric,
    *,
    engine: JudgeEngine | None,
    embedder: EmbeddingEngine | None,
    temperature: float = DEFAULT_TEMPERATURE,
    seed: int = DEFAULT_SEED,
) -> Signature:
    """Metric name and version, parameters, prompt version, model names and SHA-256s,
    temperature and seed: what makes two runs comparable."""
    params: dict[str, Any] = {**metric.params(), "prompt_version": metric.prompt_version}
    if engine is not None and "judge" in metric.requires:
        params |= {
            "judge_model": engine.model_name,
            "judge_sha256": engine.model_sha256,
            "temperature": temperature,
            "seed": seed,
        }
    if embedder is not None and "embeddings" in metric.requires:
        params |= {"embedding_model": embedder.model_name, "embedding_sha256": embedder.model_sha256}
    return Signature(metric.name, metric.version, params)


# -- JSON schema helpers: verdict fields first, every string and array bounded ---------------


def text(max_length: int) -> dict[str, Any]:
    return {"type": "string", "maxLength": max_length}


def integer_enum(*values: int) -> dict[str, Any]:
    return {"type": "integer", "enum": list(values)}


def array(items: Mapping[str, Any], *, max_items: int, min_items: int = 0) -> dict[str, Any]:
    return {"type": "array", "items": dict(items), "minItems": min_items, "maxItems": max_items}


def obj(**properties: Mapping[str, Any]) -> dict[str, Any]:
    """An object whose properties are all required, in the given order (verdicts first)."""
    return {
        "type": "object",
        "properties": {k: dict(v) for k, v in properties.items()},
        "required": list(properties),
        "additionalProperties": False,
    }


# English text averages about four characters per token; three leaves room for numbers and
# names. A model that loops one character per token still hits max_tokens, and the reply is
# then recorded as not scored with that cause — never completed or guessed (a verdict field
# comes first, so a reply cut inside its reason still has its complete verdict).
_CHARS_PER_TOKEN = 3
_DEFAULT_ITEMS = 12


def token_budget(schema: Mapping[str, Any]) -> int:
    """``max_tokens`` that lets a reply reach every bound of ``schema`` (strings at their
    ``maxLength``, arrays at their ``maxItems``), plus JSON punctuation."""
    return _budget(schema) + 8


def _budget(schema: Mapping[str, Any]) -> int:
    kind = schema.get("type")
    if "enum" in schema:
        return max(len(json.dumps(v)) for v in schema["enum"]) // 2 + 2
    if kind == "string":
        return int(schema.get("maxLength", 200)) // _CHARS_PER_TOKEN + 3
    if kind == "array":
        return 2 + int(schema.get("maxItems", _DEFAULT_ITEMS)) * (_budget(schema["items"]) + 1)
    if kind == "object":
        props: Mapping[str, Mapping[str, Any]] = schema.get("properties", {})
        return 2 + sum(len(key) // 3 + 4 + _budget(value) for key, value in props.items())
    return 4

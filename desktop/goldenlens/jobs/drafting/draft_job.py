"""Draft golden items from source chunks with the judge, into the project's review queue.

Qt-free like every job: :func:`draft_chunks` takes a progress callback and a cancel token.
For each chunk the judge writes a question, a minimal fact and an ideal answer
(:mod:`goldenlens.judge.draft_prompt`); the reply is checked (:func:`~goldenlens.core.golden.drafts.
draft_problems`) and the fact's variants are proposed by the deterministic generator
(:func:`~goldenlens.core.variants.generator.suggest_variants`), not by the model. Each chunk's draft is
one commit with its judge-cache entry, so:

* a draft the model botched is saved with the reasons, never dropped or "fixed";
* a chunk is drafted once per model, prompt and settings: running the same sources again
  drafts only the new chunks (and answers from the judge cache what it can);
* a cancelled or killed run keeps its finished drafts; calling again with the same sources
  and options resumes the same run (the loop is :func:`~goldenlens.jobs.judging.run_driver.drive_run`'s);
* the project's writer lock is held for the whole run.

Drafts never enter the golden set here: :mod:`goldenlens.jobs.drafting.draft_review` accepts them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from goldenlens.core.golden.drafts import (
    DEFAULT_MAX_ANSWER_WORDS,
    DraftProblem,
    DraftText,
    ProblemCode,
    draft_problems,
)
from goldenlens.core.golden.source_chunks import SourceChunk
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.record_dicts import record_dict
from goldenlens.core.runs.run_kinds import DRAFT_RUN
from goldenlens.core.variants.generator import suggest_variants
from goldenlens.jobs.judging import run_driver
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.judge.draft_prompt import (
    DRAFT_SCHEMA,
    PROMPT_VERSION,
    draft_max_tokens,
    draft_messages,
    reply_fields,
)
from goldenlens.judge.engines.protocol import JudgeEngine, JudgeReply
from goldenlens.store.project import ProjectStore
from goldenlens.store.repositories.drafts import NewDraft
from goldenlens.store.values import RUN_CANCELLED, RUN_FINISHED

__all__ = ["DRAFT_RUN", "DraftOptions", "DraftRunError", "DraftRunResult", "draft_chunks"]

#: The judge-cache ``metric`` column of a drafting reply.
CACHE_METRIC = "draft"
_KEY_FORMAT = 1
#: Problems of a fact that make its respellings pointless.
_NO_VARIANTS = frozenset(
    {
        ProblemCode.EMPTY_FACT,
        ProblemCode.FACT_HAS_OPERATOR,
        ProblemCode.FACT_NOT_IN_CHUNK,
        ProblemCode.FACT_IS_ANSWER,
    }
)


class DraftRunError(run_driver.JudgeRunError):
    """The run stopped: the engine kept failing. Finished drafts are kept; run again later."""


@dataclass(frozen=True)
class DraftOptions:
    """What a drafting run uses: the judge (``engine``; its embedding model is not used) and
    the answer guardrail. ``limit`` drafts at most that many new chunks in this call (the
    rest stay for a later call)."""

    engine: JudgeEngineSpec = field(default_factory=JudgeEngineSpec)
    max_answer_words: int = DEFAULT_MAX_ANSWER_WORDS
    limit: int | None = None

    def __post_init__(self) -> None:
        if self.max_answer_words < 1:
            raise ValueError(f"the answer guardrail must be at least 1 word, got {self.max_answer_words}")
        if self.limit is not None and self.limit < 0:
            raise ValueError(f"the limit cannot be negative, got {self.limit}")

    def params(self) -> dict[str, Any]:
        """The run's parameters (JSON); ``limit`` is not one: it changes how far a call goes,
        not what a draft says."""
        return {
            **self.engine.judge_params(),
            "max_answer_words": self.max_answer_words,
            "prompt_version": PROMPT_VERSION,
        }


@dataclass(frozen=True)
class DraftRunResult:
    """What one call did: the run (``None`` when every chunk was drafted before, so no run
    was needed), the ids of the drafts it saved, how many chunks were drafted before
    (skipped) and how many are left beyond ``limit``."""

    run_id: int | None
    draft_ids: tuple[int, ...]
    already_drafted: int
    left: int


def _sha(payload: Mapping[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _reply_key(text: str, model_sha256: str, options: DraftOptions) -> str:
    """The judge-cache key of a chunk's reply: everything that changes what the model says."""
    return _sha(
        {
            "format": _KEY_FORMAT,
            "kind": CACHE_METRIC,
            "prompt_version": PROMPT_VERSION,
            "judge_sha256": model_sha256,
            "temperature": options.engine.temperature,
            "seed": options.engine.seed,
            "max_answer_words": options.max_answer_words,
            "text": text,
        }
    )


def draft_key(chunk: SourceChunk, model_sha256: str, options: DraftOptions) -> str:
    """A chunk's draft key: its reply key and its provenance (the same text in two documents
    makes two drafts, each with its own provenance)."""
    return _sha(
        {
            "reply": _reply_key(chunk.text, model_sha256, options),
            "document": chunk.document,
            "page": chunk.page,
            "chunk_id": chunk.chunk_id,
        }
    )


def _reply_from_cache(data: Mapping[str, Any]) -> JudgeReply | None:
    try:
        return JudgeReply(
            text=str(data["text"]),
            data=None if data["data"] is None else dict(data["data"]),
            finish_reason=data["finish_reason"],
            error=str(data.get("error", "")),
            prompt_tokens=int(data.get("prompt_tokens", 0)),
            completion_tokens=int(data.get("completion_tokens", 0)),
            seconds=float(data.get("seconds", 0.0)),
        )
    except (KeyError, TypeError, ValueError):
        return None  # written by another version: ask the model again


def build_draft(
    key: str,
    chunk: SourceChunk,
    reply: JudgeReply,
    engine: JudgeEngine,
    options: DraftOptions,
    *,
    cached: bool,
) -> NewDraft:
    """A chunk's draft from the judge's reply: the fields as written, the problems found, and
    the generator's variants of the fact (none for a fact that holds operators)."""
    fields, reply_error = reply_fields(reply)
    detail: dict[str, Any] = {
        "model": engine.model_name,
        "model_sha256": engine.model_sha256,
        "prompt_version": PROMPT_VERSION,
        "max_answer_words": options.max_answer_words,
        "reply": reply.text,
        "finish_reason": reply.finish_reason,
        "reply_error": reply_error,
        "completion_tokens": reply.completion_tokens,
        "cached": cached,
    }
    if fields is None:
        problem = DraftProblem(ProblemCode.NO_REPLY, f"the judge's reply could not be used: {reply_error}")
        return NewDraft(key, chunk, DraftText("", "", ""), (problem,), (), detail)
    text = DraftText(question=fields["question"], answer=fields["answer"], fact=fields["fact"])
    problems = draft_problems(text, chunk.text, max_answer_words=options.max_answer_words)
    variants: list[dict[str, Any]] = []
    fact = text.fact.strip()
    unfit = {p.code for p in problems} & _NO_VARIANTS
    if unfit:
        # Respellings of a fact that is not a minimal span of the chunk would only multiply
        # what the reviewer has to fix; an edited fact gets its variants on acceptance.
        detail["variant_notes"] = [
            "no variants proposed: the fact is flagged (" + ", ".join(sorted(unfit)) + ")"
        ]
    elif fact:
        suggestions = suggest_variants(fact)
        variants = [variant.as_dict() for variant in suggestions.variants]
        detail["variant_notes"] = list(suggestions.notes)
    return NewDraft(key, chunk, text, problems, variants, detail)


@takes_project
def draft_chunks(
    store: ProjectStore,
    chunks: Sequence[SourceChunk],
    options: DraftOptions,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    engine: JudgeEngine | None = None,
    max_engine_errors: int = run_driver.MAX_ENGINE_ERRORS,
) -> DraftRunResult:
    """Draft the chunks not drafted yet (at most ``options.limit``) into the review queue.

    ``engine`` lets the caller keep a model loaded; otherwise it is opened from ``options``
    and closed at the end. On cancel the finished drafts stay, the run is marked
    ``cancelled`` and :class:`Cancelled` is raised. After ``max_engine_errors`` consecutive
    chunks whose call failed in the engine the run is marked ``failed`` and
    :class:`DraftRunError` is raised (those chunks are not saved, so a later call retries).
    """
    ids = [(chunk.document, chunk.chunk_id) for chunk in chunks]
    if len(set(ids)) != len(ids):
        raise ValueError("two chunks have the same document and chunk id; chunk ids must be unique")
    call = run_driver.RunCall(store, progress, cancel, max_engine_errors=max_engine_errors)
    with call.lock(), run_driver.judge_engine(engine, options.engine) as judge:
        return _DraftRun(call, options, judge).run(chunks)


@dataclass(frozen=True)
class _Reply:
    """The judge's reply to a chunk, and whether it came from the judge cache."""

    reply: JudgeReply
    cached: bool

    @property
    def engine_error(self) -> str:
        if self.reply.finish_reason != "error":
            return ""
        return self.reply.error or "judge engine error"

    @property
    def cancelled(self) -> bool:
        return self.reply.finish_reason == "cancelled"


class _DraftRun:
    """One call of :func:`draft_chunks` and its :class:`~goldenlens.jobs.judging.run_driver.
    RunSteps` (the store is used from the calling thread only): a chunk whose engine failed
    is not saved, and the run goes on."""

    unit = "chunks"
    stop_advice = "Finished drafts are saved; run again when it works."
    stop_error: type[run_driver.JudgeRunError] = DraftRunError

    def __init__(self, call: run_driver.RunCall, options: DraftOptions, engine: JudgeEngine) -> None:
        self.call = call
        self.store = call.store
        self.options = options
        self.engine = engine
        self.saved: list[int] = []
        self.done = self.total = self.already = self.left = 0

    def run(self, chunks: Sequence[SourceChunk]) -> DraftRunResult:
        sha = self.engine.model_sha256
        keyed = [(draft_key(chunk, sha, self.options), chunk) for chunk in chunks]
        stored = self.store.drafts.keys()
        todo = [(key, chunk) for key, chunk in keyed if key not in stored]
        self.already = len(keyed) - len(todo)
        limit = len(todo) if self.options.limit is None else min(self.options.limit, len(todo))
        todo, self.left = todo[:limit], len(todo) - limit
        # The run's inputs are every chunk asked for, so the same sources resume the same run.
        run_id = run_driver.open_run(
            self.call,
            DRAFT_RUN,
            fingerprint=_sha({"drafts": sorted(key for key, _ in keyed)}),
            params=self.options.params(),
            total=len(keyed),
            start=bool(todo),  # nothing to draft: no run to record
        )
        if run_id is None:
            return DraftRunResult(None, (), self.already, self.left)
        self.total = len(todo)
        self._report()
        run_driver.drive_run(self.call, run_id, self, todo)
        return DraftRunResult(run_id, tuple(self.saved), self.already, self.left)

    def outcomes(
        self, todo: Sequence[tuple[str, SourceChunk]]
    ) -> Iterator[tuple[tuple[str, SourceChunk], _Reply]]:
        return run_driver.one_by_one(todo, lambda keyed: self._reply(keyed[1]), self.call.cancel)

    def take(self, run_id: int, item: tuple[str, SourceChunk], outcome: _Reply) -> None:
        """Save the chunk's draft, unless its engine failed (a later call retries it)."""
        self.done += 1
        if not outcome.engine_error:
            self._save(run_id, *item, outcome)
        self._report()

    def conclude(self) -> str:
        # A call stopped by ``limit`` leaves the run cancelled, so that the next call continues it.
        return RUN_FINISHED if self.left == 0 else RUN_CANCELLED

    def flush(self, run_id: int, *, keep_failed: bool) -> None:
        """Nothing waits: every draft is committed as it is made."""

    def _save(self, run_id: int, key: str, chunk: SourceChunk, outcome: _Reply) -> None:
        """The chunk's draft and its reply's cache entry: one commit."""
        reply, cached = outcome.reply, outcome.cached
        draft = build_draft(key, chunk, reply, self.engine, self.options, cached=cached)
        with self.store.atomic(f"save the draft of chunk {chunk.chunk_id!r}"):
            if not cached:
                self.store.cache.put(
                    _reply_key(chunk.text, self.engine.model_sha256, self.options),
                    metric=CACHE_METRIC,
                    model_sha256=self.engine.model_sha256,
                    prompt_version=PROMPT_VERSION,
                    output=record_dict(reply),
                )
            self.saved.extend(self.store.drafts.add(run_id, [draft]))

    def _reply(self, chunk: SourceChunk) -> _Reply:
        key = _reply_key(chunk.text, self.engine.model_sha256, self.options)
        found = self.store.cache.get(key)
        reply = None if found is None else _reply_from_cache(found)
        if reply is not None:
            return _Reply(reply, cached=True)
        words = self.options.max_answer_words
        reply = self.engine.complete_json(
            draft_messages(chunk.text, max_answer_words=words),
            DRAFT_SCHEMA,
            max_tokens=draft_max_tokens(words),
            temperature=self.options.engine.temperature,
            seed=self.options.engine.seed,
            cancel=self.call.cancel,
        )
        return _Reply(reply, cached=False)

    def _report(self) -> None:
        message = f"drafted {self.done}/{self.total} chunks"
        if self.already:
            message += f" ({self.already} drafted before)"
        self.call.progress(Progress("draft", self.done, self.total, message))

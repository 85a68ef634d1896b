"""The OpenAI-compatible judge engine.

Against a real ``python -m llama_cpp.server`` on 127.0.0.1 serving the default model, and
against scripted httpx transports for what a healthy local server cannot show (retries on 5xx,
a refused response format, the concurrency cap, cancelling a request in flight).
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the HTTP judge needs the [judge] extra")

from goldenlens.judge.engines.http import OpenAICompatibleEngine  # noqa: E402
from goldenlens.judge.engines.protocol import ChatMessage, JudgeEngineError, JudgeRequest  # noqa: E402
from goldenlens.judge.engines.schema_check import schema_errors  # noqa: E402

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdict": {"type": "integer", "enum": [0, 1]},
        "reason": {"type": "string", "maxLength": 80},
    },
    "required": ["verdict", "reason"],
}
MESSAGES: list[ChatMessage] = [
    {"role": "system", "content": "You check whether an answer is supported by a context. Reply with JSON."},
    {"role": "user", "content": "Context: Paris is the capital of France.\nAnswer: Paris is in France."},
]
SERVER_PACKAGES = (
    "llama_cpp",
    "fastapi",
    "uvicorn",
    "sse_starlette",
    "pydantic_settings",
    "starlette_context",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server_url(judge_model_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``python -m llama_cpp.server`` on the default model, on a free local port."""
    for package in SERVER_PACKAGES:
        pytest.importorskip(package, reason="llama.cpp's server needs the [judge-server] extra")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = tmp_path_factory.mktemp("llama-server") / "server.log"
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(judge_model_path),
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                pytest.fail(
                    f"llama_cpp.server exited with {server.returncode}:\n{log_path.read_text()[-3000:]}"
                )
            try:
                if httpx.get(f"{url}/v1/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not answer within 60 s:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture
def server_engine(server_url: str) -> Iterator[OpenAICompatibleEngine]:
    with OpenAICompatibleEngine(server_url) as engine:
        yield engine


def test_server_reply_is_schema_valid(server_engine: OpenAICompatibleEngine, judge_model_path: Path) -> None:
    reply = server_engine.complete_json(MESSAGES, SCHEMA, max_tokens=160)
    assert reply.finish_reason == "stop", reply
    assert reply.data is not None, reply
    assert schema_errors(reply.data, SCHEMA) == []
    assert reply.prompt_tokens > 0
    assert reply.completion_tokens > 0
    # llama-cpp-python's server takes the schema inside a json_object response format.
    assert server_engine.response_format_style == "json_object"
    # llama-cpp-python's server reports the model path as the model id.
    assert server_engine.model_name == str(judge_model_path)
    assert server_engine.model_sha256 == f"server:{judge_model_path}"


def test_parallel_requests_return_in_order(server_url: str) -> None:
    # Each request's schema allows a single value, so each reply shows which request it answers.
    requests = [
        JudgeRequest(
            MESSAGES,
            {"type": "object", "properties": {"n": {"type": "integer", "enum": [n]}}, "required": ["n"]},
            max_tokens=20,
        )
        for n in (4, 2, 3, 1)
    ]
    with OpenAICompatibleEngine(server_url, parallel=4) as engine:
        replies = engine.complete_many(requests)
    assert [reply.finish_reason for reply in replies] == ["stop"] * 4
    assert [reply.data for reply in replies] == [{"n": 4}, {"n": 2}, {"n": 3}, {"n": 1}]


def test_a_closed_port_fails_after_retries() -> None:
    port = _free_port()  # nothing listens there once the probe socket is closed
    with OpenAICompatibleEngine(f"http://127.0.0.1:{port}/v1", retries=2, backoff=0.01, timeout=2) as engine:
        started = time.monotonic()
        reply = engine.complete_json(MESSAGES, SCHEMA, max_tokens=20)
        assert time.monotonic() - started < 5
        assert reply.finish_reason == "error"
        assert reply.data is None
        assert f"POST http://127.0.0.1:{port}/v1/chat/completions failed after 3 attempts" in reply.error
        assert "ConnectError" in reply.error
        with pytest.raises(JudgeEngineError, match="cannot identify the judge model"):
            _ = engine.model_sha256


# --- scripted servers -------------------------------------------------------------------------


def _completion(content: str, finish: str = "stop") -> dict[str, Any]:
    return {
        "choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": finish}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 5},
    }


def test_5xx_and_429_are_retried() -> None:
    statuses = [503, 429, 200]
    seen: list[int] = []

    def handler(request: Any) -> Any:
        status = statuses[len(seen)]
        seen.append(status)
        if status != 200:
            return httpx.Response(status, text="busy", headers={"Retry-After": "0"})
        return httpx.Response(200, json=_completion('{"verdict": 1, "reason": "ok"}'))

    transport = httpx.MockTransport(handler)
    with OpenAICompatibleEngine("http://judge.test", backoff=0.01, transport=transport) as engine:
        reply = engine.complete_json(MESSAGES, SCHEMA, max_tokens=20)
    assert seen == [503, 429, 200]
    assert reply.data == {"verdict": 1, "reason": "ok"}
    assert (reply.prompt_tokens, reply.completion_tokens) == (11, 5)


# A server refuses a response format with HTTP 4xx, or, like llama-cpp-python's own server
# for the other style, with HTTP 500 and the validation message.
@pytest.mark.parametrize("status", [400, 422, 500])
def test_a_refused_response_format_falls_back_once_and_is_remembered(status: int) -> None:
    formats: list[str] = []

    def handler(request: Any) -> Any:
        body = json.loads(request.content)
        formats.append(body["response_format"]["type"])
        if body["response_format"]["type"] == "json_object":
            return httpx.Response(status, json={"error": "response_format.type must be json_schema"})
        assert body["response_format"]["json_schema"]["schema"] == SCHEMA
        assert body["model"] == "judge-7b"
        return httpx.Response(200, json=_completion('{"verdict": 0, "reason": "no"}', finish="stop"))

    transport = httpx.MockTransport(handler)
    with OpenAICompatibleEngine("http://judge.test", model="judge-7b", transport=transport) as engine:
        first = engine.complete_json(MESSAGES, SCHEMA, max_tokens=20)
        second = engine.complete_json(MESSAGES, SCHEMA, max_tokens=20)
        assert engine.response_format_style == "json_schema"
    assert first.data == second.data == {"verdict": 0, "reason": "no"}
    assert formats == ["json_object", "json_schema", "json_schema"]


def test_a_client_error_is_reported_not_retried() -> None:
    calls: list[int] = []

    def handler(request: Any) -> Any:
        calls.append(1)
        return httpx.Response(400, json={"error": "prompt is longer than the context"})

    transport = httpx.MockTransport(handler)
    with OpenAICompatibleEngine(
        "http://judge.test", transport=transport, response_format_style="json_object"
    ) as engine:
        reply = engine.complete_json(MESSAGES, SCHEMA, max_tokens=20)
    assert len(calls) == 1
    assert reply.finish_reason == "error"
    assert "HTTP 400" in reply.error
    assert "longer than the context" in reply.error


def test_at_most_parallel_requests_are_in_flight() -> None:
    in_flight = 0
    peak = 0

    async def handler(request: Any) -> Any:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.05)
        in_flight -= 1
        n = json.loads(request.content)["messages"][-1]["content"]
        return httpx.Response(200, json=_completion(f'{{"n": {n}}}'))

    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    requests = [JudgeRequest([{"role": "user", "content": str(n)}], schema, 10) for n in range(9)]
    with OpenAICompatibleEngine(
        "http://judge.test", parallel=3, transport=httpx.MockTransport(handler)
    ) as engine:
        replies = engine.complete_many(requests)
    assert peak == 3
    assert [reply.data for reply in replies] == [{"n": n} for n in range(9)]


def test_cancel_drops_requests_in_flight() -> None:
    async def handler(request: Any) -> Any:
        await asyncio.sleep(30)
        return httpx.Response(200, json=_completion("{}"))

    class Token:
        def __init__(self) -> None:
            self.event = threading.Event()

        @property
        def cancelled(self) -> bool:
            return self.event.is_set()

    token = Token()
    timer = threading.Timer(0.2, token.event.set)
    requests = [JudgeRequest(MESSAGES, SCHEMA, 20)] * 6
    with OpenAICompatibleEngine(
        "http://judge.test", parallel=2, transport=httpx.MockTransport(handler)
    ) as engine:
        timer.start()
        started = time.monotonic()
        replies = engine.complete_many(requests, cancel=token)
        elapsed = time.monotonic() - started
    timer.join()
    assert elapsed < 2
    assert [reply.finish_reason for reply in replies] == ["cancelled"] * 6


@pytest.mark.parametrize(
    ("top", "content", "p_yes", "answer"),
    [
        # MiniCheck's get_support_prob: the summed probability of the top tokens reading "yes".
        ([("Yes", 0.6), ("yes", 0.1), ("No", 0.25), (" YES", 0.05)], "Yes", 0.75, "Yes"),
        ([("No", 0.9), ("Yes", 0.1)], "No", 0.1, "No"),
        (None, "No", None, "No"),  # a server without logprobs: the bare answer alone
    ],
)
def test_yes_no_reads_p_yes_from_the_first_tokens_logprobs(
    top: list[tuple[str, float]] | None, content: str, p_yes: float | None, answer: str
) -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: Any) -> Any:
        bodies.append(json.loads(request.content))
        choice: dict[str, Any] = {
            "message": {"role": "assistant", "content": content},
            "finish_reason": "length",
        }
        if top is not None:
            entries = [{"token": t, "logprob": math.log(p)} for t, p in top]
            choice["logprobs"] = {"content": [{"token": content, "top_logprobs": entries}]}
        return httpx.Response(200, json={"choices": [choice]})

    with OpenAICompatibleEngine(
        "http://judge.test", model="m", transport=httpx.MockTransport(handler)
    ) as engine:
        reply = engine.complete_yes_no(MESSAGES)
    assert reply.data is not None
    assert reply.data["answer"] == answer
    if p_yes is None:
        assert reply.data["p_yes"] is None
    else:
        assert reply.data["p_yes"] == pytest.approx(p_yes)
    sent = bodies[0]
    assert (sent["max_tokens"], sent["temperature"], sent["logprobs"], sent["top_logprobs"]) == (
        1,
        0.0,
        True,
        5,
    )
    assert "response_format" not in sent  # a bare answer, not JSON

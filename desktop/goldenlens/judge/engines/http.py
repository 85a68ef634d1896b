"""The judge on an OpenAI-compatible server (llama.cpp's server, vLLM, ...), over httpx.

Requests run on one private asyncio loop in a background thread with one pooled
``httpx.AsyncClient``, so a batch runs up to ``parallel`` requests at once and a cancel drops
the requests in flight at once (the connection is closed) instead of waiting for the server.

The schema goes in ``response_format``. llama.cpp's servers take
``{"type": "json_object", "schema": ...}``; OpenAI and vLLM take
``{"type": "json_schema", "json_schema": {"name": ..., "schema": ...}}``. The engine tries the
first, falls back to the second when the server refuses the request, and keeps whichever a
server accepted. A server that accepts ``json_object`` but ignores its schema (vLLM, for one,
reads it as "any JSON") gives unbounded answers, which the schema check of every reply
catches: pass ``response_format_style="json_schema"`` for such servers.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import threading
import time
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, Literal, TypeVar

import httpx

from goldenlens.judge.engines.base import JudgeEngineBase
from goldenlens.judge.engines.http_retry import RequestFailedError, RetryPolicy, send_with_retries
from goldenlens.judge.engines.protocol import (
    CancelCheck,
    ChatMessage,
    JudgeEngineError,
    JudgeReply,
    JudgeRequest,
    make_reply,
)
from goldenlens.judge.engines.yes_no import TOP_TOKENS, support_probability, yes_no_reply

__all__ = ["OpenAICompatibleEngine", "ResponseFormatStyle"]

ResponseFormatStyle = Literal["json_object", "json_schema"]
_STYLES: tuple[ResponseFormatStyle, ...] = ("json_object", "json_schema")
_T = TypeVar("_T")


def _normalise_base_url(base_url: str) -> str:
    # Accept the server root or the OpenAI-style ".../v1" base.
    url = base_url.rstrip("/")
    return url.removesuffix("/v1")


def _response_format(style: ResponseFormatStyle, schema: Mapping[str, Any]) -> dict[str, Any]:
    if style == "json_object":
        return {"type": "json_object", "schema": dict(schema)}
    return {"type": "json_schema", "json_schema": {"name": "judge_reply", "schema": dict(schema)}}


class OpenAICompatibleEngine(JudgeEngineBase):
    """A :class:`~goldenlens.judge.engines.protocol.JudgeEngine` on ``POST {base_url}/v1/chat/completions``.

    Connection errors, timeouts, HTTP 429 and 5xx are retried ``retries`` times with
    exponential backoff (``backoff``, ``2 * backoff``, ...; a ``Retry-After`` header may ask
    for longer). ``model`` names the served model; without it the server must serve one model,
    which ``/v1/models`` names. ``extra_body`` adds server-specific fields to every request (for example
    ``{"cache_prompt": True}`` for llama.cpp's C++ server); ``response_format_style`` skips
    the detection. ``transport`` is for tests.
    """

    def __init__(
        self,
        base_url: str,
        *,
        model: str | None = None,
        api_key: str | None = None,
        timeout: float = 120.0,
        retries: int = 3,
        parallel: int = 4,
        backoff: float = 0.5,
        extra_body: Mapping[str, Any] | None = None,
        response_format_style: ResponseFormatStyle | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if parallel < 1 or retries < 0:
            raise ValueError("parallel must be at least 1 and retries at least 0")
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"the judge server URL must start with http:// or https://: {base_url!r}")
        self._base_url = _normalise_base_url(base_url)
        self._requested_model = model
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout
        self._policy = RetryPolicy(retries, backoff)
        self._parallel = parallel
        self._extra_body = dict(extra_body or {})
        self._style: ResponseFormatStyle | None = response_format_style
        self._transport = transport
        self._model_id: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: httpx.AsyncClient | None = None
        self._slots: asyncio.Semaphore | None = None
        super().__init__("goldenlens-http")

    # -- identity ----------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def model_name(self) -> str:
        """The model id the server reports (asked once from ``/v1/models``).

        Raises :class:`JudgeEngineError` when the server cannot be reached or serves several
        models and none was chosen.
        """
        if self._model_id is None:
            self._model_id = self._run(self._identify())
        return self._model_id

    @property
    def model_sha256(self) -> str:
        """``"server:" + model id``: a server does not expose its weights' hash."""
        return f"server:{self.model_name}"

    @property
    def response_format_style(self) -> ResponseFormatStyle | None:
        """The ``response_format`` style the server accepted (None until one call succeeded)."""
        return self._style

    # -- calls -------------------------------------------------------------------------------

    def _complete_one(self, request: JudgeRequest, cancel: CancelCheck | None) -> JudgeReply:
        """One schema-constrained call; failures come back in the reply, never raised."""
        return self.complete_many([request], cancel=cancel)[0]

    def complete_many(
        self, requests: Sequence[JudgeRequest], *, cancel: CancelCheck | None = None
    ) -> list[JudgeReply]:
        """Run the requests, up to ``parallel`` at a time; the replies keep the requests' order."""
        if not requests:
            return []
        return self._run(self._complete_all(requests, cancel))

    # -- the loop thread ---------------------------------------------------------------------

    def complete_yes_no(
        self, messages: Sequence[ChatMessage], *, seed: int = 42, cancel: CancelCheck | None = None
    ) -> JudgeReply:
        """One token, no response format, temperature 0, as MiniCheck runs; ``p_yes`` from the
        first token's ``top_logprobs`` when the server returns them (else the bare answer)."""
        return self._run(self._yes_no(list(messages), seed, cancel))

    def _closed_error(self) -> Exception:
        return JudgeEngineError(f"the judge engine for {self._base_url} is closed")

    def _run(self, coroutine: Coroutine[Any, Any, _T]) -> _T:
        with self._lock:
            if self._closed:
                coroutine.close()
                raise self._closed_error()
            if self._loop is None:
                self._start_loop()
            loop = self._loop
        assert loop is not None
        try:
            return asyncio.run_coroutine_threadsafe(coroutine, loop).result()
        except concurrent.futures.CancelledError as exc:
            raise JudgeEngineError(
                f"the judge engine for {self._base_url} was closed during the call"
            ) from exc

    def _start_loop(self) -> None:
        """Run the private loop on the owner thread (called under the lock, on first use)."""
        loop = asyncio.new_event_loop()
        ready = threading.Event()

        def serve() -> None:
            asyncio.set_event_loop(loop)
            self._client = httpx.AsyncClient(
                headers=self._headers,
                timeout=httpx.Timeout(self._timeout),
                transport=self._transport,
                limits=httpx.Limits(max_connections=self._parallel * 2),
            )
            self._slots = asyncio.Semaphore(self._parallel)
            ready.set()
            loop.run_forever()
            loop.close()

        self._owner.submit(serve)  # not _on_owner: that takes the lock held here
        ready.wait()
        self._loop = loop

    def _stop(self) -> None:
        # Close the connections, then let serve() return so the owner thread can stop.
        loop = self._loop
        if loop is not None:
            asyncio.run_coroutine_threadsafe(self._close_client(), loop).result()
            loop.call_soon_threadsafe(loop.stop)

    async def _close_client(self) -> None:
        # Calls still running in other threads end with CancelledError rather than hang.
        others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()

    # -- requests (in the loop thread) -------------------------------------------------------

    async def _identify(self) -> str:
        try:
            response = await self._send("GET", "/v1/models", None, None)
        except RequestFailedError as exc:
            if self._requested_model is not None and exc.status is not None:
                return self._requested_model  # a server without /v1/models
            raise JudgeEngineError(f"cannot identify the judge model: {exc}") from exc
        assert response is not None
        try:
            ids = [str(entry["id"]) for entry in response.json()["data"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise JudgeEngineError(f"unexpected /v1/models reply from {self._base_url}") from exc
        if self._requested_model is not None:
            if ids and self._requested_model not in ids:
                raise JudgeEngineError(
                    f"{self._base_url} does not serve {self._requested_model!r}; it serves {ids}"
                )
            return self._requested_model
        if len(ids) != 1:
            raise JudgeEngineError(
                f"{self._base_url} serves {len(ids)} models ({', '.join(ids)}): choose one with model="
            )
        return ids[0]

    async def _complete_all(
        self, requests: Sequence[JudgeRequest], cancel: CancelCheck | None
    ) -> list[JudgeReply]:
        return list(await asyncio.gather(*(self._complete_in_slot(r, cancel) for r in requests)))

    async def _complete_in_slot(self, request: JudgeRequest, cancel: CancelCheck | None) -> JudgeReply:
        assert self._slots is not None
        async with self._slots:
            if cancel is not None and cancel.cancelled:
                return make_reply("", "cancelled", request.schema)
            return await self._complete(request, cancel)

    def _body(self, request: JudgeRequest, style: ResponseFormatStyle) -> dict[str, Any]:
        body: dict[str, Any] = {
            **self._extra_body,
            "messages": [dict(message) for message in request.messages],
            "response_format": _response_format(style, request.schema),
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "seed": request.seed,
            "stream": False,
        }
        model = self._model_id or self._requested_model
        if model is not None:
            body["model"] = model
        return body

    async def _complete(self, request: JudgeRequest, cancel: CancelCheck | None) -> JudgeReply:
        started = time.perf_counter()
        styles = (self._style,) if self._style is not None else _STYLES
        rejected: list[str] = []
        for style in styles:
            try:
                response = await self._send(
                    "POST", "/v1/chat/completions", self._body(request, style), cancel
                )
            except RequestFailedError as exc:
                if exc.rejected and style != styles[-1]:
                    rejected.append(f"{style}: {exc}")
                    continue
                error = "; ".join([*rejected, str(exc)])
                return make_reply(
                    "", "error", request.schema, seconds=time.perf_counter() - started, error=error
                )
            if response is None:
                return make_reply("", "cancelled", request.schema, seconds=time.perf_counter() - started)
            self._style = style
            return self._reply(response, request, time.perf_counter() - started)
        raise AssertionError("unreachable: the last style returns")  # pragma: no cover

    def _reply(self, response: httpx.Response, request: JudgeRequest, seconds: float) -> JudgeReply:
        try:
            payload = response.json()
            choice = payload["choices"][0]
            text = choice["message"]["content"] or ""
            usage = payload.get("usage") or {}
            prompt_tokens = int(usage.get("prompt_tokens") or 0)
            completion_tokens = int(usage.get("completion_tokens") or 0)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            return make_reply(
                response.text[:500],
                "error",
                request.schema,
                seconds=seconds,
                error=f"unexpected chat completion reply from {self._base_url}: {exc!r}",
            )
        return make_reply(
            text,
            "length" if choice.get("finish_reason") == "length" else "stop",
            request.schema,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            seconds=seconds,
        )

    async def _yes_no(self, messages: list[ChatMessage], seed: int, cancel: CancelCheck | None) -> JudgeReply:
        started = time.perf_counter()
        body: dict[str, Any] = {
            **self._extra_body,
            "messages": [dict(message) for message in messages],
            "max_tokens": 1,
            "temperature": 0.0,
            "seed": seed,
            "logprobs": True,
            "top_logprobs": TOP_TOKENS,
            "stream": False,
        }
        if (model := self._model_id or self._requested_model) is not None:
            body["model"] = model
        assert self._slots is not None
        async with self._slots:
            try:
                response = await self._send("POST", "/v1/chat/completions", body, cancel)
            except RequestFailedError as exc:
                return yes_no_reply("", "error", None, seconds=time.perf_counter() - started, error=str(exc))
        if response is None:
            return yes_no_reply("", "cancelled", None, seconds=time.perf_counter() - started)
        try:
            choice = response.json()["choices"][0]
            text = str(choice["message"]["content"] or "")
            first = ((choice.get("logprobs") or {}).get("content") or [{}])[0]
            top = [(str(t["token"]), math.exp(float(t["logprob"]))) for t in first.get("top_logprobs") or []]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            return yes_no_reply(
                response.text[:500],
                "error",
                None,
                seconds=time.perf_counter() - started,
                error=f"unexpected chat completion reply from {self._base_url}: {exc!r}",
            )
        p_yes = support_probability(top) if top else None
        return yes_no_reply(text, "stop", p_yes, seconds=time.perf_counter() - started)

    async def _send(
        self, method: str, path: str, body: dict[str, Any] | None, cancel: CancelCheck | None
    ) -> httpx.Response | None:
        assert self._client is not None
        url = self._base_url + path
        return await send_with_retries(self._client, method, url, body, policy=self._policy, cancel=cancel)

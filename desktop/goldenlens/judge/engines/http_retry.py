"""One HTTP request with retries, backoff and cancel, for the judge's server engine.

Connection errors, timeouts, HTTP 429 and 5xx are retried with exponential backoff; a request
the server refuses (4xx) fails at once, since sending it again cannot help. A cancel abandons
the request in flight (its connection is closed) and any backoff sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from goldenlens.judge.engines.protocol import CancelCheck

__all__ = ["RequestFailedError", "RetryPolicy", "send_with_retries"]

_CANCEL_POLL_SECONDS = 0.02
_MAX_RETRY_AFTER_SECONDS = 30.0
_T = TypeVar("_T")


class RequestFailedError(Exception):
    """A request that failed for good: after its last retry, or refused by the server."""

    def __init__(self, message: str, status: int | None = None, *, rejected: bool = False) -> None:
        super().__init__(message)
        self.status = status
        # The server refused this request (HTTP 4xx, or a 5xx blaming the request's fields):
        # another request shape may work where retrying the same one cannot.
        self.rejected = rejected


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """``retries`` more attempts after the first, waiting ``backoff * 2**n`` seconds before each."""

    retries: int = 3
    backoff: float = 0.5


def _refuses_request(response: httpx.Response) -> bool:
    # llama-cpp-python's server answers a request it fails to validate with HTTP 500 and the
    # validation message, so a 5xx naming response_format is a refusal, not an outage.
    status = response.status_code
    return (400 <= status < 500 and status != 429) or (status >= 500 and "response_format" in response.text)


def _retry_after(response: httpx.Response) -> float:
    try:
        return min(float(response.headers.get("retry-after", "0")), _MAX_RETRY_AFTER_SECONDS)
    except ValueError:
        return 0.0


async def send_with_retries(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    body: dict[str, Any] | None,
    *,
    policy: RetryPolicy,
    cancel: CancelCheck | None,
) -> httpx.Response | None:
    """The successful response to a request, or None when ``cancel`` was set.

    Raises :class:`RequestFailedError` after the last retry, or at once when the server
    refuses the request.
    """
    attempts = policy.retries + 1
    last_problem = ""
    delay = 0.0
    for attempt in range(attempts):
        if attempt and await _sleep_unless_cancelled(delay, cancel):
            return None
        delay = policy.backoff * 2**attempt
        try:
            response = await _unless_cancelled(client.request(method, url, json=body), cancel)
        except httpx.TransportError as exc:
            last_problem = f"{type(exc).__name__}: {exc}"
            continue
        if response is None:
            return None
        if _refuses_request(response):
            raise RequestFailedError(
                f"{method} {url}: HTTP {response.status_code}: {response.text[:500]}",
                response.status_code,
                rejected=True,
            )
        if response.status_code == 429 or response.status_code >= 500:
            last_problem = f"HTTP {response.status_code}: {response.text[:300]}"
            delay = max(delay, _retry_after(response))
            continue
        return response
    raise RequestFailedError(f"{method} {url} failed after {attempts} attempts: {last_problem}")


async def _unless_cancelled(coroutine: Coroutine[Any, Any, _T], cancel: CancelCheck | None) -> _T | None:
    """Await ``coroutine``, or abandon it (None) as soon as ``cancel`` is set."""
    if cancel is None:
        return await coroutine
    task = asyncio.ensure_future(coroutine)
    while not task.done():
        if cancel.cancelled:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return None
        await asyncio.wait({task}, timeout=_CANCEL_POLL_SECONDS)
    return task.result()


async def _sleep_unless_cancelled(seconds: float, cancel: CancelCheck | None) -> bool:
    """Sleep; True when ``cancel`` was set before or during the sleep."""
    deadline = time.monotonic() + seconds
    while True:
        if cancel is not None and cancel.cancelled:
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        await asyncio.sleep(min(left, _CANCEL_POLL_SECONDS) if cancel is not None else left)

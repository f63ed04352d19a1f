"""FetchResult helpers: Retry-After, status errors, Content-Type parsing."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Awaitable, Callable

import pytest
from aiohttp import web

from insomnia_web.errors import ToolError
from insomnia_web.net import FetchResult, SafeClient
from insomnia_web.net.result import parse_content_type, parse_retry_after

from .conftest import SITE

Serve = Callable[[web.Application], Awaitable[int]]
MakeClient = Callable[..., SafeClient]


def result(status: int, headers: dict[str, str] | None = None) -> FetchResult:
    return FetchResult(
        url="https://a.example/",
        final_url="https://a.example/",
        status=status,
        headers=headers or {},
        content_type="",
        charset=None,
        body=b"",
        truncated=False,
        bytes_read=0,
        redirects=[],
        elapsed_s=0.0,
    )


def test_retry_after_seconds_and_date() -> None:
    """Retry-After is read from delta seconds or an HTTP date, clamped, None when unusable."""
    assert parse_retry_after("120") == 120.0
    now = time.time()
    later = email.utils.formatdate(now + 60, usegmt=True)
    assert parse_retry_after(later, now=now) == pytest.approx(60, abs=1)
    past = email.utils.formatdate(now - 60, usegmt=True)
    assert parse_retry_after(past, now=now) == 0.0
    assert parse_retry_after("99999999") == 86_400.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


def test_raise_for_status_codes() -> None:
    """429 raises rate_limited with retry_after_s; other errors raise http_error with the status."""
    result(200).raise_for_status()
    result(304).raise_for_status()
    with pytest.raises(ToolError) as limited:
        result(429, {"retry-after": "7"}).raise_for_status()
    assert limited.value.code == "rate_limited"
    assert limited.value.retry_after_s == 7.0
    with pytest.raises(ToolError) as missing:
        result(404).raise_for_status()
    assert missing.value.code == "http_error"
    assert missing.value.details == {"status": 404}
    assert not missing.value.retryable
    with pytest.raises(ToolError) as unavailable:
        result(503, {"retry-after": "30"}).raise_for_status()
    assert unavailable.value.retryable
    assert unavailable.value.retry_after_s == 30.0


def test_parse_content_type() -> None:
    """Content-Type splits into a bare lower-case media type and its charset."""
    assert parse_content_type('Text/HTML; Charset="UTF-8"; q=1') == ("text/html", "utf-8")
    assert parse_content_type("application/json") == ("application/json", None)
    assert parse_content_type(None) == ("", None)


@pytest.mark.asyncio
async def test_429_reports_retry_after_without_sleeping(
    serve_app: Serve, make_client: MakeClient
) -> None:
    """A 429 with a long Retry-After returns at once and reports the wait."""

    async def limited(request: web.Request) -> web.Response:
        return web.Response(status=429, headers={"Retry-After": "3600"}, text="slow down")

    app = web.Application()
    app.router.add_get("/", limited)
    port = await serve_app(app)
    started = time.monotonic()
    got = await make_client(port).fetch(f"http://{SITE}:{port}/")
    assert time.monotonic() - started < 5
    assert got.status == 429
    assert got.retry_after_s() == 3600.0
    with pytest.raises(ToolError) as info:
        got.raise_for_status()
    assert info.value.code == "rate_limited"
    assert info.value.retry_after_s == 3600.0


@pytest.mark.parametrize(("status", "wait"), [(500, "retry once later"), (503, "retry_after_s")])
def test_a_retryable_status_has_a_hint_that_says_to_retry(status: int, wait: str) -> None:
    """A 5xx http_error is retryable and its hint says so, where a 404's says to check the URL."""
    headers = {"retry-after": "30"} if status == 503 else {}
    with pytest.raises(ToolError) as failed:
        result(status, headers).raise_for_status()
    assert failed.value.retryable
    assert wait in failed.value.hint
    assert "check the URL" not in failed.value.hint
    with pytest.raises(ToolError) as missing:
        result(404).raise_for_status()
    assert "check the URL" in missing.value.hint

"""WebFetch under load: expensive pages and impatient hosts never break another call.

Every call ends in its own result (the page, or a typed error such as ``timeout``) and one
terminal history event; the only exception a caller sees is its own cancellation.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from insomnia_web.history import MemoryHistory, ToolResultEvent
from insomnia_web.runtime import Runtime, ToolResult

from .conftest import MakeRuntime, Site


def forum_page(target_chars: int) -> str:
    """A forum-like page of many small elements: about 1.5 s of extraction per MB."""
    parts = ["<html><head><title>Thread</title></head><body><main>"]
    size, n = 0, 0
    while size < target_chars:
        post = (
            f"<article class='post'><p>Reply {n} says <b>something</b> with "
            f"<a href='/t/{n}'>a link</a>.</p><ul><li>one</li><li>two {n}</li></ul></article>"
        )
        parts.append(post)
        size += len(post)
        n += 1
    parts.append("</main></body></html>")
    return "".join(parts)


def terminal_events(runtime: Runtime, call_id: str) -> list[ToolResultEvent]:
    assert isinstance(runtime.history, MemoryHistory)
    return [e for e in runtime.history.of_call(call_id) if isinstance(e, ToolResultEvent)]


def fetch_runtime(make_runtime: MakeRuntime, timeout_s: float) -> Runtime:
    # No per-host request rate: the calls here all go to one host at once.
    fetch = {"timeout_s": timeout_s, "host_rate_limit_per_s": 1000, "host_burst": 100}
    return make_runtime(fetch=fetch, cache={"enabled": False})


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_concurrent_expensive_pages_each_end_in_their_own_result(
    site: Site, make_runtime: MakeRuntime
) -> None:
    """Six costly pages at once, one-second deadline: each is a page or a retryable timeout."""
    page = forum_page(1_000_000)
    for i in range(6):
        site.set(f"/big/{i}", page)
    runtime = fetch_runtime(make_runtime, timeout_s=1)
    calls = [
        runtime.call_tool("WebFetch", {"url": site.url(f"/big/{i}")}, call_id=f"big{i}")
        for i in range(6)
    ]
    results = await asyncio.gather(*calls, return_exceptions=True)
    for i, result in enumerate(results):
        assert isinstance(result, ToolResult), result
        if not result.ok:
            assert result.error is not None
            assert (result.error.code, result.error.retryable) == ("timeout", True), result.text
        assert len(terminal_events(runtime, f"big{i}")) == 1


@pytest.mark.asyncio
@pytest.mark.timeout(60)
async def test_hammering_with_cancellations_lets_nothing_else_escape(
    site: Site, make_runtime: MakeRuntime
) -> None:
    """Forty calls, half cut short by the host: only the host's own timeouts are raised."""
    site.set("/big", forum_page(400_000))
    site.set("/small", "<html><title>Small</title><body><p>A small page.</p></body></html>")
    runtime = fetch_runtime(make_runtime, timeout_s=1)
    rng = random.Random(13)

    async def one(i: int) -> ToolResult:
        path = "/big" if i % 2 else "/small"
        call = runtime.call_tool("WebFetch", {"url": site.url(path)}, call_id=f"h{i}")
        if i % 4 < 2:
            async with asyncio.timeout(rng.uniform(0.01, 0.6)):
                return await call
        return await call

    results: list[Any] = await asyncio.gather(*(one(i) for i in range(40)), return_exceptions=True)
    for i, result in enumerate(results):
        ends = terminal_events(runtime, f"h{i}")
        assert len(ends) == 1, (i, ends)
        if isinstance(result, BaseException):
            assert type(result) is TimeoutError, (i, result)
            assert i % 4 < 2
            assert ends[0].error is not None
            assert ends[0].error.code == "cancelled"
        else:
            assert result.ok or (result.error and result.error.code == "timeout"), result.text
    small = [r for i, r in enumerate(results) if i % 4 == 2]
    assert all(isinstance(r, ToolResult) and r.ok for r in small)

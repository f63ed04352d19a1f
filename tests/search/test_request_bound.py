"""web.search.max_requests_per_runtime: one runtime's own bound on provider requests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from insomnia_web import (
    MockProvider,
    ProviderPlugin,
    Runtime,
    SearchHit,
    SearchRequest,
    parse_manifest,
)
from insomnia_web.cache.budget import plan_slot
from insomnia_web.errors import ManifestError, ToolError
from insomnia_web.net.result import FetchResult
from insomnia_web.search.http import ProviderHttp
from insomnia_web.search.ratelimit import TokenBucket
from insomnia_web.tools.request_bound import sent_nothing

from .conftest import manifest_data

KEY = "web.search.max_requests_per_runtime"


class Counting:
    """A provider handler that counts its calls and answers one hit, after *delay_s*."""

    def __init__(self, delay_s: float = 0.0) -> None:
        self.calls = 0
        self.delay_s = delay_s
        self.fail_first: ToolError | None = None

    async def __call__(self, request: SearchRequest) -> list[SearchHit]:
        self.calls += 1
        if self.fail_first is not None:
            error, self.fail_first = self.fail_first, None
            raise error
        await asyncio.sleep(self.delay_s)
        return [SearchHit(url=f"https://example.com/{request.query}", title=request.query)]


def counting_runtime(
    make_runtime: Callable[..., Runtime],
    handler: Counting,
    bound: int | None,
    **web: Any,
) -> Runtime:
    """A runtime in results mode over *handler*, with the bound *bound* (None: unset)."""
    search: dict[str, Any] = {"provider": "counting", "mode": "results"}
    if bound is not None:
        search["max_requests_per_runtime"] = bound
    provider = MockProvider.named("counting", handler)
    return make_runtime(manifest_data(search, **web), plugins=(ProviderPlugin(provider),))


@pytest.mark.asyncio
async def test_concurrent_searches_never_send_more_than_the_bound(
    make_runtime: Callable[..., Runtime],
) -> None:
    """Eight concurrent searches under a bound of three send exactly three requests; the
    other five are refused with quota_exceeded."""
    handler = Counting(delay_s=0.05)
    runtime = counting_runtime(make_runtime, handler, 3)
    results = await asyncio.gather(
        *(runtime.call_tool("WebSearch", {"query": f"q{i}"}) for i in range(8))
    )
    assert handler.calls == 3
    assert sum(r.ok for r in results) == 3
    assert [r.error.code for r in results if r.error is not None] == ["quota_exceeded"] * 5


@pytest.mark.asyncio
async def test_cache_hits_do_not_count(
    make_runtime: Callable[..., Runtime], tmp_path: Path
) -> None:
    """A search the cache answers spends none of the bound: with a bound of one, a repeated
    query is answered and the next new query is the one refused."""
    handler = Counting()
    cache = {"enabled": True, "path": str(tmp_path / "cache.sqlite3")}
    runtime = counting_runtime(make_runtime, handler, 1, cache=cache)
    first = await runtime.call_tool("WebSearch", {"query": "same"})
    again = await runtime.call_tool("WebSearch", {"query": "same"})
    other = await runtime.call_tool("WebSearch", {"query": "other"})
    assert first.ok, first.text
    assert again.ok, again.text
    assert again.output is not None
    assert again.output["cache"]["status"] == "hit"
    assert other.error is not None
    assert other.error.code == "quota_exceeded"
    assert handler.calls == 1


@pytest.mark.asyncio
@pytest.mark.parametrize("bound", [None, 0])
async def test_unset_or_zero_is_unbounded(
    make_runtime: Callable[..., Runtime], bound: int | None
) -> None:
    """Without the key, or with 0, every search reaches the provider."""
    handler = Counting()
    runtime = counting_runtime(make_runtime, handler, bound)
    for i in range(25):
        result = await runtime.call_tool("WebSearch", {"query": f"q{i}"})
        assert result.ok, result.text
    assert handler.calls == 25


@pytest.mark.asyncio
async def test_the_refusal_names_this_agents_bound_and_the_key(
    make_runtime: Callable[..., Runtime],
) -> None:
    """Past the bound: quota_exceeded, not retryable, a message about this agent's own bound
    (not the key's), a hint not to retry that points to what it has and WebFetch, and a
    remedy naming the manifest key."""
    runtime = counting_runtime(make_runtime, Counting(), 1)
    assert (await runtime.call_tool("WebSearch", {"query": "a"})).ok
    result = await runtime.call_tool("WebSearch", {"query": "b"})
    error = result.error
    assert error is not None
    assert error.code == "quota_exceeded"
    assert error.retryable is False
    assert "this agent's own" in error.message
    assert "monthly" not in error.message
    assert "1 provider request" in error.message
    assert "do not retry" in error.hint.lower()
    assert "WebFetch" in error.hint
    assert error.remedy is not None
    assert KEY in error.remedy
    assert error.details == {"key": KEY, "max_requests_per_runtime": 1}


@pytest.mark.asyncio
async def test_a_search_the_key_refuses_before_sending_does_not_count(
    make_runtime: Callable[..., Runtime],
) -> None:
    """A search the key's own limits refuse before sending anything (the local rate-limit
    queue) gives its count back: the next search is still within a bound of one."""
    handler = Counting()
    handler.fail_first = ToolError(
        "rate_limited", "queued past its deadline", details={"source": "local"}
    )
    runtime = counting_runtime(make_runtime, handler, 1)
    refused = await runtime.call_tool("WebSearch", {"query": "a"})
    assert refused.error is not None
    assert refused.error.code == "rate_limited"
    assert (await runtime.call_tool("WebSearch", {"query": "b"})).ok


@pytest.mark.asyncio
async def test_a_request_the_provider_answered_with_an_error_counts(
    make_runtime: Callable[..., Runtime],
) -> None:
    """A request that reached the provider counts even when it answered with an error (a
    429): a bound of one is then used up."""
    handler = Counting()
    handler.fail_first = ToolError(
        "rate_limited", "HTTP 429", details={"provider": "counting", "status": 429}
    )
    runtime = counting_runtime(make_runtime, handler, 1)
    assert (await runtime.call_tool("WebSearch", {"query": "a"})).error is not None
    result = await runtime.call_tool("WebSearch", {"query": "b"})
    assert result.error is not None
    assert result.error.code == "quota_exceeded"
    assert handler.calls == 1


@pytest.mark.asyncio
async def test_each_runtime_has_its_own_bound(make_runtime: Callable[..., Runtime]) -> None:
    """A runtime that used up its bound leaves another runtime's bound whole."""
    handler = Counting()
    spent = counting_runtime(make_runtime, handler, 1)
    fresh = counting_runtime(make_runtime, handler, 1)
    assert (await spent.call_tool("WebSearch", {"query": "a"})).ok
    assert (await spent.call_tool("WebSearch", {"query": "b"})).error is not None
    assert (await fresh.call_tool("WebSearch", {"query": "c"})).ok


def test_a_negative_bound_is_refused_naming_the_key() -> None:
    """A negative bound is a manifest error naming the key."""
    with pytest.raises(ManifestError) as caught:
        parse_manifest(manifest_data({"max_requests_per_runtime": -1}))
    assert KEY in str(caught.value)


def _answer(status: int) -> FetchResult:
    """A provider's answer with *status* and no body."""
    url = "https://api.example/search"
    return FetchResult(
        url=url,
        final_url=url,
        status=status,
        headers={},
        content_type="application/json",
        charset=None,
        body=b"",
        truncated=False,
        bytes_read=0,
        redirects=[],
        elapsed_s=0.0,
    )


def _raised(call: Callable[[], object]) -> ToolError:
    """The ToolError *call* raises."""
    with pytest.raises(ToolError) as caught:
        call()
    return caught.value


def test_the_keys_refusals_are_told_from_the_providers_answers() -> None:
    """The errors the key's limits raise before sending (the local queue, the monthly limit)
    count as nothing sent; a provider's 429 or 5xx answer was a request sent."""
    queue = _raised(lambda: TokenBucket(clock=lambda: 10.0).reserve(1.0, deadline=0.0))
    month = _raised(
        lambda: plan_slot(
            bucket="brave:abc",
            now=0.0,
            next_free=0.0,
            hold_until=0.0,
            last_interval_s=1.0,
            interval_s=1.0,
            max_wait_s=None,
            month_requests=5,
            monthly_limit=5,
        )
    )
    http = ProviderHttp(provider="brave", bucket=TokenBucket(), rate_limit_per_s=1.0)
    answered = [http._status_error(_answer(status))[0] for status in (429, 503)]
    assert [sent_nothing(e) for e in (queue, month)] == [True, True]
    assert [sent_nothing(e) for e in answered] == [False, False]

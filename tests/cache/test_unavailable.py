"""A cache database that is down: searches and fetches still run, uncached, and say so."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio

from insomnia_web import AutoApprovePrompter, Runtime, parse_manifest
from insomnia_web.search.base import SearchHit, SearchRequest
from insomnia_web.testing import MockProvider, ProviderPlugin

# Nothing listens on the discard port of loopback: connections are refused at once.
DOWN_URL = "postgresql://insomnia@127.0.0.1:9/insomnia"


def answer(request: SearchRequest) -> list[SearchHit]:
    """One result for any query."""
    return [SearchHit(title="Asyncio", url="https://docs.example/asyncio", snippet="asyncio")]


@pytest_asyncio.fixture
async def runtime() -> AsyncIterator[Callable[[dict[str, Any]], Runtime]]:
    """Runtimes whose cache is a PostgreSQL server that is down (closed after the test)."""
    made: list[Runtime] = []

    def build(cache: dict[str, Any]) -> Runtime:
        manifest = parse_manifest(
            {
                "web": {"search": {"provider": "mock", "mode": "results"}, "cache": cache},
                "permissions": {"allow": ["WebSearch", "SaveFinding"]},
            }
        )
        rt = Runtime(
            manifest,
            prompter=AutoApprovePrompter(),
            plugins=[ProviderPlugin(MockProvider.named("mock", answer), name="test-mock")],
            load_entrypoints=False,
        )
        made.append(rt)
        return rt

    yield build
    for rt in made:
        await rt.aclose()


@pytest.mark.asyncio
async def test_search_runs_uncached_and_the_header_says_so(
    runtime: Callable[[dict[str, Any]], Runtime],
) -> None:
    """With the database down, WebSearch answers from the provider; the first line says
    the cache was unavailable and one warning names it."""
    rt = runtime({"url": DOWN_URL, "timeout_s": 2})
    started = time.monotonic()
    result = await rt.call_tool("WebSearch", {"query": "python asyncio"})
    assert result.ok, result.text
    assert time.monotonic() - started < 2
    assert result.text.startswith("[cache: unavailable · mock]\n")
    assert result.output is not None
    assert result.output["cache"]["status"] == "unavailable"
    warnings = [w for w in result.output["warnings"] if w.startswith("cache_unavailable:")]
    assert len(warnings) == 1
    assert "127.0.0.1:9" in warnings[0]


@pytest.mark.asyncio
async def test_a_server_that_never_answers_costs_one_timeout(
    runtime: Callable[[dict[str, Any]], Runtime],
) -> None:
    """A server that accepts connections but never answers holds a search up for
    web.cache.timeout_s once, then the search goes on uncached."""

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # never answers; returns when the client gives up
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        rt = runtime({"url": f"postgresql://insomnia@127.0.0.1:{port}/x", "timeout_s": 0.5})
        started = time.monotonic()
        result = await rt.call_tool("WebSearch", {"query": "python asyncio"})
        elapsed = time.monotonic() - started
    finally:
        server.close()
    assert result.ok, result.text
    assert result.text.startswith("[cache: unavailable · mock]\n")
    assert 0.5 <= elapsed < 1.5


@pytest.mark.asyncio
async def test_save_finding_reports_cache_unavailable(
    runtime: Callable[[dict[str, Any]], Runtime],
) -> None:
    """SaveFinding cannot store without the database: a cache_unavailable error, at once."""
    rt = runtime({"url": DOWN_URL})
    result = await rt.call_tool(
        "SaveFinding", {"query": "asyncio timeout", "content": "asyncio.timeout() exists."}
    )
    assert not result.ok
    assert result.error is not None
    assert result.error.code == "cache_unavailable"


def test_password_in_the_url_is_refused() -> None:
    """A password written into web.cache.url is a manifest error naming password_env."""
    with pytest.raises(ValueError, match="password_env"):
        parse_manifest({"web": {"cache": {"url": "postgresql://u:sekrit@db/x"}}})
    with pytest.raises(ValueError, match="password_env"):
        parse_manifest({"web": {"cache": {"url": "postgresql://u@db/x?password=sekrit"}}})


@pytest.mark.parametrize(
    "query", ["passw%6Frd=sekrit", "%70assword=sekrit", "PassWord=sekrit", "a=1&sslpassw%6Frd=x"]
)
def test_a_password_parameter_in_any_spelling_is_refused(query: str) -> None:
    """A password parameter is refused however its name is percent-encoded or cased: the
    server's client library decodes the name, so it would log in with it while stats,
    doctor and errors showed it."""
    with pytest.raises(ValueError, match="password_env"):
        parse_manifest({"web": {"cache": {"url": f"postgresql://u@db/x?{query}"}}})


@pytest.mark.parametrize("limit", ["monthly_limit", "daily_limit"])
def test_a_request_limit_needs_the_cache(limit: str) -> None:
    """A monthly or daily limit with the cache disabled is a manifest error naming the key:
    nothing would count it."""
    with pytest.raises(ValueError, match=rf"web\.search\.brave\.{limit}: .*web\.cache\.enabled"):
        parse_manifest({"web": {"cache": {"enabled": False}, "search": {"brave": {limit: 10}}}})

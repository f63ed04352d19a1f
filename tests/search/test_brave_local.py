"""Brave against a local fake Brave server through the real SafeClient, and from the CLI."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from insomnia_web import Runtime
from insomnia_web.cli import main

from .conftest import BRAVE_KEY, manifest_data

Serve = Callable[[web.Application], Awaitable[str]]


class FakeBrave:
    """Records each request's query and headers; answers ``status`` (429 with Retry-After)."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str], dict[str, str]]] = []
        self.status = 200

    async def search(self, request: web.Request) -> web.Response:
        """The /res/v1/web/search endpoint."""
        self.requests.append((request.path, dict(request.query), dict(request.headers)))
        if self.status == 429:
            return web.json_response({"error": "limit"}, status=429, headers={"Retry-After": "3"})
        result = {"title": "<strong>Hi</strong>", "url": "https://hi.example/", "description": "x"}
        return web.json_response({"query": {"original": "hi"}, "web": {"results": [result]}})

    def app(self) -> web.Application:
        """The aiohttp application."""
        app = web.Application()
        app.router.add_get("/res/v1/web/search", self.search)
        return app


@pytest.fixture
def fake() -> FakeBrave:
    """A fresh fake Brave server."""
    return FakeBrave()


@pytest.fixture
def local_brave(
    make_runtime: Callable[..., Runtime],
    serve_app: Serve,
    fake: FakeBrave,
    monkeypatch: pytest.MonkeyPatch,
) -> Callable[..., Awaitable[Runtime]]:
    """Start the fake server and build a runtime whose brave base_url points at it (with
    more ``web.search.brave`` settings in *brave*, more ``web`` tables in *web*)."""
    monkeypatch.setenv("BRAVE_SEARCH_API_KEY", BRAVE_KEY)

    async def build(brave: dict[str, Any] | None = None, **web: Any) -> Runtime:
        origin = await serve_app(fake.app())
        settings: dict[str, Any] = {
            "provider": "brave",
            "mode": "results",
            "rate_limit_per_s": 1000,
            "brave": {"base_url": origin, **(brave or {})},
        }
        return make_runtime(manifest_data(settings, **web))

    return build


@pytest.mark.asyncio
async def test_local_server_receives_the_documented_request(
    local_brave: Callable[[], Awaitable[Runtime]], fake: FakeBrave
) -> None:
    """Over a real socket the server sees the path, the params and the key header."""
    runtime = await local_brave()
    result = await runtime.call_tool("WebSearch", {"query": "hi"})
    assert result.ok, result.text
    [(path, query, headers)] = fake.requests
    assert path == "/res/v1/web/search"
    assert query == {"q": "hi", "count": "5", "offset": "0", "safesearch": "moderate"}
    assert headers["X-Subscription-Token"] == BRAVE_KEY
    assert headers["Accept"] == "application/json"
    assert result.output is not None
    assert result.output["results"][0]["title"] == "Hi"


@pytest.mark.asyncio
async def test_local_server_429_retry_after_3_is_rate_limited_3(
    local_brave: Callable[[], Awaitable[Runtime]], fake: FakeBrave
) -> None:
    """429 with Retry-After: 3 from the server gives rate_limited with retry_after_s == 3."""
    fake.status = 429
    runtime = await local_brave()
    result = await runtime.call_tool("WebSearch", {"query": "hi"})
    assert result.error is not None
    assert result.error.code == "rate_limited"
    assert result.error.retry_after_s == 3
    assert "Retry after: 3 s" in result.text
    assert len(fake.requests) == 1


@pytest.mark.asyncio
async def test_a_daily_limit_refuses_the_next_search_without_sending_it(
    local_brave: Callable[..., Awaitable[Runtime]], fake: FakeBrave, tmp_path: Path
) -> None:
    """With web.search.brave.daily_limit = 2, the third search of the day is quota_exceeded
    and never reaches the server; the error tells the person to wait until tomorrow."""
    runtime = await local_brave({"daily_limit": 2}, cache={"path": str(tmp_path / "c.sqlite3")})
    for query in ("one", "two"):
        assert (await runtime.call_tool("WebSearch", {"query": query})).ok
    result = await runtime.call_tool("WebSearch", {"query": "three"})
    assert result.error is not None
    assert result.error.code == "quota_exceeded"
    assert result.error.remedy is not None
    assert result.error.remedy.startswith("Wait until tomorrow (UTC)")
    assert len(fake.requests) == 2


def test_cli_search_without_the_key_names_what_to_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`insomnia-web search hello` with brave selected and no key: not_configured, exit 1."""
    monkeypatch.delenv("BRAVE_SEARCH_API_KEY", raising=False)
    manifest = tmp_path / "insomnia.toml"
    manifest.write_text('[web.search]\nprovider = "brave"\n[web.cache]\nenabled = false\n')
    status = main(["--manifest", str(manifest), "search", "hello", "--yes"])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.out == ""
    assert "Error [not_configured]" in captured.err
    assert "BRAVE_SEARCH_API_KEY" in captured.err
    assert "web.search.brave.api_key_env" in captured.err
